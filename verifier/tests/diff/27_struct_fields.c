/* Global struct initialisers, field-by-field struct assignment, array fields. */
struct s {
    int id;
    char kind;
    unsigned short flags;
    long value;
    int hist[4];
};

struct pair {
    int first;
    int second;
};

struct s g_src = {42, 'k', 0xBEEF, -1234567890123L, {1, -2, 3, -4}};
struct s g_dst = {0, 0, 0, 0L, {0, 0, 0, 0}};
struct s g_mix = {7, -1, 65535, 4000000000L, {10, 20, 30, 40}};
struct pair g_p = {3, 4};
struct pair g_q = {0, 0};
int g_field_sum = 0;
long g_value_mix = 0;
int g_hist_dot = 0;

void copy_s(struct s *d, struct s *o)
{
    d->id = o->id;
    d->kind = o->kind;
    d->flags = o->flags;
    d->value = o->value;
    for (int i = 0; i < 4; i++)
        d->hist[i] = o->hist[i];
}

int main(void)
{
    g_dst.id = g_src.id + 1;
    g_dst.kind = g_src.kind;
    g_dst.flags = g_src.flags ^ 0xFFFF;
    g_dst.value = g_src.value / 1000;
    for (int i = 0; i < 4; i++)
        g_dst.hist[i] = g_src.hist[3 - i] * 2;

    g_q.first = g_p.second;
    g_q.second = g_p.first;
    g_p.first = g_p.first * g_p.first + g_p.second * g_p.second;

    g_mix.flags += 2;
    g_mix.kind -= 1;
    g_mix.value *= 3;
    g_mix.hist[g_mix.id % 4] = g_mix.hist[0] + g_mix.hist[1];

    g_field_sum = g_src.id + g_src.kind + g_src.flags + g_dst.id + g_dst.kind + g_dst.flags + g_mix.flags + g_mix.kind;
    g_value_mix = g_src.value + g_dst.value - g_mix.value;
    for (int i = 0; i < 4; i++)
        g_hist_dot += g_src.hist[i] * g_dst.hist[i] + g_mix.hist[i];

    copy_s(&g_src, &g_mix);
    g_src.id = -g_src.id;
    return 0;
}
