/* test_dispatch.c - the catalogue's dispatch before it touches a device:
 * bad arguments, scratch sizes and launch plans.
 *
 * CPU only: bad input must be refused before any CUDA call, so these pass
 * in the CUDA build on a machine without a GPU as well as without CUDA.
 * Pointers here are fake addresses; nothing may dereference them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cured.h"
#include "dispatch.h"
#include "kernels.h"

#define FAKE_IN ((const void *)(uintptr_t)0x10000)
#define FAKE_OUT ((void *)(uintptr_t)0x20000)
#define FAKE_TEMP ((void *)(uintptr_t)0x30000)
#define BIG_TEMP ((size_t)1 << 40)

/* An H200: 132 multiprocessors, 2048 threads and 32 blocks each. */
static const cured_device_shape h200 = {132, 2048, 32};

static const int blocks[] = {32, 64, 128, 256, 512, 1024};
#define NBLOCKS ((int)(sizeof blocks / sizeof blocks[0]))

static cured_status run(int kernel, cured_dtype dtype, const void *in,
                        uint64_t n, void *out, int block, void *temp,
                        size_t temp_bytes)
{
    return cured_catalogue_run(kernel, dtype, in, n, out, block, temp,
                               temp_bytes, NULL);
}

static void test_kernel_ids_follow_the_catalogue(void **state)
{
    (void)state;
    static const char *names[CURED_K_COUNT] = {
        [CURED_K_DIVERGENT] = "divergent",
        [CURED_K_STRIDED] = "strided",
        [CURED_K_SEQUENTIAL] = "sequential",
        [CURED_K_FIRST_ADD] = "first_add",
        [CURED_K_UNROLL_WARP] = "unroll_warp",
        [CURED_K_UNROLL_WARP_SYNC] = "unroll_warp_sync",
        [CURED_K_UNROLLED] = "unrolled",
        [CURED_K_MULTI_ELEM] = "multi_elem",
        [CURED_K_SHUFFLE] = "shuffle",
        [CURED_K_SHUFFLE_WIDE] = "shuffle_wide",
        [CURED_K_TWO_PASS] = "two_pass",
        [CURED_K_ATOMIC] = "atomic",
        [CURED_K_SINGLE_PASS] = "single_pass",
    };
    assert_int_equal(cured_catalogue_count(), CURED_K_COUNT);
    for (int k = 0; k < CURED_K_COUNT; k++)
        assert_string_equal(cured_catalogue_entry(k)->name, names[k]);
}

static void test_null_pointers(void **state)
{
    (void)state;
    assert_int_equal(run(0, CURED_F32, FAKE_IN, 1000, NULL, 256, FAKE_TEMP, BIG_TEMP),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(run(0, CURED_F32, NULL, 1000, FAKE_OUT, 256, FAKE_TEMP, BIG_TEMP),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(run(0, CURED_F32, NULL, 1, FAKE_OUT, 256, FAKE_TEMP, BIG_TEMP),
                     CURED_ERROR_NULL_POINTER);
    /* d_in may be NULL when n == 0: the next check (block size) answers. */
    assert_int_equal(run(0, CURED_F32, NULL, 0, FAKE_OUT, 48, NULL, 0),
                     CURED_ERROR_INVALID_BLOCK_SIZE);
    /* scratch needed but NULL */
    size_t need = 0;
    assert_int_equal(cured_catalogue_temp_bytes(0, CURED_F32, 1000, 256, &need),
                     CURED_SUCCESS);
    assert_true(need > 0);
    assert_int_equal(run(0, CURED_F32, FAKE_IN, 1000, FAKE_OUT, 256, NULL, need),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_catalogue_temp_bytes(0, CURED_F32, 1000, 256, NULL),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_catalogue_plan(0, CURED_F32, 1000, 256, NULL),
                     CURED_ERROR_NULL_POINTER);
}

static void test_unknown_kernel(void **state)
{
    (void)state;
    int bad[] = {-1, cured_catalogue_count(), 1000};
    size_t bytes = 77;
    cured_plan plan;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run(bad[i], CURED_F32, FAKE_IN, 1000, FAKE_OUT, 256,
                             FAKE_TEMP, BIG_TEMP),
                         CURED_ERROR_UNKNOWN_KERNEL);
        assert_int_equal(cured_catalogue_temp_bytes(bad[i], CURED_F32, 1000, 256, &bytes),
                         CURED_ERROR_UNKNOWN_KERNEL);
        assert_int_equal(cured_catalogue_plan(bad[i], CURED_F32, 1000, 256, &plan),
                         CURED_ERROR_UNKNOWN_KERNEL);
    }
    assert_int_equal(bytes, 77); /* untouched on failure */
}

