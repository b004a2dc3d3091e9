#include <assert.h>
#include <pthread.h>
int x = 0;
void *t1(void *arg) { int l = 3; l = l * 2; assert(0); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t1, 0); x = 1; return 0; }
