/* cured.h - public C API of libcured, parallel reduction on NVIDIA GPUs.
 *
 * defines: cured_status, cured_dtype, cured_kernel_info, cured_status_string,
 *          cured_dtype_name, cured_dtype_size, cured_dtype_from_name,
 *          cured_catalogue_count, cured_catalogue_entry, cured_catalogue_find,
 *          cured_launch, cured_plan, cured_catalogue_temp_bytes,
 *          cured_device_shape, cured_device_preset, cured_device_presets,
 *          cured_device_preset_find, cured_catalogue_plan_on,
 *          cured_catalogue_chain_length,
 *          cured_catalogue_plan, cured_catalogue_run,
 *          cured_op, cured_reduce_flags, cured_reducer, cured_op_name,
 *          cured_op_from_name, cured_reduce_result_dtype,
 *          cured_reduce_workspace_bytes, cured_reducer_create,
 *          cured_reducer_destroy, cured_reduce, cured_reduce_cpu,
 *          cured_comm, cured_comm_id, cured_shard, CURED_COMM_MAX_RANKS,
 *          CURED_SHARD_RECORD_BYTES, cured_comm_id_create,
 *          cured_comm_create_rank, cured_comm_create_all, cured_comm_wrap,
 *          cured_comm_destroy, cured_comm_info, cured_comm_nccl,
 *          cured_reduce_sharded, cured_reduce_sharded_group,
 *          cured_comm_check
 *
 * The catalogue is the teaching sequence of reduction kernels (divergent ...
 * single_pass) as real GPU kernels. Every run function takes device pointers
 * and a CUDA stream, returns a cured_status, never prints and never exits.
 * The listing functions (count, entry, find, names, strings) and
 * cured_catalogue_temp_bytes are pure C and work on machines without CUDA;
 * cured_catalogue_plan and cured_catalogue_run need the CUDA build (without
 * it they validate their arguments, then answer CURED_ERROR_NO_CUDA).
 *
 * cured_reduce (the second half of this header) is the library's own
 * reduction: sum, min, max, argmin, argmax over eight element types, float
 * sums correctly rounded (the exact sum rounded once), so its bits are the
 * same on every GPU, grid and stream, and on the CPU (cured_reduce_cpu).
 * docs/exact.md explains how.
 *
 * cured_reduce_sharded (the third part) reduces one array spread over
 * several GPUs, through NCCL, to the bits cured_reduce gives for the whole
 * array on one GPU (docs/sharded.md).
 */
#ifndef CURED_H
#define CURED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A CUDA stream, as the runtime's cudaStream_t (a pointer to an opaque
 * struct); NULL is the legacy default stream. Declared here so that this
 * header does not need the CUDA headers. */
typedef struct CUstream_st *cured_stream;

typedef enum cured_status {
    CURED_SUCCESS = 0,
    CURED_ERROR_NULL_POINTER,       /* a required pointer argument is NULL */
    CURED_ERROR_UNKNOWN_KERNEL,     /* no catalogue entry has that name/index */
    CURED_ERROR_INVALID_BLOCK_SIZE, /* not a power of two in [32, 1024] */
    CURED_ERROR_SIZE_TOO_LARGE,     /* n beyond what the kernel's indexing supports */
    CURED_ERROR_UNSUPPORTED_TYPE,   /* the kernel has no instance for that dtype */
    CURED_ERROR_TEMP_TOO_SMALL,     /* temp_bytes below what temp_bytes() asked */
    CURED_ERROR_NO_CUDA,            /* library built without CUDA support */
    CURED_ERROR_CUDA,               /* a CUDA runtime call or launch failed */
    CURED_ERROR_UNSUPPORTED_OP,     /* no such op, or the op refuses that dtype */
    CURED_ERROR_NOT_DEVICE_POINTER, /* host memory, or another device's memory */
    CURED_ERROR_MISALIGNED,         /* a pointer not aligned to its element type */
    CURED_ERROR_INVALID_VALUE,      /* bad flags, handle or forced launch shape */
    CURED_ERROR_OUT_OF_MEMORY,      /* host or device allocation failed */
    CURED_ERROR_NO_NCCL,            /* library built without NCCL (sharded calls) */
    CURED_ERROR_NCCL,               /* an NCCL call failed */
    CURED_ERROR_RANK_MISMATCH       /* ranks disagreed on op, dtype or flags, or
                                       one refused its arguments */
} cured_status;

