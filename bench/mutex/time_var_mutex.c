/* The time-varying mutex of the file-system extract (seed 002, Fig. 10): the block is
 * protected by m_inode or m_busy depending on the busy bit. Expected: safe. */
#include <assert.h>
#include <pthread.h>

int inode = 0, busy = 0, block = 0;
pthread_mutex_t m_inode = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m_busy = PTHREAD_MUTEX_INITIALIZER;

void *allocator(void *arg) {
  pthread_mutex_lock(&m_inode);
  if (inode == 0) {
    pthread_mutex_lock(&m_busy);
    busy = 1;
    pthread_mutex_unlock(&m_busy);
    inode = 1;
  }
  block = 1;
  assert(block == 1);
  pthread_mutex_unlock(&m_inode);
  return 0;
}

void *deallocator(void *arg) {
  pthread_mutex_lock(&m_busy);
  if (busy == 0) {
    block = 0;
    assert(block == 0);
  }
  pthread_mutex_unlock(&m_busy);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, allocator, 0);
  pthread_create(&t2, 0, deallocator, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
