/* reduce_plan.c - cured_reduce's arithmetic in pure C: op names, result
 * types, argument checks, the workspace size and the launch shapes.
 *
 * defines: cured_op_name, cured_op_from_name, cured_reduce_result_dtype,
 *          cured_reduce_workspace_bytes, cured_reduce_check_args,
 *          cured_reduce_elem_align, cured_reduce_default_grid,
 *          cured_reduce_in_clusters, cured_reduce_default_shape,
 *          cured_reduce_check_shape, cured_reduce_one_trip
 *
 * Shared by the GPU launcher (reduce.cu), the CPU path (reduce_cpu.c) and
 * the build without CUDA, so all three refuse the same arguments the same
 * way.
 */
#include "cured.h"
#include "reduce.h"

#include <string.h>

static const char *const op_names[CURED_OP_COUNT] = {
    [CURED_OP_SUM] = "sum", [CURED_OP_MIN] = "min", [CURED_OP_MAX] = "max",
    [CURED_OP_ARGMIN] = "argmin", [CURED_OP_ARGMAX] = "argmax",
};

const char *cured_op_name(cured_op op)
{
    return (unsigned)op < CURED_OP_COUNT ? op_names[op] : NULL;
}

cured_status cured_op_from_name(const char *name, cured_op *op)
{
    if (name == NULL || op == NULL)
        return CURED_ERROR_NULL_POINTER;
    for (int i = 0; i < CURED_OP_COUNT; i++) {
        if (strcmp(op_names[i], name) == 0) {
            *op = (cured_op)i;
            return CURED_SUCCESS;
        }
    }
    return CURED_ERROR_UNSUPPORTED_OP;
}

static int is_float(cured_dtype d)
{
    return d == CURED_F16 || d == CURED_BF16 || d == CURED_F32 || d == CURED_F64;
}

cured_status cured_reduce_result_dtype(cured_op op, cured_dtype dtype,
                                       unsigned flags, cured_dtype *out)
{
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (cured_dtype_size(dtype) == 0)
        return CURED_ERROR_UNSUPPORTED_TYPE;
    if ((unsigned)op >= CURED_OP_COUNT)
        return CURED_ERROR_UNSUPPORTED_OP;
    if (flags & ~(unsigned)(CURED_REDUCE_F64 | CURED_REDUCE_WIDEN))
        return CURED_ERROR_INVALID_VALUE;
    int sum = op == CURED_OP_SUM;
    if ((flags & CURED_REDUCE_F64) && !(sum && is_float(dtype)))
        return CURED_ERROR_INVALID_VALUE;
    if ((flags & CURED_REDUCE_WIDEN) && !(sum && !is_float(dtype)))
        return CURED_ERROR_INVALID_VALUE;
    if (op == CURED_OP_ARGMIN || op == CURED_OP_ARGMAX)
        *out = CURED_I64;
    else if (!sum)
        *out = dtype;
    else if (is_float(dtype))
        *out = dtype == CURED_F64 || (flags & CURED_REDUCE_F64) ? CURED_F64 : CURED_F32;
    else if (flags & CURED_REDUCE_WIDEN)
        *out = dtype == CURED_I32 ? CURED_I64 : dtype == CURED_U32 ? CURED_U64 : dtype;
    else
        *out = dtype;
    return CURED_SUCCESS;
}

cured_status cured_reduce_workspace_bytes(size_t *bytes)
{
    if (bytes == NULL)
        return CURED_ERROR_NULL_POINTER;
    *bytes = CURED_REDUCE_STATE_BYTES +
             (size_t)CURED_REDUCE_MAX_BLOCKS * CURED_REDUCE_PARTIAL_BYTES;
    return CURED_SUCCESS;
}

size_t cured_reduce_elem_align(cured_dtype dtype)
{
    return cured_dtype_size(dtype);
}

cured_status cured_reduce_check_args(cured_op op, cured_dtype dtype,
                                     const void *in, uint64_t n,
                                     const void *out, unsigned flags)
{
    if (out == NULL || (in == NULL && n > 0))
        return CURED_ERROR_NULL_POINTER;
    cured_dtype result;
    cured_status status = cured_reduce_result_dtype(op, dtype, flags, &result);
    if (status != CURED_SUCCESS)
        return status;
    if (n > CURED_REDUCE_MAX_N)
        return CURED_ERROR_SIZE_TOO_LARGE;
    if ((uintptr_t)in % cured_reduce_elem_align(dtype) != 0 ||
        (uintptr_t)out % cured_reduce_elem_align(result) != 0)
        return CURED_ERROR_MISALIGNED;
    return CURED_SUCCESS;
}

