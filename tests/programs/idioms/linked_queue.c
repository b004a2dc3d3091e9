/* Producer/consumer over a malloc'd singly linked FIFO guarded by a mutex and a condition
 * variable (waited on in a while loop). The consumer unlinks each node under the lock and
 * frees it after use; nobody else can still reach it. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 5

struct node {
    int v;
    struct node *next;
};

static struct node *head, *tail;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int consumed_sum;

static void enqueue(int v)
{
    struct node *n = malloc(sizeof *n);

    if (n == NULL)
        abort();
    n->v = v;
    n->next = NULL;
    pthread_mutex_lock(&qlock);
    if (tail)
        tail->next = n;
    else
        head = n;
    tail = n;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&qlock);
}

static int dequeue(void)
{
    struct node *n;
    int v;

    pthread_mutex_lock(&qlock);
    while (head == NULL)
        pthread_cond_wait(&nonempty, &qlock);
    n = head;
    head = n->next;
    if (head == NULL)
        tail = NULL;
    pthread_mutex_unlock(&qlock);

    v = n->v;
    free(n);
    return v;
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= N; i++)
        enqueue(i);
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= N; i++) {
        int v = dequeue();
        assert(v == i); /* FIFO, single producer */
        consumed_sum += v;
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c;

    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);

    assert(head == NULL && tail == NULL);
    assert(consumed_sum == N * (N + 1) / 2);
    printf("consumed %d items, sum %d\n", N, consumed_sum);
    return 0;
}
