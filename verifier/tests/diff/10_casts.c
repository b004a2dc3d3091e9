/* Explicit casts between all integer types (truncation, sign/zero extension). */
char g_c1 = 0;
signed char g_sc1 = 0;
unsigned char g_uc1 = 0;
short g_s1 = 0;
unsigned short g_us1 = 0;
int g_i1 = 0;
unsigned g_u1 = 0;
long g_l1 = 0;
unsigned long g_ul1 = 0;
long long g_ll1 = 0;
_Bool g_b1 = 0;
int g_i_from_uchar = 0;
int g_i_from_schar = 0;
long g_l_from_u = 0;
long g_l_from_neg_int = 0;
unsigned long g_ul_from_neg_int = 0;
unsigned g_u_from_neg_long = 0;
int g_i_from_big_long = 0;
short g_s_from_ulong = 0;
int g_roundtrip = 0;
unsigned long long g_ull = 0;
int g_chain = 0;

int main(void)
{
    int big = 300;
    int neg = -1;
    int huge = 70000;
    long lbig = 0x123456789ABCL;

    g_c1 = (char)big;
    g_sc1 = (signed char)(big - 100);
    g_uc1 = (unsigned char)neg;
    g_s1 = (short)huge;
    g_us1 = (unsigned short)neg;
    g_i1 = (int)(unsigned)4294967295u;
    g_u1 = (unsigned)neg;
    g_l1 = (long)neg;
    g_ul1 = (unsigned long)(unsigned)neg;
    g_ll1 = (long long)lbig * 16;
    g_b1 = (_Bool)big;

    g_i_from_uchar = (int)(unsigned char)200;
    g_i_from_schar = (int)(signed char)(unsigned char)200;
    g_l_from_u = (long)(unsigned)neg;
    g_l_from_neg_int = (long)(neg * 5);
    g_ul_from_neg_int = (unsigned long)neg;
    g_u_from_neg_long = (unsigned)(-lbig);
    g_i_from_big_long = (int)lbig;
    g_s_from_ulong = (short)(unsigned long)lbig;
    g_roundtrip = (int)(short)(unsigned short)(char)(unsigned char)(big + 1000);
    g_ull = (unsigned long long)(long long)(signed char)(unsigned char)big;
    g_chain = (int)(unsigned char)(short)-3 + (int)(signed char)(unsigned short)65409 + (int)(_Bool)(unsigned char)256;
    return 0;
}
