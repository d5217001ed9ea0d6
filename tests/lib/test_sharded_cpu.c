/* test_sharded_cpu.c - the sharded reduction simulated on the CPU: an array
 * cut into k shards of random sizes (empty ones too), each shard's record
 * made by the CPU path (cured_reduce_cpu_record, what a GPU rank sends),
 * the records combined as the GPU's combine kernel does after the
 * allgather (shard_combine over the gathered buffer), in every order
 * (shard_acc_add with each shard's offset, permuted) and in a tree
 * (contiguous groups merged into one record first); every way must give
 * cured_reduce_cpu's bits for the whole array (test_reduce_cpu.c checks
 * those against an exact reference, and so does this test for the float
 * sums' whole arrays). k up to 64; every float dtype and
 * data kind of the exactness tests, with and without CURED_REDUCE_F64;
 * integer sums wrapped and widened; min, max, argmin, argmax with ties and
 * NaNs; records that must not combine (other op, dtype, flags, call, a
 * refusal) write nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"
#include "reduce.h"
#include "reduce_data.h"
#include "shard_state.h"

static uint64_t rng_state;

static uint64_t below(uint64_t n) { return n ? rd_random(&rng_state) % n : 0; }

// ----------------------------------------------------------------------------
// Splits and records

/* Cuts n into k contiguous shards of random sizes: sizes[0..k), some of
 * them empty (about one in four forced so, besides coinciding cuts). */
