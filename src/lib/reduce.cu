/* reduce.cu - cured_reduce on the GPU: the handle (device shape, occupancy,
 * workspace, pointer-check cache) and the launch.
 *
 * defines: cured_reducer_create, cured_reducer_destroy, cured_reduce,
 *          cured_reduce_shaped, cured_reduce_flagged, cured_reducer_shape,
 *          cured_reducer_dependent_launch, cured_is_device_pointer
 *
 * Everything a call needs from the device is read once, in
 * cured_reducer_create: a call checks its arguments in C, checks a pointer
 * with cudaPointerGetAttributes only when it differs from the last one that
 * passed, picks the kernel (without a main loop where one trip of every
 * thread covers n), grid and cluster from tables, and launches
 * through cudaLaunchKernelEx (on sm_90 as a programmatic dependent launch,
 * and in a cluster where the shape has one). No allocation, no memset, no
 * synchronisation: capturable in a graph.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>

#include "cured.h"
#include "reduce.h"
#include "reduce_kernels.h"

struct cured_reducer {
    int device;
    int sm_count;
    unsigned cluster_max; /* blocks a cluster may hold (0: no clusters) */
    int dependent_launch; /* launch with programmatic stream serialization */
    void *workspace;
    int owns_workspace;
    const void *checked_in;  /* the last pointers that passed the check */
    const void *checked_out;
    /* blocks of CURED_REDUCE_BLOCK threads that fill the GPU, per kernel */
    unsigned resident[CURED_OP_COUNT][CURED_DTYPE_COUNT][CURED_VARIANT_COUNT];
    /* the most dynamic shared memory a launch gives the lane bins
     * (cured_reduce_dynamic_smem); a launch that needs more gives none,
     * and its kernel takes the superaccumulator's atomics instead */
    size_t bins_smem_max;
};

extern "C" int cured_is_device_pointer(const void *p, int device)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) &&
           a.device == device;
}

/* The blocks a cluster of the exact sum kernels may hold on `device`: 0
 * before sm_90 (no clusters), 16 where the kernels accept non-portable
 * cluster sizes, else 8 (the portable limit). */
static unsigned cluster_max(int device)
{
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) !=
            cudaSuccess || major < 9) {
        cudaGetLastError();
        return 0;
    }
    static const cured_dtype floats[] = {CURED_F16, CURED_BF16, CURED_F32, CURED_F64};
    for (int i = 0; i < 4; i++)
        for (int one_trip = 0; one_trip <= 1; one_trip++) {
            const void *f = cured_reduce_function(CURED_OP_SUM, floats[i],
                                                  CURED_VARIANT_EXACT, one_trip);
            if (cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) !=
                cudaSuccess) {
                cudaGetLastError();
                return 8;
            }
        }
    return CURED_REDUCE_CLUSTER_MAX;
}

/* The most dynamic shared memory the kernels with lane bins (those
 * cured_reduce_dynamic_smem names: the exact f32 and bf16 sums' main
 * loops) may take on `device`: their need at 1024 threads, or less where
 * the device's per-block opt-in limit, less their static shared memory,
 * is lower; set as each kernel's limit. 0 when that fails (no bins: the
 * same sums by atomics). */