typedef enum cured_dtype {
    CURED_F32 = 0,
    CURED_F64,
    CURED_I32,
    CURED_I64,
    CURED_U32,
    CURED_U64,
    CURED_F16,  /* IEEE binary16 (cured_reduce only) */
    CURED_BF16, /* bfloat16: the top half of an f32 (cured_reduce only) */
    CURED_DTYPE_COUNT
} cured_dtype;

/* The catalogue's kernels take the first six dtypes, f32 .. u64. */
#define CURED_CATALOGUE_DTYPES 6

/* Where a kernel sits in the hardware's layering. */
typedef enum cured_level {
    CURED_LEVEL_BLOCK = 0, /* one kernel reduces a tile per block; passes repeat */
    CURED_LEVEL_GRID       /* the kernel itself combines the blocks' results */
} cured_level;

typedef struct cured_kernel_info {
    const char *name;        /* "divergent", "strided", ... */
    const char *description; /* one line */
    cured_level level;
    uint64_t max_n;          /* largest n its indexing supports */
    int is_exhibit;          /* 1: kept to show a hazard (unroll_warp), unsafe */
} cured_kernel_info;

/* Returns a static, human-readable string for a status. Never NULL. */
const char *cured_status_string(cured_status status);

/* Returns "f32", "i32", ... for a dtype, or NULL for an invalid one. */
const char *cured_dtype_name(cured_dtype dtype);

/* Returns the element size in bytes, or 0 for an invalid dtype. */
size_t cured_dtype_size(cured_dtype dtype);

/* Parses "f32", "i32", ... into *dtype. Returns CURED_ERROR_NULL_POINTER or
 * CURED_ERROR_UNSUPPORTED_TYPE (unknown name; *dtype untouched). */
cured_status cured_dtype_from_name(const char *name, cured_dtype *dtype);

/* Number of catalogue entries, in teaching order. Can't fail. */
int cured_catalogue_count(void);

/* Entry i (0 <= i < count), or NULL when i is out of range. */
const cured_kernel_info *cured_catalogue_entry(int index);

/* Looks a kernel up by name and stores its index in *index.
 * Returns CURED_ERROR_NULL_POINTER or CURED_ERROR_UNKNOWN_KERNEL. */
cured_status cured_catalogue_find(const char *name, int *index);

/* The first CURED_TEMP_STATE_BYTES bytes of every scratch space are state
 * that must be zero when a call starts (single_pass's ticket counter); the
 * partial sums of the passes lie beyond them. */
#define CURED_TEMP_STATE_BYTES 256

/* Scratch space (bytes) that cured_catalogue_run needs for this kernel,
 * dtype, n and block size; stores it in *bytes (0 is possible: then d_temp
 * may be NULL). The size does not depend on the device. Pure C: works
 * without CUDA and without a GPU.
 * Zero-fill the scratch space once before its first use (cudaMemset). Every
 * call leaves the state it needs zero again (the first
 * CURED_TEMP_STATE_BYTES bytes: single_pass re-arms its counter), so one
 * buffer serves any number of later calls, of any kernel, dtype, n and block
 * size it is large enough for, with no other memset. The bytes beyond hold
 * intermediate partial sums and carry nothing from one call to the next.
 * Calls that share scratch space must not run concurrently.
 * Returns CURED_ERROR_NULL_POINTER (bytes), CURED_ERROR_UNKNOWN_KERNEL,
 * CURED_ERROR_UNSUPPORTED_TYPE, CURED_ERROR_INVALID_BLOCK_SIZE or
 * CURED_ERROR_SIZE_TOO_LARGE (n > the kernel's max_n); *bytes is untouched
 * on an error. */
cured_status cured_catalogue_temp_bytes(int kernel, cured_dtype dtype,
                                        uint64_t n, int block_size,
                                        size_t *bytes);

/* What cured_catalogue_run launches, in order, on the caller's stream. */
#define CURED_MAX_LAUNCHES 8

