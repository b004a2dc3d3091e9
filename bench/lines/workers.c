/* Two workers take lines from stdin under a mutex into buffers of their own (BUF bytes) and
 * measure them; a second mutex guards a count of the long lines, which stops at a cap. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef BUF
#define BUF 64
#endif

static pthread_mutex_t in_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
static int long_lines;

static void *worker(void *arg)
{
    char line[BUF];
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&in_lock);
        char *ok = fgets(line, sizeof line, stdin);
        pthread_mutex_unlock(&in_lock);
        if (!ok)
            break;
        if (strlen(line) > BUF / 2) {
            pthread_mutex_lock(&count_lock);
            if (long_lines < 3)
                long_lines++;
            pthread_mutex_unlock(&count_lock);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%d long lines (up to 3)\n", long_lines);
    return 0;
}
