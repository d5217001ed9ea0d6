/* reduce_cpu.c - cured_reduce on the CPU: the same results, bit for bit,
 * from plain C and POSIX threads.
 *
 * defines: cured_reduce_cpu
 *
 * The array is cut into one contiguous chunk per thread. Float sums: each
 * thread adds its elements exactly into its own carry-save digits
 * (xacc.h, the GPU's representation), then the chunks' digits are added,
 * normalised and rounded by xacc_round, the function the GPU's last block
 * calls. The exact sum does not depend on how the array was cut, so the
 * result is the GPU's bits. Integer sums wrap modulo 2^64 and are cut to
 * the output's width; min/max compare order.h's ranks, ties to the first
 * index, as the GPU does.
 */
#include "cured.h"
#include "order.h"
#include "reduce.h"
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
    cured_op op;
    cured_dtype dtype;
    const unsigned char *in;
    uint64_t first, count; /* elements [first, first + count) */
    /* results */
    int64_t digits[XACC_NDIG_MAX];
    unsigned special;
    uint64_t isum;
    uint64_t rank, idx; /* min/max: the best; idx UINT64_MAX for none */
} chunk;

/* The bits of element i, zero-extended. */
static uint64_t element_bits(cured_dtype dtype, const unsigned char *in, uint64_t i)
{
    switch (cured_dtype_size(dtype)) {
    case 2: { uint16_t v; memcpy(&v, in + 2 * i, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, in + 4 * i, 4); return v; }
    default: { uint64_t v; memcpy(&v, in + 8 * i, 8); return v; }
    }
}

static xacc_family family_of(cured_dtype dtype)
{
    return dtype == CURED_F16 ? XACC_F16 : dtype == CURED_F64 ? XACC_F64 : XACC_F32;
}

static void sum_float_chunk(chunk *c)
{
    xacc_family f = family_of(c->dtype);
    int ndig = xacc_family_of(f).ndig;
    uint64_t since_carry = 0;
    for (uint64_t i = c->first; i < c->first + c->count; i++) {
        uint64_t bits = element_bits(c->dtype, c->in, i);
        if (c->dtype == CURED_BF16)
            bits <<= 16;
        xacc_elem x = xacc_decode(f, bits);
        if (x.special)
            c->special |= x.special;
        else
            xacc_add_elem(c->digits, x);
        if (++since_carry == CARRY_EVERY) {
            xacc_carry_step(c->digits, ndig);
            since_carry = 0;
        }
    }
    xacc_carry_step(c->digits, ndig);
}

static void sum_int_chunk(chunk *c)
{
    uint64_t s = 0;
    for (uint64_t i = c->first; i < c->first + c->count; i++) {
        uint64_t bits = element_bits(c->dtype, c->in, i);
        if (c->dtype == CURED_I32)
            bits = (uint64_t)(int64_t)(int32_t)(uint32_t)bits;
        s += bits;
    }
    c->isum = s;
}

static int minmax_better(uint64_t rank, uint64_t idx, uint64_t best_rank,
                         uint64_t best_idx, int is_max)
{
    if (rank != best_rank)
        return is_max ? rank > best_rank : rank < best_rank;
    return idx < best_idx;
}

static void minmax_chunk(chunk *c)
{
    int is_max = c->op == CURED_OP_MAX || c->op == CURED_OP_ARGMAX;
    for (uint64_t i = c->first; i < c->first + c->count; i++) {
        uint64_t bits = element_bits(c->dtype, c->in, i);
        uint64_t rank = is_max ? order_rank_max(c->dtype, bits)
                               : order_rank_min(c->dtype, bits);
        if (minmax_better(rank, i, c->rank, c->idx, is_max)) {
            c->rank = rank;
            c->idx = i;
        }
    }
}

static int is_float(cured_dtype d)
{
    return order_is_float_dtype(d);
}

