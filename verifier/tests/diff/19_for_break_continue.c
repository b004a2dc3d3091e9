/* for loops with break and continue, loop variables declared in the header. */
int g_data[20] = {3, 8, -1, 4, 0, 12, 7, -6, 5, 9, 11, 2, 0, 15, -3, 6, 1, 10, 13, 14};
int g_first_neg = -1;
int g_first_zero_after5 = -1;
int g_pos_sum = 0;
int g_odd_count = 0;
int g_skipped = 0;
int g_last_i = 0;
int g_evens[20] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_nevens = 0;
int g_sum_until_big = 0;
int g_empty_loop = 0;
int g_infinite_break = 0;

int main(void)
{
    for (int i = 0; i < 20; i++) {
        if (g_data[i] < 0) {
            g_first_neg = i;
            break;
        }
    }
    for (int i = 5; i < 20; i++) {
        if (g_data[i] != 0)
            continue;
        g_first_zero_after5 = i;
        break;
    }
    for (int i = 0; i < 20; i++) {
        if (g_data[i] <= 0) {
            g_skipped++;
            continue;
        }
        g_pos_sum += g_data[i];
        if (g_data[i] % 2 == 0)
            continue;
        g_odd_count++;
    }
    int i;
    for (i = 0; i < 20; i += 3) {
        if (g_data[i] > 12)
            break;
    }
    g_last_i = i;

    for (int j = 0; j < 20; j++) {
        if (g_data[j] % 2 != 0)
            continue;
        g_evens[g_nevens++] = g_data[j];
    }

    for (int j = 0; j < 20; j++) {
        g_sum_until_big += g_data[j];
        if (g_sum_until_big > 40)
            break;
    }

    for (int j = 10; j < 5; j++)
        g_empty_loop++;

    for (int j = 0;; j++) {
        if (j * j > 200) {
            g_infinite_break = j;
            break;
        }
    }
    return 0;
}
