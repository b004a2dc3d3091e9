/* A worker writes a line to a log stream that main closes without waiting for it: natively
 * the write may come after the close (a use of a freed stream, C11 7.21.3p4). The schedule
 * synth builds lets the worker write first, so every run prints the line. */
#include <pthread.h>
#include <stdio.h>

static FILE *log_file;

static void *worker(void *arg)
{
    (void)arg;
    fputs("worker wrote\n", log_file);
    return NULL;
}

int main(void)
{
    log_file = fopen("/dev/stdout", "w");
    if (!log_file)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    fclose(log_file);
    pthread_join(t, NULL);
    return 0;
}
