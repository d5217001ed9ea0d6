/* comm.c - cured_comm: a communicator for the sharded reduction, over an
 * NCCL communicator (CUDA and NCCL builds only; comm_nonccl.c otherwise).
 *
 * defines: cured_comm_id_create, cured_comm_create_rank,
 *          cured_comm_create_all, cured_comm_wrap, cured_comm_destroy,
 *          cured_comm_info, cured_comm_nccl, cured_comm_check,
 *          cured_comm_enter, cured_comm_leave
 *
 * Everything a call needs is made here, once: the reducer of the rank's
 * device and one device buffer holding every rank's record (the
 * allgather's, zeroed once) and the error word behind them; so a call
 * (reduce_sharded.c) allocates nothing and never synchronises.
 */
#include <cuda_runtime.h>
#include <nccl.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "cured.h"
#include "shard_state.h"

_Static_assert(sizeof(cured_comm_id) == sizeof(ncclUniqueId),
               "cured_comm_id holds an ncclUniqueId");
_Static_assert(CURED_SHARD_RECORD_BYTES == SHARD_REC_WORDS * 8,
               "the public record size is shard_state.h's");
_Static_assert(CURED_COMM_MAX_RANKS == SHARD_MAX_RANKS,
               "the public rank limit is shard_state.h's");

cured_status cured_comm_enter(int device, int *previous)
{
    if (cudaGetDevice(previous) != cudaSuccess) {
        cudaGetLastError();
        return CURED_ERROR_CUDA;
    }
    if (*previous != device && cudaSetDevice(device) != cudaSuccess) {
        cudaGetLastError();
        return CURED_ERROR_CUDA;
    }
    return CURED_SUCCESS;
}

void cured_comm_leave(int previous)
{
    int now;
    if (cudaGetDevice(&now) != cudaSuccess || now != previous) {
        if (cudaSetDevice(previous) != cudaSuccess)
            cudaGetLastError();
    }
}

/* The device buffer's size: the records, then the error word (256-byte
 * aligned, as cudaMalloc's own). */
static size_t buffer_bytes(int nranks)
{
    return (size_t)nranks * CURED_SHARD_RECORD_BYTES + 256;
}

/* Frees what comm holds (its NCCL communicator only when it owns it) and
 * comm itself; its device must be current. Returns the first failure. */
static cured_status comm_free(cured_comm *c)
{
    cured_status status = CURED_SUCCESS;
    if (c->d_records != NULL && cudaFree(c->d_records) != cudaSuccess) {
        cudaGetLastError();
        status = CURED_ERROR_CUDA;
    }
    cured_status r = cured_reducer_destroy(c->reducer);
    if (status == CURED_SUCCESS)
        status = r;
    if (c->owns_nccl && c->nccl != NULL && ncclCommDestroy(c->nccl) != ncclSuccess &&
        status == CURED_SUCCESS)
        status = CURED_ERROR_NCCL;
    free(c);
    return status;
}

/* Makes the communicator of the NCCL communicator nccl (of nranks ranks,
 * this one `rank`, on `device`, which is current): the reducer and the
 * zeroed buffer. On an error frees everything, nccl too when `owns`. */
static cured_status comm_make(struct ncclComm *nccl, int owns, int rank, int nranks,
                              int device, cured_comm **out)
{
    *out = NULL;
    cured_comm *c = calloc(1, sizeof *c);
    if (c == NULL) {
        if (owns)
            ncclCommDestroy(nccl);
        return CURED_ERROR_OUT_OF_MEMORY;
    }
    c->nccl = nccl;
    c->owns_nccl = owns;
    c->rank = rank;
    c->nranks = nranks;
    c->device = device;
    cured_status status = cured_reducer_create(NULL, 0, &c->reducer);
    if (status == CURED_SUCCESS) {
        size_t bytes = buffer_bytes(nranks);
        if (cudaMalloc((void **)&c->d_records, bytes) != cudaSuccess) {
            cudaGetLastError();
            c->d_records = NULL;
            status = CURED_ERROR_OUT_OF_MEMORY;
        } else {
            c->d_bad = (unsigned *)((char *)c->d_records + bytes - 256);
            if (cudaMemset(c->d_records, 0, bytes) != cudaSuccess) {
                cudaGetLastError();
                status = CURED_ERROR_CUDA;
            }
        }
    }
    if (status != CURED_SUCCESS) {
        comm_free(c);
        return status;
    }
    *out = c;
    return CURED_SUCCESS;
}

cured_status cured_comm_id_create(cured_comm_id *id)
{
    if (id == NULL)
        return CURED_ERROR_NULL_POINTER;
    ncclUniqueId uid;
    if (ncclGetUniqueId(&uid) != ncclSuccess)
        return CURED_ERROR_NCCL;
    memcpy(id->bytes, uid.internal, sizeof id->bytes);
    return CURED_SUCCESS;
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
    int device;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return CURED_ERROR_CUDA;
    }
    ncclUniqueId uid;
    memcpy(uid.internal, id->bytes, sizeof uid.internal);
    ncclComm_t nccl;
    if (ncclCommInitRank(&nccl, nranks, uid, rank) != ncclSuccess)
        return CURED_ERROR_NCCL;
    return comm_make(nccl, 1, rank, nranks, device, out);
}

