/* Blocks of a length known only at run time copied, moved and filled in shared memory: each
 * thread fills its half of a shared buffer, copies a message into it and moves the message
 * one byte up (overlapping, so from its last byte down); main prints the buffer after the
 * joins. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char buf[2][32];
static const char *msgs[2] = { "left side", "right" };

static void *work(void *arg)
{
    int id = *(const int *)arg;
    size_t n = strlen(msgs[id]);

    memset(buf[id], '.', n + 4);
    buf[id][n + 4] = '\0';
    memcpy(buf[id], msgs[id], n);
    memmove(buf[id] + 1, buf[id], n);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    int ids[2] = { 0, 1 };

    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%s|%s\n", buf[0], buf[1]);
    return 0;
}
