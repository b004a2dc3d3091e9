/* Bubble sort with early exit, on int and unsigned char arrays (via pointer parameter). */
int g_data[16] = {34, -7, 23, 32, 5, 62, -15, 0, 23, 8, 99, -1, 4, 17, 42, 11};
unsigned char g_bytes[10] = {200, 3, 255, 17, 0, 128, 64, 127, 1, 254};
int g_swaps = 0;
int g_passes = 0;
int g_is_sorted = 0;
int g_byte_swaps = 0;
int g_median = 0;

void bubble(int *a, int n)
{
    for (int pass = 0; pass < n - 1; pass++) {
        int swapped = 0;
        g_passes++;
        for (int i = 0; i < n - 1 - pass; i++) {
            if (a[i] > a[i + 1]) {
                int t = a[i];
                a[i] = a[i + 1];
                a[i + 1] = t;
                swapped = 1;
                g_swaps++;
            }
        }
        if (!swapped)
            break;
    }
}

int check_sorted(int *a, int n)
{
    for (int i = 0; i + 1 < n; i++)
        if (a[i] > a[i + 1])
            return 0;
    return 1;
}

int main(void)
{
    bubble(g_data, 16);
    g_is_sorted = check_sorted(g_data, 16);
    g_median = (g_data[7] + g_data[8]) / 2;

    /* descending sort of bytes, done inline */
    int n = 10;
    int swapped = 1;
    while (swapped) {
        swapped = 0;
        for (int i = 1; i < n; i++) {
            if (g_bytes[i - 1] < g_bytes[i]) {
                unsigned char t = g_bytes[i - 1];
                g_bytes[i - 1] = g_bytes[i];
                g_bytes[i] = t;
                swapped = 1;
                g_byte_swaps++;
            }
        }
        n--;
    }
    return 0;
}
