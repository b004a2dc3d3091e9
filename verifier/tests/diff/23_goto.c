/* goto: forward jumps, backward jumps forming loops, and error-exit style cleanup. */
int g_loop_sum = 0;
int g_loop_iters = 0;
int g_nested_goto = 0;
int g_skip = 0;
int g_cleanup = 0;
int g_status[4] = {0, 0, 0, 0};
int g_search = -1;
int g_arr[10] = {4, 8, 15, 16, 23, 42, 7, 1, 0, 5};

int process(int v)
{
    int r = 0;
    if (v < 0)
        goto fail;
    r += v * 2;
    if (r > 50)
        goto big;
    r += 1;
    goto out;
big:
    r = 50;
    goto out;
fail:
    r = -1;
out:
    g_cleanup++;
    return r;
}

int main(void)
{
    int i = 0;
top:
    if (i >= 10)
        goto after_loop;
    g_loop_sum += g_arr[i];
    g_loop_iters++;
    i++;
    goto top;
after_loop:

    i = 0;
    int j;
outer:
    j = 0;
inner:
    g_nested_goto += i * 10 + j;
    j++;
    if (j < 3)
        goto inner;
    i++;
    if (i < 4)
        goto outer;

    g_skip = 1;
    goto skip_it;
    g_skip = 99;
skip_it:
    g_skip += 2;

    g_status[0] = process(5);
    g_status[1] = process(-3);
    g_status[2] = process(40);
    g_status[3] = process(0);

    for (int k = 0; k < 10; k++) {
        for (int m = 0; m < 10; m++) {
            if (g_arr[k] + g_arr[m] == 30) {
                g_search = k * 10 + m;
                goto found;
            }
        }
    }
found:
    return 0;
}
