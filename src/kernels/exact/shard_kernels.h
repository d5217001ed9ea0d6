/* shard_kernels.h - what src/kernels/exact/shard.cu gives the host: the
 * two small kernels of the sharded reduction, launched asynchronously.
 *
 * defines: cured_shard_finish_launch, cured_shard_combine_launch
 *
 * Pure C declarations (src/lib/reduce_sharded.c launches them). The record
 * layout and the arithmetic are shard_state.h's.
 */
#ifndef CURED_SHARD_KERNELS_H
#define CURED_SHARD_KERNELS_H

#include <stdint.h>

#include "cured.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Completes the record at d_rec (device memory, SHARD_REC_WORDS words)
 * after the shard's own reduction wrote its LOCAL word, on the current
 * device: shard_finish_record(d_rec, header, call, n, d_in) in one thread.
 * Returns CURED_SUCCESS, or CURED_ERROR_CUDA when the launch failed. */
cured_status cured_shard_finish_launch(uint64_t *d_rec, uint64_t header, uint64_t call,
                                       uint64_t n, const void *d_in, cured_stream stream);

/* Combines the count records at d_recs (rank order) into the one result
 * element at d_out, on the current device: shard_combine's result, the
 * digits summed by one thread each. When the records do not combine
 * (shard_records_check), or d_out is NULL, nothing is written to d_out
 * and the check's bits are OR'ed into *d_bad. Returns CURED_SUCCESS, or
 * CURED_ERROR_CUDA when the launch failed. */
cured_status cured_shard_combine_launch(const uint64_t *d_recs, int count, void *d_out,
                                        unsigned *d_bad, cured_stream stream);

#ifdef __cplusplus
}
#endif

#endif /* CURED_SHARD_KERNELS_H */
