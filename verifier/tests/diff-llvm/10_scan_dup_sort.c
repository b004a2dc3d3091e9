/* sscanf with integer, string and character conversions (widths, suppression, length
 * modifiers, bases, overflow, early ends), strdup, strndup, asprintf and qsort. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counts[18];
int ints[12];
unsigned int uints[8];
long longs[3];
unsigned char small[2];
short shorts[2];
char words[3][16];
char chars[12];
char copies[3][16];
int lens[2];
int sorted[9] = { 5, -3, 9, 0, 5, 2, -8, 7, 1 };
char names[4][8] = { "pear", "apple", "fig", "banana" };

static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

int main(void) {
  counts[0] = sscanf("42", "%d", &ints[0]);
  counts[1] = sscanf("  -17 0x1f 077", "%d %x %o", &ints[1], &ints[2], &ints[3]);
  counts[2] = sscanf("0x10 010 12", "%i %i %i", &ints[4], &ints[5], &ints[6]);
  counts[3] = sscanf("12345", "%3d%d", &ints[7], &ints[8]);
  counts[4] = sscanf("abc", "%d", &ints[9]);
  counts[5] = sscanf("", "%d", &ints[9]);
  counts[6] = sscanf("4000000000 99999999999 -1", "%u %lu %u", &uints[0], (unsigned long *)&longs[0], &uints[1]);
  counts[7] = sscanf("300 70000 -9223372036854775809", "%hhu %hd %ld", &small[0], &shorts[0], &longs[1]);
  counts[8] = sscanf("  hello  world!", "%s %5s", words[0], words[1]);
  counts[9] = sscanf("xyz", "%c%2c", &chars[0], &chars[1]);
  counts[10] = sscanf("7 skip 8", "%d %*s %d", &ints[10], &ints[11]);
  counts[11] = sscanf("100% done", "%u%% %s", &uints[2], words[2]);
  /* A 0x prefix without a hexadecimal digit after it is consumed (the number is the 0). */
  counts[12] = sscanf("0xg", "%x%c", &uints[3], &chars[3]);
  counts[13] = sscanf("0x1f", "%2x", &uints[4]);
  /* %c with a width stores what there is. */
  counts[14] = sscanf("ab", "%3c", &chars[4]);
  /* EOF: the input ends before the first assignment. */
  counts[15] = sscanf("5", "%*d%d", &ints[0]);
  counts[16] = sscanf("x", "%*c%d", &ints[0]);
  counts[17] = sscanf("0x", "%2i%c", &ints[1], &chars[8]);
  char *d = strdup("duplicate");
  strcpy(copies[0], d);
  free(d);
  d = strndup("truncated text", 5);
  strcpy(copies[1], d);
  free(d);
  lens[0] = asprintf(&d, "%s-%d", "worker", 12);
  strcpy(copies[2], d);
  free(d);
  lens[1] = (int)strlen(copies[2]);
  qsort(sorted, 9, sizeof sorted[0], by_value);
  qsort(names, 4, sizeof names[0], by_name);
  return 0;
}
