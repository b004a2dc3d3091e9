/* The file-system example of seed 002, Figs. 10-12 (an extract of the Frangipani file system
 * with a time-varying mutex, extended with a third thread and endless loops): every mutex is
 * removed and the synchronisation each thread needs is declared with assume statements, which
 * wait until their condition holds. synth is asked for a schedule under which every thread
 * keeps doing useful work; unconstrained, T3 can deallocate the block between T1's write and
 * T1's check, and T2 can then reset it. Expected: `partially safe`, with a first IVR in which
 * every thread writes, resets or deallocates the block. */
#include <assert.h>

extern void __VERIFIER_assume(int);
#include <pthread.h>

int inode = 0; /* the inode says the block is allocated */
int busy = 0;  /* the busy bit of the block */
int block = 0; /* the block's contents */

void *allocator(void *arg) { /* T1: allocates the block if needed, then writes it */
  while (1) {
    if (inode == 0) {
      busy = 1;
      inode = 1;
    }
    __VERIFIER_assume(inode == 1 && busy == 1); /* write only an allocated block */
    block = 1;
    assert(block == 1);
  }
  return 0;
}

void *resetter(void *arg) { /* T2' of Fig. 12: resets a block that is not busy */
  while (1) {
    __VERIFIER_assume(busy == 0);
    block = 0;
    assert(block == 0);
  }
  return 0;
}

void *deallocator(void *arg) { /* T3: deallocates a block that is fully (de)allocated */
  while (1) {
    __VERIFIER_assume(inode == busy);
    busy = 0;
    inode = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, allocator, 0);
  pthread_create(&t2, 0, resetter, 0);
  pthread_create(&t3, 0, deallocator, 0);
  pthread_join(t1, 0);
  return 0;
}
