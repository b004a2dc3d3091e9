/* Reads standard input in chunks of up to 16 bytes with read(2) and prints, per chunk,
 * whether it was longer than 8 bytes. The model of read assumes the count it returns is at
 * most the buffer's size: the paths where that fails are discarded, none of the system's
 * answers. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char buf[16];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0)
        printf("%d\n", n > 8);
    return 0;
}
