/* reduce.h - libcured's private side of cured_reduce: argument checks and
 * launch shapes in pure C (reduce_plan.c), and the GPU entry with a forced
 * shape and variant that the tests and the bench use (reduce.cu).
 *
 * defines: CURED_REDUCE_DEPENDENT_LAUNCH, CURED_REDUCE_BLOCK,
 *          cured_reduce_shape, cured_reduce_check_args,
 *          cured_reduce_default_grid, cured_reduce_in_clusters,
 *          cured_reduce_default_shape, cured_reduce_check_shape,
 *          cured_reduce_one_trip, cured_reduce_elem_align,
 *          cured_reduce_shaped, cured_reduce_flagged, cured_reducer_shape,
 *          cured_reducer_dependent_launch, cured_reduce_cpu_record,
 *          cured_is_device_pointer
 */
#ifndef CURED_REDUCE_H
#define CURED_REDUCE_H

#include "cured.h"
#include "reduce_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0 launches every kernel as a plain stream launch: the switch for an A/B
 * of programmatic dependent launch on one machine (docs/exact.md). */
#ifndef CURED_REDUCE_DEPENDENT_LAUNCH
#define CURED_REDUCE_DEPENDENT_LAUNCH 1
#endif

/* The default block: 256 threads (8 warps), four or more resident per SM. */
#define CURED_REDUCE_BLOCK 256

/* A launch: block threads, grid blocks, which kernel family, and the
 * blocks of a thread-block cluster (0 or 1: none; the exact float sums
 * only, the other kernels run without). */
typedef struct cured_reduce_shape {
    int block;
    unsigned grid;
    cured_reduce_variant variant;
    unsigned cluster;
} cured_reduce_shape;

/* Checks op, dtype, flags, n and the pointers' NULL-ness and alignment
 * (in may be NULL only for n == 0). Touches no memory. Returns the
 * statuses cured_reduce documents for them, or CURED_SUCCESS. */
cured_status cured_reduce_check_args(cured_op op, cured_dtype dtype,
                                     const void *in, uint64_t n,
                                     const void *out, unsigned flags);

/* The alignment (bytes) a pointer to `dtype` elements must have. */
size_t cured_reduce_elem_align(cured_dtype dtype);

/* The default grid for op on n elements of dtype at `block` threads when
 * `resident` blocks fill the GPU's `sms` multiprocessors: one trip of four
 * 16-byte loads per thread while that is fewer blocks than resident, else
 * resident (three times resident for a sum of 2 GiB or more: blocks that
 * start as others end even out how far apart they finish); capped at a
 * measured number of blocks per SM for the sizes and kernels where fewer
 * blocks are faster (reduce_plan.c: f64 sums at 16 MiB, integer sums at
 * 4 .. 64 MiB); never below
 * ceil(n / CURED_REDUCE_BLOCK_ELEMS_MAX) nor above
 * CURED_REDUCE_MAX_BLOCKS; at least 1. A function of its arguments only,
 * so a result never depends on anything else (and an exact sum not even
 * on them). Can't fail. */
unsigned cured_reduce_default_grid(cured_op op, cured_dtype dtype, uint64_t n,
                                   int block, unsigned resident, unsigned sms);

/* Whether the kernel of (op, dtype, variant) combines its blocks in a
 * thread-block cluster when launched in one: the exact float sums only
 * (the other kernels run a forced cluster as no cluster). */
int cured_reduce_in_clusters(cured_op op, cured_dtype dtype, cured_reduce_variant variant);

/* The shape cured_reduce launches for op on n elements of dtype on a GPU
 * with `sms` multiprocessors, where `resident` blocks of the kernel fill
 * it and a thread-block cluster holds up to cluster_max blocks (0: no
 * clusters): CURED_REDUCE_BLOCK threads, the exact variant, the default
 * grid (above); for an exact float sum below 64 KiB of input whose grid
 * is two to four blocks, one block of as many threads (the one-block
 * short ways); else where its grid fits one cluster, a cluster of the
 * whole grid, and from 64 KiB of input a full cluster of cluster_max
 * blocks (its blocks combine in shared memory: no global atomics, fence,
 * ticket or second read); an exact f32 sum whose one-trip grid fits
 * cluster_max blocks of 512 threads (up to 2^17 elements), such a
 * cluster. A function of its arguments only. Can't fail. */