static void *run_chunk(void *arg)
{
    chunk *c = arg;
    if (c->op != CURED_OP_SUM)
        minmax_chunk(c);
    else if (is_float(c->dtype))
        sum_float_chunk(c);
    else
        sum_int_chunk(c);
    return NULL;
}

/* Writes the result of the combined chunks to out. */
static void write_result(cured_op op, cured_dtype dtype, unsigned flags,
                         const chunk *chunks, int count, const void *in,
                         void *out)
{
    cured_dtype result;
    cured_reduce_result_dtype(op, dtype, flags, &result);
    if (op == CURED_OP_SUM && is_float(dtype)) {
        xacc_family f = family_of(dtype);
        int ndig = xacc_family_of(f).ndig;
        int64_t d[XACC_NDIG_MAX] = {0};
        unsigned special = 0;
        for (int t = 0; t < count; t++) {
            special |= chunks[t].special;
            for (int k = 0; k < ndig; k++)
                d[k] += chunks[t].digits[k];
        }
        int to_f64 = result == CURED_F64;
        uint64_t bits;
        if (special) {
            bits = xacc_special_result(special, to_f64);
        } else {
            bits = xacc_round(f, d, 0, ndig, to_f64);
        }
        if (to_f64) {
            memcpy(out, &bits, 8);
        } else {
            uint32_t b32 = (uint32_t)bits;
            memcpy(out, &b32, 4);
        }
        return;
    }
    if (op == CURED_OP_SUM) {
        uint64_t s = 0;
        for (int t = 0; t < count; t++)
            s += chunks[t].isum;
        if (cured_dtype_size(result) == 8) {
            memcpy(out, &s, 8);
        } else {
            uint32_t s32 = (uint32_t)s;
            memcpy(out, &s32, 4);
        }
        return;
    }
    int is_max = op == CURED_OP_MAX || op == CURED_OP_ARGMAX;
    uint64_t rank = is_max ? 0 : UINT64_MAX, idx = UINT64_MAX;
    for (int t = 0; t < count; t++)
        if (minmax_better(chunks[t].rank, chunks[t].idx, rank, idx, is_max)) {
            rank = chunks[t].rank;
            idx = chunks[t].idx;
        }
    if (op == CURED_OP_ARGMIN || op == CURED_OP_ARGMAX) {
        int64_t i = idx == UINT64_MAX ? -1 : (int64_t)idx;
        memcpy(out, &i, 8);
        return;
    }
    uint64_t bits = idx == UINT64_MAX ? order_identity_bits(dtype, is_max)
                                      : element_bits(dtype, in, idx);
    size_t size = cured_dtype_size(dtype);
    if (size == 2) {
        uint16_t b = (uint16_t)bits;
        memcpy(out, &b, 2);
    } else if (size == 4) {
        uint32_t b = (uint32_t)bits;
        memcpy(out, &b, 4);
    } else {
        memcpy(out, &bits, 8);
    }
}

cured_status cured_reduce_cpu(cured_op op, cured_dtype dtype, const void *in,
                              uint64_t n, void *out, unsigned flags,
                              int threads)
{
    cured_status status = cured_reduce_check_args(op, dtype, in, n, out, flags);
    if (status != CURED_SUCCESS)
        return status;
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
    uint64_t base = n / (uint64_t)threads, extra = n % (uint64_t)threads, first = 0;
    int started = 0;
    status = CURED_SUCCESS;
    for (int t = 0; t < threads; t++) {
        chunk *c = &chunks[t];
        c->op = op;
        c->dtype = dtype;
        c->in = in;
        c->first = first;
        c->count = base + ((uint64_t)t < extra);
        c->rank = (op == CURED_OP_MAX || op == CURED_OP_ARGMAX) ? 0 : UINT64_MAX;
        c->idx = UINT64_MAX;
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
    if (status == CURED_SUCCESS)
        write_result(op, dtype, flags, chunks, threads, in, out);
    free(chunks);
    free(ids);
    return status;
}