static size_t lane_bins_smem_max(int device)
{
    int optin = 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
        cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    const void *binned[CURED_DTYPE_COUNT];
    int count = 0;
    size_t most = SIZE_MAX;
    for (int d = 0; d < CURED_DTYPE_COUNT; d++) {
        size_t need = cured_reduce_dynamic_smem(CURED_OP_SUM, (cured_dtype)d,
                                                CURED_VARIANT_EXACT, 0, 1024);
        const void *f = cured_reduce_function(CURED_OP_SUM, (cured_dtype)d,
                                              CURED_VARIANT_EXACT, 0);
        cudaFuncAttributes fa;
        if (need == 0 || f == NULL)
            continue;
        if (cudaFuncGetAttributes(&fa, f) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
        size_t room = (size_t)optin > fa.sharedSizeBytes ? (size_t)optin - fa.sharedSizeBytes : 0;
        most = need < most ? need : most;
        most = room < most ? room : most;
        binned[count++] = f;
    }
    for (int i = 0; i < count; i++)
        if (cudaFuncSetAttribute(binned[i], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)most) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
    return count > 0 ? most : 0;
}

/* The dynamic shared memory a launch gives a kernel that needs `need`
 * bytes (cured_reduce_dynamic_smem): all of it, or none where that is
 * more than the device allows it (its kernel then takes the atomics). */
static size_t smem_given(const cured_reducer *r, size_t need)
{
    return need <= r->bins_smem_max ? need : 0;
}

extern "C" cured_status cured_reducer_create(void *d_workspace,
                                             size_t workspace_bytes,
                                             cured_reducer **out)
{
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = NULL;
    size_t need = 0;
    cured_reduce_workspace_bytes(&need);
    if (d_workspace != NULL) {
        if (workspace_bytes < need)
            return CURED_ERROR_TEMP_TOO_SMALL;
        if ((uintptr_t)d_workspace % 256 != 0)
            return CURED_ERROR_MISALIGNED;
    }
    cured_reducer *r = (cured_reducer *)calloc(1, sizeof *r);
    if (r == NULL)
        return CURED_ERROR_OUT_OF_MEMORY;
    if (cudaGetDevice(&r->device) != cudaSuccess ||
        cudaDeviceGetAttribute(&r->sm_count, cudaDevAttrMultiProcessorCount,
                               r->device) != cudaSuccess) {
        cudaGetLastError();
        free(r);
        return CURED_ERROR_CUDA;
    }
    if (d_workspace != NULL && !cured_is_device_pointer(d_workspace, r->device)) {
        free(r);
        return CURED_ERROR_NOT_DEVICE_POINTER;
    }
    r->cluster_max = cluster_max(r->device);
    r->bins_smem_max = lane_bins_smem_max(r->device);
    /* cluster_max > 0: sm_90 or later, which has programmatic launches too */
    r->dependent_launch = CURED_REDUCE_DEPENDENT_LAUNCH && r->cluster_max > 0;
    for (int op = 0; op < CURED_OP_COUNT; op++)
        for (int d = 0; d < CURED_DTYPE_COUNT; d++)
            for (int v = 0; v < CURED_VARIANT_COUNT; v++) {
                const void *f = cured_reduce_function((cured_op)op, (cured_dtype)d,
                                                      (cured_reduce_variant)v, 0);
                size_t smem = cured_reduce_dynamic_smem((cured_op)op, (cured_dtype)d,
                                                        (cured_reduce_variant)v, 0,
                                                        CURED_REDUCE_BLOCK);
                int blocks = 0;
                if (f != NULL &&
                    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                        &blocks, f, CURED_REDUCE_BLOCK,
                        smem_given(r, smem)) != cudaSuccess) {
                    cudaGetLastError();
                    blocks = 1;
                }
                r->resident[op][d][v] =
                    (unsigned)(blocks > 0 ? blocks : 1) * (unsigned)r->sm_count;
            }
    if (d_workspace == NULL) {
        if (cudaMalloc(&d_workspace, need) != cudaSuccess) {
            cudaGetLastError();
            free(r);
            return CURED_ERROR_OUT_OF_MEMORY;
        }
        r->owns_workspace = 1;
    }
    r->workspace = d_workspace;
    if (cudaMemset(d_workspace, 0, CURED_REDUCE_STATE_BYTES) != cudaSuccess) {
        cudaGetLastError();
        cured_reducer_destroy(r);
        return CURED_ERROR_CUDA;
    }
    *out = r;
    return CURED_SUCCESS;
}

extern "C" cured_status cured_reducer_destroy(cured_reducer *r)
{
    if (r == NULL)
        return CURED_SUCCESS;
    cured_status status = CURED_SUCCESS;
    if (r->owns_workspace && cudaFree(r->workspace) != cudaSuccess) {
        cudaGetLastError();
        status = CURED_ERROR_CUDA;
    }
    free(r);
    return status;
}

extern "C" int cured_reducer_dependent_launch(const cured_reducer *r)
{
    return r != NULL && r->dependent_launch;
}

extern "C" cured_status cured_reducer_shape(const cured_reducer *r, cured_op op,
                                            cured_dtype dtype, uint64_t n,
                                            cured_reduce_shape *shape)
{
    if (r == NULL || shape == NULL)
        return CURED_ERROR_NULL_POINTER;
    if ((unsigned)op >= CURED_OP_COUNT)
        return CURED_ERROR_UNSUPPORTED_OP;
    if ((unsigned)dtype >= CURED_DTYPE_COUNT)
        return CURED_ERROR_UNSUPPORTED_TYPE;
    cured_reduce_default_shape(op, dtype, n, r->resident[op][dtype][0],
                               (unsigned)r->sm_count, r->cluster_max, shape);
    return CURED_SUCCESS;
}

/* cured_reduce_shaped with kernel-only flag bits added to the kernel's
 * flags after the public flags passed their check. */
