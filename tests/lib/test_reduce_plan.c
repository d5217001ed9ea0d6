/* test_reduce_plan.c - cured_reduce's launch shapes in pure C: which
 * kernels combine in thread-block clusters, the default shape (block, grid
 * and cluster) for an H200-like GPU with and without clusters, the checks
 * on a forced shape's cluster, and where one trip covers n.
 *
 * CPU only: the functions read nothing but their arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cured.h"
#include "reduce.h"

/* An H200: 132 multiprocessors, four blocks of 256 threads each resident. */
enum { SMS = 132, RESIDENT = 4 * 132 };

static const cured_dtype floats[] = {CURED_F16, CURED_BF16, CURED_F32, CURED_F64};

/* The default shape; blocks of CURED_REDUCE_BLOCK threads but where an
 * exact float sum below 64 KiB takes one block of 512 .. 1024 threads
 * (test_one_block_below_64_kib), and where an exact f32 sum takes one
 * cluster of 512-thread blocks (test_f32_cluster_of_512_threads). */
static cured_reduce_shape shape_of(cured_op op, cured_dtype d, uint64_t n, unsigned cluster_max)
{
    cured_reduce_shape s;
    cured_reduce_default_shape(op, d, n, RESIDENT, SMS, cluster_max, &s);
    assert_int_equal(s.variant, CURED_VARIANT_EXACT);
    if (s.block != CURED_REDUCE_BLOCK) {
        assert_true(op == CURED_OP_SUM && cured_reduce_in_clusters(op, d, CURED_VARIANT_EXACT));
        if (s.cluster > 1) {
            assert_int_equal(d, CURED_F32);
            assert_int_equal(s.block, 512);
            assert_int_equal(s.grid, s.cluster);
        } else {
            assert_true(n * cured_dtype_size(d) < ((uint64_t)64 << 10));
            assert_int_equal(s.grid, 1);
        }
    }
    return s;
}

static void test_only_exact_float_sums_cluster(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        assert_true(cured_reduce_in_clusters(CURED_OP_SUM, floats[i], CURED_VARIANT_EXACT));
        assert_false(cured_reduce_in_clusters(CURED_OP_SUM, floats[i], CURED_VARIANT_PLAIN));
        for (int op = CURED_OP_MIN; op < CURED_OP_COUNT; op++)
            assert_false(cured_reduce_in_clusters((cured_op)op, floats[i], CURED_VARIANT_EXACT));
    }
    assert_false(cured_reduce_in_clusters(CURED_OP_SUM, CURED_I32, CURED_VARIANT_EXACT));
    assert_false(cured_reduce_in_clusters(CURED_OP_SUM, CURED_U64, CURED_VARIANT_EXACT));
}

/* From 64 KiB, a float sum whose one-trip grid fits a cluster takes a full
 * one: 16 blocks in one cluster, whatever the dtype. */
static void test_full_cluster_from_64_kib(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        size_t esz = cured_dtype_size(floats[i]);
        uint64_t from = ((uint64_t)64 << 10) / esz;
        /* the largest n whose one-trip grid (256 threads x 64 bytes a
         * block) is still 16 blocks */
        uint64_t to = 16 * 256 * (64 / esz);
        const uint64_t ns[] = {from, from + 1, (from + to) / 2, to - 1, to};
        for (int k = 0; k < 5; k++) {
            cured_reduce_shape s = shape_of(CURED_OP_SUM, floats[i], ns[k], 16);
            assert_int_equal(s.grid, 16);
            assert_int_equal(s.cluster, 16);
        }
        /* one block more than a cluster: no cluster, the default grid
         * (f32: test_f32_cluster_of_512_threads) */
        if (floats[i] == CURED_F32)
            continue;
        cured_reduce_shape s = shape_of(CURED_OP_SUM, floats[i], to + 1, 16);
        assert_int_equal(s.cluster, 1);
        assert_int_equal(s.grid, cured_reduce_default_grid(CURED_OP_SUM, floats[i], to + 1,
                                                           CURED_REDUCE_BLOCK, RESIDENT, SMS));
        assert_int_equal(s.grid, 17);
    }
}

