/* comm_nonccl.c - cured_comm and cured_reduce_sharded in a build without
 * NCCL (or without CUDA): arguments are still checked, then every call
 * answers CURED_ERROR_NO_NCCL, and nothing is ever made.
 *
 * defines: cured_comm_id_create, cured_comm_create_rank,
 *          cured_comm_create_all, cured_comm_wrap, cured_comm_destroy,
 *          cured_comm_info, cured_comm_nccl, cured_comm_check,
 *          cured_reduce_sharded, cured_reduce_sharded_group
 */
#include <stddef.h>

#include "cured.h"

cured_status cured_comm_id_create(cured_comm_id *id)
{
    return id == NULL ? CURED_ERROR_NULL_POINTER : CURED_ERROR_NO_NCCL;
}

cured_status cured_comm_create_rank(const cured_comm_id *id, int nranks, int rank,
                                    cured_comm **out)
{
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = NULL;
    if (id == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (nranks < 1 || nranks > CURED_COMM_MAX_RANKS || rank < 0 || rank >= nranks)
        return CURED_ERROR_INVALID_VALUE;
    return CURED_ERROR_NO_NCCL;
}

cured_status cured_comm_create_all(int count, const int *devices, cured_comm **comms)
{
    (void)devices;
    if (comms == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (count < 1 || count > CURED_COMM_MAX_RANKS)
        return CURED_ERROR_INVALID_VALUE;
    for (int i = 0; i < count; i++)
        comms[i] = NULL;
    return CURED_ERROR_NO_NCCL;
}

cured_status cured_comm_wrap(struct ncclComm *nccl, cured_comm **out)
{
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = NULL;
    return nccl == NULL ? CURED_ERROR_NULL_POINTER : CURED_ERROR_NO_NCCL;
}

/* No communicator can exist here: only NULL reaches these. */
cured_status cured_comm_destroy(cured_comm *comm)
{
    (void)comm;
    return CURED_SUCCESS;
}

cured_status cured_comm_info(const cured_comm *comm, int *rank, int *nranks,
                             int *device)
{
    (void)rank;
    (void)nranks;
    (void)device;
    return comm == NULL ? CURED_ERROR_NULL_POINTER : CURED_ERROR_NO_NCCL;
}

cured_status cured_comm_nccl(const cured_comm *comm, struct ncclComm **out)
{
    return comm == NULL || out == NULL ? CURED_ERROR_NULL_POINTER : CURED_ERROR_NO_NCCL;
}

cured_status cured_comm_check(cured_comm *comm, cured_stream stream)
{
    (void)stream;
    return comm == NULL ? CURED_ERROR_NULL_POINTER : CURED_ERROR_NO_NCCL;
}

cured_status cured_reduce_sharded_group(const cured_shard *shards, int count,
                                        cured_op op, cured_dtype dtype,
                                        unsigned flags)
{
    (void)op;
    (void)dtype;
    (void)flags;
    if (shards == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (count < 1)
        return CURED_ERROR_INVALID_VALUE;
    for (int i = 0; i < count; i++)
        if (shards[i].comm == NULL)
            return CURED_ERROR_NULL_POINTER;
    return CURED_ERROR_NO_NCCL;
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
