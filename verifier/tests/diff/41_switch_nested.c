/* Nested switches, switch on char and long, switch inside a switch case's loop. */
int g_nested_sw = 0;
char g_char_sw = 0;
int g_long_sw = 0;
int g_vowels = 0;
int g_consonants = 0;
int g_other = 0;
char g_text[12] = {'s', 'w', 'i', 't', 'c', 'h', ' ', 'c', 'A', 's', 'E', '!'};

int main(void)
{
    for (int a = 0; a < 3; a++) {
        switch (a) {
        case 0:
            for (int b = 0; b < 3; b++) {
                switch (b) {
                case 1:
                    g_nested_sw += 100;
                    break;
                default:
                    g_nested_sw += 1;
                }
            }
            break;
        case 1:
            g_nested_sw += 1000;
            /* fall through */
        case 2:
            g_nested_sw += 10000;
            break;
        }
    }

    char c = 'b';
    switch (c) {
    case 'a':
        g_char_sw = 'A';
        break;
    case 'b':
        g_char_sw = 'B';
        break;
    default:
        g_char_sw = '?';
        break;
    }

    long big = 5000000000L;
    switch (big) {
    case 5000000000L:
        g_long_sw = 1;
        break;
    case 705032704L:
        g_long_sw = 2;
        break;
    default:
        g_long_sw = 3;
    }

    for (int i = 0; i < 12; i++) {
        char ch = g_text[i];
        if (ch >= 'A' && ch <= 'Z')
            ch += 'a' - 'A';
        switch (ch) {
        case 'a': case 'e': case 'i': case 'o': case 'u':
            g_vowels++;
            break;
        default:
            if (ch >= 'a' && ch <= 'z')
                g_consonants++;
            else
                g_other++;
        }
    }
    return 0;
}
