/* unsigned long arithmetic with 64-bit wrap-around. */
unsigned long g_max = 18446744073709551615UL;
unsigned long g_wrap_add = 0;
unsigned long g_wrap_sub = 0;
unsigned long g_wrap_mul = 0;
unsigned long g_neg = 0;
unsigned long g_top_bit = 0;
unsigned long g_div = 0;
unsigned long g_mod = 0;
unsigned long g_hash = 14695981039346656037UL;
unsigned long g_xorshift = 88172645463325252UL;
unsigned long g_sum = 0;
int g_cmp = 0;
unsigned long long g_ull = 0;
unsigned g_trunc = 0;

int main(void)
{
    g_wrap_add = g_max + 2;
    g_wrap_sub = 5UL - 10UL;
    g_wrap_mul = 0xFFFFFFFFUL * 0x100000001UL * 3UL;
    unsigned long one = 1;
    g_neg = -one;
    g_top_bit = g_max >> 63;
    g_top_bit |= (one << 63) >> 60;
    g_div = g_max / 1000000007UL;
    g_mod = g_max % 1000000007UL;

    for (int i = 0; i < 32; i++) {
        g_hash ^= (unsigned long)(i * 7 + 3);
        g_hash *= 1099511628211UL;
    }

    for (int i = 0; i < 20; i++) {
        g_xorshift ^= g_xorshift << 13;
        g_xorshift ^= g_xorshift >> 7;
        g_xorshift ^= g_xorshift << 17;
        g_sum += g_xorshift;
    }

    g_cmp = (g_max > 0UL) + (g_wrap_sub > g_max / 2) * 2 + (g_wrap_add < 5UL) * 4;
    g_ull = (unsigned long long)g_max - 12345ULL;
    g_trunc = (unsigned)g_hash;
    return 0;
}