/* Below 64 KiB one trip a thread in one block: 256 threads up to 16 KiB,
 * then as many as the grid of 256-thread blocks would have (512, 768 or
 * 1024); from 64 KiB a full cluster. */
static void test_small_sums(void **state)
{
    (void)state;
    static const struct {
        uint64_t n;
        int block;
        unsigned grid, cluster;
    } f32[] = {{0, 256, 1, 1},     {1, 256, 1, 1},      {4096, 256, 1, 1},
               {4097, 512, 1, 1},  {8192, 512, 1, 1},   {8193, 768, 1, 1},
               {12289, 1024, 1, 1}, {16383, 1024, 1, 1}, {16384, 256, 16, 16}};
    for (size_t i = 0; i < sizeof f32 / sizeof *f32; i++) {
        cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_F32, f32[i].n, 16);
        assert_int_equal(s.block, f32[i].block);
        assert_int_equal(s.grid, f32[i].grid);
        assert_int_equal(s.cluster, f32[i].cluster);
    }
}

/* Every float dtype, with clusters or without: below 64 KiB the one-trip
 * grid's threads in one block (one trip still covers n); the other ops and
 * the integer sums keep their grid of 256-thread blocks. */
static void test_one_block_below_64_kib(void **state)
{
    (void)state;
    static const unsigned cluster_maxes[] = {0, 8, 16};
    for (int i = 0; i < 4; i++) {
        uint64_t below = ((uint64_t)64 << 10) / cured_dtype_size(floats[i]);
        for (uint64_t n = 0; n < below; n = n * 2 + 1)
            for (int c = 0; c < 3; c++) {
                cured_reduce_shape s = shape_of(CURED_OP_SUM, floats[i], n, cluster_maxes[c]);
                unsigned grid = cured_reduce_default_grid(CURED_OP_SUM, floats[i], n,
                                                          CURED_REDUCE_BLOCK, RESIDENT, SMS);
                assert_int_equal(s.grid, 1);
                assert_int_equal(s.cluster, 1);
                assert_int_equal(s.block, (int)grid * CURED_REDUCE_BLOCK);
                assert_true(cured_reduce_one_trip(floats[i], n, s.grid, s.block));
            }
        for (int op = CURED_OP_MIN; op < CURED_OP_COUNT; op++) {
            cured_reduce_shape s = shape_of((cured_op)op, floats[i], below - 1, 16);
            assert_int_equal(s.block, CURED_REDUCE_BLOCK);
            assert_int_equal(s.grid, 4);
        }
    }
    cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_I32, 16383, 16);
    assert_int_equal(s.block, CURED_REDUCE_BLOCK);
    assert_int_equal(s.grid, 4);
}

/* Past a cluster of 256-thread blocks, an exact f32 sum up to twice that
 * (2^17 elements at 16 blocks, 2^16 at 8) takes one cluster of blocks of
 * 512 threads, one trip a thread; past that, the default grid. The other
 * dtypes keep the grid. */
static void test_f32_cluster_of_512_threads(void **state)
{
    (void)state;
    static const unsigned cluster_maxes[] = {8, 16};
    for (int c = 0; c < 2; c++) {
        unsigned cm = cluster_maxes[c];
        uint64_t from = (uint64_t)cm * 256 * 16 + 1, to = 2 * (from - 1);
        const uint64_t ns[] = {from, from + 3, (from + to) / 2, to - 1, to};
        for (int k = 0; k < 5; k++) {
            cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_F32, ns[k], cm);
            assert_int_equal(s.block, 512);
            assert_int_equal(s.grid, cm);
            assert_int_equal(s.cluster, cm);
            assert_true(cured_reduce_one_trip(CURED_F32, ns[k], s.grid, s.block));
            s = shape_of(CURED_OP_SUM, CURED_F64, (ns[k] + 1) / 2, cm); /* as many bytes */
            assert_int_equal(s.block, CURED_REDUCE_BLOCK);
            assert_int_equal(s.cluster, 1);
            s = shape_of(CURED_OP_SUM, CURED_F16, ns[k] * 2, cm);
            assert_int_equal(s.block, CURED_REDUCE_BLOCK);
            assert_int_equal(s.cluster, 1);
        }
        cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_F32, to + 1, cm);
        assert_int_equal(s.block, CURED_REDUCE_BLOCK);
        assert_int_equal(s.cluster, 1);
        assert_int_equal(s.grid, 2 * cm + 1);
    }
}

