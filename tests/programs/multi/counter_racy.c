/* The counter of main.c, without the mutex: two adds can interleave and lose one. */
#include <pthread.h>
#include <assert.h>
#include "counter.h"
static int total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void counter_add(int k) { int t = total; total = t + k; }
int counter_get(void) { pthread_mutex_lock(&m); int t = total; pthread_mutex_unlock(&m); assert(t <= 9); return t; }