static void test_invalid_block_sizes(void **state)
{
    (void)state;
    int bad[] = {0, 16, 48, 96, 2048, -32, 1023};
    for (int k = 0; k < cured_catalogue_count(); k++) {
        for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
            size_t bytes;
            assert_int_equal(run(k, CURED_I32, FAKE_IN, 1000, FAKE_OUT, bad[i],
                                 FAKE_TEMP, BIG_TEMP),
                             CURED_ERROR_INVALID_BLOCK_SIZE);
            assert_int_equal(cured_catalogue_temp_bytes(k, CURED_I32, 1000, bad[i], &bytes),
                             CURED_ERROR_INVALID_BLOCK_SIZE);
        }
    }
}

static void test_unsupported_dtype(void **state)
{
    (void)state;
    size_t bytes;
    assert_int_equal(run(0, CURED_DTYPE_COUNT, FAKE_IN, 1000, FAKE_OUT, 256,
                         FAKE_TEMP, BIG_TEMP),
                     CURED_ERROR_UNSUPPORTED_TYPE);
    assert_int_equal(run(9, (cured_dtype)-1, FAKE_IN, 1000, FAKE_OUT, 256,
                         FAKE_TEMP, BIG_TEMP),
                     CURED_ERROR_UNSUPPORTED_TYPE);
    assert_int_equal(cured_catalogue_temp_bytes(0, CURED_DTYPE_COUNT, 10, 256, &bytes),
                     CURED_ERROR_UNSUPPORTED_TYPE);
}

/* Every block-level kernel refuses max_n + 1 (its 32-bit indexes would
 * wrap) and sizes scratch for max_n; the grid-level ones go past 2^32. */
static void test_size_limits(void **state)
{
    (void)state;
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const cured_kernel_info *info = cured_catalogue_entry(k);
        size_t bytes = 0;
        if (info->level == CURED_LEVEL_BLOCK)
            assert_true(info->max_n <= UINT32_MAX);
        else
            assert_true(info->max_n > ((uint64_t)1 << 32) + 5);
        assert_int_equal(run(k, CURED_F32, FAKE_IN, info->max_n + 1, FAKE_OUT, 256,
                             FAKE_TEMP, BIG_TEMP),
                         CURED_ERROR_SIZE_TOO_LARGE);
        assert_int_equal(cured_catalogue_temp_bytes(k, CURED_F32, info->max_n + 1,
                                                    256, &bytes),
                         CURED_ERROR_SIZE_TOO_LARGE);
        assert_int_equal(cured_catalogue_temp_bytes(k, CURED_F32, info->max_n, 32,
                                                    &bytes),
                         CURED_SUCCESS);
    }
}

static void test_temp_too_small(void **state)
{
    (void)state;
    for (int k = 0; k < cured_catalogue_count(); k++) {
        size_t need = 0;
        assert_int_equal(cured_catalogue_temp_bytes(k, CURED_F64, 1 << 20, 128, &need),
                         CURED_SUCCESS);
        if (need == 0) {
            assert_int_equal(k, CURED_K_ATOMIC);
            continue;
        }
        assert_int_equal(run(k, CURED_F64, FAKE_IN, 1 << 20, FAKE_OUT, 128,
                             FAKE_TEMP, need - 1),
                         CURED_ERROR_TEMP_TOO_SMALL);
        assert_int_equal(run(k, CURED_F64, FAKE_IN, 1 << 20, FAKE_OUT, 128,
                             FAKE_TEMP, 0),
                         CURED_ERROR_TEMP_TOO_SMALL);
    }
}

