/* Figure 1 of Musuvathi & Qadeer, "Fair stateless model checking" (PLDI 2008): two philosophers
 * take two forks in opposite orders; each takes its first fork, tries the second without blocking
 * and, if that fails, puts the first back and retries. The retry loops make the state space cyclic,
 * and the program has a fair livelock: repeating Phil1 lock(fork1), Phil2 lock(fork2),
 * Phil1 trylock(fork2) fails, Phil2 trylock(fork1) fails, Phil1 unlock(fork1), Phil2 unlock(fork2)
 * forever schedules both threads infinitely often and neither ever eats. There is no yield in the
 * retry loops. No deadlock and no assertion failure is possible. */
#include <pthread.h>

pthread_mutex_t fork1, fork2;

void *phil1(void *arg) {
  while (1) {
    pthread_mutex_lock(&fork1);
    if (pthread_mutex_trylock(&fork2) == 0)
      break;
    pthread_mutex_unlock(&fork1);
  }
  /* eat */
  pthread_mutex_unlock(&fork1);
  pthread_mutex_unlock(&fork2);
  return 0;
}

void *phil2(void *arg) {
  while (1) {
    pthread_mutex_lock(&fork2);
    if (pthread_mutex_trylock(&fork1) == 0)
      break;
    pthread_mutex_unlock(&fork2);
  }
  /* eat */
  pthread_mutex_unlock(&fork2);
  pthread_mutex_unlock(&fork1);
  return 0;
}

int main(void) {
  pthread_t p1, p2;
  pthread_mutex_init(&fork1, 0);
  pthread_mutex_init(&fork2, 0);
  pthread_create(&p1, 0, phil1, 0);
  pthread_create(&p2, 0, phil2, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  return 0;
}
