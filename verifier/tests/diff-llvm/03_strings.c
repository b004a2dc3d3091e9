/* String functions of libc on arrays and heap buffers. */
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
char buf[32], word[8];
int len, cmp1, cmp2, digits, num, upper;
int main(void) {
  strcpy(buf, "abc");
  strcat(buf, "-42");
  len = strlen(buf);
  cmp1 = strcmp(buf, "abc-42") == 0;
  cmp2 = strncmp(buf, "abd", 3) < 0;
  char *dash = strchr(buf, '-');
  num = atoi(dash + 1);
  for (int i = 0; buf[i]; i++)
    digits += isdigit((unsigned char)buf[i]) != 0;
  strncpy(word, buf, 3);
  word[0] = toupper(word[0]);
  upper = word[0];
  char *h = malloc(8);
  strcpy(h, word);
  len += strlen(h);
  free(h);
  return 0;
}