static void random_split(uint64_t n, int k, uint64_t *sizes)
{
    uint64_t *cuts = malloc((size_t)(k + 1) * sizeof *cuts);
    cuts[0] = 0;
    cuts[k] = n;
    for (int i = 1; i < k; i++)
        cuts[i] = below(n + 1);
    for (int i = 1; i < k; i++) /* insertion sort: k <= 64 */
        for (int j = i; j > 1 && cuts[j - 1] > cuts[j]; j--) {
            uint64_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    for (int i = 1; i < k; i++)
        if (below(4) == 0)
            cuts[i] = cuts[i - 1];
    for (int i = 0; i < k; i++)
        sizes[i] = cuts[i + 1] - cuts[i];
    free(cuts);
}

/* The records of the k shards of a (sizes), gathered in rank order as the
 * allgather leaves them: k * SHARD_REC_WORDS words (caller frees). Each
 * shard is reduced with 1 to 4 threads (the record must not depend on
 * that either). */
static uint64_t *shard_records(cured_op op, cured_dtype d, const void *a,
                               const uint64_t *sizes, int k, unsigned flags)
{
    uint64_t *recs = calloc((size_t)k * SHARD_REC_WORDS, 8);
    uint64_t first = 0;
    for (int r = 0; r < k; r++) {
        const char *shard = sizes[r] ? (const char *)a + first * cured_dtype_size(d) : NULL;
        assert_int_equal(cured_reduce_cpu_record(op, d, shard, sizes[r], flags,
                                                 1 + (int)below(4),
                                                 recs + (size_t)r * SHARD_REC_WORDS),
                         CURED_SUCCESS);
        first += sizes[r];
    }
    return recs;
}

/* The result of adding the records in the order perm[0..k) (each with its
 * shard's offset), as bits. */
static uint64_t combine_in_order(const uint64_t *recs, const uint64_t *sizes, int k,
                                 const int *perm)
{
    uint64_t *offsets = malloc((size_t)k * 8), first = 0;
    for (int r = 0; r < k; r++) {
        offsets[r] = first;
        first += sizes[r];
    }
    shard_acc acc;
    shard_acc_init(&acc, recs[SHARD_W_HEADER]);
    for (int i = 0; i < k; i++)
        shard_acc_add(&acc, recs + (size_t)perm[i] * SHARD_REC_WORDS, offsets[perm[i]]);
    uint64_t bits = 0;
    shard_acc_result(&acc, &bits);
    free(offsets);
    return bits;
}

/* The result of merging contiguous groups of `group` records into one
 * record each (what a rank holding the group's shards would send), then
 * combining those. */
static uint64_t combine_as_tree(const uint64_t *recs, int k, int group)
{
    int groups = (k + group - 1) / group;
    uint64_t *merged = calloc((size_t)groups * SHARD_REC_WORDS, 8);
    for (int g = 0; g < groups; g++) {
        shard_acc acc;
        shard_acc_init(&acc, recs[SHARD_W_HEADER]);
        uint64_t offset = 0;
        for (int r = g * group; r < k && r < (g + 1) * group; r++) {
            shard_acc_add(&acc, recs + (size_t)r * SHARD_REC_WORDS, offset);
            offset += recs[(size_t)r * SHARD_REC_WORDS + SHARD_W_N];
        }
        shard_acc_to_record(&acc, merged + (size_t)g * SHARD_REC_WORDS);
    }
    uint64_t bits = 0;
    int bytes = 0;
    assert_int_equal(shard_combine(merged, groups, &bits, &bytes), 0);
    free(merged);
    return bits;
}

static void shuffle(int *perm, int k)
{
    for (int i = k - 1; i > 0; i--) {
        int j = (int)below((uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* Next permutation in lexicographic order; 0 after the last. */
static int next_permutation(int *p, int k)
{
    int i = k - 2;
    while (i >= 0 && p[i] >= p[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = k - 1;
    while (p[j] <= p[i])
        j--;
    int t = p[i];
    p[i] = p[j];
    p[j] = t;
    for (int l = i + 1, r = k - 1; l < r; l++, r--) {
        t = p[l];
        p[l] = p[r];
        p[r] = t;
    }
    return 1;
}

/* Splits a[0..n) into k random shards and checks every way of combining
 * their records against cured_reduce_cpu over the whole of a: in rank
 * order over the gathered buffer, in every order (all of them for k <= 5,
 * 50 random ones otherwise), and as a tree. Returns the number of
 * combinations checked. */
static int check_split(cured_op op, cured_dtype d, const void *a, uint64_t n, int k,
                       unsigned flags, const char *what)
{
    uint64_t want = 0;
    assert_int_equal(cured_reduce_cpu(op, d, n ? a : NULL, n, &want, flags, 0),
                     CURED_SUCCESS);
    uint64_t *sizes = malloc((size_t)k * 8);
    random_split(n, k, sizes);
    uint64_t *recs = shard_records(op, d, a, sizes, k, flags);
    int checked = 0;

    uint64_t got = 0;
    int bytes = 0;
    assert_int_equal(shard_combine(recs, k, &got, &bytes), 0);
    cured_dtype rt;
    cured_reduce_result_dtype(op, d, flags, &rt);
    assert_int_equal(bytes, (int)cured_dtype_size(rt));
    if (got != want)
        fail_msg("%s %s %s n=%llu k=%d flags %u: gathered %llx, whole array %llx",
                 cured_op_name(op), cured_dtype_name(d), what, (unsigned long long)n, k,
                 flags, (unsigned long long)got, (unsigned long long)want);
    checked++;

    int *perm = malloc((size_t)k * sizeof *perm);
    for (int i = 0; i < k; i++)
        perm[i] = i;
    int exhaustive = k <= 5;
    for (int trial = 0; exhaustive || trial < 50; trial++) {
        if (!exhaustive)
            shuffle(perm, k);
        got = combine_in_order(recs, sizes, k, perm);
        if (got != want)
            fail_msg("%s %s %s n=%llu k=%d: order %d gives %llx, whole array %llx",
                     cured_op_name(op), cured_dtype_name(d), what, (unsigned long long)n,
                     k, trial, (unsigned long long)got, (unsigned long long)want);
        checked++;
        if (exhaustive && !next_permutation(perm, k))
            break;
    }
    for (int group = 2; group <= k; group *= 3) {
        got = combine_as_tree(recs, k, group);
        if (got != want)
            fail_msg("%s %s %s n=%llu k=%d: groups of %d give %llx, whole array %llx",
                     cured_op_name(op), cured_dtype_name(d), what, (unsigned long long)n,
                     k, group, (unsigned long long)got, (unsigned long long)want);
        checked++;
    }
    free(perm);
    free(recs);
    free(sizes);
    return checked;
}

static const cured_dtype float_types[] = {CURED_F16, CURED_BF16, CURED_F32, CURED_F64};
static const int shard_counts[] = {1, 2, 3, 4, 5, 8, 17, 64};

// ----------------------------------------------------------------------------
// Sums

static void test_float_sums_any_split(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {0, 1, 3, 1000, 100003};
    int checked = 0;
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++) {
        cured_dtype d = float_types[t];
        void *a = malloc(100003 * 8);
        for (int kind = 0; kind < RD_KINDS; kind++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                rng_state = 7000 + 100 * t + 10 * (uint64_t)kind + s;
                rd_fill(a, d, sizes[s], (rd_kind)kind, &rng_state);
                /* the whole array's bits are the exact reference's (so the
                 * shards below match the truth, not just the CPU path) */
                uint64_t whole = 0;
                assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, d, sizes[s] ? a : NULL,
                                                  sizes[s], &whole, 0, 0), 0);
                assert_int_equal(whole, rd_reference_sum(a, d, sizes[s], d == CURED_F64));
                for (size_t c = 0; c < sizeof shard_counts / sizeof *shard_counts; c++) {
                    checked += check_split(CURED_OP_SUM, d, a, sizes[s], shard_counts[c], 0,
                                           rd_kind_names[kind]);
                    if (d != CURED_F64 && sizes[s] == 1000)
                        checked += check_split(CURED_OP_SUM, d, a, sizes[s], shard_counts[c],
                                               CURED_REDUCE_F64, rd_kind_names[kind]);
                }
            }
        free(a);
    }
    assert_true(checked > 5000);
}

/* Specials in some shards only: a NaN, infinities of both signs. */
static void test_float_sums_specials_in_one_shard(void **state)
{
    (void)state;
    uint64_t n = 5000;
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++) {
        cured_dtype d = float_types[t];
        void *a = malloc(n * 8);
        uint64_t inf = rd_max_finite(d) + 1;
        uint64_t sign = (uint64_t)1 << (8 * cured_dtype_size(d) - 1);
        const uint64_t specials[3] = {inf, inf | sign, inf + 1 /* NaN */};
        for (int case_ = 0; case_ < 4; case_++) {
            rng_state = 300 + 10 * t + (uint64_t)case_;
            rd_fill(a, d, n, RD_UNIFORM, &rng_state);
            if (case_ < 3) {
                rd_put(a, d, below(n), specials[case_]);
            } else { /* +inf and -inf far apart: NaN */
                rd_put(a, d, 17, specials[0]);
                rd_put(a, d, n - 3, specials[1]);
            }
            for (size_t c = 0; c < sizeof shard_counts / sizeof *shard_counts; c++)
                check_split(CURED_OP_SUM, d, a, n, shard_counts[c], 0, "special");
        }
        free(a);
    }
}

static void test_integer_sums_any_split(void **state)
{
    (void)state;
    static const cured_dtype types[] = {CURED_I32, CURED_U32, CURED_I64, CURED_U64};
    uint64_t n = 30011;
    uint64_t *a = malloc(n * 8);
    for (size_t t = 0; t < 4; t++) {
        rng_state = 500 + t;
        for (uint64_t i = 0; i < n; i++)
            a[i] = rd_random(&rng_state);
        for (size_t c = 0; c < sizeof shard_counts / sizeof *shard_counts; c++) {
            check_split(CURED_OP_SUM, types[t], a, n, shard_counts[c], 0, "random");
            check_split(CURED_OP_SUM, types[t], a, n, shard_counts[c], CURED_REDUCE_WIDEN,
                        "random");
        }
    }
    free(a);
}

// ----------------------------------------------------------------------------
// min, max, argmin, argmax

static void check_all_orders_ops(cured_dtype d, const void *a, uint64_t n, const char *what)
{
    for (int op = CURED_OP_MIN; op < CURED_OP_COUNT; op++)
        for (size_t c = 0; c < sizeof shard_counts / sizeof *shard_counts; c++)
            check_split((cured_op)op, d, a, n, shard_counts[c], 0, what);
}

static void test_minmax_any_split(void **state)
{
    (void)state;
    uint64_t n = 20011;
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++) {
        cured_dtype d = float_types[t];
        void *a = malloc(n * 8);
        uint64_t sign = (uint64_t)1 << (8 * cured_dtype_size(d) - 1);
        rng_state = 900 + t;
        rd_fill(a, d, n, RD_WIDE, &rng_state);
        check_all_orders_ops(d, a, n, "wide");
        /* the same extreme in two shards, far apart: the first wins */
        rd_put(a, d, 3, rd_get(a, d, n - 2));
        check_all_orders_ops(d, a, n, "ties");
        /* zeros of both signs only: -0 < +0, the first of each */
        for (uint64_t i = 0; i < n; i++)
            rd_put(a, d, i, i % 3 ? 0 : sign);
        check_all_orders_ops(d, a, n, "zeros");
        /* two NaNs: the first wins min and max */
        rd_fill(a, d, n, RD_UNIFORM, &rng_state);
        rd_put(a, d, 15000, rd_max_finite(d) + 2);
        rd_put(a, d, 19000, rd_max_finite(d) + 3);
        check_all_orders_ops(d, a, n, "nan");
        /* empty */
        check_all_orders_ops(d, NULL, 0, "empty");
        free(a);
    }
    static const cured_dtype ints[] = {CURED_I32, CURED_U32, CURED_I64, CURED_U64};
    uint64_t *b = malloc(n * 8);
    for (size_t t = 0; t < 4; t++) {
        rng_state = 950 + t;
        for (uint64_t i = 0; i < n; i++)
            b[i] = rd_random(&rng_state) % 1000; /* many ties */
        check_all_orders_ops(ints[t], b, n, "ints");
    }
    free(b);
}

// ----------------------------------------------------------------------------
// Records that must not combine

static void test_disagreeing_records_write_nothing(void **state)
{
    (void)state;
    float a[100];
    for (int i = 0; i < 100; i++)
        a[i] = (float)i - 50.5f;
    uint64_t recs[3 * SHARD_REC_WORDS], bits = 0x5a5a, base[3 * SHARD_REC_WORDS];
    const uint64_t sizes[3] = {40, 0, 60};
    uint64_t *good = shard_records(CURED_OP_SUM, CURED_F32, a, sizes, 3, 0);
    memcpy(base, good, sizeof base);
    free(good);
    int bytes = -1;
    assert_int_equal(shard_combine(base, 3, &bits, &bytes), 0);
    uint64_t whole = 0;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 100, &whole, 0, 1), 0);
    assert_int_equal(bits, whole);
    struct {
        const char *what;
        cured_op op;
        cured_dtype dtype;
        unsigned flags;
        unsigned want;
    } cases[] = {
        {"another op", CURED_OP_MAX, CURED_F32, 0, SHARD_BAD_MISMATCH},
        {"another dtype", CURED_OP_SUM, CURED_I32, 0, SHARD_BAD_MISMATCH},
        {"other flags", CURED_OP_SUM, CURED_F32, CURED_REDUCE_F64, SHARD_BAD_MISMATCH},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memcpy(recs, base, sizeof recs);
        uint64_t one = 60;
        uint64_t *other = shard_records(cases[c].op, cases[c].dtype, a + 40, &one, 1,
                                        cases[c].flags);
        memcpy(recs + 2 * SHARD_REC_WORDS, other, SHARD_REC_WORDS * 8);
        free(other);
        bits = 0x5a5a;
        bytes = -1;
        unsigned bad = shard_combine(recs, 3, &bits, &bytes);
        if (bad != cases[c].want)
            fail_msg("%s: bad %u, want %u", cases[c].what, bad, cases[c].want);
        assert_int_equal(bits, 0x5a5a);
        assert_int_equal(bytes, -1);
    }
    /* a refusal (poison), a record of another call, no header at all */
    memcpy(recs, base, sizeof recs);
    shard_finish_record(recs + SHARD_REC_WORDS, shard_poison_header(), 0, 0, NULL);
    assert_int_equal(shard_combine(recs, 3, &bits, &bytes), SHARD_BAD_REFUSED);
    memcpy(recs, base, sizeof recs);
    shard_finish_record(recs, shard_poison_header(), 0, 0, NULL);
    assert_int_equal(shard_combine(recs, 3, &bits, &bytes), SHARD_BAD_REFUSED);
    memcpy(recs, base, sizeof recs);
    recs[SHARD_REC_WORDS + SHARD_W_CALL] = 1;
    assert_int_equal(shard_combine(recs, 3, &bits, &bytes), SHARD_BAD_MISMATCH);
    memcpy(recs, base, sizeof recs);
    recs[2 * SHARD_REC_WORDS + SHARD_W_HEADER] = 0;
    assert_int_equal(shard_combine(recs, 3, &bits, &bytes), SHARD_BAD_MISMATCH);
    assert_int_equal(shard_combine(base, 0, &bits, &bytes), SHARD_BAD_MISMATCH);
    assert_int_equal(bits, 0x5a5a);
    assert_int_equal(shard_combine(base, 3, &bits, &bytes), 0);
}

