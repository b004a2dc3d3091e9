/* Main builds a growable int vector with realloc (capacity doubling) before starting any
 * thread; the threads only read it, each summing its own half into its own slot, and main
 * frees it after joining. No concurrent write ever happens. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 2
#define NITEMS 10

struct vec {
    int *data;
    size_t len, cap;
};

static struct vec v;
static long sums[NTHREADS];

static void vec_push(struct vec *vec, int x)
{
    if (vec->len == vec->cap) {
        size_t new_cap = vec->cap ? vec->cap * 2 : 1;
        int *p = realloc(vec->data, new_cap * sizeof *p);
        if (p == NULL) {
            perror("realloc");
            exit(1);
        }
        vec->data = p;
        vec->cap = new_cap;
    }
    vec->data[vec->len++] = x;
}

static void *sum_half(void *arg)
{
    int id = *(const int *)arg;
    size_t half = v.len / NTHREADS;
    size_t begin = id * half;
    size_t end = id == NTHREADS - 1 ? v.len : begin + half;
    long s = 0;

    for (size_t i = begin; i < end; i++)
        s += v.data[i];
    sums[id] = s;
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    int ids[NTHREADS];

    for (int i = 1; i <= NITEMS; i++)
        vec_push(&v, i * i);
    assert(v.len == NITEMS && v.cap == 16);

    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, sum_half, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    assert(sums[0] + sums[1] == 385);
    printf("len=%zu cap=%zu sums=%ld+%ld=%ld\n", v.len, v.cap, sums[0], sums[1],
           sums[0] + sums[1]);
    free(v.data);
    return 0;
}
