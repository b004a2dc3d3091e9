/* Stack (the classic SV-COMP pthread "stack" benchmark, written from its description), the
 * correct version: one thread pushes SIZE input values, the other pops SIZE times, both under
 * one mutex. The popper waits (releasing the mutex) until the stack holds an item, so neither
 * overflow nor underflow is reachable. Impara: 38.8 s. */
#include <pthread.h>

extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

#define SIZE 5
#define OVERFLOW (-1)
#define UNDERFLOW (-2)

int top = 0;
unsigned int arr[SIZE];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int push(unsigned int x) {
  if (top == SIZE)
    return OVERFLOW;
  arr[top] = x;
  top = top + 1;
  return 0;
}

int pop(void) {
  if (top == 0)
    return UNDERFLOW;
  top = top - 1;
  return arr[top];
}

void *pusher(void *arg) {
  for (int i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    unsigned int v = __VERIFIER_nondet_uint() % SIZE;
    if (push(v) == OVERFLOW)
      reach_error();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *popper(void *arg) {
  for (int i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    while (top == 0) {
      pthread_mutex_unlock(&m);
      pthread_mutex_lock(&m);
    }
    if (pop() == UNDERFLOW)
      reach_error();
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, pusher, 0);
  pthread_create(&b, 0, popper, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
