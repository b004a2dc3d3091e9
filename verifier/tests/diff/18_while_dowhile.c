/* while and do-while loops, including a do-while whose condition is initially false. */
int g_collatz[8] = {1, 2, 3, 6, 7, 9, 27, 97};
int g_steps[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_digit_sum = 0;
int g_digit_count = 0;
int g_do_once = 0;
int g_while_never = 0;
int g_reversed = 0;
int g_pow2 = 0;
int g_do_sum = 0;
unsigned g_bits_rev = 0;

int collatz_steps(int n)
{
    int steps = 0;
    while (n != 1) {
        if (n % 2 == 0)
            n = n / 2;
        else
            n = 3 * n + 1;
        steps++;
    }
    return steps;
}

int main(void)
{
    for (int i = 0; i < 8; i++)
        g_steps[i] = collatz_steps(g_collatz[i]);

    int n = 987654321;
    while (n > 0) {
        g_digit_sum += n % 10;
        n /= 10;
    }

    n = 0;
    do {
        g_digit_count++;
        n /= 10;
    } while (n > 0);

    int flag = 0;
    do {
        g_do_once++;
    } while (flag);

    while (flag) {
        g_while_never++;
    }

    n = 120034;
    do {
        g_reversed = g_reversed * 10 + n % 10;
        n /= 10;
    } while (n != 0);

    g_pow2 = 1;
    while (g_pow2 < 5000)
        g_pow2 *= 2;

    int k = 10;
    do
        g_do_sum += k--;
    while (k > 0);

    unsigned v = 0x12345678u;
    int cnt = 0;
    while (cnt < 32) {
        g_bits_rev = (g_bits_rev << 1) | (v & 1u);
        v >>= 1;
        cnt++;
    }
    return 0;
}
