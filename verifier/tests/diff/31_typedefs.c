/* typedefs of scalar types, arrays, structs and enums. */
typedef int i32;
typedef unsigned int u32;
typedef unsigned char byte;
typedef long i64;
typedef unsigned long u64;
typedef short i16;
typedef i32 score_t;
typedef int vec4[4];
typedef enum { MODE_OFF, MODE_ON, MODE_AUTO = 5 } run_mode;

struct s {
    i32 id;
    byte level;
    i64 credit;
    vec4 stats;
};
typedef struct s record;

record g_rec = {1, 200, 5000000000L, {1, 2, 3, 4}};
record g_recs[2] = {{2, 10, -1L, {0, 0, 0, 0}}, {3, 255, 7L, {5, 6, 7, 8}}};
vec4 g_vec = {10, 20, 30, 40};
byte g_bytes[4] = {250, 251, 252, 253};
u32 g_u = 0;
u64 g_u64 = 0;
i16 g_i16 = 0;
score_t g_score = 0;
run_mode g_mode = MODE_OFF;
i32 g_dot = 0;

i32 dot(i32 *a, i32 *b)
{
    i32 s = 0;
    for (i32 i = 0; i < 4; i++)
        s += a[i] * b[i];
    return s;
}

void level_up(record *r, byte amount)
{
    r->level += amount;
    r->credit -= r->level;
    r->stats[r->id % 4]++;
}

int main(void)
{
    for (i32 i = 0; i < 4; i++) {
        g_bytes[i] += (byte)(i * 3);
        g_u += g_bytes[i];
    }
    g_u -= 1100u;
    g_u64 = (u64)g_rec.credit * 4000000000UL;
    i32 big = 40000;
    g_i16 = (i16)big;
    level_up(&g_rec, 100);
    level_up(&g_recs[0], 5);
    level_up(&g_recs[1], 1);
    g_dot = dot(g_vec, g_rec.stats) + dot(g_recs[1].stats, g_recs[0].stats);
    g_score = (score_t)g_recs[1].level + g_rec.level;
    g_mode = g_score > 100 ? MODE_AUTO : MODE_ON;
    return 0;
}
