/* Bitwise & | ^ ~ << >> on signed and unsigned values. */
unsigned g_ua = 0xF0F0A5A5u;
unsigned g_ub = 0x0FF03C3Cu;
int g_sa = -12345;
int g_sb = 12345;
unsigned g_and = 0;
unsigned g_or = 0;
unsigned g_xor = 0;
unsigned g_not = 0;
unsigned g_shl = 0;
unsigned g_shr = 0;
int g_sshr = 0;
int g_sshl = 0;
int g_sneg_shr_big = 0;
unsigned g_rotl = 0;
unsigned g_rotr = 0;
int g_popcount = 0;
int g_lowbit = 0;
unsigned g_mask_acc = 0;
long g_lshift = 0;
unsigned long g_ulshift = 0;
int g_snot = 0;
int g_parity = 0;

int popcount(unsigned v)
{
    int n = 0;
    while (v != 0) {
        n += (int)(v & 1u);
        v >>= 1;
    }
    return n;
}

unsigned rotl(unsigned v, int k)
{
    if (k == 0)
        return v;
    return (v << k) | (v >> (32 - k));
}

int main(void)
{
    g_and = g_ua & g_ub;
    g_or = g_ua | g_ub;
    g_xor = g_ua ^ g_ub;
    g_not = ~g_ua;
    g_shl = g_ua << 4;
    g_shr = g_ua >> 7;
    g_sshr = g_sa >> 3;
    g_sneg_shr_big = g_sa >> 31;
    g_sshl = g_sb << 10;
    g_rotl = rotl(g_ua, 5);
    g_rotr = (g_ua >> 9) | (g_ua << 23);
    g_popcount = popcount(g_ua) * 100 + popcount(g_ub);
    g_lowbit = g_sb & -g_sb;
    for (int i = 0; i < 32; i += 3) {
        g_mask_acc ^= (1u << i) & g_ua;
        g_mask_acc |= (g_ub >> i) & 0x3u;
    }
    g_lshift = 1L << 40;
    g_lshift |= 5L << 33;
    g_ulshift = 0xFFFFFFFFFFFFFFFFUL >> 17;
    g_ulshift ^= 1UL << 63;
    g_snot = ~g_sa & 0x7FFF;
    g_parity = popcount(g_ua ^ g_ub) & 1;
    return 0;
}
