/* plan.c - the dispatch's arithmetic: argument checks, launch plans and
 * scratch sizes of the catalogue kernels (pure C, no CUDA).
 *
 * defines: cured_dispatch_check_shape, cured_dispatch_check,
 *          cured_dispatch_plan, cured_dispatch_layout,
 *          cured_catalogue_temp_bytes, cured_catalogue_plan_on
 *
 * A plan is the list of launches a call makes. Block-level kernels leave one
 * partial sum per block, so the dispatch runs the same kernel on the partial
 * sums until one value is left, as Harris did (the last of those passes as
 * one block, larger than the caller's where that saves a pass); grid-level
 * kernels finish in one launch (two for two_pass). The launch shapes here
 * must match the notes above the kernels in src/kernels/ (docs/kernels.md
 * sums them up).
 */
#include "dispatch.h"

#include "kernels.h"

#include <string.h>

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static size_t align256(size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

static int is_block_size(int block_size)
{
    return block_size >= 32 && block_size <= 1024 &&
           (block_size & (block_size - 1)) == 0;
}

cured_status cured_dispatch_check_shape(int kernel, cured_dtype dtype,
                                        uint64_t n, int block_size)
{
    const cured_kernel_info *info = cured_catalogue_entry(kernel);
    if (info == NULL)
        return CURED_ERROR_UNKNOWN_KERNEL;
    if (cured_dtype_size(dtype) == 0 || (unsigned)dtype >= CURED_CATALOGUE_DTYPES)
        return CURED_ERROR_UNSUPPORTED_TYPE;
    if (!is_block_size(block_size))
        return CURED_ERROR_INVALID_BLOCK_SIZE;
    if (n > info->max_n)
        return CURED_ERROR_SIZE_TOO_LARGE;
    return CURED_SUCCESS;
}

cured_status cured_catalogue_temp_bytes(int kernel, cured_dtype dtype,
                                        uint64_t n, int block_size,
                                        size_t *bytes)
{
    if (bytes == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_status status = cured_dispatch_check_shape(kernel, dtype, n, block_size);
    if (status != CURED_SUCCESS)
        return status;
    cured_plan plan;
    cured_temp_layout layout;
    cured_dispatch_plan(kernel, dtype, n, block_size, NULL, &plan);
    cured_dispatch_layout(kernel, dtype, &plan, &layout);
    *bytes = layout.total;
    return CURED_SUCCESS;
}

cured_status cured_catalogue_plan_on(int kernel, cured_dtype dtype, uint64_t n,
                                     int block_size,
                                     const cured_device_shape *device,
                                     cured_plan *plan)
{
    if (plan == NULL || device == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_status status = cured_dispatch_check_shape(kernel, dtype, n, block_size);
    if (status != CURED_SUCCESS)
        return status;
    cured_dispatch_plan(kernel, dtype, n, block_size, device, plan);
    return CURED_SUCCESS;
}

cured_status cured_dispatch_check(int kernel, cured_dtype dtype,
                                  const void *d_in, uint64_t n,
                                  const void *d_out, int block_size,
                                  const void *d_temp, size_t temp_bytes)
{
    if (d_out == NULL || (d_in == NULL && n > 0))
        return CURED_ERROR_NULL_POINTER;
    size_t needed = 0;
    cured_status status =
        cured_catalogue_temp_bytes(kernel, dtype, n, block_size, &needed);
    if (status != CURED_SUCCESS)
        return status;
    if (needed > 0 && d_temp == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (temp_bytes < needed)
        return CURED_ERROR_TEMP_TOO_SMALL;
    return CURED_SUCCESS;
}

/* Blocks of block_size threads that fill the device once, at most
 * CURED_GRID_THREADS_MAX threads; the cap alone when dev is NULL. */
static uint64_t resident_blocks(const cured_device_shape *dev, int block_size)
{
    uint64_t cap = CURED_GRID_THREADS_MAX / (unsigned)block_size;
    if (dev == NULL)
        return cap;
    uint64_t per_sm = (uint64_t)(dev->max_threads_per_sm / block_size);
    if (dev->max_blocks_per_sm > 0 && per_sm > (uint64_t)dev->max_blocks_per_sm)
        per_sm = (uint64_t)dev->max_blocks_per_sm;
    uint64_t blocks = per_sm * (uint64_t)(dev->sm_count > 0 ? dev->sm_count : 1);
    if (blocks == 0)
        blocks = 1;
    return min_u64(blocks, cap);
}

/* Whether kernel `id`'s blocks loop over their input (a grid-stride loop),
 * so that one block can take any count: multi_elem, shuffle, shuffle_wide
 * and the grid-level kernels, the last six in catalogue order. */
static int loops(cured_kernel_id id)
{
    return id >= CURED_K_MULTI_ELEM;
}

/* Elements one block of kernel `id` reads per trip, block_size threads of
 * elem-byte values: the tile of the fixed-tile kernels (B for divergent,
 * strided, sequential; 2B from first_add to unrolled), a trip of
 * multi_elem_load (2B: multi_elem, shuffle), and for the kernels that load
 * through thread_sum (src/kernels/load.cuh: shuffle_wide and the grid-level
 * ones) WIDE_PER_TRIP = 4 wide vectors of 16 bytes per thread. */
static uint64_t block_trip(cured_kernel_id id, int block_size, size_t elem)
{
    uint64_t b = (uint64_t)block_size;
    switch (id) {
    case CURED_K_DIVERGENT:
    case CURED_K_STRIDED:
    case CURED_K_SEQUENTIAL:
        return b;
    case CURED_K_FIRST_ADD:
    case CURED_K_UNROLL_WARP:
    case CURED_K_UNROLL_WARP_SYNC:
    case CURED_K_UNROLLED:
    case CURED_K_MULTI_ELEM:
    case CURED_K_SHUFFLE:
        return 2 * b;
    default:
        return 4 * (16 / elem) * b;
    }
}

/* Blocks of one launch of kernel `id` over n elements: one trip's worth of
 * elements per block, for the kernels that loop (multi_elem, shuffle,
 * shuffle_wide, the grid level) at most the blocks that fill the device
 * once. Sizing those by a whole trip per thread (not one element) keeps
 * every thread's four wide loads in one trip where n allows, and the
 * partial sums few. */
static uint64_t grid_size(cured_kernel_id id, uint64_t n, int block_size,
                          size_t elem, const cured_device_shape *dev)
{
    uint64_t grid = ceil_div(n, block_trip(id, block_size, elem));
    if (loops(id))
        grid = min_u64(grid, resident_blocks(dev, block_size));
    return grid;
}

/* Dynamic shared memory of kernel `id`: a tile of the block for the
 * shared-memory trees, at least 64 elements for those whose last warp reads
 * up to element 63; none for the shuffle-based kernels. */
static size_t shared_bytes(cured_kernel_id id, int block_size, size_t elem)
{
    switch (id) {
    case CURED_K_DIVERGENT:
    case CURED_K_STRIDED:
    case CURED_K_SEQUENTIAL:
    case CURED_K_FIRST_ADD:
        return (size_t)block_size * elem;
    case CURED_K_UNROLL_WARP:
    case CURED_K_UNROLL_WARP_SYNC:
    case CURED_K_UNROLLED:
    case CURED_K_MULTI_ELEM:
        return (size_t)(block_size < 64 ? 64 : block_size) * elem;
    default:
        return 0;
    }
}

static void add_launch(cured_plan *plan, uint64_t n, uint64_t grid,
                       int block_size, size_t shared)
{
    cured_launch *l = &plan->launch[plan->launches++];
    l->n = n;
    l->grid = grid;
    l->block = block_size;
    l->shared_bytes = shared;
}

/* Whether one block can finish a block-level pass over `count` partial
 * sums (a pass after the first); if so, *block gets its size: the smallest
 * power of two from block_size to 1024 whose block takes them all in one
 * trip, or 1024 for a kernel that loops when none does. A fixed-tile
 * kernel's block takes at most its tile: past the tile of 1024 threads the
 * answer is 0 and *block is untouched. */
static int one_block_pass(cured_kernel_id id, uint64_t count, int block_size,
                          size_t elem, int *block)
{
    int b = block_size;
    while (b < 1024 && block_trip(id, b, elem) < count)
        b *= 2;
    if (block_trip(id, b, elem) < count && !loops(id))
        return 0;
    *block = b;
    return 1;
}

void cured_dispatch_plan(int kernel, cured_dtype dtype, uint64_t n,
                         int block_size, const cured_device_shape *dev,
                         cured_plan *plan)
{
    cured_kernel_id id = (cured_kernel_id)kernel;
    size_t elem = cured_dtype_size(dtype);

    memset(plan, 0, sizeof *plan);
    if (n == 0) {
        plan->zero_output = 1;
        return;
    }
    if (cured_catalogue_entry(kernel)->level == CURED_LEVEL_BLOCK) {
        /* The first pass runs at the caller's block size. A later pass
         * reads partial sums, which the caller never sees: when one block
         * of at most 1024 threads can take them all, that pass is the last
         * and runs as that one block, which saves a launch (about as much
         * time as a whole pass takes below 2^20 values). Each pass shrinks
         * the count by at least B >= 32 (2B from first_add on): 2^32 values
         * take at most 6 passes (divergent at B = 32). */
        uint64_t count = n;
        do {
            int b = block_size;
            uint64_t grid;
            if (plan->launches > 0 && one_block_pass(id, count, block_size, elem, &b))
                grid = 1;
            else
                grid = grid_size(id, count, b, elem, dev);
            add_launch(plan, count, grid, b, shared_bytes(id, b, elem));
            count = grid;
        } while (count > 1 && plan->launches < CURED_MAX_LAUNCHES);
        return;
    }
    uint64_t grid = grid_size(id, n, block_size, elem, dev);
    add_launch(plan, n, grid, block_size, 0);
    if (id == CURED_K_TWO_PASS && grid > 1)
        add_launch(plan, grid, 1, block_size, 0);
    if (id == CURED_K_ATOMIC)
        plan->zero_output = 1;
}

void cured_dispatch_layout(int kernel, cured_dtype dtype,
                           const cured_plan *plan, cured_temp_layout *layout)
{
    size_t elem = cured_dtype_size(dtype);
    cured_kernel_id id = (cured_kernel_id)kernel;
    size_t first = 0, second = 0; /* partial sums each buffer holds */

    memset(layout, 0, sizeof *layout);
    if (plan->launches == 0)
        return;
    if (cured_catalogue_entry(kernel)->level == CURED_LEVEL_BLOCK) {
        /* Pass k writes buffer k % 2, the last pass writes d_out; later
         * passes write fewer values than the first two. */
        if (plan->launches >= 2)
            first = (size_t)plan->launch[0].grid;
        if (plan->launches >= 3)
            second = (size_t)plan->launch[1].grid;
    } else if (id == CURED_K_SINGLE_PASS) {
        first = (size_t)plan->launch[0].grid; /* the counter needs the state area */
    } else if (id == CURED_K_TWO_PASS && plan->launches == 2) {
        first = (size_t)plan->launch[0].grid;
    }
    if (first == 0)
        return;
    layout->partials[0] = CURED_TEMP_STATE_BYTES;
    layout->total = layout->partials[0] + align256(first * elem);
    if (second > 0) {
        layout->partials[1] = layout->total;
        layout->total += align256(second * elem);
    }
}
