/* catalogue.c - the teaching catalogue's table: names, descriptions, limits.
 *
 * defines: cured_catalogue_count, cured_catalogue_entry, cured_catalogue_find
 *
 * Pure C, no CUDA: the CLI lists it and the model finds kernels by these
 * names on machines without a GPU. The kernels themselves are in
 * src/kernels/, in the same order.
 */
#include "cured.h"
#include "dispatch.h"

#include <string.h>

/* Kernels that index with 32-bit unsigned ints (the block-level ones, as
 * Harris wrote them) take n as an unsigned int, so n < 2^32. Their tiles (B
 * or 2B elements, powers of two) divide 2^32, so the last tile ends at or
 * before 2^32 and no index, nor i + blockDim.x in first_add's load, wraps.
 * The three with a grid-stride loop (multi_elem, shuffle, shuffle_wide)
 * also compute i + stride with i < n; the dispatch keeps their grid to at
 * most CURED_GRID_THREADS_MAX threads, so the stride is at most 2^21
 * elements (multi_elem_load's two per thread, which multi_elem and shuffle
 * share) resp. 2^20 (shuffle_wide's element loop; its wide loop counts
 * 16-byte vectors, n / 2 + 2^22 at most), and n is kept that far below
 * 2^32. Grid-scale kernels index with 64 bits. */
#define CLASSIC_MAX_N ((uint64_t)UINT32_MAX)
#define MULTI_ELEM_MAX_N (((uint64_t)1 << 32) - 2 * (uint64_t)CURED_GRID_THREADS_MAX)
#define SHUFFLE_WIDE_MAX_N (((uint64_t)1 << 32) - (uint64_t)CURED_GRID_THREADS_MAX)
#define GRID_MAX_N ((uint64_t)1 << 62)

static const cured_kernel_info catalogue[] = {
    {"divergent", "interleaved tree, `tid % (2*s) == 0`: divergent warps",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"strided", "interleaved tree, `i = 2*s*tid`: packed threads, bank conflicts",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"sequential", "sequential addressing, `tid < s`: no conflicts, packed warps",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"first_add", "first add during the global load: half the threads idle no more",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"unroll_warp", "last warp unrolled with `volatile`, no sync: UNSAFE since Volta",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 1},
    {"unroll_warp_sync", "last warp unrolled, made safe with `__syncwarp`",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"unrolled", "block size a compile-time constant: the whole tree unrolled",
     CURED_LEVEL_BLOCK, CLASSIC_MAX_N, 0},
    {"multi_elem", "several elements per thread (Brent): a grid sized to the GPU",
     CURED_LEVEL_BLOCK, MULTI_ELEM_MAX_N, 0},
    {"shuffle", "warp shuffles: warp -> shared memory -> warp hybrid block reduce",
     CURED_LEVEL_BLOCK, MULTI_ELEM_MAX_N, 0},
    {"shuffle_wide", "the wide loads added: four 16-byte loads in flight per thread",
     CURED_LEVEL_BLOCK, SHUFFLE_WIDE_MAX_N, 0},
    {"two_pass", "grid scale: per-block partials, then one block sums them",
     CURED_LEVEL_GRID, GRID_MAX_N, 0},
    {"atomic", "grid scale: one atomicAdd per block into the result",
     CURED_LEVEL_GRID, GRID_MAX_N, 0},
    {"single_pass", "grid scale: the last block to finish adds the partials",
     CURED_LEVEL_GRID, GRID_MAX_N, 0},
};

int cured_catalogue_count(void)
{
    return (int)(sizeof catalogue / sizeof catalogue[0]);
}

const cured_kernel_info *cured_catalogue_entry(int index)
{
    if (index < 0 || index >= cured_catalogue_count())
        return NULL;
    return &catalogue[index];
}

cured_status cured_catalogue_find(const char *name, int *index)
{
    if (name == NULL || index == NULL)
        return CURED_ERROR_NULL_POINTER;
    for (int i = 0; i < cured_catalogue_count(); i++) {
        if (strcmp(catalogue[i].name, name) == 0) {
            *index = i;
            return CURED_SUCCESS;
        }
    }
    return CURED_ERROR_UNKNOWN_KERNEL;
}
