/* An allocation wrapper (`xmalloc`: malloc or exit) returns an int array whose length main
 * reads from its arguments (32 without one); two threads each sum their half into a
 * mutex-protected total, and main checks it after joining. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *xmalloc(size_t s)
{
    void *p;
    if ((p = malloc(s)) == NULL) {
        perror("malloc");
        exit(1);
    }
    return p;
}

static int *elems;
static int n;
static long sum;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    int half = *(int *)arg;
    long local = 0;
    for (int i = half * (n / 2); i < (half + 1) * (n / 2); i++)
        local += elems[i];
    pthread_mutex_lock(&m);
    sum += local;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atoi(argv[1]) : 32;
    if (n < 2 || n > 48)
        return 1;
    elems = xmalloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        elems[i] = i;
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, worker, &ids[k]);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    assert(sum == (long)(n / 2 * 2) * (n / 2 * 2 - 1) / 2);
    printf("%ld\n", sum);
    free(elems);
    return 0;
}
