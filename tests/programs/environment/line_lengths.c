/* The length of each line of the input, without its newline. `fgets` branches on what the
 * system gives it, which the built program cannot see: the schedule takes each call as one
 * step. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    char line[32];
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = 0;
        printf("%zu\n", len);
    }
    puts("done");
    return 0;
}
