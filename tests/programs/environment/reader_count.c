/* A thread reads lines into a buffer of its own and counts the non-empty ones (up to 3) in a
 * counter that main also takes the mutex of; main prints the count. Where the lines are
 * empty, the reader loops without a step main sees. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int lines;

static void *reader(void *arg)
{
    char line[16];
    (void)arg;
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = 0;
        if (len > 0) {
            pthread_mutex_lock(&lock);
            if (lines < 3)
                lines++;
            pthread_mutex_unlock(&lock);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    pthread_mutex_lock(&lock);
    lines += 0;
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    printf("%d lines\n", lines);
    return 0;
}
