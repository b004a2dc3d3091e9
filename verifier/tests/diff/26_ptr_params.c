/* Pointer parameters writing through *p, p->field and p[i] into globals. */
struct s {
    int x;
    int y;
    long total;
    unsigned char tag;
};

int g_a = 5;
int g_b = 9;
long g_l = 100;
unsigned char g_uc = 250;
int g_arr[8] = {8, 7, 6, 5, 4, 3, 2, 1};
struct s g_pt = {1, 2, 0L, 0};
struct s g_pts[3] = {{1, 1, 0L, 1}, {2, 4, 0L, 2}, {3, 9, 0L, 3}};
int g_ret = 0;
int g_minmax_lo = 0;
int g_minmax_hi = 0;

void inc(int *p)
{
    *p += 1;
}

void swap(int *p, int *q)
{
    int t = *p;
    *p = *q;
    *q = t;
}

void add_long(long *p, int v)
{
    *p = *p * 2 + v;
}

void wrap_uc(unsigned char *p)
{
    *p += 10;
}

void fill(int *p, int n, int start)
{
    for (int i = 0; i < n; i++)
        p[i] = start + i * i;
}

int sum(int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

void set(struct s *q, int x, int y)
{
    q->x = x;
    q->y = y;
    q->total = (long)q->x * q->y;
    q->tag++;
}

void scale(struct s *q, int k)
{
    q->x *= k;
    q->y = q->y * k + q->x;
    q->total += q->x + q->y;
}

int minmax(int *p, int n, int *lo, int *hi)
{
    *lo = p[0];
    *hi = p[0];
    for (int i = 1; i < n; i++) {
        if (p[i] < *lo)
            *lo = p[i];
        if (p[i] > *hi)
            *hi = p[i];
    }
    return *hi - *lo;
}

int main(void)
{
    inc(&g_a);
    inc(&g_a);
    swap(&g_a, &g_b);
    add_long(&g_l, 7);
    wrap_uc(&g_uc);
    inc(&g_arr[3]);
    swap(&g_arr[0], &g_arr[7]);
    fill(&g_arr[4], 4, -3);
    g_ret = sum(g_arr, 8);
    set(&g_pt, 30000, 70000);
    scale(&g_pt, -2);
    for (int i = 0; i < 3; i++) {
        scale(&g_pts[i], i + 2);
        inc(&g_pts[i].x);
    }
    set(&g_pts[1], g_pts[0].x, g_pts[2].y);
    g_ret += minmax(g_arr, 8, &g_minmax_lo, &g_minmax_hi);
    return 0;
}