cured_status cured_comm_create_all(int count, const int *devices, cured_comm **comms)
{
    if (comms == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (count < 1 || count > CURED_COMM_MAX_RANKS)
        return CURED_ERROR_INVALID_VALUE;
    for (int i = 0; i < count; i++)
        comms[i] = NULL;
    ncclComm_t *nccl = calloc((size_t)count, sizeof *nccl);
    if (nccl == NULL)
        return CURED_ERROR_OUT_OF_MEMORY;
    int previous;
    cured_status status = cured_comm_enter(devices != NULL ? devices[0] : 0, &previous);
    if (status != CURED_SUCCESS) {
        free(nccl);
        return status;
    }
    if (ncclCommInitAll(nccl, count, devices) != ncclSuccess) {
        cured_comm_leave(previous);
        free(nccl);
        return CURED_ERROR_NCCL;
    }
    /* nccl[i] for i < made belongs to comms[i] (or was destroyed with a
     * comm that failed to be made); the rest still to this function. */
    int made = 0;
    for (; made < count && status == CURED_SUCCESS; made++) {
        int device = devices != NULL ? devices[made] : made, ignored;
        status = cured_comm_enter(device, &ignored);
        if (status == CURED_SUCCESS)
            status = comm_make(nccl[made], 1, made, count, device, &comms[made]);
        else
            ncclCommDestroy(nccl[made]);
    }
    if (status != CURED_SUCCESS) {
        for (int i = made; i < count; i++) /* not handed to a comm */
            ncclCommDestroy(nccl[i]);
        for (int i = 0; i < count; i++) {
            cured_comm_destroy(comms[i]);
            comms[i] = NULL;
        }
    }
    cured_comm_leave(previous);
    free(nccl);
    return status;
}

cured_status cured_comm_wrap(struct ncclComm *nccl, cured_comm **out)
{
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = NULL;
    if (nccl == NULL)
        return CURED_ERROR_NULL_POINTER;
    int nranks, rank, device;
    if (ncclCommCount(nccl, &nranks) != ncclSuccess ||
        ncclCommUserRank(nccl, &rank) != ncclSuccess ||
        ncclCommCuDevice(nccl, &device) != ncclSuccess)
        return CURED_ERROR_NCCL;
    if (nranks < 1 || nranks > CURED_COMM_MAX_RANKS)
        return CURED_ERROR_INVALID_VALUE;
    int previous;
    cured_status status = cured_comm_enter(device, &previous);
    if (status == CURED_SUCCESS) {
        status = comm_make(nccl, 0, rank, nranks, device, out);
        cured_comm_leave(previous);
    }
    return status;
}

cured_status cured_comm_destroy(cured_comm *comm)
{
    if (comm == NULL)
        return CURED_SUCCESS;
    int previous;
    cured_status entered = cured_comm_enter(comm->device, &previous);
    cured_status status = comm_free(comm);
    if (entered == CURED_SUCCESS)
        cured_comm_leave(previous);
    return entered != CURED_SUCCESS ? entered : status;
}

cured_status cured_comm_info(const cured_comm *comm, int *rank, int *nranks,
                             int *device)
{
    if (comm == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (rank != NULL)
        *rank = comm->rank;
    if (nranks != NULL)
        *nranks = comm->nranks;
    if (device != NULL)
        *device = comm->device;
    return CURED_SUCCESS;
}

cured_status cured_comm_nccl(const cured_comm *comm, struct ncclComm **out)
{
    if (comm == NULL || out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = comm->nccl;
    return CURED_SUCCESS;
}

cured_status cured_comm_check(cured_comm *comm, cured_stream stream)
{
    if (comm == NULL)
        return CURED_ERROR_NULL_POINTER;
    int previous;
    cured_status status = cured_comm_enter(comm->device, &previous);
    if (status != CURED_SUCCESS)
        return status;
    unsigned bad = 0;
    cudaStream_t s = (cudaStream_t)stream;
    if (cudaMemcpyAsync(&bad, comm->d_bad, sizeof bad, cudaMemcpyDeviceToHost, s) !=
            cudaSuccess ||
        cudaMemsetAsync(comm->d_bad, 0, sizeof bad, s) != cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess) {
        cudaGetLastError();
        status = CURED_ERROR_CUDA;
    }
    ncclResult_t async = ncclSuccess;
    if (status == CURED_SUCCESS &&
        (ncclCommGetAsyncError(comm->nccl, &async) != ncclSuccess || async != ncclSuccess))
        status = CURED_ERROR_NCCL;
    if (status == CURED_SUCCESS && bad != 0)
        status = CURED_ERROR_RANK_MISMATCH;
    cured_comm_leave(previous);
    return status;
}