/* Blocks per SM at most, by kernel and input size, where fewer blocks (more
 * trips per thread) measured faster on the H200 than one trip per thread
 * or a full GPU (0: no cap). Index: floor(log2(bytes)) - 22, for 4 MiB up
 * to 64 MiB; outside that span nothing is capped. Where the sizes sit in
 * L2 (50 MiB on the H200) a kernel's fixed cost per thread (an exact
 * sum's window set-up, flush and warp sum; little for an integer sum)
 * weighs against the loads in flight; the figures and the sweep that
 * made them: docs/results.md, "Launch shapes". The exact f32, f16 and
 * bf16 sums have no cap since their one-trip kernel (a full GPU's grid
 * covers 8.25 MiB in one trip, without the main loop): it measured 5 to
 * 10 % faster than the capped grids at 4 and 8 MiB. f64 keeps its cap
 * at 16 MiB only (two blocks an SM: the full grid measured 6 % slower
 * there; 3 to 5 % faster at 4 and 8 MiB): docs/results.md, "fifth
 * round". */
enum { CAP_FIRST_LOG2 = 22, CAP_SIZES = 5 };
static const unsigned char cap_f64[CAP_SIZES] = {0, 0, 2, 0, 0};
static const unsigned char cap_int[CAP_SIZES] = {1, 1, 1, 1, 2};

static unsigned blocks_per_sm_cap(cured_op op, cured_dtype dtype, uint64_t bytes)
{
    const unsigned char *cap = NULL;
    if (op == CURED_OP_SUM && dtype == CURED_F64)
        cap = cap_f64;
    else if (op == CURED_OP_SUM && !is_float(dtype))
        cap = cap_int;
    int log2 = 0;
    while (log2 < 63 && bytes >> (log2 + 1))
        log2++;
    int i = log2 - CAP_FIRST_LOG2;
    return cap != NULL && i >= 0 && i < CAP_SIZES ? cap[i] : 0u;
}

/* From this many input bytes a sum launches WAVES_LARGE times the resident
 * blocks: the blocks of one resident grid finish up to 2 % apart (clock
 * stamps in the exact kernel at 2^30 f32 elements: the median block ends
 * 16 us before the last), and blocks that start as others end even that
 * out. Measured on the H200 (docs/results.md, "sixth round"):
 * 2 GiB and 4 GiB 0.1 .. 0.7 % faster at three waves; 1 GiB 0.4 .. 0.5 %
 * slower. */
#define WAVES_FROM_BYTES ((uint64_t)2 << 30)
#define WAVES_LARGE 3

unsigned cured_reduce_default_grid(cured_op op, cured_dtype dtype, uint64_t n,
                                   int block, unsigned resident, unsigned sms)
{
    size_t elem = cured_dtype_size(dtype);
    if (elem == 0)
        elem = 4;
    uint64_t per_block = (uint64_t)block * (CURED_REDUCE_TRIP_BYTES / elem);
    uint64_t g = (n + per_block - 1) / per_block;
    uint64_t most = resident;
    if (op == CURED_OP_SUM && n * elem >= WAVES_FROM_BYTES)
        most = (uint64_t)WAVES_LARGE * resident;
    if (g > most)
        g = most;
    unsigned cap = blocks_per_sm_cap(op, dtype, n * elem);
    if (cap != 0 && g > (uint64_t)cap * sms)
        g = (uint64_t)cap * sms;
    uint64_t least = (n + CURED_REDUCE_BLOCK_ELEMS_MAX - 1) / CURED_REDUCE_BLOCK_ELEMS_MAX;
    if (g < least)
        g = least;
    if (g > CURED_REDUCE_MAX_BLOCKS)
        g = CURED_REDUCE_MAX_BLOCKS;
    return g < 1 ? 1u : (unsigned)g;
}

/* From this many input bytes, an exact float sum whose one-trip grid fits
 * a cluster takes a whole cluster of the largest size: more SMs loading,
 * and the cluster's combine in shared memory costs the same (measured on
 * the H200: docs/results.md, "Clusters"). */
#define CLUSTER_FULL_BYTES ((uint64_t)64 << 10)