typedef struct cured_launch {
    uint64_t n;          /* elements this launch reads */
    uint64_t grid;       /* blocks (gridDim.x) */
    int block;           /* threads per block (blockDim.x) */
    size_t shared_bytes; /* dynamic shared memory per block */
} cured_launch;

typedef struct cured_plan {
    int zero_output; /* 1: *d_out is zeroed (cudaMemsetAsync) before launch 0 */
    int launches;    /* 0 (n == 0: d_out is only zeroed) .. CURED_MAX_LAUNCHES */
    cured_launch launch[CURED_MAX_LAUNCHES];
} cured_plan;

/* What a plan needs to know about a GPU: the grids of multi_elem, shuffle
 * and the grid-level kernels are sized to fill it once. */
typedef struct cured_device_shape {
    int sm_count;           /* multiprocessors */
    int max_threads_per_sm; /* resident threads per multiprocessor */
    int max_blocks_per_sm;  /* resident blocks per multiprocessor */
} cured_device_shape;

/* A GPU the library knows by name, so that plans (and the model, which
 * runs them on the CPU) can be made for it without one. */
typedef struct cured_device_preset {
    const char *name;        /* "h200", lower case */
    const char *description; /* "NVIDIA H200 (sm_90, 132 SMs)" */
    cured_device_shape shape;
} cured_device_preset;

/* The presets, H200 first; *count gets their number (count may be NULL).
 * Can't fail. */
const cured_device_preset *cured_device_presets(int *count);

/* The preset named `name` (case-insensitive), or NULL for an unknown name
 * or NULL. */
const cured_device_preset *cured_device_preset_find(const char *name);

/* Fills *plan with the launches cured_catalogue_run would make on a device
 * of shape *device (a preset's, or a real device's). Pure C: works without
 * CUDA and without a GPU. Returns the errors of cured_catalogue_temp_bytes
 * (CURED_ERROR_NULL_POINTER for plan or device); *plan is untouched on an
 * error. */
cured_status cured_catalogue_plan_on(int kernel, cured_dtype dtype, uint64_t n,
                                     int block_size,
                                     const cured_device_shape *device,
                                     cured_plan *plan);

/* h: the most additions on any path from an input element to the result
 * of kernel's plan (from cured_catalogue_plan or cured_catalogue_plan_on):
 * what bounds a float sum's rounding. Any summation whose paths have at
 * most h additions has |computed - exact| <= gamma_h * sum|x_i|, gamma_h =
 * h u / (1 - h u) (Higham, Accuracy and Stability of Numerical Algorithms,
 * 4.2): the tests' bound for float sums. 0 for a plan with no launch.
 * Pure C. Can't fail. */
uint64_t cured_catalogue_chain_length(int kernel, const cured_plan *plan);

/* Fills *plan with the launches cured_catalogue_run makes for these
 * arguments on the current device: block-level kernels run one launch per
 * pass until one value is left, each launch reading the previous one's
 * partial sums (launch[k+1].n == launch[k].grid), all at block_size but the
 * last pass, which may be one block of up to 1024 threads when that saves
 * a pass; two_pass makes two launches, atomic and single_pass one. Grid
 * sizes of multi_elem, shuffle, shuffle_wide and the grid-level kernels
 * depend on the device's multiprocessors.
 * Launches nothing and allocates nothing. Returns the errors of
 * cured_catalogue_temp_bytes (CURED_ERROR_NULL_POINTER for plan),
 * CURED_ERROR_CUDA when the device cannot be queried, CURED_ERROR_NO_CUDA in
 * a build without CUDA; *plan is untouched on an error. */
cured_status cured_catalogue_plan(int kernel, cured_dtype dtype, uint64_t n,
                                  int block_size, cured_plan *plan);

