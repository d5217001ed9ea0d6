/* comm.h - libcured's private side of cured_comm: the communicator's
 * fields, and the device switching its calls share (comm.c, used by
 * reduce_sharded.c).
 *
 * defines: struct cured_comm, cured_comm_enter, cured_comm_leave
 */
#ifndef CURED_COMM_H
#define CURED_COMM_H

#include <stdint.h>

#include "cured.h"

struct cured_comm {
    struct ncclComm *nccl;
    int owns_nccl;             /* made here (destroyed here) or wrapped */
    int rank, nranks, device;
    cured_reducer *reducer;    /* the shard's own reduction, its workspace */
    uint64_t *d_records;       /* nranks records: the allgather's buffer */
    unsigned *d_bad;           /* sticky SHARD_BAD_* bits (cured_comm_check) */
    const void *checked_out;   /* the last d_out that passed the check */
    int no_write;              /* the call in progress refused (or failed) here */
    uint64_t calls;            /* calls so far: the records' SHARD_W_CALL */
};

/* Makes `device` current, keeping the caller's in *previous. Returns
 * CURED_SUCCESS or CURED_ERROR_CUDA. */
cured_status cured_comm_enter(int device, int *previous);

/* Makes `previous` current again (cured_comm_enter's). Can't fail (a
 * failure is cleared: the device was current before). */
void cured_comm_leave(int previous);

#endif /* CURED_COMM_H */
