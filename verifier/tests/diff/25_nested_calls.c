/* Nested calls f(g(x), h(y)), calls in conditions and loop bounds, call chains. */
int g_calls = 0;
int g_r1 = 0;
int g_r2 = 0;
int g_r3 = 0;
int g_r4 = 0;
long g_r5 = 0;
int g_loop_total = 0;
int g_order = 0;

int sq(int x)
{
    g_calls++;
    return x * x;
}

int add(int a, int b)
{
    g_calls++;
    return a + b;
}

int neg(int x)
{
    g_calls++;
    return -x;
}

int max2(int a, int b)
{
    return a > b ? a : b;
}

int clamp(int v, int lo, int hi)
{
    return max2(lo, v < hi ? v : hi);
}

long widen(int a, int b)
{
    return (long)a * 100000L + b;
}

int limit(void)
{
    g_calls++;
    return 6;
}

int note(int v)
{
    g_order = g_order * 10 + v;
    return v;
}

int main(void)
{
    g_r1 = add(sq(3), neg(4));
    g_r2 = add(add(1, 2), add(sq(add(1, 1)), neg(neg(5))));
    g_r3 = clamp(sq(7), neg(10), add(20, 5));
    g_r4 = max2(clamp(-50, -3, 3), clamp(sq(2), 0, 3)) + sq(max2(neg(2), neg(3)));
    g_r5 = widen(sq(300), add(neg(1), 2));
    for (int i = 0; i < limit(); i++)
        g_loop_total += add(i, sq(i));
    if (add(note(1), 0) > 0 && add(note(2), 0) > 5)
        g_order += 1000000;
    int last = note(max2(note(3), 0) + 1);
    g_order = g_order * 10 + last;
    return 0;
}
