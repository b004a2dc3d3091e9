/* Comparison operators < <= > >= == != producing 0/1 values. */
int g_vals[6] = {-3, 0, 7, 7, -100, 2147483647};
int g_lt[5] = {0, 0, 0, 0, 0};
int g_le[5] = {0, 0, 0, 0, 0};
int g_gt[5] = {0, 0, 0, 0, 0};
int g_ge[5] = {0, 0, 0, 0, 0};
int g_eq[5] = {0, 0, 0, 0, 0};
int g_ne[5] = {0, 0, 0, 0, 0};
int g_encoded = 0;
int g_sum_of_cmps = 0;
int g_long_cmp = 0;
int g_char_cmp = 0;
int g_max = 0;
int g_min = 0;
int g_sorted_pairs = 0;

int main(void)
{
    for (int i = 0; i < 5; i++) {
        int a = g_vals[i];
        int b = g_vals[i + 1];
        g_lt[i] = a < b;
        g_le[i] = a <= b;
        g_gt[i] = a > b;
        g_ge[i] = a >= b;
        g_eq[i] = a == b;
        g_ne[i] = a != b;
        g_encoded = g_encoded * 2 + (a < b);
        g_encoded = g_encoded * 2 + (a == b);
        g_sum_of_cmps += (a <= b) + (a >= b) * 2 + (a != b) * 4;
    }

    long l1 = 5000000000L;
    long l2 = -5000000000L;
    g_long_cmp = (l1 > l2) + (l1 == -l2) * 2 + (l2 < 0) * 4 + (l1 <= 4999999999L) * 8;

    char c1 = 'a';
    char c2 = 'z';
    signed char c3 = -1;
    g_char_cmp = (c1 < c2) + (c3 < c1) * 2 + (c2 - c1 == 25) * 4;

    g_max = g_vals[0];
    g_min = g_vals[0];
    for (int i = 1; i < 6; i++) {
        if (g_vals[i] > g_max)
            g_max = g_vals[i];
        if (g_vals[i] < g_min)
            g_min = g_vals[i];
    }
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            g_sorted_pairs += (g_vals[i] <= g_vals[j]);
    return 0;
}
