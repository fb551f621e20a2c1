/*
 * The seeded filling of the factories (R2): azul_rules.core.rounds.draw_factories on
 * the generator of azul_rules.core.rng, bit for bit.  The bag is a sorted multiset, so
 * the Python list it draws from is the colours' counts: drawing index i takes the
 * colour whose cumulative count first passes i, and what is left stays sorted.
 */
#include "engine.h"

/* One SplitMix64 step: the next state, and its output (rng.step). */
uint64_t
az_split_mix(uint64_t *state)
{
    *state += AZ.gamma;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * AZ.mix_1;
    z = (z ^ (z >> 27)) * AZ.mix_2;
    return z ^ (z >> 31);
}

/* rng.seed_state: the seed's low 64 bits. */
uint64_t
az_seed_state(uint64_t seed)
{
    return seed;
}

/* Takes the tile at ``index`` of the sorted multiset ``counts``; its colour. */
static inline int
pop_at(uint32_t counts[AZ_COLORS], uint64_t index)
{
    int c = 0;
    while (index >= counts[c]) {  /* index < the multiset's size: c stays below 5 */
        index -= counts[c++];
    }
    counts[c]--;
    return c;
}

static uint64_t
size_of(const uint32_t counts[AZ_COLORS])
{
    uint64_t n = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        n += counts[c];
    }
    return n;
}

/* Marks the colours of factory ``f`` in the sources' masks. */
static void
hold(az_game *g, int f)
{
    for (int c = 0; c < AZ_COLORS; c++) {
        g->holders[c] = (uint16_t)((g->holders[c] & ~(1 << f)) | (g->factory[f][c] != 0) << f);
    }
}

/* R2: fills every factory with 4 tiles drawn from the bag; when the bag runs out the
 * lid is poured into it, and when both are empty the remaining factories stay short or
 * empty.  Each factory's draws come from one generator step: its output read as a
 * fraction, the indices peeled off it one after another (one 128-bit product, then
 * small divisions, as rounds.draw_factories does). */
void
az_draw_factories(az_game *g)
{
    for (int f = 0; f < g->factories; f++) {
        uint32_t *factory = g->factory[f];
        for (int c = 0; c < AZ_COLORS; c++) {
            factory[c] = 0;
        }
        uint64_t size = size_of(g->bag);
        if (size >= 4) {
            g->rng += AZ.gamma;
            uint64_t z = g->rng;
            z = (z ^ (z >> 30)) * AZ.mix_1;
            z = (z ^ (z >> 27)) * AZ.mix_2;
            uint64_t product = size * (size - 1) * (size - 2) * (size - 3);
            uint64_t n = (uint64_t)(((az_u128)(z ^ (z >> 31)) * product) >> 64);
            uint64_t below_3 = size - 3, below_2 = size - 2, below_1 = size - 1;
            uint64_t d = n % below_3;
            n /= below_3;
            uint64_t c = n % below_2;
            n /= below_2;
            factory[pop_at(g->bag, n / below_1)]++;
            factory[pop_at(g->bag, n % below_1)]++;
            factory[pop_at(g->bag, c)]++;
            factory[pop_at(g->bag, d)]++;
            hold(g, f);
            continue;
        }
        /* Fewer than 4 tiles left: the bag runs out during this factory.  Draw what it
         * holds, then pour the lid in and go on (or leave the factory short). */
        uint64_t drawn = 0;
        if (size_of(g->lid)) {
            for (int k = 0; k < AZ_COLORS; k++) {
                factory[k] += g->bag[k];
                drawn += g->bag[k];
                g->bag[k] = g->lid[k];
                g->lid[k] = 0;
            }
        }
        size = size_of(g->bag);
        uint64_t want = 4 - drawn < size ? 4 - drawn : size;
        if (want) {
            uint64_t z = az_split_mix(&g->rng);
            for (uint64_t k = 0; k < want; k++) {
                az_u128 wide = (az_u128)z * size;
                factory[pop_at(g->bag, (uint64_t)(wide >> 64))]++;
                z = (uint64_t)wide;
                size--;
            }
        }
        hold(g, f);
    }
}
