/* shard_state.h - the sharded reduction's partial state: the record one
 * rank makes of its shard, and how the records of all ranks combine into
 * the result cured_reduce gives for the whole array, bit for bit.
 *
 * defines: SHARD_REC_WORDS, SHARD_W_*, SHARD_MAX_RANKS, SHARD_KERNEL_STATE,
 *          SHARD_BAD_REFUSED, SHARD_BAD_MISMATCH, SHARD_MAGIC,
 *          SHARD_VERSION, SHARD_POISON, shard_header, shard_poison_header,
 *          shard_header_op, shard_header_dtype, shard_header_result,
 *          shard_family, shard_dtype_bytes, shard_load_bits, shard_better,
 *          shard_normalize, shard_put_sum, shard_finish_record,
 *          shard_records_check, shard_acc, shard_is_float_sum,
 *          shard_is_max, shard_acc_init, shard_acc_add_scalars,
 *          shard_sum_digit, shard_acc_add, shard_acc_result,
 *          shard_acc_to_record, shard_combine
 *
 * Pure C99 and XACC_HD (xacc.h), like xacc.h and order.h: the GPU kernels
 * (src/kernels/exact/shard.cu, and the exact sum's state mode in
 * sum_write.cuh) and the CPU path (src/lib/reduce_cpu.c, whose threads
 * are shards too) run these same functions, so the GPU's combine and the
 * CPU simulation test (tests/lib/test_sharded_cpu.c) cannot drift apart.
 * docs/sharded.md gives the design and the exactness argument.
 *
 * A record is SHARD_REC_WORDS uint64 words, the same size for every op and
 * dtype, so that ranks that disagree on op or dtype still take part in the
 * same collective (an allgather of one record per rank) and see that they
 * disagree, rather than hang or read past a buffer:
 *   HEADER  op, dtype, flags and result dtype, a magic and a version
 *           (shard_header); or the poison header of a rank whose arguments
 *           were refused
 *   N       the shard's element count (global indexes come from the
 *           counts of the ranks before: shards are contiguous, in rank order)
 *   CALL    the number of calls the rank's communicator made before: ranks
 *           in step agree on it, so a record left from an earlier call can
 *           never be taken for this call's
 *   LOCAL   what the shard's own reduction wrote: an exact sum's special
 *           bits (XACC_PINF ...), followed at DIGITS by its digits,
 *           normalised (shard_put_sum); an integer sum modulo 2^64; or the
 *           shard's argmin/argmax (shard_finish_record moves the last two)
 *   ISUM    integer sums: the shard's sum modulo 2^64
 *   RANK, IDX, BITS  min/max/argmin/argmax: the winning element's order
 *           rank (order.h), index in the shard (all ones: none) and bits
 *   DIGITS  float sums: XACC_NDIG_MAX int64 digits worth 2^(32k) units of
 *           the family's smallest subnormal, digits 0 .. ndig-2 in
 *           [0, 2^32), the top one 0 or -1 (the sign); digits past the
 *           family's ndig are not read
 */
#ifndef CURED_SHARD_STATE_H
#define CURED_SHARD_STATE_H

#include <stdint.h>
#include <string.h>

#include "cured.h"
#include "order.h"
#include "xacc.h"

#define SHARD_W_HEADER 0
#define SHARD_W_N 1
#define SHARD_W_ISUM 2
#define SHARD_W_RANK 3
#define SHARD_W_IDX 4
#define SHARD_W_BITS 5
#define SHARD_W_CALL 6
#define SHARD_W_LOCAL 7
#define SHARD_W_DIGITS 8 /* = SHARD_W_LOCAL + 1: the exact sum writes both */
#define SHARD_REC_WORDS (SHARD_W_DIGITS + XACC_NDIG_MAX) /* 80: 640 bytes */

/* The most ranks a combine takes. Normalised digits are below 2^32, so the
 * sum of one digit over 2^16 records stays below 2^48, far inside the
 * 2^62 that normalisation needs; with at most 2^42 elements a shard the
 * whole sum stays inside the digits (docs/sharded.md). */
#define SHARD_MAX_RANKS (1 << 16)

/* A flag bit of cured_reduce_kernel_args.flags that only the sharded path
 * sets (never a public CURED_REDUCE_* bit): the exact sum kernels write
 * their state (shard_put_sum at args.out) instead of the rounded sum. */
#define SHARD_KERNEL_STATE (1u << 30)

/* Why records do not combine (bits; 0: they do). */
#define SHARD_BAD_REFUSED 1u  /* a rank's arguments were refused */
#define SHARD_BAD_MISMATCH 2u /* ranks disagree on op, dtype or flags */

