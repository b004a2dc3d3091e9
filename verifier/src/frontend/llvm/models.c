/* Models of libc functions for the synth front end: plain C definitions of the string,
 * conversion and character functions, linked into the program's module (weakly, so that a
 * program's own definition wins) and lowered like the program's own functions. They compute
 * what the C standard says these functions compute, on the bytes of their arguments. */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>

void *malloc(size_t);
int isspace(int);

/* The section marks them as models: `synth build` links the system library's definitions
 * instead, unless the schedule instruments a model's code. */
#define W __attribute__((weak, section(".text.synth_model")))

W size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

W size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

W int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (unsigned char)*a - (unsigned char)*b;
}

W int strncmp(const char *a, const char *b, size_t n) {
  for (; n > 0; n--, a++, b++) {
    if (*a != *b || !*a)
      return (unsigned char)*a - (unsigned char)*b;
  }
  return 0;
}

W int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (; n > 0; n--, x++, y++) {
    if (*x != *y)
      return *x - *y;
  }
  return 0;
}

/* What clang makes of a `memcmp` whose result is only compared with 0. */
W int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

W void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (; n > 0; n--, p++) {
    if (*p == (unsigned char)c)
      return (void *)p;
  }
  return 0;
}

W char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++))
    ;
  return r;
}

W char *strncpy(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

W char *strcat(char *d, const char *s) {
  strcpy(d + strlen(d), s);
  return d;
}

W char *strncat(char *d, const char *s, size_t n) {
  char *e = d + strlen(d);
  size_t i = 0;
  for (; i < n && s[i]; i++)
    e[i] = s[i];
  e[i] = 0;
  return d;
}

W char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return 0;
  }
}

W char *strrchr(const char *s, int c) {
  const char *r = 0;
  for (;; s++) {
    if (*s == (char)c)
      r = s;
    if (!*s)
      return (char *)r;
  }
}

W char *strstr(const char *h, const char *n) {
  if (!*n)
    return (char *)h;
  for (; *h; h++) {
    size_t i = 0;
    while (n[i] && h[i] == n[i])
      i++;
    if (!n[i])
      return (char *)h;
  }
  return 0;
}


/* The digit value of c in bases up to 36, or 36 for a character that is no digit. */
static int __synth_digit_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 36;
}

/* The conversion of strtol and strtoul: the magnitude of the number nptr begins with (after
 * white space and a sign, which *neg reports), and whether it exceeds ULONG_MAX (*over).
 * *end gets the first character not converted, nptr itself where there is no number. A base
 * outside 2 to 36 (and not 0) converts nothing and sets errno to EINVAL. */
static unsigned long __synth_strto(const char *nptr, char **end, int base, int *neg, int *over) {
  const char *s = nptr;
  *neg = 0;
  *over = 0;
  if (base < 0 || base == 1 || base > 36) {
    errno = EINVAL;
    if (end)
      *end = (char *)nptr;
    return 0;
  }
  while (isspace(*s))
    s++;
  if (*s == '-' || *s == '+')
    *neg = *s++ == '-';
  /* "0x" takes base 16 only before a hexadecimal digit; else the number is the "0". */
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      __synth_digit_value(s[2]) < 16) {
    s += 2;
    base = 16;
  } else if (base == 0) {
    base = s[0] == '0' ? 8 : 10;
  }
  unsigned long v = 0;
  int any = 0;
  for (;; s++) {
    int d = __synth_digit_value(*s);
    if (d >= base)
      break;
    any = 1;
    if (v > (ULONG_MAX - d) / base)
      *over = 1;
    else
      v = v * base + d;
  }
  if (end)
    *end = (char *)(any ? s : nptr);
  return v;
}

/* Out of range: LONG_MAX or LONG_MIN, and errno ERANGE. */
W long strtol(const char *nptr, char **end, int base) {
  int neg, over;
  unsigned long v = __synth_strto(nptr, end, base, &neg, &over);
  if (over || v > (neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX)) {
    errno = ERANGE;
    return neg ? LONG_MIN : LONG_MAX;
  }
  return neg ? (long)(0UL - v) : (long)v;
}

/* A minus sign negates the magnitude as an unsigned long; out of range: ULONG_MAX and errno
 * ERANGE. */
W unsigned long strtoul(const char *nptr, char **end, int base) {
  int neg, over;
  unsigned long v = __synth_strto(nptr, end, base, &neg, &over);
  if (over) {
    errno = ERANGE;
    return ULONG_MAX;
  }
  return neg ? 0UL - v : v;
}

W long long strtoll(const char *nptr, char **end, int base) { return strtol(nptr, end, base); }
W unsigned long long strtoull(const char *nptr, char **end, int base) {
  return strtoul(nptr, end, base);
}

W int atoi(const char *s) { return (int)strtol(s, 0, 10); }
W long atol(const char *s) { return strtol(s, 0, 10); }
W long long atoll(const char *s) { return strtol(s, 0, 10); }

W int abs(int x) { return x < 0 ? -x : x; }

W long labs(long x) { return x < 0 ? -x : x; }

/* glibc's <ctype.h> macros index these tables (from -128 to 255) through the pointers that
 * __ctype_b_loc and friends return; the classes are those of the "C" locale. */
