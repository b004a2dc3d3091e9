/* long / long long arithmetic beyond 32 bits. */
long g_x = 3000000000L;
long g_y = -7000000000L;
long long g_z = 123456789LL;
long g_add = 0;
long g_mul = 0;
long g_square = 0;
long g_div = 0;
long g_mod = 0;
long long g_ll_mul = 0;
long g_from_int_mul = 0;
long g_shift = 0;
long g_neg_shift = 0;
long g_acc = 0;
int g_hi = 0;
unsigned g_lo = 0;
long g_max_like = 0;
long g_factorial20 = 0;
long long g_pow3 = 0;

int main(void)
{
    g_add = g_x + g_y;
    g_mul = g_x * 3;
    g_square = g_x * g_x;
    g_div = g_y / 13;
    g_mod = g_y % 1000003;
    g_ll_mul = g_z * g_z;

    int a = 100000;
    int b = 300000;
    g_from_int_mul = (long)a * b;
    g_shift = g_x << 20;
    g_neg_shift = g_y >> 9;

    for (int i = 1; i <= 40; i++) {
        g_acc = g_acc * 3 % 1000000000039L + i * 1000000007L;
    }

    g_hi = (int)(g_square >> 32);
    g_lo = (unsigned)g_square;

    g_max_like = 0x7FFFFFFFFFFFFFFFL - g_x;

    long f = 1;
    for (int i = 2; i <= 20; i++)
        f *= i;
    g_factorial20 = f;

    long long p = 1;
    for (int i = 0; i < 39; i++)
        p *= 3;
    g_pow3 = p;
    return 0;
}
