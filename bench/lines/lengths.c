/* The length of each line of standard input (read with fgets into a buffer of BUF bytes, a
 * longer line in pieces), without its newline. */
#include <stdio.h>
#include <string.h>

#ifndef BUF
#define BUF 64
#endif

int main(void)
{
    char line[BUF];
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = 0;
        printf("%zu\n", len);
    }
    puts("done");
    return 0;
}