void cured_reduce_default_shape(cured_op op, cured_dtype dtype, uint64_t n,
                                unsigned resident, unsigned sms,
                                unsigned cluster_max, cured_reduce_shape *shape);

/* Checks a forced shape for n elements: block a multiple of 32 in
 * [32, 1024], grid in [max(1, ceil(n / 2^30)), CURED_REDUCE_MAX_BLOCKS],
 * a known variant, cluster at most CURED_REDUCE_CLUSTER_MAX and, above 1,
 * dividing the grid. Returns CURED_SUCCESS or CURED_ERROR_INVALID_VALUE. */
cured_status cured_reduce_check_shape(const cured_reduce_shape *shape,
                                      uint64_t n);

/* Whether one trip of every thread of a grid of `grid` blocks of `block`
 * threads covers n elements of dtype (n * size <= CURED_REDUCE_TRIP_BYTES
 * per thread), so that the kernel without a main loop may run
 * (cured_reduce_function's one_trip). 0 for an unknown dtype. Can't
 * fail. */
int cured_reduce_one_trip(cured_dtype dtype, uint64_t n, unsigned grid, int block);

/* cured_reduce with a given shape (NULL: the default) and variant. The
 * plain variant exists for float sums only (else
 * CURED_ERROR_UNSUPPORTED_OP). Same checks and statuses as cured_reduce,
 * plus CURED_ERROR_INVALID_VALUE for a bad shape. */
cured_status cured_reduce_shaped(cured_reducer *r, cured_op op,
                                 cured_dtype dtype, const void *d_in,
                                 uint64_t n, void *d_out, unsigned flags,
                                 const cured_reduce_shape *shape,
                                 cured_stream stream);

/* cured_reduce (default shape, exact variant) with kernel-only flag bits
 * (SHARD_KERNEL_STATE, shard_state.h) OR'ed into the kernel's flags after
 * `flags` passed cured_reduce's checks; the sharded path's entry. Same
 * statuses as cured_reduce. CUDA builds only. */
cured_status cured_reduce_flagged(cured_reducer *r, cured_op op,
                                  cured_dtype dtype, const void *d_in,
                                  uint64_t n, void *d_out, unsigned flags,
                                  unsigned kernel_flags, cured_stream stream);

/* The shape cured_reduce would launch for these arguments on r's device
 * (variant exact). Returns CURED_ERROR_NULL_POINTER,
 * CURED_ERROR_UNSUPPORTED_OP, CURED_ERROR_UNSUPPORTED_TYPE. */
cured_status cured_reducer_shape(const cured_reducer *r, cured_op op,
                                 cured_dtype dtype, uint64_t n,
                                 cured_reduce_shape *shape);

/* 1 when r launches its kernels as programmatic dependent launches (on
 * sm_90 and later, unless the build set CURED_REDUCE_DEPENDENT_LAUNCH to
 * 0), else 0; 0 for NULL. So a bench launches its floor the same way. */
int cured_reducer_dependent_launch(const cured_reducer *r);

/* Whether p is device (or managed) memory of `device`
 * (cudaPointerGetAttributes, about 0.07 us). Clears the error a failed
 * query leaves. CUDA builds only. */
int cured_is_device_pointer(const void *p, int device);

/* The record (shard_state.h: SHARD_REC_WORDS words at `record`) that a
 * rank holding in[0..n) (host memory) sends in cured_reduce_sharded,
 * made on the CPU with `threads` threads as cured_reduce_cpu reduces: the
 * CPU simulation of the sharded path combines such records. Returns
 * cured_reduce_cpu's statuses (CURED_ERROR_NULL_POINTER for record). */
cured_status cured_reduce_cpu_record(cured_op op, cured_dtype dtype, const void *in,
                                     uint64_t n, unsigned flags, int threads,
                                     uint64_t *record);

#ifdef __cplusplus
}
#endif

#endif /* CURED_REDUCE_H */
