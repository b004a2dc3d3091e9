/* Conditional operator ?: (nested, mixed types) and the comma operator. */
int g_vals[8] = {-5, 0, 3, 12, -1, 99, 7, 100};
int g_sign[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_clamped[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_abs_sum = 0;
unsigned g_mixed = 0;
long g_long_pick = 0;
int g_comma1 = 0;
int g_comma2 = 0;
int g_a = 1;
int g_b = 2;
int g_pairs = 0;
int g_side = 0;
int g_cond_calls = 0;

int side(int v)
{
    g_cond_calls++;
    return v;
}

int main(void)
{
    for (int i = 0; i < 8; i++) {
        int v = g_vals[i];
        g_sign[i] = v > 0 ? 1 : v < 0 ? -1 : 0;
        g_clamped[i] = v < 0 ? 0 : (v > 50 ? 50 : v);
        g_abs_sum += v < 0 ? -v : v;
    }

    int neg = -1;
    unsigned one = 1u;
    g_mixed = g_vals[0] < 0 ? one : one + 1u;
    g_mixed += (neg < 0) ? (unsigned)neg : one;
    g_long_pick = g_vals[3] > 10 ? 3000000000L : -1L;

    g_comma1 = (g_a++, g_b++, g_a + g_b);
    g_comma2 = (g_a += 10, g_b *= 3, g_a * g_b);

    for (int i = 0, j = 7; i < j; i++, j--) {
        g_pairs = g_pairs * 3 + (g_vals[i] < g_vals[j] ? 1 : 2);
    }

    g_side = g_a > 5 ? side(10) : side(20);
    g_side += g_a < 5 ? side(100) : side(200);
    g_side += (g_cond_calls == 2) ? side(1000) : 0;
    return 0;
}