/* Below CLUSTER_FULL_BYTES, an exact float sum whose one-trip grid is two
 * to four blocks of 256 threads runs as one block of that many threads
 * instead, which takes the one-block short ways (sum_double.cuh,
 * sum_dd.cuh) that a cluster does not: measured on the H200, the kernel
 * alone 28 % faster at f32 2^13 (4128 -> 2976 ns) and 19 % at f64 2^12
 * (4064 -> 3296 ns), docs/results.md, "twenty-second round". */
#define ONE_BLOCK_MAX_THREADS 1024u

/* Past one cluster of 256-thread blocks, an exact f32 sum whose one-trip
 * grid fits one cluster of blocks of up to this many threads (2^17
 * elements at 16 blocks) runs so: one trip a thread, and the cluster's
 * short way through doubles (sum_double.cuh) rather than the grid's
 * atomics and ticket. Measured on the H200 (the kernel alone, f32 2^17:
 * 4480 ns as a grid, 4192 in one cluster of 16 blocks of 512 threads;
 * 2^18 in blocks of 1024: 5536 against 4480, slower), docs/results.md,
 * "twenty-fifth round". f32 only: the other formats have no short way in
 * a cluster. */
#define CLUSTER_BLOCK_MAX_THREADS 512u

int cured_reduce_in_clusters(cured_op op, cured_dtype dtype, cured_reduce_variant variant)
{
    return op == CURED_OP_SUM && is_float(dtype) && variant == CURED_VARIANT_EXACT;
}

void cured_reduce_default_shape(cured_op op, cured_dtype dtype, uint64_t n,
                                unsigned resident, unsigned sms,
                                unsigned cluster_max, cured_reduce_shape *shape)
{
    shape->block = CURED_REDUCE_BLOCK;
    shape->variant = CURED_VARIANT_EXACT;
    shape->grid = cured_reduce_default_grid(op, dtype, n, CURED_REDUCE_BLOCK, resident, sms);
    shape->cluster = 1;
    if (!cured_reduce_in_clusters(op, dtype, CURED_VARIANT_EXACT))
        return;
    if (shape->grid > 1 && shape->grid * CURED_REDUCE_BLOCK <= ONE_BLOCK_MAX_THREADS &&
        n * cured_dtype_size(dtype) < CLUSTER_FULL_BYTES) {
        shape->block = (int)shape->grid * CURED_REDUCE_BLOCK; /* the same one trip */
        shape->grid = 1;
        return;
    }
    if (shape->grid > cluster_max) {
        if (dtype != CURED_F32 || cluster_max < 2 ||
            shape->grid * CURED_REDUCE_BLOCK > cluster_max * CLUSTER_BLOCK_MAX_THREADS)
            return;
        /* the same one trip in cluster_max blocks of 512 threads */
        unsigned per = (shape->grid * CURED_REDUCE_BLOCK + cluster_max - 1) / cluster_max;
        shape->block = (int)((per + CURED_REDUCE_BLOCK - 1) / CURED_REDUCE_BLOCK * CURED_REDUCE_BLOCK);
        shape->grid = cluster_max;
    }
    if (n * cured_dtype_size(dtype) >= CLUSTER_FULL_BYTES)
        shape->grid = cluster_max;
    if (shape->grid >= 2)
        shape->cluster = shape->grid;
}

cured_status cured_reduce_check_shape(const cured_reduce_shape *shape,
                                      uint64_t n)
{
    if (shape->block < 32 || shape->block > 1024 || shape->block % 32 != 0)
        return CURED_ERROR_INVALID_VALUE;
    if (shape->cluster > CURED_REDUCE_CLUSTER_MAX ||
        (shape->cluster > 1 && shape->grid % shape->cluster != 0))
        return CURED_ERROR_INVALID_VALUE;
    uint64_t least = (n + CURED_REDUCE_BLOCK_ELEMS_MAX - 1) / CURED_REDUCE_BLOCK_ELEMS_MAX;
    if (shape->grid < 1 || shape->grid > CURED_REDUCE_MAX_BLOCKS || shape->grid < least)
        return CURED_ERROR_INVALID_VALUE;
    if ((unsigned)shape->variant >= CURED_VARIANT_COUNT)
        return CURED_ERROR_INVALID_VALUE;
    return CURED_SUCCESS;
}

int cured_reduce_one_trip(cured_dtype dtype, uint64_t n, unsigned grid, int block)
{
    size_t elem = cured_dtype_size(dtype);
    if (elem == 0 || block <= 0)
        return 0;
    uint64_t threads = (uint64_t)grid * (uint64_t)block;
    return n <= threads * (CURED_REDUCE_TRIP_BYTES / elem);
}
