/* Settings read with scanf (literal text, a skipped number, a word of at most 7 bytes, a
 * character, a hexadecimal number, in two calls), then two threads add the count they were
 * given into a shared sum under a mutex; main prints what it read and the sum. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;
static long sum;
static char word[8];

static void *adder(void *arg)
{
    pthread_mutex_lock(&lock);
    sum += count;
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void)
{
    int n = 0, hex = 0;
    char c = '?';
    int first = scanf("n=%d %*d", &n);
    int second = scanf(" %7s %c %x", word, &c, &hex);
    if (first != 1 || n < 0 || n > 3)
        n = 1;
    count = n;
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], 0, adder, 0);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], 0);
    if (second < 1)
        word[0] = 0;
    if (second < 2)
        c = '?';
    if (second < 3)
        hex = 0;
    printf("%d %d|%d %s %c %x|%ld\n", first, second, n, word, c, (unsigned)hex, sum);
    return 0;
}
