/* Two threads read lines of standard input (each fgets takes the stream's lock, so each
 * line goes to one of them whole) and count them in a shared counter under a mutex; main
 * prints the count. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned lines;

static void *reader(void *arg)
{
    char buf[8];
    (void)arg;
    while (fgets(buf, sizeof buf, stdin)) {
        pthread_mutex_lock(&lock);
        lines++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, reader, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%u lines\n", lines);
    return 0;
}
