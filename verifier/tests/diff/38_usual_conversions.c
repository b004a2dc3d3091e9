/* Usual arithmetic conversions across widths: int/unsigned/long/unsigned long/long long/short. */
int g_i = -5;
unsigned g_u = 3u;
long g_l = -5L;
unsigned long g_ul = 3UL;
long long g_ll = -1LL;
unsigned long long g_ull = 2ULL;
short g_s = -300;
unsigned short g_us = 60000;
unsigned g_int_plus_uint = 0;
long g_uint_plus_long = 0;
unsigned long g_long_plus_ulong = 0;
long long g_ll_times_u = 0;
unsigned long long g_ll_plus_ull = 0;
int g_short_ops = 0;
long g_mixed_div = 0;
unsigned g_uint_div_neg = 0;
long g_long_div_uint = 0;
int g_results[6] = {0, 0, 0, 0, 0, 0};

int main(void)
{
    g_int_plus_uint = g_i + g_u;             /* unsigned: 4294967294 */
    g_uint_plus_long = g_u + g_l;            /* long: -2 */
    g_long_plus_ulong = g_l + g_ul;          /* unsigned long wrap */
    g_ll_times_u = g_ll * g_u;               /* long long: -3 */
    g_ll_plus_ull = g_ll + g_ull;            /* unsigned long long: 1 */
    g_short_ops = g_s * g_us / 1000;         /* int arithmetic */
    g_mixed_div = (g_l * 1000000000L) / g_u; /* long / (unsigned -> long) */
    g_uint_div_neg = g_u / (unsigned)g_i;    /* 3 / 4294967291 = 0 */
    g_long_div_uint = g_l / (long)g_u;

    g_results[0] = (g_i + g_u) > 10u;
    g_results[1] = (g_u + g_l) < 0;
    g_results[2] = (g_l + g_ul) > 10UL;
    g_results[3] = (int)((g_i * 2u) >> 28);
    g_results[4] = (int)((g_l * 2) >> 60);
    g_results[5] = (int)(((unsigned long)g_i) >> 32);
    return 0;
}
