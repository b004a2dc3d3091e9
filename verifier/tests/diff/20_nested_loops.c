/* Nested loops with break/continue at different levels and loop-exit flags. */
int g_grid[6][6] = {
    {1, 2, 3, 4, 5, 6},
    {7, 0, 9, 10, 11, 12},
    {13, 14, 15, 0, 17, 18},
    {19, 20, 21, 22, 23, 24},
    {25, 26, 0, 28, 29, 30},
    {31, 32, 33, 34, 35, 36}
};
int g_row_sums_until_zero[6] = {0, 0, 0, 0, 0, 0};
int g_found_r = -1;
int g_found_c = -1;
int g_triangle = 0;
int g_skip_diag = 0;
int g_pythag = 0;
int g_inner_iters = 0;
int g_primes_below_50 = 0;
int g_while_in_for = 0;

int main(void)
{
    for (int r = 0; r < 6; r++) {
        for (int c = 0; c < 6; c++) {
            if (g_grid[r][c] == 0)
                break;
            g_row_sums_until_zero[r] += g_grid[r][c];
        }
    }

    int done = 0;
    for (int r = 0; r < 6 && !done; r++) {
        for (int c = 0; c < 6; c++) {
            if (g_grid[r][c] > 20 && (g_grid[r][c] % 7) == 0) {
                g_found_r = r;
                g_found_c = c;
                done = 1;
                break;
            }
        }
    }

    for (int i = 0; i < 10; i++)
        for (int j = 0; j <= i; j++)
            g_triangle += j;

    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) {
            if (i == j)
                continue;
            if (j > i + 2)
                break;
            g_skip_diag += g_grid[i][j];
        }
    }

    for (int a = 1; a < 20; a++) {
        for (int b = a; b < 20; b++) {
            for (int c = b; c < 30; c++) {
                g_inner_iters++;
                if (a * a + b * b == c * c) {
                    g_pythag += a * 10000 + b * 100 + c;
                    break;
                }
                if (c * c > a * a + b * b)
                    break;
            }
        }
    }

    for (int n = 2; n < 50; n++) {
        int prime = 1;
        for (int d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                prime = 0;
                break;
            }
        }
        if (!prime)
            continue;
        g_primes_below_50++;
    }

    for (int i = 1; i <= 5; i++) {
        int k = i;
        while (k > 0) {
            g_while_in_for += k;
            k -= 2;
        }
    }
    return 0;
}
