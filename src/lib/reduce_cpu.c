/* reduce_cpu.c - cured_reduce on the CPU: the same results, bit for bit,
 * from plain C and POSIX threads; and a shard's record for the sharded
 * reduction's CPU simulation.
 *
 * defines: cured_reduce_cpu, cured_reduce_cpu_record
 *
 * The array is cut into one contiguous chunk per thread, and each chunk is
 * reduced as a GPU rank reduces its shard in cured_reduce_sharded: float
 * sums exactly into carry-save digits (xacc.h, the GPU's representation),
 * integer sums modulo 2^64, min/max by order.h's ranks with ties to the
 * first index; the chunk's record (shard_state.h) is then combined with
 * the others' by the functions the GPU's combine runs, and rounded once
 * by xacc_round, the function the GPU's kernels call. The exact sum does
 * not depend on how the array was cut, so the result is the GPU's bits.
 */
#include "cured.h"
#include "order.h"
#include "reduce.h"
#include "shard_state.h"
#include "xacc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Threads never take fewer elements than this each (thread start-up costs
 * more than summing a smaller chunk). */
#define MIN_CHUNK ((uint64_t)1 << 16)
#define MAX_THREADS 64
/* Digits take fewer than 2^31 pieces between carry steps. */
#define CARRY_EVERY ((uint64_t)1 << 28)

typedef struct chunk {
    uint64_t header;               /* shard_header of the call */
    const unsigned char *in;       /* the chunk's first element */
    uint64_t count;
    uint64_t rec[SHARD_REC_WORDS]; /* the chunk's record (shard_state.h) */
} chunk;

static void sum_float_chunk(chunk *c, int dtype)
{
    xacc_family f = shard_family(dtype);
    int ndig = xacc_family_of(f).ndig;
    int64_t digits[XACC_NDIG_MAX] = {0};
    unsigned special = 0;
    uint64_t since_carry = 0;
    for (uint64_t i = 0; i < c->count; i++) {
        uint64_t bits = shard_load_bits(dtype, c->in, i);
        if (dtype == CURED_BF16)
            bits <<= 16;
        xacc_elem x = xacc_decode(f, bits);
        if (x.special)
            special |= x.special;
        else
            xacc_add_elem(digits, x);
        if (++since_carry == CARRY_EVERY) {
            xacc_carry_step(digits, ndig);
            since_carry = 0;
        }
    }
    shard_put_sum(c->rec + SHARD_W_LOCAL, digits, 0, ndig, ndig, special);
}

static void sum_int_chunk(chunk *c, int dtype)
{
    uint64_t s = 0;
    for (uint64_t i = 0; i < c->count; i++) {
        uint64_t bits = shard_load_bits(dtype, c->in, i);
        if (dtype == CURED_I32)
            bits = (uint64_t)(int64_t)(int32_t)(uint32_t)bits;
        s += bits;
    }
    c->rec[SHARD_W_LOCAL] = s;
}

/* The chunk's argmin or argmax (all ones for none), as the GPU's arg
 * kernels write it. */
static void minmax_chunk(chunk *c, int dtype, int is_max)
{
    uint64_t best_rank = is_max ? 0 : UINT64_MAX, best_idx = UINT64_MAX;
    for (uint64_t i = 0; i < c->count; i++) {
        uint64_t bits = shard_load_bits(dtype, c->in, i);
        uint64_t rank = is_max ? order_rank_max(dtype, bits)
                               : order_rank_min(dtype, bits);
        if (shard_better(rank, i, best_rank, best_idx, is_max)) {
            best_rank = rank;
            best_idx = i;
        }
    }
    c->rec[SHARD_W_LOCAL] = best_idx;
}

/* Makes the chunk's record, as a GPU rank makes its shard's: the chunk's
 * own reduction into LOCAL, then shard_finish_record. */