static const unsigned short __synth_ctype_b[384] = {
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2,
  2, 2, 2, 2, 2, 8195, 8194, 8194, 8194, 8194, 2, 2,
  2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
  2, 2, 2, 2, 24577, 49156, 49156, 49156, 49156, 49156, 49156, 49156,
  49156, 49156, 49156, 49156, 49156, 49156, 49156, 49156, 55304, 55304, 55304, 55304,
  55304, 55304, 55304, 55304, 55304, 55304, 49156, 49156, 49156, 49156, 49156, 49156,
  49156, 54536, 54536, 54536, 54536, 54536, 54536, 50440, 50440, 50440, 50440, 50440,
  50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440, 50440,
  50440, 50440, 50440, 49156, 49156, 49156, 49156, 49156, 49156, 54792, 54792, 54792,
  54792, 54792, 54792, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696,
  50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 50696, 49156,
  49156, 49156, 49156, 2, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
static const int __synth_ctype_toupper[384] = {
  -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113,
  -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97,
  -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81,
  -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65,
  -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49,
  -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33,
  -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17,
  -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
  32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
  64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
  80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
  96, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
  80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 123, 124, 125, 126, 127,
  128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
  144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
  160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
  176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,
  192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
  208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
  224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
  240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
};
static const int __synth_ctype_tolower[384] = {
  -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113,
  -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97,
  -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81,
  -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65,
  -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49,
  -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33,
  -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17,
  -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
  32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
  64, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
  112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 91, 92, 93, 94, 95,
  96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
  112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
  128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
  144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
  160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
  176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,
  192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
  208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
  224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
  240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
};
static const unsigned short *__synth_ctype_b_ptr = __synth_ctype_b + 128;
static const int *__synth_ctype_toupper_ptr = __synth_ctype_toupper + 128;
static const int *__synth_ctype_tolower_ptr = __synth_ctype_tolower + 128;
W const unsigned short **__ctype_b_loc(void) { return &__synth_ctype_b_ptr; }
W const int **__ctype_toupper_loc(void) { return &__synth_ctype_toupper_ptr; }
W const int **__ctype_tolower_loc(void) { return &__synth_ctype_tolower_ptr; }

/* The <ctype.h> functions (called where the program takes their address or writes
 * `(isspace)(c)`) return what glibc's return: the bit of the character's class in the
 * table, nonzero but not 1. The exception is isdigit, whose call clang replaces by
 * `c - '0' < 10` when it optimises (as `synth build` does), which is 1. */
/* strtok_r: the next token of `s` (or, with a null `s`, of what `*save` holds) separated by
 * bytes of `delim`; strtok keeps its place in a variable of its own. */
W char *strtok_r(char *s, const char *delim, char **save) {
  if (!s)
    s = *save;
  while (*s && strchr(delim, *s))
    s++;
  if (!*s) {
    *save = s;
    return 0;
  }
  char *t = s;
  while (*s && !strchr(delim, *s))
    s++;
  if (*s)
    *s++ = 0;
  *save = s;
  return t;
}

static char *__synth_strtok_save;
W char *strtok(char *s, const char *delim) { return strtok_r(s, delim, &__synth_strtok_save); }

W int isdigit(int c) { return c >= '0' && c <= '9'; }
W int isspace(int c) { return __synth_ctype_b_ptr[c] & 8192; }
W int isupper(int c) { return __synth_ctype_b_ptr[c] & 256; }
W int islower(int c) { return __synth_ctype_b_ptr[c] & 512; }
W int isalpha(int c) { return __synth_ctype_b_ptr[c] & 1024; }
W int isalnum(int c) { return __synth_ctype_b_ptr[c] & 8; }
W int isxdigit(int c) { return __synth_ctype_b_ptr[c] & 4096; }
W int isprint(int c) { return __synth_ctype_b_ptr[c] & 16384; }
W int toupper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }
W int tolower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

/* The formatting of snprintf and sprintf (C11 7.21.6.1) for integers, characters, strings
 * and pointers: the front end passes the arguments after the format as longs (`args`; a
 * pointer as its address) and rejects a format with other conversions (`%p` among them: its
 * digits would be the verifier's addresses, not the program's). Writes at most `size - 1`
 * characters and a null byte (when `size` is not 0); returns the length of the whole output. */