/* Sums d_in[0..n) into *d_out (one element of dtype, device memory) with
 * catalogue kernel `kernel`, asynchronously on `stream`, on the current
 * device (which must own the pointers and the stream). n == 0 writes 0.
 * Integer sums wrap modulo 2^bits. d_in may be NULL only when n == 0;
 * d_temp (from cudaMalloc, zero-filled once: see temp_bytes) may be NULL
 * only when temp_bytes() asked for 0 bytes. d_out must not lie in d_in or
 * in the scratch space.
 * Validates every argument before touching the device; on an error status
 * nothing has been launched or written: CURED_ERROR_NULL_POINTER,
 * CURED_ERROR_UNKNOWN_KERNEL, CURED_ERROR_UNSUPPORTED_TYPE,
 * CURED_ERROR_INVALID_BLOCK_SIZE, CURED_ERROR_SIZE_TOO_LARGE (n > max_n),
 * CURED_ERROR_TEMP_TOO_SMALL, CURED_ERROR_NO_CUDA (build without CUDA).
 * CURED_ERROR_CUDA means a CUDA call or launch failed (the stream's state is
 * then whatever CUDA left it in; an error an earlier call left pending in
 * the CUDA runtime is reported, and cleared, here too). */
cured_status cured_catalogue_run(int kernel, cured_dtype dtype,
                                 const void *d_in, uint64_t n, void *d_out,
                                 int block_size, void *d_temp,
                                 size_t temp_bytes, cured_stream stream);

/* ------------------------------------------------------------------------
 * cured_reduce: the reduction to link against.
 *
 * One call reduces n elements of a device array to one value, on a stream,
 * with one kernel launch: no allocation, no host synchronisation, no device
 * query, no memset per call (capturable in a CUDA graph). A handle
 * (cured_reducer) holds what the calls need: the device's shape, read once
 * when the handle is made, and a workspace (its own, or the caller's).
 *
 * Results (docs/exact.md):
 * - sum of f16, bf16, f32: the exact sum of the inputs rounded once, to
 *   nearest, ties to even, to f32 (or f64 with CURED_REDUCE_F64); of f64:
 *   to f64. Hence the same bits on any GPU, grid, stream, and on the CPU.
 *   Any NaN -> NaN; +inf and -inf both present -> NaN; else an infinite
 *   input gives that infinity; an exact sum beyond the format -> +-inf. A
 *   zero sum is +0 (also for n == 0 and for inputs that are all -0).
 * - sum of integers: modulo 2^bits in the input type, or as a 64-bit sum
 *   (i64 for i32, u64 for u32) with CURED_REDUCE_WIDEN; exact either way.
 * - min, max: the element itself (same dtype). Any NaN -> the NaN of the
 *   lowest index; -0 orders below +0 (min{-0, +0} = -0, max = +0).
 * - argmin, argmax: the int64 index of the first element equal to min/max
 *   in that order (the first NaN if there is one).
 * - n == 0 gives the identity: sum 0 (+0.0); min +inf (floats) or the
 *   type's largest integer; max -inf or the smallest; argmin/argmax -1.
 * ------------------------------------------------------------------------ */

typedef enum cured_op {
    CURED_OP_SUM = 0,
    CURED_OP_MIN,
    CURED_OP_MAX,
    CURED_OP_ARGMIN,
    CURED_OP_ARGMAX,
    CURED_OP_COUNT
} cured_op;

/* Flags of cured_reduce (OR them; 0 is the default). */
typedef enum cured_reduce_flags {
    CURED_REDUCE_F64 = 1u << 0,   /* float sums of f16/bf16/f32 round to f64 */
    CURED_REDUCE_WIDEN = 1u << 1  /* integer sums as 64 bits, not wrapped */
} cured_reduce_flags;

/* The largest n cured_reduce accepts: 2^42 elements (64-bit indexing). */
#define CURED_REDUCE_MAX_N ((uint64_t)1 << 42)

/* A reduction handle: the device's shape, the workspace, the pointer-check
 * cache. Opaque. One handle serves one device; calls through one handle
 * must not run concurrently (they share the workspace), so give each
 * concurrently used stream its own handle. */
typedef struct cured_reducer cured_reducer;

/* "sum", "min", "max", "argmin", "argmax", or NULL for an invalid op. */
const char *cured_op_name(cured_op op);

/* Parses an op's name into *op. Returns CURED_ERROR_NULL_POINTER or
 * CURED_ERROR_UNSUPPORTED_OP (unknown name; *op untouched). */
cured_status cured_op_from_name(const char *name, cured_op *op);

