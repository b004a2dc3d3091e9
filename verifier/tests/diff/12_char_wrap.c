/* char / signed char / unsigned char arithmetic that wraps when stored. */
char g_c = 120;
signed char g_sc = -120;
unsigned char g_uc = 240;
char g_buf[16] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 127, -128, -1};
unsigned char g_ubuf[16] = {0, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240};
char g_c_add = 0;
signed char g_sc_sub = 0;
unsigned char g_uc_add = 0;
unsigned char g_uc_mul = 0;
char g_c_mul = 0;
int g_checksum = 0;
unsigned char g_hash = 0;
char g_letters[8] = {'a', 'b', 'c', 'x', 'y', 'z', 'M', 'N'};
int g_letter_sum = 0;

int main(void)
{
    int eight = 8;
    int forty = 40;
    g_c_add = g_c + eight;          /* 128 -> -128 */
    g_sc_sub = g_sc - eight * 2;    /* -136 -> 120 */
    g_uc_add = g_uc + forty;        /* 280 -> 24 */
    g_uc_mul = g_uc * 3;            /* 720 -> 208 */
    g_c_mul = g_c * 3;              /* 360 -> 104 */

    for (int i = 0; i < 16; i++) {
        g_buf[i] = g_buf[i] + 100;
        g_ubuf[i] = g_ubuf[i] * 5 + 7;
        g_checksum = g_checksum * 31 % 100003 + g_buf[i] + g_ubuf[i];
    }

    for (int r = 0; r < 50; r++) {
        g_hash = (g_hash << 1) ^ (g_hash >> 7) ^ (unsigned char)(r * 37);
        g_c += 7;
        g_sc -= 3;
        g_uc += 11;
    }

    for (int i = 0; i < 8; i++) {
        char ch = g_letters[i];
        if (ch >= 'a' && ch <= 'z')
            ch = ch - 'a' + 'A';
        else if (ch >= 'A' && ch <= 'Z')
            ch = ch - 'A' + 'a';
        g_letters[i] = ch + 13;
        g_letter_sum += g_letters[i];
    }
    return 0;
}