W int __synth_format(char *buf, unsigned long size, const char *f, const long *args) {
  unsigned long n = 0;
  int k = 0;
#define PUT(ch)                                                                                \
  do {                                                                                         \
    char put_ = (ch);                                                                          \
    if (n + 1 < size)                                                                          \
      buf[n] = put_;                                                                           \
    n++;                                                                                       \
  } while (0)
  for (; *f; f++) {
    if (*f != '%') {
      PUT(*f);
      continue;
    }
    f++;
    int left = 0, zero = 0, plus = 0, space = 0, alt = 0;
    for (;; f++) {
      if (*f == '-')
        left = 1;
      else if (*f == '0')
        zero = 1;
      else if (*f == '+')
        plus = 1;
      else if (*f == ' ')
        space = 1;
      else if (*f == '#')
        alt = 1;
      else
        break;
    }
    long width = 0;
    if (*f == '*') {
      width = (int)args[k++];
      if (width < 0) {
        left = 1;
        width = -width;
      }
      f++;
    } else
      while (*f >= '0' && *f <= '9')
        width = width * 10 + (*f++ - '0');
    long prec = -1;
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') {
        prec = (int)args[k++];
        f++;
      } else
        while (*f >= '0' && *f <= '9')
          prec = prec * 10 + (*f++ - '0');
    }
    int len = 0; /* -2 hh, -1 h, 0, 1 l/z/j/t, 2 ll */
    if (*f == 'h') {
      len = -1;
      if (*++f == 'h') {
        len = -2;
        f++;
      }
    } else if (*f == 'l') {
      len = 1;
      if (*++f == 'l') {
        len = 2;
        f++;
      }
    } else if (*f == 'z' || *f == 'j' || *f == 't') {
      len = 1;
      f++;
    }
    char c = *f;
    if (c == '%') {
      PUT('%');
      continue;
    }
    char digits[24];
    int nd = 0;
    const char *prefix = "";
    const char *s = 0;
    long slen = 0;
    if (c == 'c') {
      digits[0] = (char)args[k++];
      s = digits;
      slen = 1;
      prec = -1;
    } else if (c == 's') {
      s = (const char *)args[k++];
      while ((prec < 0 || slen < prec) && s[slen])
        slen++;
      prec = -1;
    } else {
      long v = args[k++];
      unsigned long u;
      int neg = 0;
      unsigned base = 10;
      if (c == 'd' || c == 'i') {
        if (len == -2)
          v = (signed char)v;
        else if (len == -1)
          v = (short)v;
        else if (len == 0)
          v = (int)v;
        neg = v < 0;
        u = neg ? 0ul - (unsigned long)v : (unsigned long)v;
        prefix = neg ? "-" : plus ? "+" : space ? " " : "";
      } else {
        u = (unsigned long)v;
        if (c == 'p') {
          len = 1;
          if (u == 0) {
            s = "(nil)";
            slen = 5;
            prec = -1;
          } else {
            prefix = "0x";
          }
          base = 16;
        } else if (c == 'x' || c == 'X') {
          base = 16;
        } else if (c == 'o') {
          base = 8;
        }
        if (len == -2)
          u = (unsigned char)u;
        else if (len == -1)
          u = (unsigned short)u;
        else if (len == 0)
          u = (unsigned int)u;
        if (alt && u != 0 && (c == 'x' || c == 'X'))
          prefix = c == 'x' ? "0x" : "0X";
      }
      if (!s) {
        const char *dig = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        /* (By constants: a remainder by a constant is known to be a digit, not an address
         * that `u` may be.) */
        while (u != 0) {
          unsigned long d;
          if (base == 16) {
            d = u % 16;
            u /= 16;
          } else if (base == 8) {
            d = u % 8;
            u /= 8;
          } else {
            d = u % 10;
            u /= 10;
          }
          digits[nd++] = dig[d];
        }
        if (prec < 0 && nd == 0)
          digits[nd++] = '0';
        if (alt && c == 'o' && (nd == 0 || digits[nd - 1] != '0'))
          digits[nd++] = '0';
      }
    }
    if (s) {
      /* A string or a character: padding, then the text. */
      long pad = width > slen ? width - slen : 0;
      if (!left)
        while (pad-- > 0)
          PUT(' ');
      for (long i = 0; i < slen; i++)
        PUT(s[i]);
      if (left)
        while (pad-- > 0)
          PUT(' ');
      continue;
    }
    /* A number: sign or prefix, zeros up to the precision, the digits (kept reversed). */
    long np = 0;
    while (prefix[np])
      np++;
    long zeros = prec > nd ? prec - nd : 0;
    long body = np + zeros + nd;
    long pad = width > body ? width - body : 0;
    if (zero && !left && prec < 0) {
      zeros += pad;
      pad = 0;
    }
    if (!left)
      while (pad-- > 0)
        PUT(' ');
    for (long i = 0; i < np; i++)
      PUT(prefix[i]);
    while (zeros-- > 0)
      PUT('0');
    while (nd > 0)
      PUT(digits[--nd]);
    if (left)
      while (pad-- > 0)
        PUT(' ');
  }
  if (size > 0)
    buf[n < size ? n : size - 1] = 0;
#undef PUT
  return (int)n;
}

/* asprintf: the length first, then the text into a buffer of that size from malloc. */
W int __synth_asprintf(char **out, const char *f, const long *args) {
  int n = __synth_format(0, 0, f, args);
  char *b = malloc((size_t)n + 1);
  if (!b)
    return -1;
  __synth_format(b, (size_t)n + 1, f, args);
  *out = b;
  return n;
}

static int __synth_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* The value of digit `c` in `base`, or -1. */
static int __synth_digit(char c, int base) {
  int d = c >= '0' && c <= '9' ? c - '0'
          : c >= 'a' && c <= 'z' ? c - 'a' + 10
          : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                 : 99;
  return d < base ? d : -1;
}

/* The size of the object a scan conversion stores to, by its length modifier at `f` (hh 1,
 * h 2, none 4, l, ll, j, z and t 8), and the modifier's length. */
static int __synth_scan_size(const char *f) {
  if (*f == 'h')
    return f[1] == 'h' ? 1 : 2;
  return *f == 'l' || *f == 'j' || *f == 'z' || *f == 't' ? 8 : 4;
}
static int __synth_modifier_length(const char *f) {
  if (*f == 'h' || *f == 'l')
    return f[1] == *f ? 2 : 1;
  return *f == 'j' || *f == 'z' || *f == 't';
}

