/* Binary search (exact match, lower bound) over a sorted global array. */
int g_sorted[32] = {
    -50, -42, -30, -29, -10, -3, 0, 1, 2, 5, 8, 13, 21, 34, 55, 89,
    90, 91, 100, 144, 200, 233, 377, 400, 500, 610, 700, 987, 1000, 1597, 2000, 2584
};
int g_queries[10] = {-50, 2584, 13, 14, -100, 3000, 0, 377, 376, 91};
int g_found[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_lower[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_probes = 0;
int g_isqrt[6] = {0, 0, 0, 0, 0, 0};

int bsearch_idx(int *a, int n, int key)
{
    int lo = 0;
    int hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        g_probes++;
        if (a[mid] == key)
            return mid;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int lower_bound(int *a, int n, int key)
{
    int lo = 0;
    int hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int isqrt(int v)
{
    int lo = 0;
    int hi = 46340;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (mid * mid <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int main(void)
{
    for (int i = 0; i < 10; i++) {
        g_found[i] = bsearch_idx(g_sorted, 32, g_queries[i]);
        g_lower[i] = lower_bound(g_sorted, 32, g_queries[i]);
    }
    g_isqrt[0] = isqrt(0);
    g_isqrt[1] = isqrt(1);
    g_isqrt[2] = isqrt(99);
    g_isqrt[3] = isqrt(100);
    g_isqrt[4] = isqrt(2147395600);
    g_isqrt[5] = isqrt(2147483647);
    return 0;
}