/* The dtype of the one element cured_reduce writes for (op, dtype, flags):
 * see the results above (CURED_I64 for argmin/argmax). Pure C. Returns
 * CURED_ERROR_NULL_POINTER, CURED_ERROR_UNSUPPORTED_TYPE (invalid dtype),
 * CURED_ERROR_UNSUPPORTED_OP (invalid op) or CURED_ERROR_INVALID_VALUE
 * (unknown flag bits, CURED_REDUCE_F64 on a non-float sum or
 * CURED_REDUCE_WIDEN on a non-integer sum); *out untouched on an error. */
cured_status cured_reduce_result_dtype(cured_op op, cured_dtype dtype,
                                       unsigned flags, cured_dtype *out);

/* The workspace a handle needs (bytes), the same for every op, dtype, n
 * and device: CUB's first call, done once. Pure C. Returns
 * CURED_ERROR_NULL_POINTER. */
cured_status cured_reduce_workspace_bytes(size_t *bytes);

/* Makes a handle for the current device: reads its shape and the kernels'
 * occupancy once, and takes d_workspace (device memory of this device,
 * cured_reduce_workspace_bytes() large, 256-byte aligned) as its workspace,
 * or with d_workspace NULL allocates one it owns (cudaMalloc). Zero-fills
 * the workspace's state once (cudaMemset; synchronous), after which every
 * call leaves it as it found it. Returns CURED_ERROR_NULL_POINTER (out),
 * CURED_ERROR_TEMP_TOO_SMALL, CURED_ERROR_MISALIGNED,
 * CURED_ERROR_NOT_DEVICE_POINTER (d_workspace), CURED_ERROR_OUT_OF_MEMORY,
 * CURED_ERROR_CUDA (no device), CURED_ERROR_NO_CUDA (build without CUDA);
 * *out is NULL on an error. */
cured_status cured_reducer_create(void *d_workspace, size_t workspace_bytes,
                                  cured_reducer **out);

/* Frees a handle and the workspace it owns. It does not synchronise: the
 * caller makes sure no call through it is still in flight. NULL is fine.
 * Returns CURED_SUCCESS or CURED_ERROR_CUDA (cudaFree failed). */
cured_status cured_reducer_destroy(cured_reducer *r);

/* Reduces d_in[0..n) (dtype elements, device memory) with op into the one
 * element at d_out (device memory, of cured_reduce_result_dtype's type),
 * asynchronously on `stream`, on the handle's device. d_in may be NULL
 * only when n == 0.
 * Checks everything before it touches the device; on an error nothing is
 * launched or written: CURED_ERROR_NULL_POINTER, CURED_ERROR_UNSUPPORTED_TYPE,
 * CURED_ERROR_UNSUPPORTED_OP, CURED_ERROR_INVALID_VALUE (flags, handle),
 * CURED_ERROR_SIZE_TOO_LARGE (n > CURED_REDUCE_MAX_N),
 * CURED_ERROR_MISALIGNED (d_in or d_out not aligned to its element size),
 * CURED_ERROR_NOT_DEVICE_POINTER (d_in or d_out is host memory or another
 * device's: checked with cudaPointerGetAttributes, about 0.07 us a
 * pointer, and skipped when a pointer equals the one the last successful
 * call checked), CURED_ERROR_NO_CUDA. CURED_ERROR_CUDA: the launch failed
 * (an error an earlier call left pending is reported, and cleared, too). */
cured_status cured_reduce(cured_reducer *r, cured_op op, cured_dtype dtype,
                          const void *d_in, uint64_t n, void *d_out,
                          unsigned flags, cured_stream stream);

/* The same reduction on the CPU, over host memory, with `threads` POSIX
 * threads (0: one per online core, at most 64): bit for bit the result
 * cured_reduce gives (written to *out, cured_reduce_result_dtype's type).
 * Works without CUDA and without a GPU. Returns the argument errors of
 * cured_reduce (host pointers are what it wants) and
 * CURED_ERROR_OUT_OF_MEMORY when threads cannot be started. */
cured_status cured_reduce_cpu(cured_op op, cured_dtype dtype, const void *in,
                              uint64_t n, void *out, unsigned flags,
                              int threads);