/* Stores `v` narrowed to `size` bytes at `d`. */
static void __synth_store(void *d, int size, unsigned long v) {
  if (size == 1)
    *(unsigned char *)d = (unsigned char)v;
  else if (size == 2)
    *(unsigned short *)d = (unsigned short)v;
  else if (size == 4)
    *(unsigned int *)d = (unsigned int)v;
  else
    *(unsigned long *)d = v;
}

/* sscanf (C11 7.21.6.2) with the conversions d, i, u, o, x, X, s, c and %%, widths, `*` and
 * the length modifiers hh, h, l, ll, j, z, t: `args` holds the addresses of the objects the
 * conversions store to. Integers convert as glibc converts them (strtol for d and i, strtoul
 * for the others, saturating on overflow, then narrowed to the object's size). Returns the
 * number of objects assigned, or -1 if the input ended before the first assignment. */
W int __synth_scan(const char *s, const char *f, const long *args) {
  int assigned = 0, k = 0;
  while (*f) {
    if (__synth_space(*f)) {
      while (__synth_space(*s))
        s++;
      f++;
      continue;
    }
    if (*f != '%' || f[1] == '%') {
      if (*f == '%') {
        f++;
        while (__synth_space(*s))
          s++;
      }
      if (!*s)
        return assigned ? assigned : -1;
      if (*s != *f)
        return assigned;
      s++;
      f++;
      continue;
    }
    f++;
    int skip = *f == '*';
    if (skip)
      f++;
    long width = 0;
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (*f++ - '0');
    int size = __synth_scan_size(f);
    f += __synth_modifier_length(f);
    char c = *f++;
    if (c != 'c')
      while (__synth_space(*s))
        s++;
    if (!*s)
      return assigned ? assigned : -1;
    if (c == 'c' || c == 's') {
      if (width == 0)
        width = c == 'c' ? 1 : -1;
      char *d = skip ? 0 : (char *)args[k++];
      long n = 0;
      while (*s && n != width && (c == 'c' || !__synth_space(*s))) {
        if (d)
          d[n] = *s;
        n++;
        s++;
      }
      if (d && c == 's')
        d[n] = 0;
      assigned += !skip;
      continue;
    }
    /* An integer: sign, base prefix, digits, at most `width` characters in all. */
    int base = c == 'o' ? 8 : c == 'x' || c == 'X' ? 16 : c == 'i' ? 0 : 10;
    long left = width ? width : -1;
    int neg = 0;
    if (left != 0 && (*s == '-' || *s == '+')) {
      neg = *s++ == '-';
      left--;
    }
    int digits = 0;
    if ((base == 0 || base == 16) && left != 0 && *s == '0') {
      /* The 0 is a digit; an x after it is the prefix, consumed even when no hexadecimal
       * digit follows (then the number is the 0), as glibc does. */
      s++;
      left--;
      digits = 1;
      if (left != 0 && (*s == 'x' || *s == 'X')) {
        s++;
        left--;
        base = 16;
      } else if (base == 0) {
        base = 8;
      }
    }
    if (base == 0)
      base = 10;
    unsigned long u = 0;
    int over = 0;
    while (left != 0 && __synth_digit(*s, base) >= 0) {
      unsigned long d = (unsigned long)__synth_digit(*s++, base);
      if (u > (~0ul - d) / (unsigned long)base)
        over = 1;
      else
        u = u * (unsigned long)base + d;
      left--;
      digits++;
    }
    if (!digits)
      return assigned;
    unsigned long v;
    if (c == 'd' || c == 'i') {
      /* strtol: saturates at LONG_MIN and LONG_MAX. */
      unsigned long lim = neg ? 0x8000000000000000ul : 0x7ffffffffffffffful;
      v = over || u > lim ? (neg ? 0x8000000000000000ul : 0x7ffffffffffffffful)
                          : (neg ? 0 - u : u);
    } else {
      v = over ? ~0ul : neg ? 0 - u : u;
    }
    if (skip)
      continue;
    void *d = (void *)args[k++];
    __synth_store(d, size, v);
    assigned++;
  }
  return assigned;
}

/* The stand-ins of the formatted input and output functions. The verifier never lowers these
 * bodies: the front end lowers each call itself (format.rs), passing the arguments the format
 * converts to the models as an array of longs, a pointer as its address. A built program whose
 * schedule orders a model's accesses runs these bodies, which pass the arguments the same way.
 * __synth_arguments takes them from `ap` as the format says (scan: every conversion that
 * assigns takes a pointer; print: `*` widths and precisions and `%c` an int, `%s` a pointer,
 * an integer conversion an int, or a long with `l`, `ll`, `z`, `j` or `t`). */