#define SHARD_MAGIC 0xce5dull
#define SHARD_VERSION 1ull
#define SHARD_POISON (1ull << 63)

/* The header of a call: op, dtype, flags (cured_reduce's) and the result
 * dtype (cured_reduce_result_dtype's), a magic and a version. Can't fail. */
XACC_HD uint64_t shard_header(int op, int dtype, unsigned flags, int result)
{
    return (uint64_t)(op & 0xff) | (uint64_t)(dtype & 0xff) << 8 |
           (uint64_t)(flags & 0xff) << 16 | (uint64_t)(result & 0xff) << 24 |
           SHARD_MAGIC << 32 | SHARD_VERSION << 48;
}

/* The header of a rank whose arguments were refused: it still sends a
 * record, so the others never wait for it, and every rank sees it. */
XACC_HD uint64_t shard_poison_header(void)
{
    return SHARD_MAGIC << 32 | SHARD_VERSION << 48 | SHARD_POISON;
}

XACC_HD int shard_header_op(uint64_t h) { return (int)(h & 0xff); }
XACC_HD int shard_header_dtype(uint64_t h) { return (int)(h >> 8 & 0xff); }
XACC_HD int shard_header_result(uint64_t h) { return (int)(h >> 24 & 0xff); }

/* The exact accumulator's family of a float dtype: bf16 shares f32's. */
XACC_HD xacc_family shard_family(int dtype)
{
    return dtype == CURED_F16 ? XACC_F16 : dtype == CURED_F64 ? XACC_F64 : XACC_F32;
}

/* Bytes of one element of dtype (0 for an unknown dtype). Can't fail. */
XACC_HD int shard_dtype_bytes(int dtype)
{
    switch (dtype) {
    case CURED_F16: case CURED_BF16: return 2;
    case CURED_F32: case CURED_I32: case CURED_U32: return 4;
    case CURED_F64: case CURED_I64: case CURED_U64: return 8;
    default: return 0;
    }
}

