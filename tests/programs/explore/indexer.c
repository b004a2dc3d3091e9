/* The "indexer" benchmark of Flanagan & Godefroid, "Dynamic partial-order reduction for model
 * checking software" (POPL 2005), in the C/pthread form used by Inspect (Yang, Chen, Gopalakrishnan,
 * Kirby; Table 1 of the Inspect paper): THREADS threads each insert MAX messages into a hash table
 * with open addressing. C has no compare-and-swap, so, as in Inspect, cas() is a function whose body
 * is protected by a mutex; there is one mutex per table slot, so that two CAS operations are
 * dependent exactly when they touch the same slot (as the atomic CAS of the original).
 *
 * Thread tid's messages are w = m*11 + tid (m = 1..MAX), hashed to (w*7) % SIZE. With up to 11
 * threads no two threads hash to the same slot (one execution up to partial-order equivalence);
 * from 12 threads on, thread tid and thread tid-11 collide in 3 slots each, so with 13, 14, 15, 16
 * threads there are 2^6, 2^9, 2^12, 2^15 = 64, 512, 4096, 32768 inequivalent executions (Inspect's
 * run counts). The program is safe: the assertion holds in every execution. */
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 13
#endif

#define SIZE 128
#define MAX 4

int table[SIZE];
pthread_mutex_t cas_mutex[SIZE];

/* If table[h] == old, set it to new and return 1; otherwise return 0. Atomic (under the slot's
 * mutex). */
int cas(int h, int old, int new) {
  int done = 0;
  pthread_mutex_lock(&cas_mutex[h]);
  if (table[h] == old) {
    table[h] = new;
    done = 1;
  }
  pthread_mutex_unlock(&cas_mutex[h]);
  return done;
}

void *indexer(void *arg) {
  int tid = (int)(long)arg;
  int m = 0;
  while (m < MAX) {
    m = m + 1;
    int w = m * 11 + tid; /* getmsg() */
    int h = (w * 7) % SIZE; /* hash(w) */
    while (cas(h, 0, w) == 0)
      h = (h + 1) % SIZE;
    /* A slot, once filled, is never changed again. */
    assert(table[h] == w);
  }
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  int i;
  for (i = 0; i < SIZE; i++)
    pthread_mutex_init(&cas_mutex[i], 0);
  for (i = 0; i < THREADS; i++)
    pthread_create(&t[i], 0, indexer, (void *)(long)i);
  for (i = 0; i < THREADS; i++)
    pthread_join(t[i], 0);
  return 0;
}
