/* Two tellers move one unit between two accounts and back, a million rounds each, under one
 * mutex; inside every round the total is 200. The rounds are a counted loop whose counter
 * decides nothing the property depends on (only how long the program runs). Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#ifndef ROUNDS
#define ROUNDS 1000000
#endif

struct accounts {
    int checking;
    int savings;
};

static struct accounts acc = {100, 100};
static pthread_mutex_t acc_lock = PTHREAD_MUTEX_INITIALIZER;

static void *teller(void *arg)
{
    int amount = *(const int *)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&acc_lock);
        acc.checking -= amount;
        acc.savings += amount;
        assert(acc.checking + acc.savings == 200);
        acc.savings -= amount;
        acc.checking += amount;
        pthread_mutex_unlock(&acc_lock);
    }
    return NULL;
}

int main(void)
{
    static const int amounts[2] = {1, 5};
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], NULL, teller, (void *)&amounts[k]);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    printf("checking=%d savings=%d\n", acc.checking, acc.savings);
    return 0;
}
