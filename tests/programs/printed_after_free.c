/* A handler finds the current session under a lock and prints its user's name after
 * releasing the lock, while a reaper unlinks and frees the session: the print may read
 * freed memory. Under a safe schedule the handler prints the whole name or finds no
 * session, never freed bytes. Each output function reads the name in its own way. */
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

static void *handler(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  struct session *s = current;
  pthread_mutex_unlock(&lock);
  if (!s) {
    puts("gone");
    return NULL;
  }
  printf("request %d for %s\n", s->id, s->user);
  printf("%.*s|%.3s\n", 2, s->user, s->user);
  fputs(s->user, stdout);
  putchar('\n');
  fwrite(s->user, 1, 5, stdout);
  putchar('\n');
  return NULL;
}

static void *reaper(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  struct session *dead = current;
  current = NULL;
  pthread_mutex_unlock(&lock);
  free(dead);
  return NULL;
}

int main(void) {
  current = malloc(sizeof *current);
  if (!current)
    return 1;
  current->id = 7;
  strcpy(current->user, "alice");
  pthread_t h, r;
  pthread_create(&h, NULL, handler, NULL);
  pthread_create(&r, NULL, reaper, NULL);
  pthread_join(h, NULL);
  pthread_join(r, NULL);
  return 0;
}
