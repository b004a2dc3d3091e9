/* All compound assignments on scalars, array elements and struct fields. */
struct s {
    int a;
    unsigned b;
    char c;
    long d;
};

int g_i = 100;
unsigned g_u = 0xDEADBEEFu;
char g_ch = 10;
unsigned char g_uch = 250;
short g_sh = 1000;
long g_l = 123456789012L;
int g_arr[5] = {1, 2, 3, 4, 5};
struct s g_st = {7, 0x80000000u, 'A', -9L};
int g_log[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

int main(void)
{
    g_i += 23;
    g_log[0] = g_i;
    g_i -= 200;
    g_log[1] = g_i;
    g_i *= -3;
    g_log[2] = g_i;
    g_i /= 7;
    g_log[3] = g_i;
    g_i %= 10;
    g_log[4] = g_i;
    g_i = 0x5A5A;
    g_i &= 0x0FF0;
    g_log[5] = g_i;
    g_i |= 0x1001;
    g_log[6] = g_i;
    g_i ^= 0x7777;
    g_log[7] = g_i;
    g_i <<= 3;
    g_log[8] = g_i;
    g_i >>= 2;
    g_log[9] = g_i;

    g_u += 0x30000000u;
    g_u *= 3u;
    g_u >>= 5;
    g_u ^= ~0u;
    g_u %= 1000003u;

    g_ch += 120;          /* 130 wraps in a signed char */
    g_uch += 10;          /* 260 wraps to 4 */
    g_uch -= 5;           /* wraps to 255 */
    g_sh *= 40;           /* 40000 wraps in short */
    g_sh /= 3;

    g_l *= 50;
    g_l -= 1L << 42;
    g_l /= -11;
    g_l %= 1000000007L;

    for (int i = 0; i < 5; i++) {
        g_arr[i] += i * 10;
        g_arr[i] *= 2;
        g_arr[(i + 1) % 5] -= 1;
        g_arr[i] <<= 1;
        g_arr[i] |= 1;
    }
    g_arr[2] %= 7;
    g_arr[3] /= 3;
    g_arr[4] &= 0x1C;
    g_arr[0] ^= g_arr[1];
    g_arr[1] >>= 2;

    g_st.a += 5;
    g_st.a *= g_st.a;
    g_st.b >>= 4;
    g_st.b |= 3u;
    g_st.c += 2;
    g_st.c ^= 0x20;
    g_st.d -= 100;
    g_st.d *= -1;
    g_st.d <<= 3;
    g_st.d %= 7;

    g_log[10] = g_arr[0] + g_arr[4];
    g_log[11] = g_st.a - g_st.c;
    return 0;
}
