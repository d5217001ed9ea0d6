/* bank.c - shared-memory wavefronts and bank conflicts, global sectors, for
 * one warp-level access (the rules are in docs/counting.md).
 *
 * defines: bank_shared_cost_of, bank_conflict_degree, bank_global_sectors
 */
#include "bank.h"

#include <stdlib.h>

/* Words one lane can touch: 16 bytes, misaligned, span 5 words. */
#define LANE_WORDS_MAX 5
/* Sectors one lane can touch: 128 bytes, misaligned, span 5 sectors. */
#define LANE_SECTORS_MAX 5
#define LANE_BYTES_MAX 128

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts units[0..n) and drops repeats in place; returns the distinct count. */
static int sort_unique(uint64_t *units, int n)
{
    if (n == 0)
        return 0;
    qsort(units, (size_t)n, sizeof *units, compare_u64);
    int k = 1;
    for (int i = 1; i < n; i++)
        if (units[i] != units[k - 1])
            units[k++] = units[i];
    return k;
}

/* Appends to words[] the 32-bit words [addr, addr + size) covers; returns
 * the new count. size >= 1. */
static int add_words(uint64_t *words, int n, uint64_t addr, unsigned size)
{
    uint64_t first = addr / BANK_BYTES;
    uint64_t last = (addr + size - 1) / BANK_BYTES;
    for (uint64_t w = first; w <= last && w - first < LANE_WORDS_MAX; w++)
        words[n++] = w;
    return n;
}

/* The largest number of distinct words that fall in one bank, over the
 * words of words[0..n) (which it sorts). 0 for n = 0. */
static unsigned worst_bank(uint64_t *words, int n)
{
    unsigned per_bank[BANK_COUNT] = {0};
    unsigned worst = 0;
    n = sort_unique(words, n);
    for (int i = 0; i < n; i++) {
        unsigned b = (unsigned)(words[i] % BANK_COUNT);
        if (++per_bank[b] > worst)
            worst = per_bank[b];
    }
    return worst;
}

/* Bytes per lane as the hardware moves them: 1, 2, 4, 8 or 16 (size >= 1). */
static unsigned access_class(unsigned size)
{
    if (size <= 2)
        return size;
    if (size <= 4)
        return 4;
    return size <= 8 ? 8 : 16;
}

bank_shared_cost bank_shared_cost_of(const uint64_t addr[32], uint32_t mask,
                                       unsigned size)
{
    bank_shared_cost cost = {0, 0, 0, 0};
    unsigned bytes = access_class(size);
    unsigned lanes = bytes <= 4 ? 32 : 128 / bytes; /* lanes per phase */
    uint64_t words[32 * LANE_WORDS_MAX];

    if (size == 0)
        return cost;
    for (unsigned first = 0; first < 32; first += lanes) {
        int n = 0;
        for (unsigned l = first; l < first + lanes; l++)
            if (mask & (1u << l))
                n = add_words(words, n, addr[l], bytes);
        if (n == 0)
            continue;
        unsigned w = worst_bank(words, n);
        cost.ideal++;
        cost.wavefronts += w;
        if (w > cost.degree)
            cost.degree = w;
    }
    cost.conflicts = cost.wavefronts - cost.ideal;
    return cost;
}

unsigned bank_conflict_degree(const uint64_t addr[32], uint32_t mask,
                           unsigned size)
{
    uint64_t words[32 * LANE_WORDS_MAX];
    unsigned bytes = access_class(size);
    int n = 0;
    if (size == 0)
        return 0;
    for (unsigned l = 0; l < 32; l++)
        if (mask & (1u << l))
            n = add_words(words, n, addr[l], bytes);
    return worst_bank(words, n);
}

uint32_t bank_global_sectors(const uint64_t addr[32], uint32_t mask,
                              unsigned size)
{
    uint64_t sectors[32 * LANE_SECTORS_MAX];
    int n = 0;
    if (size == 0)
        return 0;
    if (size > LANE_BYTES_MAX)
        size = LANE_BYTES_MAX;
    for (unsigned l = 0; l < 32; l++) {
        if (!(mask & (1u << l)))
            continue;
        uint64_t first = addr[l] / SECTOR_BYTES;
        uint64_t last = (addr[l] + size - 1) / SECTOR_BYTES;
        for (uint64_t s = first; s <= last && s - first < LANE_SECTORS_MAX; s++)
            sectors[n++] = s;
    }
    return (uint32_t)sort_unique(sectors, n);
}