static void test_temp_bytes_values(void **state)
{
    (void)state;
    size_t bytes = 1;
    /* one block's worth: the only launch writes d_out, no scratch */
    assert_int_equal(cured_catalogue_temp_bytes(CURED_K_DIVERGENT, CURED_F32, 256, 256,
                                                &bytes), CURED_SUCCESS);
    assert_int_equal(bytes, 0);
    assert_int_equal(cured_catalogue_temp_bytes(CURED_K_FIRST_ADD, CURED_F32, 512, 256,
                                                &bytes), CURED_SUCCESS);
    assert_int_equal(bytes, 0);
    assert_int_equal(cured_catalogue_temp_bytes(CURED_K_ATOMIC, CURED_F32, 1 << 30, 256,
                                                &bytes), CURED_SUCCESS);
    assert_int_equal(bytes, 0);
    /* single_pass always needs its counter */
    assert_int_equal(cured_catalogue_temp_bytes(CURED_K_SINGLE_PASS, CURED_F32, 1, 256,
                                                &bytes), CURED_SUCCESS);
    assert_int_equal(bytes, CURED_TEMP_STATE_BYTES + 256);
    /* n == 0 needs nothing */
    for (int k = 0; k < cured_catalogue_count(); k++) {
        assert_int_equal(cured_catalogue_temp_bytes(k, CURED_U64, 0, 64, &bytes),
                         CURED_SUCCESS);
        assert_int_equal(bytes, 0);
    }
    /* divergent, 2^20 f32 at 256: 4096 then 16 partials */
    assert_int_equal(cured_catalogue_temp_bytes(CURED_K_DIVERGENT, CURED_F32, 1 << 20,
                                                256, &bytes), CURED_SUCCESS);
    assert_int_equal(bytes, CURED_TEMP_STATE_BYTES + 4096 * 4 + 256);
}

