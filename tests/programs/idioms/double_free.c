/* Two threads each "close" a shared connection with an unsynchronised check-then-act:
 * if (conn) { free(conn->buf); free(conn); conn = NULL; }. Both can see conn != NULL and both
 * free the same blocks: double free (plus a data race on conn). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct connection {
    int fd;
    char *buf;
};

static struct connection *conn;

static void close_connection(void)
{
    if (conn != NULL) { /* BUG: no lock between the check and the free */
        free(conn->buf);
        free(conn);
        conn = NULL;
    }
}

static void *closer(void *arg)
{
    (void)arg;
    close_connection();
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    conn = malloc(sizeof *conn);
    if (conn == NULL)
        return 1;
    conn->fd = 3;
    conn->buf = malloc(16);
    if (conn->buf == NULL)
        return 1;
    strcpy(conn->buf, "pending");

    pthread_create(&a, NULL, closer, NULL);
    pthread_create(&b, NULL, closer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    printf("closed\n");
    return 0;
}
