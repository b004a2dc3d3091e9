/* Basic integer arithmetic operators: + - * / % unary - unary + ~ ! */
int g_a = 17;
int g_b = -5;
int g_c = 3;
int g_add = 0;
int g_sub = 0;
int g_mul = 0;
int g_div = 0;
int g_mod = 0;
int g_neg = 0;
int g_pos = 0;
int g_compl = 0;
int g_lnot_zero = 0;
int g_lnot_nonzero = 0;
int g_prec = 0;
int g_paren = 0;
int g_chain = 0;
int g_table[8] = {0, 0, 0, 0, 0, 0, 0, 0};
int g_sum = 0;

int poly(int x)
{
    return 3 * x * x - 7 * x + 2;
}

int main(void)
{
    int x = g_a;
    int y = g_b;
    int z = g_c;
    int zero = x - x;

    g_add = x + y;
    g_sub = y - x;
    g_mul = x * y;
    g_div = x / z;
    g_mod = x % z;
    g_neg = -x;
    g_pos = +y;
    g_compl = ~x;
    g_lnot_zero = !zero;
    g_lnot_nonzero = !x;
    g_prec = x + y * z - x / z % 4;
    g_paren = (x + y) * (z - x);
    g_chain = -(-y) + ~(~z) + !!x - !y + ~0;

    for (int i = 0; i < 8; i++) {
        g_table[i] = (i * x - y) / (i + 1) + (i % 3) * -z + poly(i - 4);
        g_sum += g_table[i];
    }
    g_sum = g_sum * 2 - g_sum / 3 + -g_sum % 5;
    return 0;
}
