/* Each worker records pthread_self() in its own slot and checks with pthread_equal that it
 * is not the main thread; after joining, main checks the recorded ids against the handles
 * pthread_create returned. Each slot has one writer, read only after the join. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 3

static pthread_t main_thread;
static pthread_t seen_self[NTHREADS];
static int not_main[NTHREADS];

static void *worker(void *arg)
{
    int id = *(const int *)arg;
    pthread_t me = pthread_self();

    seen_self[id] = me;
    not_main[id] = !pthread_equal(me, main_thread);
    assert(pthread_equal(me, pthread_self()));
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    int ids[NTHREADS];
    int matches = 0, distinct = 1;

    main_thread = pthread_self();
    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, worker, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    for (int i = 0; i < NTHREADS; i++) {
        assert(not_main[i]);
        if (pthread_equal(seen_self[i], threads[i]))
            matches++;
        for (int j = 0; j < i; j++)
            if (pthread_equal(threads[i], threads[j]))
                distinct = 0;
    }
    assert(matches == NTHREADS);
    assert(distinct);
    printf("matches=%d distinct=%d\n", matches, distinct);
    return 0;
}
