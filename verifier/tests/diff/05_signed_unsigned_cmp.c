/* Signed/unsigned mixing: usual arithmetic conversions in comparisons. */
int g_neg_lt_zero_u = 7;
int g_neg_lt_one_l = 7;
int g_mix_sum_gt = 7;
int g_mix_sub_wrap = 7;
int g_uchar_vs_schar = 7;
int g_ushort_vs_short = 7;
int g_long_vs_uint = 7;
int g_ulong_mix = 7;
int g_cast_cmp = 7;
unsigned g_wrapped = 0;
int g_count = 0;
unsigned long g_ul_from_neg = 0;
int g_ll_vs_u = 7;

int main(void)
{
    int m = -1;
    unsigned u = 1u;
    long l = -1;
    unsigned char uc = 255;
    signed char sc = -1;
    unsigned short us = 65535;
    short ss = -1;

    g_neg_lt_zero_u = -1 < 0u;          /* 0: -1 becomes UINT_MAX */
    g_neg_lt_one_l = -1L < 1u;          /* 1: unsigned int fits in long */
    g_mix_sum_gt = (m + 0u) > u;        /* 1: m converted to unsigned */
    g_wrapped = m + u * 0u;             /* UINT_MAX */
    g_mix_sub_wrap = (u - 2u) > 100u;   /* 1: wraps */
    g_uchar_vs_schar = uc > sc;         /* 1: both promote to int */
    g_ushort_vs_short = us > ss;        /* 1: both promote to int */
    g_long_vs_uint = l < u;             /* 1: u converts to long */
    g_ulong_mix = (l + 0UL) > 1000UL;   /* 1: l converts to unsigned long */
    g_cast_cmp = ((unsigned)m == 4294967295u) + ((int)(unsigned)m == -1) * 2 + ((unsigned char)m == 255) * 4;
    g_ul_from_neg = (unsigned long)m;

    for (int i = -3; i <= 3; i++) {
        if ((i + 0u) < 2u)
            g_count += 1;
        if ((long)i < (long)u)
            g_count += 10;
        if ((unsigned char)i > 100)
            g_count += 100;
    }

    long long ll = -5;
    g_ll_vs_u = (ll < u) + ((ll + 0ULL) > u) * 2;
    return 0;
}
