/* Sieve of Eratosthenes on a 64-element array, prime counting and prime gaps. */
unsigned char g_composite[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};
int g_primes[20] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_nprimes = 0;
int g_prime_sum = 0;
int g_max_gap = 0;
int g_twin_pairs = 0;
unsigned long g_prime_product = 1;
int g_smallest_factor[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

int main(void)
{
    g_composite[0] = 1;
    g_composite[1] = 1;
    for (int i = 2; i * i < 64; i++) {
        if (g_composite[i])
            continue;
        for (int j = i * i; j < 64; j += i)
            g_composite[j] = 1;
    }

    for (int i = 2; i < 64; i++) {
        if (!g_composite[i]) {
            g_primes[g_nprimes++] = i;
            g_prime_sum += i;
            g_prime_product *= (unsigned long)i;
        }
    }

    for (int k = 1; k < g_nprimes; k++) {
        int gap = g_primes[k] - g_primes[k - 1];
        if (gap > g_max_gap)
            g_max_gap = gap;
        if (gap == 2)
            g_twin_pairs++;
    }

    for (int n = 2; n < 64; n++) {
        for (int k = 0; k < g_nprimes; k++) {
            if (n % g_primes[k] == 0) {
                g_smallest_factor[n] = g_primes[k];
                break;
            }
        }
    }
    return 0;
}