static uint64_t ceil_div_u64(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

/* The plan's invariants for one kernel, n and block size on a device. */
static void check_plan(int k, uint64_t n, int block, const cured_device_shape *dev)
{
    const cured_kernel_info *info = cured_catalogue_entry(k);
    cured_plan plan, worst;
    cured_temp_layout layout;
    size_t need = 0;

    cured_dispatch_plan(k, CURED_F64, n, block, dev, &plan);
    cured_dispatch_plan(k, CURED_F64, n, block, NULL, &worst);
    cured_dispatch_layout(k, CURED_F64, &plan, &layout);
    assert_int_equal(cured_catalogue_temp_bytes(k, CURED_F64, n, block, &need),
                     CURED_SUCCESS);
    assert_true(layout.total <= need);
    assert_true(plan.launches >= 1 && plan.launches <= CURED_MAX_LAUNCHES);
    assert_int_equal(plan.launch[0].n, n);
    for (int i = 0; i < plan.launches; i++) {
        const cured_launch *l = &plan.launch[i];
        /* the caller's block size, but for a last pass of one block, which
         * may be larger (a power of two up to 1024) */
        if (i == 0 || l->grid > 1 || info->level == CURED_LEVEL_GRID) {
            assert_int_equal(l->block, block);
        } else {
            assert_true(l->block >= block && l->block <= 1024);
            assert_int_equal(l->block & (l->block - 1), 0);
            assert_int_equal(i, plan.launches - 1);
        }
        assert_true(l->grid >= 1 && l->grid <= 0x7fffffffu);
        assert_true(l->grid <= worst.launch[i].grid);
        if (i > 0)
            assert_int_equal(l->n, plan.launch[i - 1].grid);
        if (info->level == CURED_LEVEL_BLOCK) {
            /* 32-bit indexes: every tile and stride ends by 2^32; the two
             * that loop keep their grid's threads to the cap */
            uint64_t b = (uint64_t)l->block;
            uint64_t tile = k <= CURED_K_SEQUENTIAL ? b : 2 * b;
            if (k == CURED_K_MULTI_ELEM || k == CURED_K_SHUFFLE ||
                k == CURED_K_SHUFFLE_WIDE) {
                /* multi_elem's and shuffle's i + 2B gridDim.x
                 * (multi_elem_load), shuffle_wide's i + B gridDim.x in its
                 * element loop (its wide loop's indexes count 16 bytes,
                 * n / 2 + 4 B gridDim.x at most: far below) */
                uint64_t stride = (k == CURED_K_SHUFFLE_WIDE ? 1 : 2) * b * l->grid;
                assert_true(l->grid * b <= CURED_GRID_THREADS_MAX);
                assert_true(l->n - 1 + stride <= UINT32_MAX);
            } else {
                assert_true(l->grid * tile <= ((uint64_t)1 << 32));
                assert_true(l->grid == ceil_div_u64(l->n, tile));
            }
            if (l->shared_bytes > 0)
                assert_true(l->shared_bytes >= (size_t)l->block * 8);
        }
    }
    const cured_launch *last = &plan.launch[plan.launches - 1];
    if (info->level == CURED_LEVEL_BLOCK || k == CURED_K_TWO_PASS)
        assert_int_equal(last->grid, 1);
    assert_int_equal(plan.zero_output, k == CURED_K_ATOMIC);
    if (k == CURED_K_SINGLE_PASS || plan.launches > 1)
        assert_int_equal(layout.partials[0], CURED_TEMP_STATE_BYTES);
}

static void test_plans(void **state)
{
    (void)state;
    const uint64_t sizes[] = {1, 31, 33, 1000, (1u << 20) + 7, 1u << 26,
                              4000000000u, UINT32_MAX};
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const cured_kernel_info *info = cured_catalogue_entry(k);
        for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            for (int b = 0; b < NBLOCKS; b++) {
                uint64_t n = sizes[s] > info->max_n ? info->max_n : sizes[s];
                check_plan(k, n, blocks[b], &h200);
                check_plan(k, n, blocks[b], NULL);
            }
        }
        if (info->level == CURED_LEVEL_GRID)
            check_plan(k, ((uint64_t)1 << 32) + 5, 256, &h200);
    }
    cured_plan plan;
    cured_dispatch_plan(CURED_K_ATOMIC, CURED_F32, 0, 256, &h200, &plan);
    assert_int_equal(plan.launches, 0);
    assert_int_equal(plan.zero_output, 1);
    /* two_pass over 2^26 on an H200 at 256: 1056 blocks, then one */
    cured_dispatch_plan(CURED_K_TWO_PASS, CURED_F32, 1u << 26, 256, &h200, &plan);
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[0].grid, 132 * 8);
    /* the longest block-level chain: divergent at 32 over 2^32 - 1, 2^27,
     * 2^22, 2^17, 2^12 and 128 values, the last 128 in one block of 128 */
    cured_dispatch_plan(CURED_K_DIVERGENT, CURED_F32, UINT32_MAX, 32, &h200, &plan);
    assert_int_equal(plan.launches, 6);
    assert_int_equal(plan.launch[5].n, 128);
    assert_int_equal(plan.launch[5].block, 128);
    assert_int_equal(plan.launch[5].shared_bytes, 128 * 4);
    /* the last pass in one block: divergent at 256 over 2^18 leaves 1024
     * partial sums, which one block of 1024 finishes (not 4 blocks, then 1) */
    cured_dispatch_plan(CURED_K_DIVERGENT, CURED_F32, 1u << 18, 256, &h200, &plan);
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[1].block, 1024);
    assert_int_equal(plan.launch[1].grid, 1);
    /* ... and multi_elem's 1056 partial sums at 2^20 take one block of
     * 1024 threads, the unrolled instance for 1024 */
    cured_dispatch_plan(CURED_K_MULTI_ELEM, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[0].grid, 1056);
    assert_int_equal(plan.launch[1].block, 1024);
    assert_int_equal(plan.launch[1].shared_bytes, 1024 * 4);
    /* too many for one block of a fixed tile: a pass at the caller's size */
    cured_dispatch_plan(CURED_K_FIRST_ADD, CURED_F32, 1u << 22, 256, &h200, &plan);
    assert_int_equal(plan.launches, 3);
    assert_int_equal(plan.launch[1].block, 256);
    assert_int_equal(plan.launch[1].grid, 16);
    assert_int_equal(plan.launch[2].block, 256);
    /* shuffle has multi_elem's loads and so its plan: 1056 blocks, then
     * one block of 1024 threads, no dynamic shared memory */
    cured_dispatch_plan(CURED_K_SHUFFLE, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[0].grid, 1056);
    assert_int_equal(plan.launch[0].shared_bytes, 0);
    assert_int_equal(plan.launch[1].grid, 1);
    assert_int_equal(plan.launch[1].block, 1024);
    assert_int_equal(plan.launch[1].shared_bytes, 0);
    cured_dispatch_plan(CURED_K_SHUFFLE, CURED_F32, 100000, 256, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 196); /* ceil(100000 / 512) */
    /* shuffle_wide and the grid level: four 16-byte loads per thread per
     * trip, so a block takes 16 B floats (8 B doubles) a trip */
    cured_dispatch_plan(CURED_K_SHUFFLE_WIDE, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 256);
    cured_dispatch_plan(CURED_K_SHUFFLE_WIDE, CURED_F64, 1u << 20, 256, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 512);
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[1].block, 256);
    cured_dispatch_plan(CURED_K_ATOMIC, CURED_F32, 1000, 64, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 1);
    cured_dispatch_plan(CURED_K_SINGLE_PASS, CURED_I32, 5000, 64, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 5);
    /* the lesson's case stays one block of 64 */
    cured_dispatch_plan(CURED_K_SHUFFLE, CURED_F32, 64, 64, &h200, &plan);
    assert_int_equal(plan.launches, 1);
    assert_int_equal(plan.launch[0].grid, 1);
    assert_int_equal(plan.launch[0].block, 64);
    assert_int_equal(plan.launch[0].shared_bytes, 0);
}

