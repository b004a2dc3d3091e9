/* A user profile with string fields protected by a pthread_rwlock. One
 * writer renames the user a few times (strcpy + snprintf of a display
 * name); two readers take read locks and check the invariant that the
 * display name is always "<first> <last>" with a consistent length. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef ROUNDS
#define ROUNDS 3
#endif

struct profile {
    char first[16];
    char last[16];
    char display[40];
    size_t display_len;
    int version;
};

static struct profile prof;
static pthread_rwlock_t prof_lock = PTHREAD_RWLOCK_INITIALIZER;

static const char *firsts[] = { "Ada", "Grace", "Linus" };
static const char *lasts[] = { "Lovelace", "Hopper", "Torvalds" };

static void set_name(const char *f, const char *l)
{
    pthread_rwlock_wrlock(&prof_lock);
    strcpy(prof.first, f);
    strcpy(prof.last, l);
    int n = snprintf(prof.display, sizeof(prof.display), "%s %s", prof.first, prof.last);
    prof.display_len = (size_t)n;
    prof.version++;
    pthread_rwlock_unlock(&prof_lock);
}

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++)
        set_name(firsts[i], lasts[i]);
    return NULL;
}

static void *reader(void *arg)
{
    int *seen_max = arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_rwlock_rdlock(&prof_lock);
        size_t fl = strlen(prof.first), ll = strlen(prof.last);
        assert(strlen(prof.display) == prof.display_len);
        assert(prof.display_len == fl + 1 + ll);
        assert(strncmp(prof.display, prof.first, fl) == 0);
        if (prof.version > *seen_max)
            *seen_max = prof.version;
        pthread_rwlock_unlock(&prof_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t w, r[2];
    int seen[2] = { 0, 0 };

    set_name("Nobody", "Yet");
    pthread_create(&r[0], NULL, reader, &seen[0]);
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r[1], NULL, reader, &seen[1]);
    pthread_join(w, NULL);
    pthread_join(r[0], NULL);
    pthread_join(r[1], NULL);

    assert(prof.version == ROUNDS + 1);
    assert(strcmp(prof.display, ROUNDS == 3 ? "Linus Torvalds" : prof.display) == 0);
    assert(seen[0] >= 1 && seen[0] <= 4 && seen[1] >= 1 && seen[1] <= 4);
    printf("final: %s (v%d)\n", prof.display, prof.version);
    return 0;
}