static cured_status launch(cured_reducer *r, cured_op op, cured_dtype dtype,
                           const void *d_in, uint64_t n, void *d_out,
                           unsigned flags, unsigned kernel_flags,
                           const cured_reduce_shape *shape, cured_stream stream)
{
    if (r == NULL)
        return CURED_ERROR_INVALID_VALUE;
    cured_status status = cured_reduce_check_args(op, dtype, d_in, n, d_out, flags);
    if (status != CURED_SUCCESS)
        return status;
    cured_reduce_shape s = {CURED_REDUCE_BLOCK, 1u, CURED_VARIANT_EXACT, 1u};
    if (shape != NULL) {
        status = cured_reduce_check_shape(shape, n);
        if (status != CURED_SUCCESS)
            return status;
        if (shape->cluster > (r->cluster_max > 1 ? r->cluster_max : 1))
            return CURED_ERROR_INVALID_VALUE;
        s = *shape;
        if (!cured_reduce_in_clusters(op, dtype, s.variant))
            s.cluster = 1;
    } else {
        cured_reducer_shape(r, op, dtype, n, &s);
    }
    /* the kernel without a main loop where one trip covers n: the same
     * bits, less code to fetch on a cold start */
    int one_trip = cured_reduce_one_trip(dtype, n, s.grid, s.block);
    const void *f = cured_reduce_function(op, dtype, s.variant, one_trip);
    if (f == NULL)
        return CURED_ERROR_UNSUPPORTED_OP;
    size_t smem = cured_reduce_dynamic_smem(op, dtype, s.variant, one_trip, s.block);
    /* The pointer check, skipped for the pointers the last call passed. */
    if (n > 0 && d_in != r->checked_in) {
        if (!cured_is_device_pointer(d_in, r->device))
            return CURED_ERROR_NOT_DEVICE_POINTER;
        r->checked_in = d_in;
    }
    if (d_out != r->checked_out) {
        if (!cured_is_device_pointer(d_out, r->device))
            return CURED_ERROR_NOT_DEVICE_POINTER;
        r->checked_out = d_out;
    }
    cured_reduce_kernel_args a;
    a.in = d_in;
    a.out = d_out;
    a.n = n;
    a.workspace = r->workspace;
    a.flags = flags | kernel_flags;
    a.op = (int)op;
    void *args[] = {&a};
    /* Programmatic stream serialization (sm_90): the launch may begin
     * while the kernel before it in the stream ends; every kernel waits for
     * it before touching memory (grid_dependency.cuh). A cluster, for the
     * exact float sums that take one. */
    cudaLaunchAttribute attrs[2];
    unsigned nattrs = 0;
    if (r->dependent_launch) {
        attrs[nattrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[nattrs].val.programmaticStreamSerializationAllowed = 1;
        nattrs++;
    }
    if (s.cluster > 1) {
        attrs[nattrs].id = cudaLaunchAttributeClusterDimension;
        attrs[nattrs].val.clusterDim.x = s.cluster;
        attrs[nattrs].val.clusterDim.y = 1;
        attrs[nattrs].val.clusterDim.z = 1;
        nattrs++;
    }
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(s.grid);
    c.blockDim = dim3((unsigned)s.block);
    c.dynamicSmemBytes = smem_given(r, smem);
    c.stream = (cudaStream_t)stream;
    c.attrs = attrs;
    c.numAttrs = nattrs;
    cudaError_t err = cudaLaunchKernelExC(&c, f, args);
    cudaError_t last = cudaGetLastError();
    return err == cudaSuccess && last == cudaSuccess ? CURED_SUCCESS
                                                     : CURED_ERROR_CUDA;
}

extern "C" cured_status cured_reduce_shaped(cured_reducer *r, cured_op op,
                                            cured_dtype dtype, const void *d_in,
                                            uint64_t n, void *d_out,
                                            unsigned flags,
                                            const cured_reduce_shape *shape,
                                            cured_stream stream)
{
    return launch(r, op, dtype, d_in, n, d_out, flags, 0, shape, stream);
}

extern "C" cured_status cured_reduce_flagged(cured_reducer *r, cured_op op,
                                             cured_dtype dtype, const void *d_in,
                                             uint64_t n, void *d_out, unsigned flags,
                                             unsigned kernel_flags,
                                             cured_stream stream)
{
    return launch(r, op, dtype, d_in, n, d_out, flags, kernel_flags, NULL, stream);
}

extern "C" cured_status cured_reduce(cured_reducer *r, cured_op op,
                                     cured_dtype dtype, const void *d_in,
                                     uint64_t n, void *d_out, unsigned flags,
                                     cured_stream stream)
{
    return cured_reduce_shaped(r, op, dtype, d_in, n, d_out, flags, NULL, stream);
}
