/* The counter of main.c, kept under a mutex. */
#include <pthread.h>
#include <assert.h>
#include "counter.h"
static int total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void counter_add(int k) { pthread_mutex_lock(&m); int t = total; total = t + k; pthread_mutex_unlock(&m); }
int counter_get(void) { pthread_mutex_lock(&m); int t = total; pthread_mutex_unlock(&m); assert(t <= 9); return t; }
