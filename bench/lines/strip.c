/* Lines from stdin into a buffer of BUF bytes, each measured and stripped of its newline. */
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
            line[len - 1] = 0;
    }
    return 0;
}