static int __synth_conversions(const char *f) {
  int n = 0;
  for (; *f; f++)
    if (*f == '%')
      n += 3; /* at most a `*` width, a `*` precision and an argument each */
  return n + 1;
}
static void __synth_arguments(const char *f, int scan, va_list ap, long *args) {
  int k = 0;
  while (*f) {
    if (*f++ != '%')
      continue;
    int assigns = 1;
    if (scan && *f == '*') {
      assigns = 0;
      f++;
    }
    while (!scan && *f && (*f == '-' || *f == '0' || *f == '+' || *f == ' ' || *f == '#'))
      f++;
    for (int part = 0; part < 2; part++) {
      if (!scan && *f == '*') {
        args[k++] = va_arg(ap, int);
        f++;
      }
      while (*f >= '0' && *f <= '9')
        f++;
      if (scan || *f != '.')
        break;
      f++;
    }
    int wide = 0;
    while (*f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't')
      wide |= *f++ != 'h';
    char c = *f;
    if (!c)
      break;
    f++;
    if (c == '%' || !assigns)
      continue;
    if (scan || c == 's') {
      /* The pointer's bytes (a conversion to long would read its address as a number). */
      void *p = va_arg(ap, void *);
      __builtin_memcpy(&args[k++], &p, sizeof p);
    } else if (wide && c != 'c')
      args[k++] = va_arg(ap, long);
    else
      args[k++] = va_arg(ap, int);
  }
}
#define __SYNTH_ARGUMENTS(scan)                                                                \
  long args[__synth_conversions(f)];                                                           \
  va_list ap;                                                                                  \
  va_start(ap, f);                                                                             \
  __synth_arguments(f, scan, ap, args);                                                        \
  va_end(ap)
W int snprintf(char *buf, unsigned long size, const char *f, ...) {
  __SYNTH_ARGUMENTS(0);
  return __synth_format(buf, size, f, args);
}
W int sprintf(char *buf, const char *f, ...) {
  __SYNTH_ARGUMENTS(0);
  return __synth_format(buf, ~0ul, f, args);
}
W int asprintf(char **out, const char *f, ...) {
  __SYNTH_ARGUMENTS(0);
  return __synth_asprintf(out, f, args);
}
/* The errno a scanf call leaves: glibc's sets it where a conversion overflows (ERANGE) or
 * the input cannot be read, so any positive value, or the one it had (`e`, for an input of
 * 0), for the verifier; a built program's is what its reads left (llvm_support.c). (By
 * arithmetic, not an assumption: every input is one of these.) */
int __VERIFIER_nondet_int(void);
W int __synth_scan_errno(int e) {
  int x = __VERIFIER_nondet_int() & INT_MAX;
  return x ? x : e;
}
/* sscanf's conversions, then its errno. */
W int __synth_sscan(const char *s, const char *f, const long *args) {
  int r = __synth_scan(s, f, args);
  errno = __synth_scan_errno(errno);
  return r;
}
W int sscanf(const char *s, const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_sscan(s, f, args);
}

W char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  return d;
}

W char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *d = malloc(n + 1);
  if (d) {
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
    d[n] = 0;
  }
  return d;
}

/* Linux threads have system scope only (PTHREAD_SCOPE_SYSTEM is 0): the other scope is not
 * supported (ENOTSUP), any other value is invalid (EINVAL). */
W int pthread_attr_setscope(void *attr, int scope) {
  (void)attr;
  return scope == 0 ? 0 : scope == 1 ? 95 : 22;
}

/* Whether an attribute's sharing is PTHREAD_PROCESS_PRIVATE (0) or PTHREAD_PROCESS_SHARED
 * (1): 0, else EINVAL, as glibc's setters of every kind of attribute answer. Sharing between
 * processes changes nothing in a program of one process. */
static int __synth_sharing(int shared) { return shared == 0 || shared == 1 ? 0 : 22; }

/* Condition variables' attributes as glibc keeps them, in the attribute's int: bit 0 shared
 * between processes, bit 1 the clock of timed waits (only CLOCK_REALTIME, 0, and
 * CLOCK_MONOTONIC, 1, are accepted). The model's timed waits may time out at any time, so
 * the clock changes nothing else; a built program waits on the condition variable's clock. */
W int pthread_condattr_init(void *attr) {
  *(int *)attr = 0;
  return 0;
}
W int pthread_condattr_setclock(void *attr, int clock) {
  if (clock != 0 && clock != 1)
    return 22;
  *(int *)attr = (*(int *)attr & ~2) | clock << 1;
  return 0;
}
W int pthread_condattr_getclock(const void *attr, int *clock) {
  *clock = *(const int *)attr >> 1 & 1;
  return 0;
}
W int pthread_condattr_setpshared(void *attr, int shared) {
  if (__synth_sharing(shared))
    return 22;
  *(int *)attr = (*(int *)attr & ~1) | shared;
  return 0;
}
W int pthread_condattr_getpshared(const void *attr, int *shared) {
  *shared = *(const int *)attr & 1;
  return 0;
}

/* Mutexes', read-write locks' and barriers' sharing (a rwlock's preference,
 * pthread_rwlockattr_setkind_np, is the front end's: calls.rs). */
W int pthread_mutexattr_setpshared(void *attr, int shared) {
  (void)attr;
  return __synth_sharing(shared);
}
W int pthread_rwlockattr_setpshared(void *attr, int shared) {
  (void)attr;
  return __synth_sharing(shared);
}
W int pthread_barrierattr_setpshared(void *attr, int shared) {
  (void)attr;
  return __synth_sharing(shared);
}

/* A stream's buffering changes nothing the model observes (output is an event where it is
 * written); glibc refuses a mode other than _IOFBF, _IOLBF and _IONBF (0-2) with EOF. */
W int setvbuf(void *stream, char *buf, int mode, size_t size) {
  (void)stream;
  (void)buf;
  (void)size;
  return mode >= 0 && mode <= 2 ? 0 : -1;
}

/* A thread's stack size changes nothing the model observes (it has no stack limit); glibc
 * refuses a stack smaller than PTHREAD_STACK_MIN (16384) with EINVAL. */
