/* Division and modulo with negative operands (C truncates toward zero). */
int g_num[8] = {7, -7, 7, -7, 0, -1, 1, -100};
int g_den[8] = {2, 2, -2, -2, -3, 5, -5, 7};
int g_quot[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_rem[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_identity_ok = 0;
long g_lquot = 0;
long g_lrem = 0;
int g_min_div = 0;
int g_min_mod = 0;
int g_const_q1 = 0;
int g_const_r1 = 0;
int g_const_q2 = 0;
int g_const_r2 = 0;
int g_char_div = 0;
int g_short_mod = 0;
unsigned g_udiv = 0;
unsigned g_umod = 0;
int g_floor_mod_sum = 0;

int floor_mod(int a, int b)
{
    int r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

int main(void)
{
    for (int i = 0; i < 8; i++) {
        g_quot[i] = g_num[i] / g_den[i];
        g_rem[i] = g_num[i] % g_den[i];
        if (g_quot[i] * g_den[i] + g_rem[i] == g_num[i])
            g_identity_ok++;
        g_floor_mod_sum += floor_mod(g_num[i], g_den[i]) * (i + 1);
    }

    long a = -100000000000L;
    long b = 7;
    g_lquot = a / b;
    g_lrem = a % b;

    int m = -2147483647 - 1;
    g_min_div = m / 2;
    g_min_mod = m % 3;

    g_const_q1 = -13 / 4;
    g_const_r1 = -13 % 4;
    g_const_q2 = 13 / -4;
    g_const_r2 = 13 % -4;

    signed char sc = -100;
    g_char_div = sc / 3;
    short sh = -32000;
    g_short_mod = sh % 9;

    int neg7 = -7;
    g_udiv = 4294967295u / 7u;
    g_umod = (unsigned)neg7 % 3u;
    return 0;
}
