/* Fibonacci: iterative into an array, 64-bit values, modular Fibonacci, Pisano-like period. */
int g_fib[30] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};
long g_fib90 = 0;
unsigned long g_fib_wrap = 0;
int g_fib_mod = 0;
int g_period10 = 0;
int g_even_sum = 0;
unsigned char g_fib_u8[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

long fib_long(int n)
{
    long a = 0;
    long b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    g_fib[0] = 0;
    g_fib[1] = 1;
    for (int i = 2; i < 30; i++)
        g_fib[i] = g_fib[i - 1] + g_fib[i - 2];

    g_fib90 = fib_long(90);

    unsigned long a = 0;
    unsigned long b = 1;
    for (int i = 0; i < 150; i++) {
        unsigned long t = a + b;
        a = b;
        b = t;
    }
    g_fib_wrap = a;

    int x = 0;
    int y = 1;
    for (int i = 0; i < 1000; i++) {
        int t = (x + y) % 1000007;
        x = y;
        y = t;
    }
    g_fib_mod = x;

    x = 0;
    y = 1;
    int p = 0;
    do {
        int t = (x + y) % 10;
        x = y;
        y = t;
        p++;
    } while (!(x == 0 && y == 1) && p < 1000);
    g_period10 = p;

    for (int i = 0; i < 30; i++)
        if (g_fib[i] % 2 == 0)
            g_even_sum += g_fib[i];

    g_fib_u8[0] = 0;
    g_fib_u8[1] = 1;
    for (int i = 2; i < 12; i++)
        g_fib_u8[i] = g_fib_u8[i - 1] * 7 + g_fib_u8[i - 2];
    return 0;
}
