/* Builds a list of as many heap nodes as an input says, beside a thread that sets a flag
 * under a mutex, then walks it to its null end and checks the sum: for input 3 every
 * schedule fails. `synth verify bench/inputs/list_walk.c`. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int v; struct node *next; };
static struct node *head;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int seen;
static void *ticker(void *a) {
  pthread_mutex_lock(&m);
  seen = 1;
  pthread_mutex_unlock(&m);
  return a;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, ticker, NULL);
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    struct node *x = malloc(sizeof *x);
    if (!x) return 1;
    x->v = 1;
    x->next = head;
    head = x;
  }
  int sum = 0;
  for (struct node *q = head; q != NULL; q = q->next) sum += q->v;
  pthread_join(t, NULL);
  assert(sum != 3);
  return 0;
}