W int pthread_attr_setstacksize(void *attr, unsigned long size) {
  (void)attr;
  return size < 16384 ? 22 : 0;
}

/* Scheduling attributes as glibc keeps them in a pthread_attr_t (pthread_attr_init zeroes
 * them): the priority at byte 0, the policy at byte 4 (SCHED_OTHER 0, SCHED_FIFO 1,
 * SCHED_RR 2; another is EINVAL); a priority outside the policy's range (0 for SCHED_OTHER,
 * 1 to 99 for the real-time ones) is EINVAL. The model's threads have no priorities: they
 * take effect only with PTHREAD_EXPLICIT_SCHED, which is not modelled, so a thread created
 * with them inherits its creator's scheduling, as glibc's does. */
W int pthread_attr_setschedpolicy(void *attr, int policy) {
  if (policy < 0 || policy > 2)
    return 22;
  ((int *)attr)[1] = policy;
  return 0;
}
W int pthread_attr_getschedpolicy(const void *attr, int *policy) {
  *policy = ((const int *)attr)[1];
  return 0;
}
/* The priority range of `policy`, as Linux answers: 1 to 99 for SCHED_FIFO and SCHED_RR,
 * 0 for SCHED_OTHER, SCHED_BATCH, SCHED_IDLE and SCHED_DEADLINE; -1 (EINVAL) for another. */
static int __synth_priority_bound(int policy, int max) {
  if (policy == 1 || policy == 2)
    return max ? 99 : 1;
  if (policy == 0 || policy == 3 || policy == 5 || policy == 6)
    return 0;
  errno = 22;
  return -1;
}
W int sched_get_priority_max(int policy) { return __synth_priority_bound(policy, 1); }
W int sched_get_priority_min(int policy) { return __synth_priority_bound(policy, 0); }
W int pthread_attr_setschedparam(void *attr, const void *param) {
  int priority = *(const int *)param, policy = ((int *)attr)[1];
  if (priority < sched_get_priority_min(policy) || priority > sched_get_priority_max(policy))
    return 22;
  ((int *)attr)[0] = priority;
  return 0;
}
W int pthread_attr_getschedparam(const void *attr, void *param) {
  *(int *)param = ((const int *)attr)[0];
  return 0;
}

/* qsort: a stable insertion sort (C leaves the order of equal elements unspecified; glibc's
 * merge sort keeps it too), calling the comparison as the library does, on the elements'
 * bytes. */
W void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *b = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
      for (size_t k = 0; k < size; k++) {
        char t = b[(j - 1) * size + k];
        b[(j - 1) * size + k] = b[j * size + k];
        b[j * size + k] = t;
      }
}
W int __isoc99_sscanf(const char *s, const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_sscan(s, f, args);
}
W int __isoc23_sscanf(const char *s, const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_sscan(s, f, args);
}

/* scanf: what reading standard input can make it do, whatever the input is. Each conversion
 * in turn either stops the call (the input ends or does not match) or assigns what some input
 * makes it assign: an integer conversion an arbitrary value of its object's size, `%c` one
 * to its width's bytes (one without a width; fewer where the input ends, as glibc assigns
 * them), `%s` between one and its width of bytes that are
 * neither null nor white space (without a width, any number), then a null. The result is the
 * number of objects assigned, or possibly EOF while none is. */
int __VERIFIER_nondet_int(void);
unsigned long __VERIFIER_nondet_ulong(void);
char __VERIFIER_nondet_char(void);
void __VERIFIER_assume(int);
/* What scanf reads, a conversion at a time: any input for the verifier (these bodies); a
 * built program reads its standard input with them (llvm_support.c defines them there).
 * `__synth_scan_fails` reads the format's text from `from` to the directive at `directive`
 * and its conversion, up to `to`, and says whether that stops the call. */
W int __synth_scan_fails(const char *from, const char *directive, const char *to) {
  (void)from;
  (void)directive;
  (void)to;
  return __VERIFIER_nondet_int();
}
/* The number the last conversion read. */
W unsigned long __synth_scan_number(void) { return __VERIFIER_nondet_ulong(); }
/* Whether what the last conversion read ends before its byte `i` (`i` > 0): a word (`%s`),
 * or the input (`%c`, whose width's bytes it reads where the input has them). */
W int __synth_scan_ends(unsigned long i) {
  (void)i;
  return __VERIFIER_nondet_int();
}
/* Byte `i` of the characters the last conversion read. */
W char __synth_scan_byte(unsigned long i) {
  (void)i;
  return __VERIFIER_nondet_char();
}
/* The call ends, with the format's text after its last directive at `rest`. */
W void __synth_scan_end(const char *rest) { (void)rest; }
/* Whether the call, which assigned nothing, returns EOF (the input ended). */
W int __synth_scan_eof(void) { return __VERIFIER_nondet_int(); }
/* The lock of standard input: glibc's scanf reads one call's input under the stream's lock,
 * so two threads' calls do not take turns within a call. */
/* (Without pthread.h, some of whose functions are modelled here with other parameter types;
 * glibc's PTHREAD_MUTEX_INITIALIZER is all zero bytes.) */
