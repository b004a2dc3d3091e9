/* unsigned int / unsigned short wrap-around, including count-down loops. */
unsigned g_u = 0;
unsigned g_minus_one = 0;
unsigned g_neg = 0;
unsigned g_mul_wrap = 0;
unsigned g_add_wrap = 0;
unsigned short g_us = 65530;
unsigned short g_us_mul = 0;
unsigned g_countdown_sum = 0;
int g_countdown_iters = 0;
unsigned g_lcg = 12345u;
unsigned g_lcg_hist[8] = {0, 0, 0, 0, 0, 0, 0, 0};
unsigned g_diff = 0;
unsigned g_avg = 0;
unsigned g_shift_mix = 0;

int main(void)
{
    g_u -= 1;
    g_minus_one = g_u;
    unsigned five = 5u;
    g_neg = -five;
    g_mul_wrap = 0x10001u * 0x10001u * 0x10001u;
    g_add_wrap = 0xFFFFFFF0u + 0x20u;

    for (int i = 0; i < 10; i++)
        g_us += 1;
    unsigned short m = 300;
    g_us_mul = m * m;          /* 90000 stored as 24464 */

    for (unsigned i = 5; i-- > 0;) {
        g_countdown_sum += i * 10u;
        g_countdown_iters++;
    }

    for (int i = 0; i < 8; i++) {
        g_lcg = g_lcg * 1103515245u + 12345u;
        g_lcg_hist[i] = (g_lcg >> 16) & 0x7FFFu;
    }

    unsigned a = 3u;
    unsigned b = 10u;
    g_diff = a - b;
    unsigned x = 0xFFFFFFFEu;
    unsigned y = 0xFFFFFFFCu;
    g_avg = (x & y) + ((x ^ y) >> 1);
    g_shift_mix = (g_minus_one << 31) + (g_minus_one >> 31) + (g_minus_one << 1);
    return 0;
}