/* The bits of element i of in (dtype elements), zero-extended. */
XACC_HD uint64_t shard_load_bits(int dtype, const void *in, uint64_t i)
{
    const unsigned char *p = (const unsigned char *)in;
    switch (shard_dtype_bytes(dtype)) {
    case 2: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    default: { uint64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    }
}

/* Whether (rank, idx) beats (best_rank, best_idx): min/max's order, the
 * smaller index on a tie (cured_reduce's rule). */
XACC_HD int shard_better(uint64_t rank, uint64_t idx, uint64_t best_rank,
                         uint64_t best_idx, int is_max)
{
    if (rank != best_rank)
        return is_max ? rank > best_rank : rank < best_rank;
    return idx < best_idx;
}

/* dst[0..ndig) = the digits src[lo..hi) (others zero) normalised: digits
 * below the top in [0, 2^32), the rest and the sign in the top one. dst
 * may be src. Needs |src[k]| < 2^62. Can't fail. */
XACC_HD void shard_normalize(int64_t *dst, const int64_t *src, int lo, int hi,
                             int ndig)
{
    int64_t carry = 0;
    for (int k = 0; k < ndig; k++) {
        int64_t v = (k >= lo && k < hi ? src[k] : 0) + carry;
        if (k == ndig - 1) {
            dst[k] = v;
        } else {
            dst[k] = v & 0xffffffffll;
            carry = v >> 32;
        }
    }
}

/* Writes an exact sum's state at `at` (a record's LOCAL word): the special
 * bits, then the ndig digits d[lo..hi) normalised (shard_normalize). The
 * exact kernels call it in their state mode, the CPU path for its chunks.
 * Can't fail. */
XACC_HD void shard_put_sum(uint64_t *at, const int64_t *d, int lo, int hi, int ndig,
                           unsigned special)
{
    at[0] = special;
    shard_normalize((int64_t *)(at + 1), d, lo, hi, ndig);
}

/* Completes a rank's record after its shard's own reduction wrote LOCAL
 * (nothing to move for a float sum; an integer sum to ISUM; an arg index
 * to IDX, with the element's bits, read from in, and its rank), and sets
 * HEADER, CALL and N. A poison header takes only those three. Can't
 * fail. */
XACC_HD void shard_finish_record(uint64_t *rec, uint64_t header, uint64_t call,
                                 uint64_t n, const void *in)
{
    if (!(header & SHARD_POISON)) {
        int op = shard_header_op(header), dtype = shard_header_dtype(header);
        if (op != CURED_OP_SUM) {
            int is_max = op == CURED_OP_MAX || op == CURED_OP_ARGMAX;
            uint64_t idx = rec[SHARD_W_LOCAL], bits = 0, rank = is_max ? 0 : ~(uint64_t)0;
            if (idx != ~(uint64_t)0) {
                bits = shard_load_bits(dtype, in, idx);
                rank = is_max ? order_rank_max(dtype, bits) : order_rank_min(dtype, bits);
            }
            rec[SHARD_W_RANK] = rank;
            rec[SHARD_W_IDX] = idx;
            rec[SHARD_W_BITS] = bits;
        } else if (!order_is_float_dtype(dtype)) {
            rec[SHARD_W_ISUM] = rec[SHARD_W_LOCAL];
        }
    }
    rec[SHARD_W_N] = n;
    rec[SHARD_W_CALL] = call;
    rec[SHARD_W_HEADER] = header;
}

/* Whether count records (recs, SHARD_REC_WORDS apart) combine: 0, or
 * SHARD_BAD_REFUSED (some rank's arguments were refused) and/or
 * SHARD_BAD_MISMATCH (headers that differ or are not headers, calls that
 * differ, an op or dtype out of range, a count of records outside
 * 1..SHARD_MAX_RANKS). */
XACC_HD unsigned shard_records_check(const uint64_t *recs, int count)
{
    if (count < 1 || count > SHARD_MAX_RANKS)
        return SHARD_BAD_MISMATCH;
    unsigned bad = 0;
    uint64_t h0 = recs[SHARD_W_HEADER];
    for (int r = 0; r < count; r++) {
        uint64_t h = recs[(uint64_t)r * SHARD_REC_WORDS + SHARD_W_HEADER];
        if ((h >> 32 & 0x7fffffff) != (SHARD_MAGIC | SHARD_VERSION << 16))
            bad |= SHARD_BAD_MISMATCH;
        else if (h & SHARD_POISON)
            bad |= SHARD_BAD_REFUSED;
        else if (h != h0 && !(h0 & SHARD_POISON))
            bad |= SHARD_BAD_MISMATCH;
        if (recs[(uint64_t)r * SHARD_REC_WORDS + SHARD_W_CALL] != recs[SHARD_W_CALL])
            bad |= SHARD_BAD_MISMATCH;
    }
    if (!bad && ((unsigned)shard_header_op(h0) >= CURED_OP_COUNT ||
                 shard_dtype_bytes(shard_header_dtype(h0)) == 0 ||
                 shard_dtype_bytes(shard_header_result(h0)) == 0))
        bad |= SHARD_BAD_MISMATCH;
    return bad;
}

/* Records combined so far: the exact sum's digits (carry-save: each the
 * sum of normalised digits) and special bits, the integer sum, the best
 * element with its global index, the elements seen. */
typedef struct shard_acc {
    uint64_t header;
    uint64_t n;
    unsigned special;
    uint64_t isum;
    uint64_t rank, idx, bits; /* idx all ones: none yet */
    int64_t digits[XACC_NDIG_MAX];
} shard_acc;

XACC_HD int shard_is_float_sum(uint64_t header)
{
    return shard_header_op(header) == CURED_OP_SUM &&
           order_is_float_dtype(shard_header_dtype(header));
}

XACC_HD int shard_is_max(uint64_t header)
{
    int op = shard_header_op(header);
    return op == CURED_OP_MAX || op == CURED_OP_ARGMAX;
}

/* Starts an empty combination of records with this (checked) header. */
XACC_HD void shard_acc_init(shard_acc *a, uint64_t header)
{
    a->header = header;
    a->n = 0;
    a->special = 0;
    a->isum = 0;
    a->rank = shard_is_max(header) ? 0 : ~(uint64_t)0;
    a->idx = ~(uint64_t)0;
    a->bits = 0;
    for (int k = 0; k < XACC_NDIG_MAX; k++)
        a->digits[k] = 0;
}

/* Adds everything of one record but its digits; its shard starts at
 * global index `offset`. Commutative and associative: records may come
 * in any order. Can't fail. */
XACC_HD void shard_acc_add_scalars(shard_acc *a, const uint64_t *rec, uint64_t offset)
{
    a->n += rec[SHARD_W_N];
    if (shard_is_float_sum(a->header))
        a->special |= (unsigned)rec[SHARD_W_LOCAL];
    a->isum += rec[SHARD_W_ISUM];
    uint64_t idx = rec[SHARD_W_IDX];
    if (shard_header_op(a->header) != CURED_OP_SUM && idx != ~(uint64_t)0 &&
        shard_better(rec[SHARD_W_RANK], offset + idx, a->rank, a->idx,
                     shard_is_max(a->header))) {
        a->rank = rec[SHARD_W_RANK];
        a->idx = offset + idx;
        a->bits = rec[SHARD_W_BITS];
    }
}

/* Digit k summed over count records (SHARD_REC_WORDS apart). The GPU
 * gives each digit its own thread. Can't fail. */
XACC_HD int64_t shard_sum_digit(const uint64_t *recs, int count, int k)
{
    int64_t s = 0;
    for (int r = 0; r < count; r++)
        s += (int64_t)recs[(uint64_t)r * SHARD_REC_WORDS + SHARD_W_DIGITS + k];
    return s;
}

/* Adds one whole record (shard_acc_add_scalars and its digits). */
XACC_HD void shard_acc_add(shard_acc *a, const uint64_t *rec, uint64_t offset)
{
    shard_acc_add_scalars(a, rec, offset);
    if (shard_is_float_sum(a->header)) {
        int ndig = xacc_family_of(shard_family(shard_header_dtype(a->header))).ndig;
        for (int k = 0; k < ndig; k++)
            a->digits[k] += (int64_t)rec[SHARD_W_DIGITS + k];
    }
}

/* The result of the combination, as cured_reduce writes it for the whole
 * array: its bits in *bits (zero-extended), its size in bytes returned.
 * Rounds a->digits in place (xacc_round leaves them the magnitude's
 * words). Can't fail. */
XACC_HD int shard_acc_result(shard_acc *a, uint64_t *bits)
{
    int op = shard_header_op(a->header), dtype = shard_header_dtype(a->header);
    int result = shard_header_result(a->header);
    int bytes = shard_dtype_bytes(result);
    if (shard_is_float_sum(a->header)) {
        xacc_family f = shard_family(dtype);
        int ndig = xacc_family_of(f).ndig, to_f64 = result == CURED_F64;
        /* the digits are sums of normalised ones, below 2^48: xacc_round
         * takes carry-save digits below 2^62 */
        *bits = a->special ? xacc_special_result(a->special, to_f64)
                           : xacc_round(f, a->digits, 0, ndig, to_f64);
    } else if (op == CURED_OP_SUM) {
        *bits = bytes == 8 ? a->isum : a->isum & 0xffffffffull;
    } else if (op == CURED_OP_ARGMIN || op == CURED_OP_ARGMAX) {
        *bits = a->idx; /* none: all ones, the int64 -1 */
    } else {
        *bits = a->idx == ~(uint64_t)0 ? order_identity_bits(dtype, shard_is_max(a->header))
                                       : a->bits;
    }
    return bytes;
}

/* The combination as one record again (its idx relative to its first
 * element), as a rank holding all of those elements would have made it:
 * the CPU path's chunks combine into a shard's record so. Can't fail. */
XACC_HD void shard_acc_to_record(shard_acc *a, uint64_t *rec)
{
    for (int w = 0; w < SHARD_REC_WORDS; w++)
        rec[w] = 0;
    if (shard_is_float_sum(a->header)) {
        int ndig = xacc_family_of(shard_family(shard_header_dtype(a->header))).ndig;
        shard_put_sum(rec + SHARD_W_LOCAL, a->digits, 0, ndig, ndig, a->special);
    }
    rec[SHARD_W_HEADER] = a->header;
    rec[SHARD_W_N] = a->n;
    rec[SHARD_W_ISUM] = a->isum;
    rec[SHARD_W_RANK] = a->rank;
    rec[SHARD_W_IDX] = a->idx;
    rec[SHARD_W_BITS] = a->bits;
}

/* Combines count records in rank order (rank r's shard starts after the
 * shards of ranks 0 .. r-1), as the GPU does after the allgather: the
 * result's bits in *bits and its size in *bytes, and 0; or the
 * shard_records_check bits (nothing written). Can't fail otherwise. */
XACC_HD unsigned shard_combine(const uint64_t *recs, int count, uint64_t *bits,
                               int *bytes)
{
    unsigned bad = shard_records_check(recs, count);
    if (bad)
        return bad;
    shard_acc a;
    shard_acc_init(&a, recs[SHARD_W_HEADER]);
    uint64_t offset = 0;
    for (int r = 0; r < count; r++) {
        const uint64_t *rec = recs + (uint64_t)r * SHARD_REC_WORDS;
        shard_acc_add(&a, rec, offset);
        offset += rec[SHARD_W_N];
    }
    *bytes = shard_acc_result(&a, bits);
    return 0;
}

#endif /* CURED_SHARD_STATE_H */
