/* Pre/post increment and decrement on scalars, array elements, struct fields. */
struct s {
    int n;
    unsigned char small;
    long big;
    int hist[4];
};

int g_a = 10;
int g_b = 0;
int g_c = 0;
int g_d = 0;
int g_e = 0;
unsigned g_u = 0;
unsigned char g_uc = 254;
signed char g_sc = 126;
int g_arr[6] = {5, 10, 15, 20, 25, 30};
struct s g_st = {0, 255, 4294967295L, {1, 2, 3, 4}};
struct s g_sa[2] = {{1, 0, 0L, {0, 0, 0, 0}}, {2, 1, -1L, {9, 9, 9, 9}}};
int g_idx = 0;
int g_sum = 0;

void bump_ptr(int *p)
{
    (*p)++;
    ++*p;
    (*p)--;
}

int main(void)
{
    g_b = g_a++;
    g_c = ++g_a;
    g_d = g_a--;
    g_e = --g_a;

    g_u--;
    g_u--;
    g_uc++;
    g_uc++;
    g_uc++;
    g_sc++;

    g_arr[0]++;
    ++g_arr[1];
    g_arr[2]--;
    --g_arr[3];
    g_sum = g_arr[4]++ + --g_arr[5];

    int i = 0;
    while (i < 6) {
        g_sum += g_arr[i++];
    }
    g_idx = i--;
    g_idx += i;

    g_st.n++;
    ++g_st.n;
    g_st.small++;
    g_st.big++;
    g_st.hist[2]++;
    --g_st.hist[0];
    g_sa[1].n--;
    g_sa[0].hist[3]++;
    ++g_sa[1].small;
    g_sa[1].big--;

    bump_ptr(&g_arr[1]);
    bump_ptr(&g_st.n);
    bump_ptr(&g_sa[0].hist[1]);

    int k = 3;
    int x = k++ * 2;
    int y = --k * 3;
    g_sum += x * 100 + y;
    return 0;
}
