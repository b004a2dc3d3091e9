/* switch inside loops: continue skips the rest of the loop body, break only exits the switch. */
int g_ops[16] = {1, 5, 2, 3, 0, 4, 4, 1, 2, 9, 3, 0, 5, 1, 1, 2};
int g_acc = 0;
int g_after_switch = 0;
int g_continued = 0;
int g_unknown = 0;
int g_stop_index = -1;
int g_trace[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_while_sw = 0;

int main(void)
{
    for (int i = 0; i < 16; i++) {
        switch (g_ops[i]) {
        case 0:
            g_continued++;
            continue;
        case 1:
            g_acc += 3;
            break;
        case 2:
            g_acc *= 2;
            break;
        case 3:
            g_acc -= 7;
            /* fall through */
        case 4:
            g_acc ^= 5;
            break;
        case 5:
            if (g_acc > 20)
                continue;
            g_acc += 100;
            break;
        default:
            g_unknown++;
            continue;
        }
        g_after_switch++;
        g_trace[i] = g_acc;
    }

    int i = 0;
    int running = 1;
    while (running && i < 16) {
        switch (g_ops[i]) {
        case 9:
            g_stop_index = i;
            running = 0;
            break;
        case 0:
            i++;
            continue;
        default:
            g_while_sw += g_ops[i] * (i + 1);
            break;
        }
        i++;
    }
    return 0;
}