// ----------------------------------------------------------------------------
// The API without NCCL (this CI build may or may not have it; the calls
// that need no device answer the same either way)

static void test_api_arguments(void **state)
{
    (void)state;
    cured_comm *comm = (cured_comm *)1;
    assert_int_equal(cured_comm_create_rank(NULL, 1, 0, &comm), CURED_ERROR_NULL_POINTER);
    assert_null(comm);
    cured_comm_id id;
    memset(&id, 0, sizeof id);
    assert_int_equal(cured_comm_create_rank(&id, 0, 0, &comm), CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_comm_create_rank(&id, 2, 2, &comm), CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_comm_create_rank(&id, CURED_COMM_MAX_RANKS + 1, 0, &comm),
                     CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_comm_create_all(1, NULL, NULL), CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_comm_create_all(0, NULL, &comm), CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_comm_wrap(NULL, &comm), CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_comm_id_create(NULL), CURED_ERROR_NULL_POINTER);
    float out;
    assert_int_equal(cured_reduce_sharded(NULL, CURED_OP_SUM, CURED_F32, NULL, 0, &out, 0,
                                          NULL),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_reduce_sharded_group(NULL, 1, CURED_OP_SUM, CURED_F32, 0),
                     CURED_ERROR_NULL_POINTER);
    cured_shard none[2];
    memset(none, 0, sizeof none);
    assert_int_equal(cured_reduce_sharded_group(none, 0, CURED_OP_SUM, CURED_F32, 0),
                     CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_reduce_sharded_group(none, 2, CURED_OP_SUM, CURED_F32, 0),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_comm_check(NULL, NULL), CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_comm_info(NULL, NULL, NULL, NULL), CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_comm_destroy(NULL), CURED_SUCCESS);
    for (int s = CURED_ERROR_NO_NCCL; s <= CURED_ERROR_RANK_MISMATCH; s++)
        assert_string_not_equal(cured_status_string((cured_status)s), "unknown status");
    assert_int_equal(CURED_SHARD_RECORD_BYTES, SHARD_REC_WORDS * 8);
    assert_int_equal(CURED_COMM_MAX_RANKS, SHARD_MAX_RANKS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float_sums_any_split),
        cmocka_unit_test(test_float_sums_specials_in_one_shard),
        cmocka_unit_test(test_integer_sums_any_split),
        cmocka_unit_test(test_minmax_any_split),
        cmocka_unit_test(test_disagreeing_records_write_nothing),
        cmocka_unit_test(test_api_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
