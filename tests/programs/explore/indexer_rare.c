/* The indexer of indexer.c with 14 threads and a bug in one of its 512 collision orders: the
 * assertion in main fails only when threads 0, 1 and 2 lose all nine of their collisions
 * with threads 11, 12 and 13 (each of them then inserts only its one message that collides
 * with nobody at the first slot it tries). A search that skips part of the tree misses it:
 * the parallel search must find it as the sequential one does. */
#include <pthread.h>
#include <assert.h>

#define THREADS 14
#define SIZE 128
#define MAX 4

int table[SIZE];
int first_try[THREADS];
pthread_mutex_t cas_mutex[SIZE];

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
  int won = 0;
  while (m < MAX) {
    m = m + 1;
    int w = m * 11 + tid;
    int h = (w * 7) % SIZE;
    if (cas(h, 0, w))
      won = won + 1;
    else {
      h = (h + 1) % SIZE;
      while (cas(h, 0, w) == 0)
        h = (h + 1) % SIZE;
    }
  }
  first_try[tid] = won;
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
  assert(!(first_try[0] == 1 && first_try[1] == 1 && first_try[2] == 1));
  return 0;
}