/* ------------------------------------------------------------------------
 * cured_reduce_sharded: one array spread over several GPUs.
 *
 * Each rank (one GPU, in this process or another) holds a contiguous shard
 * of one global array: rank 0 its first elements, rank 1 the next ones, and
 * so on, of any sizes (unequal, empty). One call on every rank gives every
 * rank the result cured_reduce gives for the whole array on one GPU, bit
 * for bit, for every op, dtype and flag of cured_reduce; argmin/argmax
 * give the index in the global array. The ranks exchange one record of
 * CURED_SHARD_RECORD_BYTES each (an NCCL allgather): their shard's exact
 * partial state, never the data (docs/sharded.md: design and proof).
 *
 * A communicator (cured_comm) wraps an NCCL communicator (ncclComm_t) and
 * owns, on its rank's device, a cured_reducer (with its workspace), the
 * buffer of every rank's record and an error word. Calls through one
 * communicator must not run concurrently (they share these).
 *
 * Built only where NCCL is found (CMake: the toolkit's nccl.h and
 * libnccl); in a build without it every function here checks its
 * arguments, then answers CURED_ERROR_NO_NCCL.
 * ------------------------------------------------------------------------ */

/* NCCL's communicator: ncclComm_t is `struct ncclComm *` (nccl.h).
 * Declared here so that this header does not need nccl.h. */
struct ncclComm;

/* A communicator: one rank of an NCCL communicator, for sharded calls.
 * Opaque. */
typedef struct cured_comm cured_comm;

/* The most ranks a communicator may have (the exactness argument holds up
 * to it: docs/sharded.md). */
#define CURED_COMM_MAX_RANKS 65536

/* What each rank sends per call: one record, whatever the op and dtype. */
#define CURED_SHARD_RECORD_BYTES 640

/* The id that joins the ranks of a communicator made by separate
 * processes: NCCL's ncclUniqueId (128 bytes), made once by one process
 * (cured_comm_id_create) and handed to all (e.g. MPI_Bcast). */
typedef struct cured_comm_id {
    char bytes[128];
} cured_comm_id;

/* Makes a new id (ncclGetUniqueId). Returns CURED_ERROR_NULL_POINTER,
 * CURED_ERROR_NCCL, CURED_ERROR_NO_NCCL. */
cured_status cured_comm_id_create(cured_comm_id *id);

/* Joins rank `rank` of `nranks` to the communicator of `id`, on the
 * current device (ncclCommInitRank: blocks until all ranks have joined).
 * Returns CURED_ERROR_NULL_POINTER, CURED_ERROR_INVALID_VALUE (nranks
 * outside 1..CURED_COMM_MAX_RANKS, rank outside 0..nranks-1),
 * CURED_ERROR_NCCL, CURED_ERROR_CUDA, CURED_ERROR_OUT_OF_MEMORY,
 * CURED_ERROR_NO_NCCL; *out is NULL on an error. */
cured_status cured_comm_create_rank(const cured_comm_id *id, int nranks, int rank,
                                    cured_comm **out);

/* Makes one communicator per device of devices[0..count) in this process
 * (ncclCommInitAll; devices NULL: 0 .. count-1), rank i on devices[i],
 * into comms[0..count). The current device is left as it was. Returns
 * CURED_ERROR_NULL_POINTER (comms), CURED_ERROR_INVALID_VALUE (count
 * outside 1..CURED_COMM_MAX_RANKS), CURED_ERROR_NCCL (e.g. a device twice
 * or missing), CURED_ERROR_CUDA, CURED_ERROR_OUT_OF_MEMORY,
 * CURED_ERROR_NO_NCCL; comms[] all NULL on an error. */
cured_status cured_comm_create_all(int count, const int *devices, cured_comm **comms);

/* Wraps the caller's own NCCL communicator (its rank, size and device are
 * NCCL's); cured_comm_destroy leaves it to the caller. Returns
 * CURED_ERROR_NULL_POINTER, CURED_ERROR_INVALID_VALUE (more ranks than
 * CURED_COMM_MAX_RANKS), CURED_ERROR_NCCL, CURED_ERROR_CUDA,
 * CURED_ERROR_OUT_OF_MEMORY, CURED_ERROR_NO_NCCL; *out NULL on an error. */
