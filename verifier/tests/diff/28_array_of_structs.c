/* Arrays of structs: arr[i].f reads/writes, searching, aggregating, sorting by field. */
struct s {
    int key;
    int qty;
    unsigned char cat;
    long price;
};

struct s g_items[6] = {
    {17, 3, 1, 250L},
    {4, 10, 2, 75L},
    {23, 1, 1, 10000L},
    {8, 0, 3, 5L},
    {15, 7, 2, 320L},
    {1, 2, 3, 3000000000L}
};
long g_total_value = 0;
int g_cat_counts[4] = {0, 0, 0, 0};
int g_max_key_idx = 0;
int g_sorted_keys[6] = {0, 0, 0, 0, 0, 0};
int g_qty_after = 0;
int g_lookup15 = -1;

int main(void)
{
    for (int i = 0; i < 6; i++) {
        g_total_value += g_items[i].price * g_items[i].qty;
        g_cat_counts[g_items[i].cat]++;
        if (g_items[i].key > g_items[g_max_key_idx].key)
            g_max_key_idx = i;
    }

    for (int i = 0; i < 6; i++) {
        if (g_items[i].qty == 0) {
            g_items[i].qty = 5;
            g_items[i].cat = 0;
        } else {
            g_items[i].qty--;
        }
        g_items[i].price += g_items[i].key;
    }

    /* insertion sort by key, swapping fields one by one */
    for (int i = 1; i < 6; i++) {
        int j = i;
        while (j > 0 && g_items[j - 1].key > g_items[j].key) {
            int tk = g_items[j].key;
            int tq = g_items[j].qty;
            unsigned char tc = g_items[j].cat;
            long tp = g_items[j].price;
            g_items[j].key = g_items[j - 1].key;
            g_items[j].qty = g_items[j - 1].qty;
            g_items[j].cat = g_items[j - 1].cat;
            g_items[j].price = g_items[j - 1].price;
            g_items[j - 1].key = tk;
            g_items[j - 1].qty = tq;
            g_items[j - 1].cat = tc;
            g_items[j - 1].price = tp;
            j--;
        }
    }
    for (int i = 0; i < 6; i++) {
        g_sorted_keys[i] = g_items[i].key;
        g_qty_after = g_qty_after * 10 + g_items[i].qty;
        if (g_items[i].key == 15)
            g_lookup15 = i;
    }
    return 0;
}
