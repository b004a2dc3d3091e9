/* scanf at its edges: a skipped number then one assigned (EOF where the input ends before
 * any assignment, even after the skipped one), `%5c` cut short by the end of the input (it
 * assigns what there is); a thread reads what was read. */
#include <pthread.h>
#include <stdio.h>

static char five[6] = "-----";
static int v = -7;
static int seen;

static void *reader(void *a)
{
    seen = v > 0 && v < 100 ? v : 0;
    return a;
}

int main(void)
{
    int r1 = scanf("%*d%d", &v);
    int r2 = scanf("%5c", five);
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    pthread_join(t, 0);
    printf("%d %d %d %d [%s]\n", r1, r2, v, seen, five);
    return 0;
}
