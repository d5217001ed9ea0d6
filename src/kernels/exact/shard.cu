/* shard.cu - the sharded reduction's own kernels: a rank's record
 * completed before the allgather, and every rank's records combined after
 * it, into the bits cured_reduce gives for the whole array.
 *
 * defines: shard_finish_kernel, shard_combine_kernel,
 *          cured_shard_finish_launch, cured_shard_combine_launch
 *
 * Both are tiny (one block) and do what shard_state.h says, in the same
 * functions the CPU path runs; the combine gives each digit of the exact
 * sum its own thread, so its time hardly grows with the ranks or with the
 * f64 family's 72 digits. Neither allocates nor synchronises: the
 * sharded call stays capturable in a graph.
 */
#include <cuda_runtime.h>

#include "shard_kernels.h"
#include "shard_state.h"

/* Threads of the combine: one per digit of the largest family. */
#define SHARD_COMBINE_THREADS 96

__global__ void shard_finish_kernel(uint64_t *rec, uint64_t header, uint64_t call,
                                    uint64_t n, const void *in)
{
    if (threadIdx.x == 0)
        shard_finish_record(rec, header, call, n, in);
}

__global__ void __launch_bounds__(SHARD_COMBINE_THREADS)
shard_combine_kernel(const uint64_t *recs, int count, void *out, unsigned *bad_out)
{
    __shared__ shard_acc acc;
    __shared__ unsigned bad;
    if (threadIdx.x == 0) {
        bad = shard_records_check(recs, count);
        if (out == NULL)
            bad |= SHARD_BAD_REFUSED;
        if (!bad) {
            shard_acc_init(&acc, recs[SHARD_W_HEADER]);
            uint64_t offset = 0;
            for (int r = 0; r < count; r++) {
                const uint64_t *rec = recs + (uint64_t)r * SHARD_REC_WORDS;
                shard_acc_add_scalars(&acc, rec, offset);
                offset += rec[SHARD_W_N];
            }
        }
    }
    __syncthreads();
    if (bad) {
        if (threadIdx.x == 0)
            atomicOr(bad_out, bad);
        return;
    }
    if (shard_is_float_sum(acc.header)) {
        int ndig = xacc_family_of(shard_family(shard_header_dtype(acc.header))).ndig;
        for (int k = threadIdx.x; k < ndig; k += blockDim.x)
            acc.digits[k] = shard_sum_digit(recs, count, k);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        uint64_t bits;
        int bytes = shard_acc_result(&acc, &bits);
        if (bytes == 2)
            *(uint16_t *)out = (uint16_t)bits;
        else if (bytes == 4)
            *(uint32_t *)out = (uint32_t)bits;
        else
            *(uint64_t *)out = bits;
    }
}

/* CURED_SUCCESS when the last launch was queued; reads (and clears) the
 * launch error. */
static cured_status launched(void)
{
    return cudaGetLastError() == cudaSuccess ? CURED_SUCCESS : CURED_ERROR_CUDA;
}

extern "C" cured_status cured_shard_finish_launch(uint64_t *d_rec, uint64_t header,
                                                  uint64_t call, uint64_t n,
                                                  const void *d_in, cured_stream stream)
{
    shard_finish_kernel<<<1, 32, 0, (cudaStream_t)stream>>>(d_rec, header, call, n, d_in);
    return launched();
}

extern "C" cured_status cured_shard_combine_launch(const uint64_t *d_recs, int count,
                                                   void *d_out, unsigned *d_bad,
                                                   cured_stream stream)
{
    shard_combine_kernel<<<1, SHARD_COMBINE_THREADS, 0, (cudaStream_t)stream>>>(
        d_recs, count, d_out, d_bad);
    return launched();
}
