/* A tiny state machine (enum states + switch) tokenising a character stream of digits. */
enum state { S_START, S_NUMBER, S_SIGN, S_SPACE, S_ERROR };

char g_input[40] = {
    '1', '2', ' ', '-', '3', '4', ' ', ' ', '+', '5',
    '6', '7', ' ', '8', 'x', '9', ' ', '-', ' ', '1',
    '0', '0', ' ', '4', '2', ' ', '-', '-', '7', ' ',
    '3', ' ', '0', '0', '9', ' ', '+', '1', ' ', '5'
};
int g_numbers[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_count = 0;
int g_errors = 0;
int g_transitions[5] = {0, 0, 0, 0, 0};
enum state g_final = S_START;
int g_total = 0;

int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

void emit(int v)
{
    if (g_count < 16)
        g_numbers[g_count++] = v;
}

int main(void)
{
    enum state st = S_START;
    int value = 0;
    int sign = 1;
    for (int i = 0; i < 40; i++) {
        char c = g_input[i];
        g_transitions[st]++;
        switch (st) {
        case S_START:
        case S_SPACE:
            if (is_digit(c)) {
                value = c - '0';
                sign = 1;
                st = S_NUMBER;
            } else if (c == '-' || c == '+') {
                sign = c == '-' ? -1 : 1;
                st = S_SIGN;
            } else if (c == ' ') {
                st = S_SPACE;
            } else {
                st = S_ERROR;
            }
            break;
        case S_SIGN:
            if (is_digit(c)) {
                value = c - '0';
                st = S_NUMBER;
            } else {
                st = S_ERROR;
            }
            break;
        case S_NUMBER:
            if (is_digit(c)) {
                value = value * 10 + (c - '0');
            } else if (c == ' ') {
                emit(sign * value);
                st = S_SPACE;
            } else {
                st = S_ERROR;
            }
            break;
        case S_ERROR:
            if (c == ' ') {
                g_errors++;
                st = S_SPACE;
            }
            break;
        }
    }
    if (st == S_NUMBER)
        emit(sign * value);
    else if (st == S_ERROR || st == S_SIGN)
        g_errors++;
    g_final = st;
    for (int i = 0; i < g_count; i++)
        g_total += g_numbers[i];
    return 0;
}