int pthread_mutex_lock(void *);
int pthread_mutex_unlock(void *);
static struct {
  long words[5];
} __synth_stdin_lock;
W int __synth_scan_stdin(const char *f, const long *args) {
  pthread_mutex_lock(&__synth_stdin_lock);
  int assigned = 0, k = 0;
  const char *from = f;
  while (*f) {
    if (*f++ != '%')
      continue;
    if (*f == '%') {
      f++;
      continue;
    }
    const char *directive = f - 1;
    int skip = *f == '*';
    if (skip)
      f++;
    unsigned long width = 0;
    while (*f >= '0' && *f <= '9')
      width = width * 10 + (unsigned long)(*f++ - '0');
    int size = __synth_scan_size(f);
    f += __synth_modifier_length(f);
    char c = *f++;
    if (__synth_scan_fails(from, directive, f))
      break;
    from = f;
    if (skip)
      continue;
    if (c == 'c' || c == 's') {
      /* Byte by byte, the length decided as it goes: where it ends is a known index. */
      char *d = (char *)args[k++];
      if (c == 'c' && width == 0)
        width = 1;
      unsigned long i = 0;
      for (; width == 0 || i < width; i++) {
        if (i > 0 && __synth_scan_ends(i))
          break;
        char b = __synth_scan_byte(i);
        __VERIFIER_assume(c == 'c' || (b != 0 && !__synth_space(b)));
        d[i] = b;
      }
      if (c == 's')
        d[i] = 0;
    } else {
      void *d = (void *)args[k++];
      unsigned long v = __synth_scan_number();
      __synth_store(d, size, v);
    }
    assigned++;
  }
  __synth_scan_end(from);
  int result = assigned == 0 && __synth_scan_eof() ? -1 : assigned;
  errno = __synth_scan_errno(errno);
  pthread_mutex_unlock(&__synth_stdin_lock);
  return result;
}
W int scanf(const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_scan_stdin(f, args);
}
W int __isoc99_scanf(const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_scan_stdin(f, args);
}
W int __isoc23_scanf(const char *f, ...) {
  __SYNTH_ARGUMENTS(1);
  return __synth_scan_stdin(f, args);
}

/* rand and random (one generator in glibc): its additive feedback generator (TYPE_3: each
 * word the sum of the words 3 and 31 before it, the result the sum shifted right by one),
 * starting from the 31 words srandom(1) leaves it with. The C standard requires the sequence
 * of seed 1 until srand is called, so without srand (or after srand(1) or srand(0), which
 * glibc takes for 1) the values are glibc's, exactly; after srand with another seed they are
 * arbitrary values in [0, RAND_MAX]. glibc holds a lock around each call: an atomic region. */
/* The 31 words srandom(1) leaves glibc's generator with. */
#define __SYNTH_RAND_SEED1 \
    -1726662223, 379960547, 1735697613, 1040273694, 1313901226, 1627687941, -179304937, \
    -2073333483, 1780058412, -1989503057, -615974602, 344556628, 939512070, -1249116260, \
    1507946756, -812545463, 154635395, 1388815473, -1926676823, 525320961, -1009028674, \
    968117788, -123449607, 1284210865, 435012392, -2017506339, -911064859, -370259173, \
    1132637927, 1398500161, -205601318
static const int __synth_rand_seed1[31] = {__SYNTH_RAND_SEED1};
static int __synth_rand_words[31] = {__SYNTH_RAND_SEED1};
static int __synth_rand_front = 3, __synth_rand_rear = 0, __synth_rand_seeded;
static unsigned __synth_rand_seed, __synth_rand_generation;
/* A value of the generator after srand(seed) (the generation-th call of srand): arbitrary in
 * [0, RAND_MAX] for the verifier; the built program computes glibc's (llvm_support.c). */
W long __synth_seeded_random(unsigned seed, unsigned generation) {
  (void)seed;
  (void)generation;
  return __VERIFIER_nondet_int() & 0x7fffffff;
}
static long __VERIFIER_atomic_synth_random(void) {
  if (__synth_rand_seeded)
    return __synth_seeded_random(__synth_rand_seed, __synth_rand_generation);
  unsigned sum = (unsigned)__synth_rand_words[__synth_rand_front] +
                 (unsigned)__synth_rand_words[__synth_rand_rear];
  __synth_rand_words[__synth_rand_front] = (int)sum;
  __synth_rand_front = __synth_rand_front == 30 ? 0 : __synth_rand_front + 1;
  __synth_rand_rear = __synth_rand_rear == 30 ? 0 : __synth_rand_rear + 1;
  return sum >> 1;
}
static void __VERIFIER_atomic_synth_srandom(unsigned seed) {
  __synth_rand_seeded = seed > 1;
  __synth_rand_seed = seed;
  __synth_rand_generation++;
  if (!__synth_rand_seeded) {
    for (int i = 0; i < 31; i++)
      __synth_rand_words[i] = __synth_rand_seed1[i];
    __synth_rand_front = 3;
    __synth_rand_rear = 0;
  }
}
W long random(void) { return __VERIFIER_atomic_synth_random(); }
W int rand(void) { return (int)__VERIFIER_atomic_synth_random(); }
W void srandom(unsigned seed) { __VERIFIER_atomic_synth_srandom(seed); }
W void srand(unsigned seed) { __VERIFIER_atomic_synth_srandom(seed); }

/* getopt (POSIX, with glibc's extensions `::` for an optional argument and a leading `+` or
 * `:`): short options only. glibc moves a non-option argument after the options that follow
 * it; where that would happen, or with a leading `-`, the model stops with undefined
 * behaviour (a write through a null pointer) rather than parse differently from the
 * library. Error messages go to stderr, which nothing observes. */
