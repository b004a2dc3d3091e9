/* Enums with implicit and explicit values, enum variables, enums in switch and arithmetic. */
enum color { RED, GREEN, BLUE, COLOR_COUNT };
enum level { LOW = 10, MID = 20, HIGH = MID + 15, TOP };
enum mixed { NEG = -3, AFTER_NEG, ZERO_AGAIN = 0, BIG = 1000, BIG_NEXT };

enum color g_color = BLUE;
enum level g_level = LOW;
int g_counts[COLOR_COUNT] = {0, 0, 0};
int g_values[6] = {RED, GREEN, BLUE, COLOR_COUNT, TOP, AFTER_NEG};
int g_switch_result = 0;
int g_mixed_sum = 0;
enum color g_cycle[7] = {RED, RED, RED, RED, RED, RED, RED};
int g_cmp = 0;

int weight(enum level l)
{
    switch (l) {
    case LOW:
        return 1;
    case MID:
        return 2;
    case HIGH:
        return 3;
    case TOP:
        return 4;
    }
    return 0;
}

enum color next_color(enum color c)
{
    if (c == BLUE)
        return RED;
    return (enum color)(c + 1);
}

int main(void)
{
    enum color c = GREEN;
    for (int i = 0; i < 7; i++) {
        g_cycle[i] = c;
        g_counts[c]++;
        c = next_color(c);
    }
    g_color = next_color(g_color);

    for (int l = LOW; l <= TOP; l++) {
        switch (l) {
        case LOW:
        case MID:
        case HIGH:
        case TOP:
            g_switch_result += weight((enum level)l) * l;
            break;
        default:
            g_switch_result += 1;
            break;
        }
    }
    g_level = HIGH;
    g_mixed_sum = NEG + AFTER_NEG + ZERO_AGAIN + BIG + BIG_NEXT + g_level;
    g_cmp = (RED < BLUE) + (HIGH == 35) * 2 + (TOP > HIGH) * 4 + (AFTER_NEG == -2) * 8;
    return 0;
}
