/* && and || with short-circuit evaluation of side-effecting right operands. */
int g_x = 5;
int g_cnt = 0;
int g_calls = 0;
int g_trace = 0;
int g_r1 = 0;
int g_r2 = 0;
int g_r3 = 0;
int g_r4 = 0;
int g_r5 = 0;
int g_r6 = 0;
int g_r7 = 0;
int g_r8 = 0;
int g_values[6] = {4, 9, 2, 0, 7, 1};
int g_scan = 0;
int g_demorgan_ok = 0;
int g_bool_vals = 0;

int bump(int v)
{
    g_calls++;
    g_trace = g_trace * 10 + v;
    return v;
}

int main(void)
{
    if (g_x > 0 && (g_cnt++ > 0))
        g_r1 = 1;
    else
        g_r1 = 2;
    if (g_x > 0 && (g_cnt++ > 0))
        g_r2 = 1;
    else
        g_r2 = 2;
    if (g_x < 0 && (g_cnt++ > 0))
        g_r3 = 1;
    else
        g_r3 = 2;
    if (g_x > 0 || (g_cnt++ > 0))
        g_r4 = 1;
    else
        g_r4 = 2;

    g_r5 = bump(0) && bump(1);
    g_r6 = bump(2) || bump(3);
    g_r7 = (bump(1) && bump(0)) || bump(7);
    g_r8 = bump(0) || (bump(4) && bump(5)) || bump(6);

    while (g_scan < 6 && g_values[g_scan] != 0)
        g_scan++;

    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            int lhs = !(a && b);
            int rhs = !a || !b;
            int lhs2 = !(a || b);
            int rhs2 = !a && !b;
            if (lhs == rhs && lhs2 == rhs2)
                g_demorgan_ok++;
        }
    }

    int seven = 7;
    int zero = 0;
    g_bool_vals = (seven && seven) * 1000 + (seven || zero) * 100 + (zero && seven) * 10 + (zero || zero);
    return 0;
}
