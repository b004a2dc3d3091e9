// verdict: safe
// pthread_kill as glibc (2.34 and later) answers it: 0 for signal 0 sent to a running
// thread, to one that has ended and is not yet joined, and to the caller; EINVAL for the
// two signals NPTL keeps for itself (32, 33), and for a signal outside 0 to 64 sent to a
// thread that has not ended (the caller; to an ended thread glibc sends nothing and returns
// 0, and the model does not know which has ended). A signal ignored
// by default (SIGCHLD, SIGURG) changes nothing, sent by pthread_kill, raise or kill; a
// signal whose action the program set to SIG_IGN neither. sigaction refuses an action for
// SIGKILL with EINVAL.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int go;

void *waiter(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (!go)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return 0;
}

void *quick(void *arg) { return arg; }

int main(void) {
  pthread_t w, q;
  pthread_create(&w, 0, waiter, 0);
  pthread_create(&q, 0, quick, 0);
  assert(pthread_kill(w, 0) == 0);
  assert(pthread_kill(q, 0) == 0);
  assert(pthread_kill(pthread_self(), 0) == 0);
  assert(pthread_kill(pthread_self(), 65) == EINVAL);
  assert(pthread_kill(pthread_self(), -1) == EINVAL);
  assert(pthread_kill(w, 32) == EINVAL);
  assert(pthread_kill(w, 33) == EINVAL);
  assert(pthread_kill(w, SIGCHLD) == 0);
  assert(raise(SIGURG) == 0);
  assert(raise(65) == -1 && errno == EINVAL);
  assert(kill(0, 99) == -1 && errno == EINVAL);
  struct sigaction a = {0};
  a.sa_handler = SIG_IGN;
  assert(sigaction(SIGUSR1, &a, 0) == 0);
  assert(pthread_kill(w, SIGUSR1) == 0);
  assert(sigaction(SIGKILL, &a, 0) == -1 && errno == EINVAL);
  pthread_mutex_lock(&m);
  go = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(w, 0);
  pthread_join(q, 0);
  return 0;
}
