/* Bank transfers between accounts, each account guarded by its own mutex. Both locks of a
 * transfer are taken in index order, so no cycle of waits can form; the total balance is
 * conserved and asserted once all tellers are joined. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NACCOUNTS 3
#define NTELLERS 3
#define ROUNDS 3

struct account {
    pthread_mutex_t lock;
    long balance;
};

static struct account accounts[NACCOUNTS];

static void transfer(int from, int to, long amount)
{
    int first = from < to ? from : to;
    int second = from < to ? to : from;

    if (from == to)
        return;
    pthread_mutex_lock(&accounts[first].lock);
    pthread_mutex_lock(&accounts[second].lock);
    if (accounts[from].balance >= amount) {
        accounts[from].balance -= amount;
        accounts[to].balance += amount;
    }
    pthread_mutex_unlock(&accounts[second].lock);
    pthread_mutex_unlock(&accounts[first].lock);
}

static void *teller(void *arg)
{
    int id = *(int *)arg;

    for (int i = 0; i < ROUNDS; i++) {
        int from = (id + i) % NACCOUNTS;
        int to = (id + 2 * i + 1) % NACCOUNTS;
        transfer(from, to, 10 * (id + 1));
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NTELLERS];
    int ids[NTELLERS];
    long total = 0;

    for (int i = 0; i < NACCOUNTS; i++) {
        pthread_mutex_init(&accounts[i].lock, NULL);
        accounts[i].balance = 100;
    }
    for (int i = 0; i < NTELLERS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, teller, &ids[i]);
    }
    for (int i = 0; i < NTELLERS; i++)
        pthread_join(threads[i], NULL);

    for (int i = 0; i < NACCOUNTS; i++) {
        assert(accounts[i].balance >= 0);
        total += accounts[i].balance;
        pthread_mutex_destroy(&accounts[i].lock);
    }
    assert(total == 100 * NACCOUNTS);
    printf("total balance: %ld\n", total);
    return 0;
}
