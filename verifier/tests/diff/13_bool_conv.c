/* _Bool conversions from large / negative / wide values and _Bool arithmetic. */
struct s {
    _Bool flag;
    int n;
};

_Bool g_b_big = 0;
_Bool g_b_neg = 0;
_Bool g_b_zero = 1;
_Bool g_b_long = 0;
_Bool g_b_ulong = 0;
_Bool g_b_uchar_wrap = 1;
int g_b_sum = 0;
_Bool g_b_inc = 0;
_Bool g_b_dec_from0 = 0;
_Bool g_b_dec_from1 = 1;
_Bool g_b_dec2 = 1;
_Bool g_flags[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_flag_count = 0;
struct s g_st = {0, 5};
int g_b_cmp = 0;
_Bool g_b_compound = 1;
_Bool g_b_and = 0;

int main(void)
{
    int big = 256;
    int neg = -7;
    long lbig = 1L << 40;
    unsigned long ulbig = 0x100000000UL;
    int zero = 0;

    g_b_big = big;
    g_b_neg = neg;
    g_b_zero = zero;
    g_b_long = lbig;
    g_b_ulong = ulbig;
    g_b_uchar_wrap = (unsigned char)big;

    g_b_sum = g_b_big + g_b_neg + g_b_long + 5;
    g_b_inc = 1;
    g_b_inc += 1;
    g_b_dec_from0 -= 1;
    g_b_dec_from1 -= 1;
    g_b_dec2 -= 1;
    g_b_dec2 -= 1;

    for (int i = 0; i < 8; i++) {
        g_flags[i] = (i * 37) & 4;
        g_flag_count += g_flags[i];
    }

    int scaled = g_st.n * 1000;
    g_st.flag = scaled;
    g_st.n = g_st.flag + g_st.flag;

    _Bool t = big;
    _Bool f = zero;
    g_b_cmp = (t == 1) + (f == 0) * 2 + (t > f) * 4 + (t + t == 2) * 8;

    g_b_compound += 5;
    g_b_compound *= 0;
    g_b_compound |= 1;
    g_b_and = big & 255;
    return 0;
}