/* Portable clusters (8 blocks): a full cluster is 8 blocks, and a grid of
 * 17 .. 32 blocks runs without (9 .. 16: f32's cluster of 512-thread
 * blocks, above). No clusters (before sm_90): the grid alone (its threads
 * in one block below 64 KiB). */
static void test_cluster_limits(void **state)
{
    (void)state;
    cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_F32, 1u << 14, 8);
    assert_int_equal(s.grid, 8);
    assert_int_equal(s.cluster, 8);
    s = shape_of(CURED_OP_SUM, CURED_F32, 1u << 17, 8);
    assert_int_equal(s.grid, 32);
    assert_int_equal(s.cluster, 1);
    s = shape_of(CURED_OP_SUM, CURED_F64, 1u << 15, 8);
    assert_int_equal(s.grid, 16);
    assert_int_equal(s.cluster, 1);
    for (uint64_t n = 0; n <= (1u << 20); n = n * 3 + 1) {
        for (int i = 0; i < 4; i++) {
            s = shape_of(CURED_OP_SUM, floats[i], n, 0);
            assert_int_equal(s.cluster, 1);
            assert_int_equal(s.grid * (unsigned)s.block,
                             cured_reduce_default_grid(CURED_OP_SUM, floats[i], n,
                                                       CURED_REDUCE_BLOCK, RESIDENT, SMS) *
                                 CURED_REDUCE_BLOCK);
        }
    }
}

/* The other kernels never get a cluster by default. */
static void test_other_kernels_without_clusters(void **state)
{
    (void)state;
    for (uint64_t n = 0; n <= (1u << 20); n = n * 3 + 1) {
        for (int op = CURED_OP_MIN; op < CURED_OP_COUNT; op++) {
            cured_reduce_shape s = shape_of((cured_op)op, CURED_F32, n, 16);
            assert_int_equal(s.cluster, 1);
        }
        cured_reduce_shape s = shape_of(CURED_OP_SUM, CURED_I32, n, 16);
        assert_int_equal(s.cluster, 1);
        assert_int_equal(s.grid, cured_reduce_default_grid(CURED_OP_SUM, CURED_I32, n,
                                                           CURED_REDUCE_BLOCK, RESIDENT, SMS));
    }
}

/* A forced shape's cluster: at most CURED_REDUCE_CLUSTER_MAX blocks, and
 * above one it divides the grid; 0 and 1 mean none. */
