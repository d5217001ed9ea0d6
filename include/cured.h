/* cured.h - public C API of libcured, parallel reduction on NVIDIA GPUs.
 *
 * defines: cured_status, cured_dtype, cured_kernel_info, cured_status_string,
 *          cured_dtype_name, cured_dtype_size, cured_dtype_from_name,
 *          cured_catalogue_count, cured_catalogue_entry, cured_catalogue_find,
 *          cured_launch, cured_plan, cured_catalogue_temp_bytes,
 *          cured_device_shape, cured_device_preset, cured_device_presets,
 *          cured_device_preset_find, cured_catalogue_plan_on,
 *          cured_catalogue_chain_length,
 *          cured_catalogue_plan, cured_catalogue_run
 *
 * The catalogue is the teaching sequence of reduction kernels (divergent ...
 * single_pass) as real GPU kernels. Every run function takes device pointers
 * and a CUDA stream, returns a cured_status, never prints and never exits.
 * The listing functions (count, entry, find, names, strings) and
 * cured_catalogue_temp_bytes are pure C and work on machines without CUDA;
 * cured_catalogue_plan and cured_catalogue_run need the CUDA build (without
 * it they validate their arguments, then answer CURED_ERROR_NO_CUDA).
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
    CURED_ERROR_CUDA                /* a CUDA runtime call or launch failed */
} cured_status;

typedef enum cured_dtype {
    CURED_F32 = 0,
    CURED_F64,
    CURED_I32,
    CURED_I64,
    CURED_U32,
    CURED_U64,
    CURED_DTYPE_COUNT
} cured_dtype;

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

#ifdef __cplusplus
}
#endif

#endif /* CURED_H */
