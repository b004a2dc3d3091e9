/* Global initialisers: constant expressions, negative values, arrays, structs, nested aggregates. */
enum { K_BASE = 7, K_SCALE = K_BASE * 3 };

struct s {
    int a;
    char b;
    unsigned long c;
    short d[3];
};

int g_const_expr = 3 * 4 + 1 - (10 / 3) % 2;
int g_shift_expr = (1 << 10) | (0xF0 >> 4);
unsigned g_hex = 0xFFFFFFFFu;
long g_long_init = -9223372036854775807L - 1;
unsigned long g_ul_init = 0xFEDCBA9876543210UL;
char g_char_init = 'Q';
signed char g_schar_init = -128;
unsigned char g_uchar_init = 255;
short g_short_init = -32768;
unsigned short g_ushort_init = 65535;
_Bool g_bool_init = 1;
long long g_ll_init = 1LL << 50;
int g_enum_init = K_SCALE + K_BASE;
int g_arr_init[5] = {-1, 0, 1, K_BASE, K_SCALE * 2};
char g_char_arr[6] = {'h', 'e', 'l', 'l', 'o', 0};
struct s g_struct_init = {-17, 'z', 12345678901UL, {-1, 2, -3}};
struct s g_struct_arr[2] = {{1, 'a', 1UL, {1, 1, 1}}, {2, 'b', 2UL, {2, 2, 2}}};
int g_grid_init[2][3] = {{1, 2, 3}, {4, 5, 6}};
int g_derived = 0;
long g_checksum = 0;

int main(void)
{
    g_derived = g_const_expr + g_shift_expr + g_enum_init + g_char_init + g_schar_init + g_uchar_init;
    g_checksum = g_long_init / 1000000000000L + (long)(g_ul_init >> 40) + g_short_init + g_ushort_init + g_bool_init;
    for (int i = 0; i < 5; i++)
        g_checksum += g_arr_init[i] * (i + 1);
    for (int i = 0; i < 6; i++)
        g_checksum += g_char_arr[i];
    for (int i = 0; i < 3; i++) {
        g_checksum += g_struct_init.d[i] + g_struct_arr[0].d[i] * g_struct_arr[1].d[i];
        g_checksum += g_grid_init[0][i] * g_grid_init[1][i];
    }
    g_checksum += g_struct_init.a + g_struct_init.b + (long)(g_struct_init.c % 1000);
    g_checksum ^= g_ll_init >> 20;
    g_struct_arr[1].c += g_hex;
    return 0;
}