static void test_check_shape_cluster(void **state)
{
    (void)state;
    static const struct {
        int block;
        unsigned grid, cluster;
        cured_status want;
    } cases[] = {
        {256, 16, 16, CURED_SUCCESS},         {256, 6, 4, CURED_ERROR_INVALID_VALUE},
        {256, 8, 4, CURED_SUCCESS},           {256, 34, 17, CURED_ERROR_INVALID_VALUE},
        {256, 3, 0, CURED_SUCCESS},           {256, 3, 1, CURED_SUCCESS},
        {1024, 4096, 16, CURED_SUCCESS},      {32, 7, 7, CURED_SUCCESS},
        {33, 16, 16, CURED_ERROR_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cured_reduce_shape s = {cases[i].block, cases[i].grid, CURED_VARIANT_EXACT,
                                cases[i].cluster};
        assert_int_equal(cured_reduce_check_shape(&s, 1000), cases[i].want);
    }
}

/* A sum takes three times the resident blocks from 2 GiB of input (one
 * element less: resident), any dtype, exact or integer; min and max keep
 * resident blocks. */
static void test_three_waves_from_2_gib(void **state)
{
    (void)state;
    static const cured_dtype sums[] = {CURED_F32, CURED_F64, CURED_F16, CURED_BF16,
                                       CURED_I32, CURED_U64};
    for (size_t i = 0; i < sizeof sums / sizeof *sums; i++) {
        uint64_t from = ((uint64_t)2 << 30) / cured_dtype_size(sums[i]);
        assert_int_equal(cured_reduce_default_grid(CURED_OP_SUM, sums[i], from - 1,
                                                   CURED_REDUCE_BLOCK, RESIDENT, SMS),
                         RESIDENT);
        assert_int_equal(cured_reduce_default_grid(CURED_OP_SUM, sums[i], from,
                                                   CURED_REDUCE_BLOCK, RESIDENT, SMS),
                         3 * RESIDENT);
        assert_int_equal(cured_reduce_default_grid(CURED_OP_SUM, sums[i], (uint64_t)1 << 36,
                                                   CURED_REDUCE_BLOCK, RESIDENT, SMS),
                         3 * RESIDENT);
        assert_int_equal(cured_reduce_default_grid(CURED_OP_MAX, sums[i], from,
                                                   CURED_REDUCE_BLOCK, RESIDENT, SMS),
                         RESIDENT);
    }
    /* never past the most blocks a launch has */
    assert_int_equal(cured_reduce_default_grid(CURED_OP_SUM, CURED_F32, (uint64_t)1 << 31,
                                               CURED_REDUCE_BLOCK, 2000, SMS),
                     CURED_REDUCE_MAX_BLOCKS);
}

/* One trip covers n up to 64 bytes a thread of the grid, and not one
 * element more; the default grid is one trip a thread up to the resident
 * blocks (and uncapped below 4 MiB), so the default shape takes the
 * one-trip kernel for every n = 2^k below 4 MiB on an H200, and the
 * general one at 1 GiB. */
static void test_one_trip(void **state)
{
    (void)state;
    for (int i = 0; i < 4; i++) {
        uint64_t per_thread = 64 / cured_dtype_size(floats[i]);
        assert_true(cured_reduce_one_trip(floats[i], 0, 1, 32));
        assert_true(cured_reduce_one_trip(floats[i], 32 * per_thread, 1, 32));
        assert_false(cured_reduce_one_trip(floats[i], 32 * per_thread + 1, 1, 32));
        assert_true(cured_reduce_one_trip(floats[i], 7 * 256 * per_thread, 7, 256));
        assert_false(cured_reduce_one_trip(floats[i], 7 * 256 * per_thread + 1, 7, 256));
        /* 4096 blocks of 1024 threads: the products do not wrap */
        assert_true(cured_reduce_one_trip(floats[i], (uint64_t)4096 * 1024 * per_thread,
                                          4096, 1024));
        for (uint64_t n = 1; n * cured_dtype_size(floats[i]) < ((uint64_t)4 << 20); n *= 2) {
            cured_reduce_shape s = shape_of(CURED_OP_SUM, floats[i], n, 16);
            assert_true(cured_reduce_one_trip(floats[i], n, s.grid, s.block));
        }
        uint64_t big = ((uint64_t)1 << 30) / cured_dtype_size(floats[i]);
        cured_reduce_shape s = shape_of(CURED_OP_SUM, floats[i], big, 16);
        assert_false(cured_reduce_one_trip(floats[i], big, s.grid, s.block));
    }
    assert_false(cured_reduce_one_trip((cured_dtype)CURED_DTYPE_COUNT, 1, 1, 32));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_exact_float_sums_cluster),
        cmocka_unit_test(test_full_cluster_from_64_kib),
        cmocka_unit_test(test_small_sums),
        cmocka_unit_test(test_one_block_below_64_kib),
        cmocka_unit_test(test_f32_cluster_of_512_threads),
        cmocka_unit_test(test_cluster_limits),
        cmocka_unit_test(test_other_kernels_without_clusters),
        cmocka_unit_test(test_check_shape_cluster),
        cmocka_unit_test(test_one_trip),
        cmocka_unit_test(test_three_waves_from_2_gib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