cured_status cured_comm_wrap(struct ncclComm *nccl, cured_comm **out);

/* Frees a communicator: its device memory, its reducer and (unless it
 * was wrapped) its NCCL communicator. The caller makes sure no call
 * through it is in flight. NULL is fine. Returns CURED_SUCCESS,
 * CURED_ERROR_CUDA or CURED_ERROR_NCCL (freeing failed; freed anyway). */
cured_status cured_comm_destroy(cured_comm *comm);

/* Its rank, number of ranks and CUDA device (any pointer may be NULL).
 * Returns CURED_ERROR_NULL_POINTER (comm) or CURED_SUCCESS. */
cured_status cured_comm_info(const cured_comm *comm, int *rank, int *nranks,
                             int *device);

/* The NCCL communicator underneath (to time or add one's own
 * collectives). Returns CURED_ERROR_NULL_POINTER or CURED_SUCCESS. */
cured_status cured_comm_nccl(const cured_comm *comm, struct ncclComm **out);

/* Reduces the global array whose shard on this rank is d_shard[0..n)
 * (device memory of the communicator's device) with op, and writes the
 * global result to d_out (device memory of that device, of
 * cured_reduce_result_dtype's type), asynchronously on `stream` (of that
 * device): a kernel, the allgather of the records, a kernel; no
 * allocation, no synchronisation: capturable in a CUDA graph as NCCL's
 * collectives are. Every rank makes the same call (same op, dtype and
 * flags; its own shard), one rank per process or thread; a thread that
 * drives several ranks uses cured_reduce_sharded_group.
 *
 * Returns CURED_ERROR_NULL_POINTER (comm) at once, taking no part. Every
 * other argument error (cured_reduce's: NULL or misaligned pointers, a
 * shard or output that is not memory of the communicator's device, bad op,
 * dtype or flags, n > CURED_REDUCE_MAX_N) is returned after this rank has
 * still taken part in the collective with a refusal, so that the other
 * ranks never wait for it; no rank then writes its d_out, and
 * cured_comm_check reports CURED_ERROR_RANK_MISMATCH on every rank, as it
 * does when ranks disagree on op, dtype or flags (which only the
 * collective can see). CURED_ERROR_NCCL, CURED_ERROR_CUDA: a call or launch
 * failed (d_out not written), CURED_ERROR_NO_NCCL. */
cured_status cured_reduce_sharded(cured_comm *comm, cured_op op, cured_dtype dtype,
                                  const void *d_shard, uint64_t n, void *d_out,
                                  unsigned flags, cured_stream stream);

/* One rank's part of a group call: its communicator, shard, output and
 * stream, as cured_reduce_sharded takes them. */
typedef struct cured_shard {
    cured_comm *comm;
    const void *d_shard;
    uint64_t n;
    void *d_out;
    cured_stream stream;
} cured_shard;

/* cured_reduce_sharded for several ranks driven by this thread (e.g. the
 * communicators of cured_comm_create_all), their collectives in one NCCL
 * group; the current device is left as it was. Returns
 * CURED_ERROR_NULL_POINTER (shards, or a comm) and CURED_ERROR_INVALID_VALUE
 * (count < 1, a communicator twice) at once, taking no part; otherwise
 * the first error of cured_reduce_sharded's among the shards. */
cured_status cured_reduce_sharded_group(const cured_shard *shards, int count,
                                        cured_op op, cured_dtype dtype,
                                        unsigned flags);

/* Waits for `stream` (the stream of the calls to check) and reports what
 * only the device saw since the last check: CURED_ERROR_RANK_MISMATCH when
 * a call's ranks disagreed on op, dtype or flags or one refused its
 * arguments (that call wrote no result on any rank), CURED_ERROR_NCCL when
 * NCCL reports an asynchronous error; then clears it. CURED_ERROR_CUDA when
 * waiting fails, CURED_ERROR_NULL_POINTER, CURED_ERROR_NO_NCCL. */
cured_status cured_comm_check(cured_comm *comm, cured_stream stream);

#ifdef __cplusplus
}
#endif

#endif /* CURED_H */
