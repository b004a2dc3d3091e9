/* Signal sets: glibc's bits, its refusal of signals out of range and of its internal ones
 * (32 and 33), which sigfillset leaves out. */
#include <errno.h>
#include <signal.h>

int results[12];

int main(void) {
  /* (Locals: the bits past signal 64 are glibc's business.) */
  sigset_t some, full;
  sigemptyset(&some);
  sigfillset(&full);
  results[0] = sigaddset(&some, SIGINT);
  results[1] = sigaddset(&some, 32);
  results[2] = errno;
  results[3] = sigaddset(&some, 64);
  results[4] = sigdelset(&full, SIGTERM);
  results[5] = sigismember(&some, SIGINT);
  results[6] = sigismember(&some, SIGTERM);
  results[7] = sigismember(&full, 32);
  results[8] = sigismember(&full, SIGTERM);
  results[9] = sigismember(&full, 65);
  results[10] = sigaddset(&some, 0);
  results[11] = sigismember(&some, 64);
  return 0;
}
