/* return from the middle of functions and loops; functions with multiple returns. */
int g_arr[12] = {5, 3, 9, 14, 2, 8, 21, 6, 11, 0, 7, 4};
int g_find9 = 0;
int g_find_missing = 0;
int g_first_over10 = 0;
int g_first_multiple = 0;
int g_sign_results[5] = {0, 0, 0, 0, 0};
int g_prime_flags[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_side_effects = 0;
int g_early_sum = 0;

int find(int v)
{
    for (int i = 0; i < 12; i++) {
        if (g_arr[i] == v)
            return i;
    }
    return -1;
}

int first_over(int limit)
{
    int i = 0;
    while (1) {
        if (i >= 12)
            return -1;
        if (g_arr[i] > limit)
            return g_arr[i];
        i++;
    }
}

int first_multiple(int k, int start)
{
    for (int i = start; i < 12; i++) {
        for (int j = i + 1; j < 12; j++) {
            if (g_arr[i] * g_arr[j] == k)
                return i * 100 + j;
        }
    }
    return 0;
}

int sign3(int v)
{
    if (v > 0)
        return 1;
    if (v < 0)
        return -1;
    return 0;
}

int is_prime(int n)
{
    if (n < 2)
        return 0;
    if (n < 4)
        return 1;
    if (n % 2 == 0)
        return 0;
    for (int d = 3; d * d <= n; d += 2)
        if (n % d == 0)
            return 0;
    return 1;
}

int sum_until(int stop)
{
    int s = 0;
    for (int i = 0; i < 12; i++) {
        g_side_effects++;
        if (g_arr[i] == stop)
            return s;
        s += g_arr[i];
    }
    g_side_effects += 100;
    return s;
}

int main(void)
{
    g_find9 = find(9);
    g_find_missing = find(100);
    g_first_over10 = first_over(10);
    g_first_multiple = first_multiple(42, 0);
    g_sign_results[0] = sign3(-5);
    g_sign_results[1] = sign3(0);
    g_sign_results[2] = sign3(7);
    g_sign_results[3] = sign3(first_over(100));
    g_sign_results[4] = sign3(find(0));
    for (int i = 0; i < 12; i++)
        g_prime_flags[i] = is_prime(g_arr[i]);
    g_early_sum = sum_until(21) * 1000 + sum_until(99);
    return 0;
}
