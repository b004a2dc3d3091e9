/* Integer promotions of char and short operands in arithmetic. */
unsigned char g_ua = 200;
unsigned char g_ub = 100;
signed char g_sa = -100;
short g_sh = 30000;
unsigned short g_us = 65535;
int g_sum_int = 0;
unsigned char g_sum_uchar = 0;
int g_prod_short = 0;
int g_not_uchar = 0;
int g_shift_uchar = 0;
int g_neg_uchar = 0;
unsigned g_us_square = 0;
int g_cmp_after_promo = 0;
int g_char_diff = 0;
int g_short_sum = 0;
short g_short_sum_stored = 0;
int g_mixed = 0;
int g_xor_promo = 0;
int g_div_promo = 0;

int main(void)
{
    g_sum_int = g_ua + g_ub;                 /* 300, computed in int */
    g_sum_uchar = g_ua + g_ub;               /* 44 after storing */
    g_prod_short = g_sh * 3;                 /* 90000, computed in int */
    g_not_uchar = ~g_ua;                     /* -201 */
    g_shift_uchar = g_ua << 8;               /* 51200 */
    g_neg_uchar = -g_ua;                     /* -200 */
    g_us_square = (unsigned)g_us * g_us;     /* wraps in unsigned */
    g_cmp_after_promo = (unsigned char)(g_ua + g_ub) < g_ua;
    g_cmp_after_promo += ((g_ua + g_ub) > 255) * 2;
    g_char_diff = g_sa - g_ua;               /* -300 */
    g_short_sum = g_sh + g_sh;               /* 60000 */
    g_short_sum_stored = g_sh + g_sh;        /* wraps */
    g_mixed = g_sa * g_ub + g_us - g_sh;
    g_xor_promo = g_sa ^ g_ua;
    g_div_promo = g_sa / (signed char)7 + g_us / g_ub;

    unsigned char acc = 0;
    int wide = 0;
    for (int i = 0; i < 20; i++) {
        acc = acc * 3 + g_ub;
        wide = wide + (acc >> 1);
    }
    g_mixed += wide + acc;
    return 0;
}