static void *run_chunk(void *arg)
{
    chunk *c = arg;
    int op = shard_header_op(c->header), dtype = shard_header_dtype(c->header);
    if (op != CURED_OP_SUM)
        minmax_chunk(c, dtype, shard_is_max(c->header));
    else if (order_is_float_dtype(dtype))
        sum_float_chunk(c, dtype);
    else
        sum_int_chunk(c, dtype);
    shard_finish_record(c->rec, c->header, 0, c->count, c->in);
    return NULL;
}

/* The chunks of in[0..n) reduced on `threads` threads and combined into
 * *acc (the chunks are shards, in order). Returns CURED_SUCCESS or
 * CURED_ERROR_OUT_OF_MEMORY; the arguments are checked already. */
static cured_status reduce_chunks(cured_op op, cured_dtype dtype, const void *in,
                                  uint64_t n, unsigned flags, int threads,
                                  shard_acc *acc)
{
    cured_dtype result;
    cured_reduce_result_dtype(op, dtype, flags, &result);
    uint64_t header = shard_header(op, dtype, flags, result);
    if (threads <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)cores : 1;
    }
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    uint64_t most = n / MIN_CHUNK + 1;
    if ((uint64_t)threads > most)
        threads = (int)most;

    chunk *chunks = calloc((size_t)threads, sizeof *chunks);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (chunks == NULL || ids == NULL) {
        free(chunks);
        free(ids);
        return CURED_ERROR_OUT_OF_MEMORY;
    }
    size_t size = cured_dtype_size(dtype);
    uint64_t base = n / (uint64_t)threads, extra = n % (uint64_t)threads, first = 0;
    int started = 0;
    cured_status status = CURED_SUCCESS;
    for (int t = 0; t < threads; t++) {
        chunk *c = &chunks[t];
        c->header = header;
        c->in = in != NULL ? (const unsigned char *)in + first * size : NULL;
        c->count = base + ((uint64_t)t < extra);
        first += c->count;
        if (t == 0)
            continue; /* the calling thread takes chunk 0 */
        if (pthread_create(&ids[t], NULL, run_chunk, c) != 0) {
            status = CURED_ERROR_OUT_OF_MEMORY;
            break;
        }
        started = t;
    }
    if (status == CURED_SUCCESS)
        run_chunk(&chunks[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(ids[t], NULL);
    if (status == CURED_SUCCESS) {
        shard_acc_init(acc, header);
        uint64_t offset = 0;
        for (int t = 0; t < threads; t++) {
            shard_acc_add(acc, chunks[t].rec, offset);
            offset += chunks[t].count;
        }
    }
    free(chunks);
    free(ids);
    return status;
}

cured_status cured_reduce_cpu(cured_op op, cured_dtype dtype, const void *in,
                              uint64_t n, void *out, unsigned flags,
                              int threads)
{
    cured_status status = cured_reduce_check_args(op, dtype, in, n, out, flags);
    if (status != CURED_SUCCESS)
        return status;
    shard_acc acc;
    status = reduce_chunks(op, dtype, in, n, flags, threads, &acc);
    if (status != CURED_SUCCESS)
        return status;
    uint64_t bits;
    int bytes = shard_acc_result(&acc, &bits);
    if (bytes == 2) {
        uint16_t b = (uint16_t)bits;
        memcpy(out, &b, 2);
    } else if (bytes == 4) {
        uint32_t b = (uint32_t)bits;
        memcpy(out, &b, 4);
    } else {
        memcpy(out, &bits, 8);
    }
    return CURED_SUCCESS;
}

cured_status cured_reduce_cpu_record(cured_op op, cured_dtype dtype, const void *in,
                                     uint64_t n, unsigned flags, int threads,
                                     uint64_t *record)
{
    if (record == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_status status = cured_reduce_check_args(op, dtype, in, n, record, flags);
    if (status != CURED_SUCCESS)
        return status;
    shard_acc acc;
    status = reduce_chunks(op, dtype, in, n, flags, threads, &acc);
    if (status == CURED_SUCCESS)
        shard_acc_to_record(&acc, record);
    return status;
}
