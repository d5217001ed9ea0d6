/* kernels.h - what src/kernels/ gives the host: the catalogue as launchable functions.
 *
 * defines: cured_kernel_id, cured_classic_function, cured_grid_function
 *
 * The ids are the catalogue's indexes (src/lib/catalogue.c, teaching order).
 * Pure C declarations: the dispatch's plan (plan.c) uses the ids, the
 * launcher (run.cu) the functions, which live in classic.cu and grid.cu.
 */
#ifndef CURED_KERNELS_H
#define CURED_KERNELS_H

#include "cured.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cured_kernel_id {
    CURED_K_DIVERGENT = 0,
    CURED_K_STRIDED,
    CURED_K_SEQUENTIAL,
    CURED_K_FIRST_ADD,
    CURED_K_UNROLL_WARP,
    CURED_K_UNROLL_WARP_SYNC,
    CURED_K_UNROLLED,
    CURED_K_MULTI_ELEM,
    CURED_K_SHUFFLE,
    CURED_K_SHUFFLE_WIDE,
    CURED_K_TWO_PASS,
    CURED_K_ATOMIC,
    CURED_K_SINGLE_PASS,
    CURED_K_COUNT
} cured_kernel_id;

/* The __global__ function of block-level kernel `id` (divergent ..
 * shuffle_wide) for `dtype` and, for unrolled and multi_elem, whose block
 * size is a template parameter, `block_size` (32, 64, ..., 1024): a pointer
 * to pass to cudaLaunchKernel with the arguments (const T *in, T *out,
 * unsigned n).
 * Returns NULL for a grid-level id, an invalid dtype or block size. */
const void *cured_classic_function(cured_kernel_id id, cured_dtype dtype,
                                   int block_size);

/* The __global__ function of grid-level kernel `id` (two_pass, atomic,
 * single_pass) for `dtype`. Arguments: (const T *in, T *out,
 * unsigned long long n) for two_pass and atomic, and for single_pass also
 * (T *partials, unsigned *counter). Returns NULL for a block-level id or an
 * invalid dtype. */
const void *cured_grid_function(cured_kernel_id id, cured_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* CURED_KERNELS_H */
