/* Two tellers transfer between the same two accounts in opposite directions, and transfer()
 * locks the source account first, then the destination. Teller A can hold account 0 while
 * teller B holds account 1, each waiting for the other: deadlock. No assertion can fail. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct account {
    pthread_mutex_t lock;
    long balance;
};

static struct account accounts[2];

static void transfer(struct account *from, struct account *to, long amount)
{
    pthread_mutex_lock(&from->lock);
    pthread_mutex_lock(&to->lock); /* BUG: lock order depends on argument order */
    if (from->balance >= amount) {
        from->balance -= amount;
        to->balance += amount;
    }
    pthread_mutex_unlock(&to->lock);
    pthread_mutex_unlock(&from->lock);
}

static void *pay_0_to_1(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        transfer(&accounts[0], &accounts[1], 10);
    return NULL;
}

static void *pay_1_to_0(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        transfer(&accounts[1], &accounts[0], 20);
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    for (int i = 0; i < 2; i++) {
        pthread_mutex_init(&accounts[i].lock, NULL);
        accounts[i].balance = 100;
    }
    pthread_create(&a, NULL, pay_0_to_1, NULL);
    pthread_create(&b, NULL, pay_1_to_0, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    assert(accounts[0].balance + accounts[1].balance == 200);
    printf("balances: %ld %ld\n", accounts[0].balance, accounts[1].balance);
    return 0;
}
