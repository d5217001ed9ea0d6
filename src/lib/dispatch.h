/* dispatch.h - libcured's internal dispatch arithmetic, shared by the CUDA
 * launcher (run.cu), its stand-in without CUDA (run_nocuda.c) and the table.
 *
 * defines: CURED_GRID_THREADS_MAX, cured_temp_layout,
 *          cured_dispatch_check_shape, cured_dispatch_check,
 *          cured_dispatch_plan, cured_dispatch_layout
 *
 * Pure C, no CUDA: what it decides (grid sizes, passes, where partial sums
 * go in the scratch space) can be tested on any machine.
 */
#ifndef CURED_DISPATCH_H
#define CURED_DISPATCH_H

#include "cured.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most threads a grid of multi_elem, shuffle, shuffle_wide or a
 * grid-level kernel has: such grids grow with n (one trip per thread: 2
 * elements for multi_elem and shuffle, four 16-byte vectors for the
 * others) up to filling the GPU once (about 270 000 threads on an H200),
 * and are capped here, so scratch sizes can be known without a device and
 * the block-level kernels' 32-bit grid strides stay small. */
#define CURED_GRID_THREADS_MAX (1u << 20)

/* Where the partial sums of a plan lie in the scratch space, in bytes from
 * its start; partials[1] is 0 when a plan needs one buffer or none. */
typedef struct cured_temp_layout {
    size_t partials[2]; /* the ping-pong buffers of the passes */
    size_t total;       /* bytes the plan needs (0: no scratch at all) */
} cured_temp_layout;

/* Checks kernel, dtype, block size and n against the catalogue. Returns
 * CURED_SUCCESS, CURED_ERROR_UNKNOWN_KERNEL, CURED_ERROR_UNSUPPORTED_TYPE,
 * CURED_ERROR_INVALID_BLOCK_SIZE or CURED_ERROR_SIZE_TOO_LARGE. */
cured_status cured_dispatch_check_shape(int kernel, cured_dtype dtype,
                                        uint64_t n, int block_size);

/* Checks every argument of cured_catalogue_run, in that order: pointers,
 * shape, scratch space size. Touches no memory behind the pointers. */
cured_status cured_dispatch_check(int kernel, cured_dtype dtype,
                                  const void *d_in, uint64_t n,
                                  const void *d_out, int block_size,
                                  const void *d_temp, size_t temp_bytes);

/* Fills *plan for arguments that passed cured_dispatch_check_shape. With
 * dev == NULL, grids that depend on the device take their upper bound
 * (CURED_GRID_THREADS_MAX threads): the plan that sizes the scratch space.
 * Can't fail. */
void cured_dispatch_plan(int kernel, cured_dtype dtype, uint64_t n,
                         int block_size, const cured_device_shape *dev,
                         cured_plan *plan);

/* Fills *layout with where kernel's plan puts its partial sums. The first
 * CURED_TEMP_STATE_BYTES bytes are kept for state whenever the plan needs
 * scratch; buffers are 256-byte aligned. Can't fail. */
void cured_dispatch_layout(int kernel, cured_dtype dtype,
                           const cured_plan *plan, cured_temp_layout *layout);

#ifdef __cplusplus
}
#endif

#endif /* CURED_DISPATCH_H */