char *optarg __attribute__((weak));
int optind __attribute__((weak)) = 1;
int opterr __attribute__((weak)) = 1;
int optopt __attribute__((weak));
/* Where the next option character is in argv[optind] (1: a new argument). */
static int __synth_optpos = 1;

static void __synth_getopt_unmodelled(void) { *(volatile int *)0 = 0; }

W int getopt(int argc, char *const argv[], const char *opts) {
  int posix = 0;
  if (*opts == '+') {
    posix = 1;
    opts++;
  } else if (*opts == '-') {
    __synth_getopt_unmodelled();
  }
  int silent = *opts == ':';
  if (silent)
    opts++;
  optarg = 0;
  if (optind == 0) {
    /* glibc's way to start over. */
    optind = 1;
    __synth_optpos = 1;
  }
  if (optind >= argc || !argv[optind])
    return -1;
  const char *arg = argv[optind];
  if (__synth_optpos == 1) {
    if (arg[0] != '-' || arg[1] == '\0') {
      for (int i = optind + 1; !posix && i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] != '\0')
          __synth_getopt_unmodelled();
      return -1;
    }
    if (arg[1] == '-' && arg[2] == '\0') {
      optind++;
      return -1;
    }
  }
  int c = (unsigned char)arg[__synth_optpos];
  const char *o = c == ':' ? 0 : strchr(opts, c);
  __synth_optpos++;
  int end = arg[__synth_optpos] == '\0';
  if (!o) {
    optopt = c;
    if (end) {
      optind++;
      __synth_optpos = 1;
    }
    return '?';
  }
  if (o[1] != ':') {
    if (end) {
      optind++;
      __synth_optpos = 1;
    }
    return c;
  }
  int pos = __synth_optpos;
  __synth_optpos = 1;
  optind++;
  if (!end) {
    optarg = (char *)arg + pos;
  } else if (o[2] == ':') {
    optarg = 0;
  } else if (optind < argc) {
    optarg = argv[optind++];
  } else {
    optopt = c;
    return silent ? ':' : '?';
  }
  return c;
}

/* Cancellation. No thread is ever cancelled in the model (a call of pthread_cancel is beyond
 * it and named in the verdict), so the cancellation points are no-ops; the type and state
 * are kept per thread for what their setters return. */
static __thread int __synth_cancel_type, __synth_cancel_state;
/* Sets `*cell` to `v` (0 or 1; EINVAL otherwise), its old value into `*old`. */
static int __synth_cancel_set(int *cell, int v, int *old) {
  if (v != 0 && v != 1)
    return EINVAL;
  if (old)
    *old = *cell;
  *cell = v;
  return 0;
}
/* PTHREAD_CANCEL_DEFERRED 0, PTHREAD_CANCEL_ASYNCHRONOUS 1. */
W int pthread_setcanceltype(int type, int *old) {
  return __synth_cancel_set(&__synth_cancel_type, type, old);
}
/* PTHREAD_CANCEL_ENABLE 0, PTHREAD_CANCEL_DISABLE 1. */
W int pthread_setcancelstate(int state, int *old) {
  return __synth_cancel_set(&__synth_cancel_state, state, old);
}
W void pthread_testcancel(void) {}

/* Byte order: the host's is little-endian (x86-64). */
W unsigned short htons(unsigned short x) { return (unsigned short)(x << 8 | x >> 8); }
W unsigned short ntohs(unsigned short x) { return (unsigned short)(x << 8 | x >> 8); }
W unsigned htonl(unsigned x) {
  return x << 24 | (x << 8 & 0xff0000u) | (x >> 8 & 0xff00u) | x >> 24;
}
W unsigned ntohl(unsigned x) { return htonl(x); }

/* Signal sets as glibc keeps them: a bit per signal 1-64 (bit (s - 1) % 64 of word
 * (s - 1) / 64 of 16), the internal signals 32 and 33 (thread cancellation, setxid) never
 * added by the program. */
static int __synth_signal_ok(const unsigned long *set, int s, int internal_ok) {
  if (!set || s <= 0 || s >= 65 || (!internal_ok && (s == 32 || s == 33))) {
    errno = EINVAL;
    return 0;
  }
  return 1;
}
W int sigemptyset(unsigned long *set) {
  if (!set) {
    errno = EINVAL;
    return -1;
  }
  for (int i = 0; i < 16; i++)
    set[i] = 0;
  return 0;
}
W int sigfillset(unsigned long *set) {
  if (!set) {
    errno = EINVAL;
    return -1;
  }
  for (int i = 0; i < 16; i++)
    set[i] = ~0ul;
  set[0] &= ~(3ul << 31);
  return 0;
}
W int sigaddset(unsigned long *set, int s) {
  if (!__synth_signal_ok(set, s, 0))
    return -1;
  set[(s - 1) / 64] |= 1ul << ((s - 1) % 64);
  return 0;
}
W int sigdelset(unsigned long *set, int s) {
  if (!__synth_signal_ok(set, s, 0))
    return -1;
  set[(s - 1) / 64] &= ~(1ul << ((s - 1) % 64));
  return 0;
}
W int sigismember(const unsigned long *set, int s) {
  if (!__synth_signal_ok(set, s, 1))
    return -1;
  return (set[(s - 1) / 64] >> ((s - 1) % 64)) & 1;
}
