/* bank.h - what one warp-level memory access costs: shared-memory wavefronts
 * and bank conflicts, global 32-byte sectors. Pure functions of the lanes'
 * addresses, so they can be tested without the interpreter.
 *
 * defines: BANK_COUNT, BANK_BYTES, SECTOR_BYTES,
 *          bank_shared_cost (type), bank_shared_cost_of,
 *          bank_conflict_degree, bank_global_sectors
 *
 * The rules (32 banks of 4 bytes, phases, the wavefronts a phase costs,
 * sectors) are Nsight Compute's as far as they are known: docs/counting.md,
 * "Shared memory: wavefronts and bank conflicts" and "Global memory:
 * sectors".
 */
#ifndef CURED_MODEL_BANK_H
#define CURED_MODEL_BANK_H

#include <stdint.h>

#define BANK_COUNT 32
#define BANK_BYTES 4
#define SECTOR_BYTES 32

/* The cost of one warp-level shared-memory access. */
typedef struct bank_shared_cost {
    uint32_t wavefronts;  /* data-pipe wavefronts the access takes */
    uint32_t ideal;       /* phases with at least one active lane */
    uint32_t conflicts;   /* wavefronts - ideal */
    uint32_t degree;      /* worst phase's wavefronts: "n-way" (1 = none,
                             0 when no lane is active) */
} bank_shared_cost;

/* The wavefronts and bank conflicts of a warp access in which lane l (bit l
 * of `mask`) accesses `size` bytes at shared offset addr[l]. size is 1, 2,
 * 4, 8 or 16 (other sizes are treated as the next of those above them,
 * capped at 16). Lanes outside `mask` are ignored; mask 0 or size 0
 * costs nothing.
 * Can't fail. */
bank_shared_cost bank_shared_cost_of(const uint64_t addr[32], uint32_t mask,
                                       unsigned size);

/* The worst bank degree over the whole warp, without phases: the largest
 * number of different 32-bit words that the lanes in `mask` touch in any
 * one bank, each lane touching the words of [addr[l], addr[l] + size).
 * This is the lesson's "n-way" (docs/lesson.md) ("bank degree over the words written"):
 * for 4-byte accesses it equals bank_shared_cost_of's degree. 0 for mask 0.
 * Can't fail. */
unsigned bank_conflict_degree(const uint64_t addr[32], uint32_t mask,
                           unsigned size);

/* The number of distinct 32-byte sectors that the lanes in `mask` touch
 * when lane l accesses [addr[l], addr[l] + size). size 1..128 (larger is
 * treated as 128; PTX accesses are at most 16 bytes, a SASS width override
 * at most 32). 0 for mask 0 or size 0. Can't fail. */
uint32_t bank_global_sectors(const uint64_t addr[32], uint32_t mask,
                              unsigned size);

#endif /* CURED_MODEL_BANK_H */
