/* test_ref_fill.c - the seeded fill: splitmix64's outputs, a pure function
 * of (seed, index), the ranges and grids of every dtype, the sparse kind.
 *
 *   ctest --test-dir build -R test_ref_fill --output-on-failure
 */
#include "ref_fill.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* splitmix64 as it is usually written: a state stepped by the golden
 * ratio, each output the finalizer of the new state. */
static uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void test_bits_are_splitmix64_outputs(void **state)
{
    (void)state;
    /* splitmix64's published first output from state 0 */
    assert_true(cured_ref_random_bits(0, 0) == 0xe220a8397b1dcdafull);
    static const uint64_t seeds[] = {0, 1, 42, 0xdeadbeefcafef00dull, UINT64_MAX};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        uint64_t st = seeds[s];
        for (uint64_t i = 0; i < 1000; i++)
            assert_true(cured_ref_random_bits(seeds[s], i) == splitmix64_next(&st));
    }
}

/* Element i alone is element i of the buffer: what lets a GPU thread make
 * it, and a shorter fill be a prefix of a longer one. */
static void test_elements_are_a_pure_function_of_seed_and_index(void **state)
{
    (void)state;
    enum { N = 5000 };
    static const cured_dtype dtypes[] = {CURED_F32, CURED_F64, CURED_I32,
                                         CURED_I64, CURED_U32, CURED_U64};
    uint8_t *a = malloc(N * 8), *b = malloc(N * 8), *c = malloc(N * 8);
    assert_true(a != NULL && b != NULL && c != NULL);
    for (size_t d = 0; d < 6; d++) {
        size_t es = dtypes[d] == CURED_F32 || dtypes[d] == CURED_I32 ||
                    dtypes[d] == CURED_U32 ? 4 : 8;
        cured_ref_fill f = cured_ref_fill_standard(9);
        assert_int_equal(cured_ref_fill_buffer(&f, dtypes[d], a, N), 0);
        assert_int_equal(cured_ref_fill_buffer(&f, dtypes[d], b, N / 3), 0);
        assert_memory_equal(a, b, (N / 3) * es);
        for (uint64_t i = N; i-- > 0;) {
            uint8_t e[8];
            assert_int_equal(cured_ref_fill_element(&f, dtypes[d], i, e), 0);
            assert_memory_equal(e, a + i * es, es);
        }
        f.seed = 10;
        cured_ref_fill_buffer(&f, dtypes[d], c, N);
        assert_memory_not_equal(a, c, N * es);
    }
    cured_ref_fill f = cured_ref_fill_standard(1);
    assert_int_equal(cured_ref_fill_buffer(&f, CURED_DTYPE_COUNT, a, 1), -1);
    free(a);
    free(b);
    free(c);
}

static void test_standard_floats_are_exact_and_uniform_in_half_open_half(void **state)
{
    (void)state;
    enum { N = 100000 };
    cured_ref_fill f = cured_ref_fill_standard(3);
    double mean32 = 0, mean64 = 0, lo = 1, hi = -1;
    long zeros = 0;
    for (uint64_t i = 0; i < N; i++) {
        float x = cured_ref_fill_f32(&f, i);
        double y = cured_ref_fill_f64(&f, i);
        assert_true(x >= -0.5f && x < 0.5f);
        assert_true(y >= -0.5 && y < 0.5);
        assert_true(ldexp(x, 24) == floor(ldexp(x, 24)));   /* grid 2^-24 */
        assert_true(ldexp(y, 53) == floor(ldexp(y, 53)));   /* grid 2^-53 */
        /* the same random bits: the f32 value is the f64 one cut to 24 bits */
        assert_true(x == (float)(floor(ldexp(y + 0.5, 24)) * 0x1p-24 - 0.5));
        mean32 += x;
        mean64 += y;
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
        zeros += x == 0;
    }
    assert_true(fabs(mean32 / N) < 0.005 && fabs(mean64 / N) < 0.005);
    assert_true(lo < -0.4999 && hi > 0.4999);
    assert_true(zeros < 10);
}

