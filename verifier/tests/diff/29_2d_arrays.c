/* 2-D arrays: initialisation, matrix multiply, transpose, row/column sums. */
int g_a[3][4] = {
    {1, 2, 3, 4},
    {-1, 0, 5, 2},
    {7, -3, 1, 0}
};
int g_b[4][2] = {
    {2, 1},
    {0, -1},
    {3, 4},
    {-2, 5}
};
int g_prod[3][2] = {{0, 0}, {0, 0}, {0, 0}};
int g_trans[4][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
int g_row_sum[3] = {0, 0, 0};
int g_col_sum[4] = {0, 0, 0, 0};
unsigned char g_img[4][4] = {
    {0, 50, 100, 150},
    {200, 250, 255, 1},
    {2, 3, 4, 5},
    {10, 20, 30, 40}
};
int g_diag = 0;
int g_pascal[8][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}
};
long g_cells = 0;

int main(void)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 4; k++)
                g_prod[i][j] += g_a[i][k] * g_b[k][j];

    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++) {
            g_trans[j][i] = g_a[i][j];
            g_row_sum[i] += g_a[i][j];
            g_col_sum[j] += g_a[i][j];
        }
    }

    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++)
            g_img[i][j] += 10;
        g_diag += g_img[i][i] + g_img[i][3 - i];
    }

    for (int n = 0; n < 8; n++) {
        g_pascal[n][0] = 1;
        for (int k = 1; k <= n; k++)
            g_pascal[n][k] = g_pascal[n - 1][k - 1] + g_pascal[n - 1][k];
    }

    int local[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            local[i][j] = (i + 1) * (j + 2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            g_cells = g_cells * 7 + local[i][j] - local[j][i] + g_pascal[7][i + j];
    return 0;
}
