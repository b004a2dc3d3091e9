/* The parity of the length of the first line of the input decides which counter `main`
 * updates beside a worker that reads both: the branches on the bytes `strlen` reads lead to
 * different futures, so the built program reports them. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int odd, even, ticks;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg)
{
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        ticks += 1 + (odd > 1) + (even > 1);
        pthread_mutex_unlock(&m);
    }
    return arg;
}

int main(void)
{
    char line[6];
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    if (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        pthread_mutex_lock(&m);
        if (n & 1)
            odd++;
        else
            even++;
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, 0);
    printf("%d %d %d\n", odd, even, ticks);
    return 0;
}
