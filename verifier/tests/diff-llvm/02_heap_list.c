/* A linked list on the heap: built, summed, reversed, freed. */
#include <stdlib.h>
struct node { int v; struct node *next; };
int sum, first, count;
int main(void) {
  struct node *head = 0;
  for (int i = 1; i <= 5; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i * i;
    n->next = head;
    head = n;
  }
  struct node *rev = 0;
  while (head) {
    struct node *n = head;
    head = n->next;
    sum += n->v;
    n->next = rev;
    rev = n;
    count++;
  }
  first = rev->v;
  while (rev) {
    struct node *n = rev;
    rev = rev->next;
    free(n);
  }
  return 0;
}
