/* Hashing and PRNG mixes: FNV-1a on bytes, xorshift32, multiply-with-carry, histogram. */
unsigned char g_msg[24] = {
    'T', 'h', 'e', ' ', 'q', 'u', 'i', 'c', 'k', ' ', 'b', 'r',
    'o', 'w', 'n', ' ', 'f', 'o', 'x', ' ', 'j', 'u', 'm', 'p'
};
unsigned g_fnv = 2166136261u;
unsigned g_xs = 2463534242u;
unsigned g_hist[8] = {0, 0, 0, 0, 0, 0, 0, 0};
unsigned g_mwc_z = 362436069u;
unsigned g_mwc_w = 521288629u;
unsigned g_mwc_out = 0;
unsigned long g_mix64 = 0;
unsigned g_crcish = 0xFFFFFFFFu;

unsigned xorshift32(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

int main(void)
{
    for (int i = 0; i < 24; i++) {
        g_fnv ^= g_msg[i];
        g_fnv *= 16777619u;
    }

    for (int i = 0; i < 200; i++) {
        unsigned r = xorshift32(&g_xs);
        g_hist[r & 7u]++;
    }

    for (int i = 0; i < 10; i++) {
        g_mwc_z = 36969u * (g_mwc_z & 65535u) + (g_mwc_z >> 16);
        g_mwc_w = 18000u * (g_mwc_w & 65535u) + (g_mwc_w >> 16);
        g_mwc_out ^= (g_mwc_z << 16) + g_mwc_w;
    }

    unsigned long h = 0x9E3779B97F4A7C15UL;
    for (int i = 0; i < 24; i++) {
        h ^= (unsigned long)g_msg[i] << ((i % 8) * 8);
        h *= 0xBF58476D1CE4E5B9UL;
        h ^= h >> 31;
    }
    g_mix64 = h;

    for (int i = 0; i < 24; i++) {
        g_crcish ^= g_msg[i];
        for (int k = 0; k < 8; k++) {
            unsigned mask = -(g_crcish & 1u);
            g_crcish = (g_crcish >> 1) ^ (0xEDB88320u & mask);
        }
    }
    g_crcish = ~g_crcish;
    return 0;
}
