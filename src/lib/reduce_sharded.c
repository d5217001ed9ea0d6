/* reduce_sharded.c - cured_reduce_sharded: one array spread over the
 * ranks of a communicator, reduced to cured_reduce's bits on every rank
 * (CUDA and NCCL builds only; comm_nonccl.c otherwise).
 *
 * defines: cured_reduce_sharded, cured_reduce_sharded_group
 *
 * Per rank, on its stream (docs/sharded.md):
 *   1. its shard's own reduction, into its record's LOCAL word: the exact
 *      sum kernels in their state mode (SHARD_KERNEL_STATE), integer sums
 *      widened to 64 bits, min/max as argmin/argmax; then the finish kernel
 *      completes the record (shard_finish_record: header, count, the
 *      winner's bits and rank). A rank whose arguments are refused skips
 *      the reduction and sends a poison header instead;
 *   2. an in-place ncclAllGather of the records (all ranks' in one NCCL
 *      group when one thread drives several);
 *   3. the combine kernel: every rank combines the same records in the same
 *      way (shard_combine) and writes the same bits, or, when the records
 *      disagree, nothing (and sets the error word cured_comm_check reads).
 * Three launches and a collective, no allocation, no synchronisation.
 */
#include <cuda_runtime.h>
#include <nccl.h>
#include <stddef.h>

#include "comm.h"
#include "cured.h"
#include "reduce.h"
#include "shard_kernels.h"
#include "shard_state.h"

/* Step 1 for one shard (its device current): the shard's reduction and
 * its record, or a refusal. Returns the argument error that refused it
 * (*refused set), or the launch's status. */
static cured_status local_step(const cured_shard *s, cured_op op, cured_dtype dtype,
                               unsigned flags, int *refused)
{
    cured_comm *c = s->comm;
    uint64_t *rec = c->d_records + (size_t)c->rank * SHARD_REC_WORDS;
    void *local = rec + SHARD_W_LOCAL;
    cured_dtype result = CURED_F32;
    cured_status st = cured_reduce_check_args(op, dtype, s->d_shard, s->n, s->d_out, flags);
    if (st == CURED_SUCCESS)
        cured_reduce_result_dtype(op, dtype, flags, &result);
    if (st == CURED_SUCCESS && s->d_out != c->checked_out) {
        if (cured_is_device_pointer(s->d_out, c->device))
            c->checked_out = s->d_out;
        else
            st = CURED_ERROR_NOT_DEVICE_POINTER;
    }
    if (st == CURED_SUCCESS) {
        int is_max = op == CURED_OP_MAX || op == CURED_OP_ARGMAX;
        if (op == CURED_OP_SUM && order_is_float_dtype(dtype))
            st = cured_reduce_flagged(c->reducer, op, dtype, s->d_shard, s->n, local,
                                      flags, SHARD_KERNEL_STATE, s->stream);
        else if (op == CURED_OP_SUM)
            st = cured_reduce(c->reducer, op, dtype, s->d_shard, s->n, local,
                              CURED_REDUCE_WIDEN, s->stream);
        else
            st = cured_reduce(c->reducer, is_max ? CURED_OP_ARGMAX : CURED_OP_ARGMIN,
                              dtype, s->d_shard, s->n, local, 0, s->stream);
    }
    *refused = st != CURED_SUCCESS;
    uint64_t header = *refused ? shard_poison_header()
                               : shard_header(op, dtype, flags, result);
    cured_status fin = cured_shard_finish_launch(rec, header, c->calls, *refused ? 0 : s->n,
                                                 s->d_shard, s->stream);
    return *refused ? st : fin;
}

cured_status cured_reduce_sharded_group(const cured_shard *shards, int count,
                                        cured_op op, cured_dtype dtype,
                                        unsigned flags)
{
    if (shards == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (count < 1)
        return CURED_ERROR_INVALID_VALUE;
    for (int i = 0; i < count; i++) {
        if (shards[i].comm == NULL)
            return CURED_ERROR_NULL_POINTER;
        for (int j = 0; j < i; j++)
            if (shards[j].comm == shards[i].comm)
                return CURED_ERROR_INVALID_VALUE;
    }
    int previous;
    cured_status status = cured_comm_enter(shards[0].comm->device, &previous);
    if (status != CURED_SUCCESS)
        return status;

    /* 1. every shard's record; the first error is the call's */
    for (int i = 0; i < count; i++) {
        cured_comm *c = shards[i].comm;
        int ignored, refused = 1;
        cured_status st = cured_comm_enter(c->device, &ignored);
        if (st == CURED_SUCCESS)
            st = local_step(&shards[i], op, dtype, flags, &refused);
        /* a rank whose record may not be this call's writes nothing */
        c->no_write = st != CURED_SUCCESS || refused;
        c->calls++;
        if (st != CURED_SUCCESS && status == CURED_SUCCESS)
            status = st;
    }

    /* 2. the allgather, in place: rank r's record is already at slot r */
    int nccl_failed = ncclGroupStart() != ncclSuccess;
    if (!nccl_failed) {
        for (int i = 0; i < count && !nccl_failed; i++) {
            cured_comm *c = shards[i].comm;
            int ignored;
            if (cured_comm_enter(c->device, &ignored) != CURED_SUCCESS ||
                ncclAllGather(c->d_records + (size_t)c->rank * SHARD_REC_WORDS,
                              c->d_records, SHARD_REC_WORDS, ncclUint64, c->nccl,
                              (cudaStream_t)shards[i].stream) != ncclSuccess)
                nccl_failed = 1;
        }
        if (ncclGroupEnd() != ncclSuccess)
            nccl_failed = 1;
    }

    /* 3. the combine: not after a failed collective, whose buffer may hold
     * an earlier call's records */
    if (nccl_failed) {
        if (status == CURED_SUCCESS)
            status = CURED_ERROR_NCCL;
    } else {
        for (int i = 0; i < count; i++) {
            cured_comm *c = shards[i].comm;
            int ignored;
            void *out = c->no_write ? NULL : shards[i].d_out;
            cured_status st = cured_comm_enter(c->device, &ignored);
            if (st == CURED_SUCCESS)
                st = cured_shard_combine_launch(c->d_records, c->nranks, out, c->d_bad,
                                                shards[i].stream);
            if (st != CURED_SUCCESS && status == CURED_SUCCESS)
                status = st;
        }
    }
    cured_comm_leave(previous);
    return status;
}

cured_status cured_reduce_sharded(cured_comm *comm, cured_op op, cured_dtype dtype,
                                  const void *d_shard, uint64_t n, void *d_out,
                                  unsigned flags, cured_stream stream)
{
    if (comm == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_shard s = {comm, d_shard, n, d_out, stream};
    return cured_reduce_sharded_group(&s, 1, op, dtype, flags);
}
