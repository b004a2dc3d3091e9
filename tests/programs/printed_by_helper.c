/* One helper prints every message: the handler's with a session's name, which a reaper
 * may free meanwhile, the others' with string constants. The helper's `printf` reads the
 * name from shared memory in one call and a constant in the others; the built program
 * must print the whole name or no session, and run the constants' calls as well. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
  int id;
  char user[16];
};

static struct session *current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *what) { printf("[%s]\n", what); }

static void *handler(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  struct session *s = current;
  pthread_mutex_unlock(&lock);
  if (!s) {
    say("gone");
    return NULL;
  }
  say(s->user);
  return NULL;
}

static void *reaper(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  struct session *dead = current;
  current = NULL;
  pthread_mutex_unlock(&lock);
  free(dead);
  say("reaped");
  return NULL;
}

int main(void) {
  current = malloc(sizeof *current);
  if (!current)
    return 1;
  current->id = 7;
  strcpy(current->user, "alice");
  say("start");
  pthread_t h, r;
  pthread_create(&h, NULL, handler, NULL);
  pthread_create(&r, NULL, reaper, NULL);
  pthread_join(h, NULL);
  pthread_join(r, NULL);
  return 0;
}
