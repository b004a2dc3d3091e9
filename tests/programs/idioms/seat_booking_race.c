/* Ticket booking with a check-then-act race. Each agent thread checks
 * seats_left > 0 and then books, but the check and the decrement are not
 * under one lock (the lock only protects the booking log). If both agents
 * pass the check before either decrements, the last seat is sold twice:
 * seats_left becomes -1. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CAPACITY 1
#define NAGENTS 2

static int seats_left = CAPACITY;
static int booked[NAGENTS + 1];
static int nbooked;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static int try_book(int customer)
{
    if (seats_left <= 0)            /* check ... */
        return 0;
    pthread_mutex_lock(&log_lock);
    booked[nbooked++] = customer;
    pthread_mutex_unlock(&log_lock);
    seats_left--;                   /* ... then act, without holding a lock */
    return 1;
}

static void *agent(void *arg)
{
    int id = (int)(long)arg;
    if (try_book(100 + id))
        printf("agent %d sold a seat\n", id);
    else
        printf("agent %d: sold out\n", id);
    return NULL;
}

int main(void)
{
    pthread_t th[NAGENTS];
    for (long i = 0; i < NAGENTS; i++)
        pthread_create(&th[i], NULL, agent, (void *)i);
    for (int i = 0; i < NAGENTS; i++)
        pthread_join(th[i], NULL);
    assert(seats_left >= 0);
    assert(nbooked <= CAPACITY);
    printf("seats left %d, booked %d\n", seats_left, nbooked);
    return 0;
}