static void test_standard_integers_are_small_and_hit_both_ends(void **state)
{
    (void)state;
    enum { N = 4096 };
    cured_ref_fill f = cured_ref_fill_standard(1);
    int seen_signed[16] = {0}, seen_unsigned[16] = {0};
    for (uint64_t i = 0; i < N; i++) {
        int64_t s = cured_ref_fill_signed(&f, i);
        uint64_t u = cured_ref_fill_unsigned(&f, i);
        assert_true(s >= -8 && s < 8);
        assert_true(u < 16);
        /* the same 4 random bits: signed = unsigned - 8 */
        assert_true(s == (int64_t)u - 8);
        seen_signed[s + 8] = 1;
        seen_unsigned[u] = 1;
    }
    for (int v = 0; v < 16; v++)
        assert_true(seen_signed[v] && seen_unsigned[v]);
}

/* int_bits = 64 makes every bit random, in every width; 1 gives -1 and 0. */
static void test_integer_bits_choose_the_range(void **state)
{
    (void)state;
    enum { N = 2000 };
    cured_ref_fill f = {.kind = CURED_REF_FILL_UNIFORM, .seed = 5, .int_bits = 64};
    int top64 = 0, top32 = 0, negative = 0;
    for (uint64_t i = 0; i < N; i++) {
        uint64_t u = cured_ref_fill_unsigned(&f, i);
        int64_t s = cured_ref_fill_signed(&f, i);
        assert_true(u == cured_ref_random_bits(5, i));
        assert_true((uint64_t)s == (u ^ 0x8000000000000000ull)); /* u - 2^63 */
        top64 += (int)(u >> 63);
        top32 += (int)((u >> 31) & 1);
        negative += s < 0;
    }
    assert_true(top64 > N / 3 && top64 < 2 * N / 3);
    assert_true(top32 > N / 3 && top32 < 2 * N / 3);
    assert_true(negative > N / 3 && negative < 2 * N / 3);
    f.int_bits = 1;
    int count[2] = {0, 0};
    for (uint64_t i = 0; i < N; i++) {
        int64_t s = cured_ref_fill_signed(&f, i);
        assert_true(s == -1 || s == 0);
        count[s + 1]++;
        assert_true(cured_ref_fill_unsigned(&f, i) <= 1);
    }
    assert_true(count[0] > N / 3 && count[1] > N / 3);
}

static void test_sparse_values_are_small_integers_at_the_asked_density(void **state)
{
    (void)state;
    enum { N = 200000 };
    cured_ref_fill f = {.kind = CURED_REF_FILL_SPARSE, .seed = 11, .sparsity = 8,
                        .max_magnitude = 4};
    long nonzero = 0, by_size[5] = {0}, negative = 0;
    for (uint64_t i = 0; i < N; i++) {
        float x = cured_ref_fill_f32(&f, i);
        assert_true(x == (float)cured_ref_fill_f64(&f, i));
        assert_true(x == (float)cured_ref_fill_signed(&f, i));
        assert_true(x == floorf(x) && fabsf(x) <= 4);
        if (x != 0) {
            nonzero++;
            by_size[(int)fabsf(x)]++;
            negative += x < 0;
        }
    }
    assert_true(nonzero > N / 8 * 0.9 && nonzero < N / 8 * 1.1);
    for (int m = 1; m <= 4; m++)
        assert_true(by_size[m] > nonzero / 4 * 0.9 && by_size[m] < nonzero / 4 * 1.1);
    assert_true(negative > nonzero * 0.45 && negative < nonzero * 0.55);
    /* unsigned types hold the two's complement */
    for (uint64_t i = 0; i < 100; i++)
        assert_true(cured_ref_fill_unsigned(&f, i) == (uint64_t)cured_ref_fill_signed(&f, i));
    /* sparsity 1, magnitude 1: every value +-1 */
    f.sparsity = 1;
    f.max_magnitude = 1;
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(fabs(cured_ref_fill_f64(&f, i)) == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_are_splitmix64_outputs),
        cmocka_unit_test(test_elements_are_a_pure_function_of_seed_and_index),
        cmocka_unit_test(test_standard_floats_are_exact_and_uniform_in_half_open_half),
        cmocka_unit_test(test_standard_integers_are_small_and_hit_both_ends),
        cmocka_unit_test(test_integer_bits_choose_the_range),
        cmocka_unit_test(test_sparse_values_are_small_integers_at_the_asked_density),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
