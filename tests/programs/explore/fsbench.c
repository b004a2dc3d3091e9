/* The "file system" benchmark of Flanagan & Godefroid, "Dynamic partial-order reduction for model
 * checking software" (POPL 2005), an abstraction of the synchronisation idiom of the Frangipani
 * file system, in the C/pthread form used by Inspect (Table 1 of the Inspect paper). Each thread
 * allocates a block for inode tid % NUMINODE, under one mutex per inode and one per block.
 *
 * Thread i starts searching at block (2*i) % NUMBLOCKS. With up to 13 threads the start blocks
 * 0, 2, ..., 24 are all different and free (one execution up to partial-order equivalence); thread
 * 13+k starts at block 2k, where thread k starts, so with 16, 18, ..., 26 threads there are
 * 2^3, 2^5, ..., 2^13 = 8, 32, 128, 512, 2048, 8192 inequivalent executions (Inspect's run
 * counts). The program is safe: the assertion holds in every execution. */
#include <pthread.h>
#include <assert.h>

#ifndef THREADS
#define THREADS 16
#endif

#define NUMBLOCKS 26
#define NUMINODE 32

int inode[NUMINODE];
int busy[NUMBLOCKS];
pthread_mutex_t locki[NUMINODE];
pthread_mutex_t lockb[NUMBLOCKS];

void *fs(void *arg) {
  int tid = (int)(long)arg;
  int i = tid % NUMINODE;
  int b;
  pthread_mutex_lock(&locki[i]);
  if (inode[i] == 0) {
    b = (i * 2) % NUMBLOCKS;
    while (1) {
      pthread_mutex_lock(&lockb[b]);
      if (!busy[b]) {
        busy[b] = 1;
        inode[i] = b + 1;
        pthread_mutex_unlock(&lockb[b]);
        break;
      }
      pthread_mutex_unlock(&lockb[b]);
      b = (b + 1) % NUMBLOCKS;
    }
  }
  assert(inode[i] != 0);
  pthread_mutex_unlock(&locki[i]);
  return 0;
}

int main(void) {
  pthread_t t[THREADS];
  int i;
  for (i = 0; i < NUMINODE; i++)
    pthread_mutex_init(&locki[i], 0);
  for (i = 0; i < NUMBLOCKS; i++)
    pthread_mutex_init(&lockb[i], 0);
  for (i = 0; i < THREADS; i++)
    pthread_create(&t[i], 0, fs, (void *)(long)i);
  for (i = 0; i < THREADS; i++)
    pthread_join(t[i], 0);
  return 0;
}
