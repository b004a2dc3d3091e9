/* Euclid's gcd (mod and subtraction variants), lcm, extended gcd, binary gcd on unsigned. */
int g_pairs_a[6] = {48, 1071, 17, 0, 100, 270};
int g_pairs_b[6] = {18, 462, 5, 9, 75, 192};
int g_gcd_mod[6] = {0, 0, 0, 0, 0, 0};
int g_gcd_sub[6] = {0, 0, 0, 0, 0, 0};
unsigned g_gcd_bin[6] = {0, 0, 0, 0, 0, 0};
long g_lcm_all = 1;
int g_ext_x = 0;
int g_ext_y = 0;
int g_ext_g = 0;
int g_coprime_count = 0;

int gcd_mod(int a, int b)
{
    while (b != 0) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int gcd_sub(int a, int b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    while (a != b) {
        if (a > b)
            a -= b;
        else
            b -= a;
    }
    return a;
}

unsigned gcd_bin(unsigned a, unsigned b)
{
    int shift = 0;
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    while (((a | b) & 1u) == 0) {
        a >>= 1;
        b >>= 1;
        shift++;
    }
    while ((a & 1u) == 0)
        a >>= 1;
    do {
        while ((b & 1u) == 0)
            b >>= 1;
        if (a > b) {
            unsigned t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b != 0);
    return a << shift;
}

void ext_gcd(int a, int b, int *gx, int *gy, int *gg)
{
    int old_r = a, r = b;
    int old_s = 1, s = 0;
    int old_t = 0, t = 1;
    while (r != 0) {
        int q = old_r / r;
        int tmp = r;
        r = old_r - q * r;
        old_r = tmp;
        tmp = s;
        s = old_s - q * s;
        old_s = tmp;
        tmp = t;
        t = old_t - q * t;
        old_t = tmp;
    }
    *gx = old_s;
    *gy = old_t;
    *gg = old_r;
}

int main(void)
{
    for (int i = 0; i < 6; i++) {
        g_gcd_mod[i] = gcd_mod(g_pairs_a[i], g_pairs_b[i]);
        g_gcd_sub[i] = gcd_sub(g_pairs_a[i], g_pairs_b[i]);
        g_gcd_bin[i] = gcd_bin((unsigned)g_pairs_a[i], (unsigned)g_pairs_b[i]);
    }
    for (int k = 1; k <= 20; k++) {
        long g = gcd_mod((int)(g_lcm_all % 1000000007L), k);
        g_lcm_all = g_lcm_all / g * k;
    }
    ext_gcd(240, 46, &g_ext_x, &g_ext_y, &g_ext_g);
    for (int a = 1; a <= 30; a++)
        for (int b = 1; b <= 30; b++)
            if (gcd_mod(a, b) == 1)
                g_coprime_count++;
    return 0;
}