/* The longest chain of additions (chain.c), worked out by hand from the
 * kernels' code for plans on an H200 at B = 256 over 2^20 floats. */
static void test_chain_lengths(void **state)
{
    (void)state;
    cured_plan plan;
    /* multi_elem: 1056 blocks, 270336 threads, ceil(2^20 / 540672) = 2
     * trips of 2, then unrolled's tree of 8 levels (4 + 8); the last pass,
     * 1056 values in one block of 1024: one trip of 2, 10 levels (2 + 10) */
    cured_dispatch_plan(CURED_K_MULTI_ELEM, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(cured_catalogue_chain_length(CURED_K_MULTI_ELEM, &plan), 24);
    /* shuffle: the same loads, then block_sum's tree of log2 B levels, the
     * same depth as unrolled's for B >= 64 */
    cured_dispatch_plan(CURED_K_SHUFFLE, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(cured_catalogue_chain_length(CURED_K_SHUFFLE, &plan), 24);
    /* at B = 32 unrolled's last warp still takes 6 steps, block_sum 5:
     * 2^20 over 4224 blocks of 32 (135168 threads): 4 trips of 2 */
    cured_dispatch_plan(CURED_K_SHUFFLE, CURED_F32, 1u << 20, 32, &h200, &plan);
    assert_int_equal(plan.launch[0].grid, 4224);
    uint64_t first = 2 * 4 + 5;
    /* then 4224 values: a pass at 1024 threads, 3 trips (2 * 3 + 10) */
    assert_int_equal(plan.launches, 2);
    assert_int_equal(plan.launch[1].block, 1024);
    assert_int_equal(cured_catalogue_chain_length(CURED_K_SHUFFLE, &plan), first + 16);
    cured_dispatch_plan(CURED_K_MULTI_ELEM, CURED_F32, 1u << 20, 32, &h200, &plan);
    assert_int_equal(cured_catalogue_chain_length(CURED_K_MULTI_ELEM, &plan),
                     first + 1 + 16);
    /* shuffle_wide: 256 blocks, 65536 threads, ceil(2^20 / 65536) + 5 + 8
     * = 29; its 256 partials in one block of 256: 1 + 5 + 8 = 14 */
    cured_dispatch_plan(CURED_K_SHUFFLE_WIDE, CURED_F32, 1u << 20, 256, &h200, &plan);
    assert_int_equal(cured_catalogue_chain_length(CURED_K_SHUFFLE_WIDE, &plan), 43);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_ids_follow_the_catalogue),
        cmocka_unit_test(test_null_pointers),
        cmocka_unit_test(test_unknown_kernel),
        cmocka_unit_test(test_invalid_block_sizes),
        cmocka_unit_test(test_unsupported_dtype),
        cmocka_unit_test(test_size_limits),
        cmocka_unit_test(test_temp_too_small),
        cmocka_unit_test(test_temp_bytes_values),
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_chain_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
