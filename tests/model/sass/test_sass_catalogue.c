/* test_sass_catalogue.c - the model's counts of the catalogue's block-level
 * kernels, following their SASS, equal what Nsight Compute measured on the
 * H200.
 *
 *   ctest --test-dir build -R test_sass_catalogue
 *
 * The reference is measured, not derived: docs/data/ncu-2026-11-30.csv
 * (ncu 2025.3, `--clock-control none`, the first launch of each kernel, f32,
 * n = 64 in one block of 64 threads and n = 100000 in blocks of 256 with the
 * grid ncu reported). The kernels are the f32 instances in
 * fixtures/classic_f32.ptx, cut from src/kernels/classic.cu (unchanged
 * since that measurement), and fixtures/classic_f32.sass is their SASS
 * (fixtures/regen.sh). Every metric of the csv is compared: shared
 * load/store instructions, wavefronts and bank conflicts, global load/store
 * sectors, global load requests and instructions, global store
 * instructions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sass_fixture.h"

#include <stdlib.h>
#include <string.h>

/* One row of docs/data/ncu-2026-11-30.csv. */
typedef struct measured {
    const char *kernel;      /* the csv's name */
    const char *entry;       /* the f32 instance for that block size */
    uint32_t n, block, grid;
    uint64_t v[11];          /* the csv's metrics, in its column order */
} measured;

/* The csv's metric columns, as the model's counters. */
static const cured_model_counter columns[11] = {
    CURED_MODEL_CTR_SHARED_LD, CURED_MODEL_CTR_SHARED_ST,
    CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS,
    CURED_MODEL_CTR_SHARED_LD_CONFLICTS, CURED_MODEL_CTR_SHARED_ST_CONFLICTS,
    CURED_MODEL_CTR_GLOBAL_LD_SECTORS, CURED_MODEL_CTR_GLOBAL_ST_SECTORS,
    CURED_MODEL_CTR_GLOBAL_LD_REQUESTS, CURED_MODEL_CTR_GLOBAL_LD, CURED_MODEL_CTR_GLOBAL_ST,
};

#define DIV "_Z16divergent_kernelIfEvPKT_PS0_j"
#define STR "_Z14strided_kernelIfEvPKT_PS0_j"
#define SEQ "_Z17sequential_kernelIfEvPKT_PS0_j"
#define FA "_Z16first_add_kernelIfEvPKT_PS0_j"
#define UW "_Z18unroll_warp_kernelIfEvPKT_PS0_j"
#define UWS "_Z23unroll_warp_sync_kernelIfEvPKT_PS0_j"
#define UN64 "_Z15unrolled_kernelIfLj64EEvPKT_PS0_j"
#define UN256 "_Z15unrolled_kernelIfLj256EEvPKT_PS0_j"
#define ME64 "_Z17multi_elem_kernelIfLj64EEvPKT_PS0_j"
#define ME256 "_Z17multi_elem_kernelIfLj256EEvPKT_PS0_j"

/* docs/data/ncu-2026-11-30.csv, the block-level kernels' rows. */
static const measured rows[] = {
    {"divergent", DIV, 100000, 256, 391,
     {50439, 28152, 37145, 21505, 0, 0, 12500, 391, 3125, 3128, 391}},
    {"divergent", DIV, 64, 64, 1, {25, 14, 23, 13, 0, 0, 8, 1, 2, 2, 1}},
    {"strided", STR, 100000, 256, 391,
     {50439, 28152, 37145, 21505, 27370, 13685, 12500, 391, 3125, 3128, 391}},
    {"strided", STR, 64, 64, 1, {25, 14, 23, 13, 10, 5, 8, 1, 2, 2, 1}},
    {"sequential", SEQ, 100000, 256, 391,
     {50439, 28152, 9775, 7820, 0, 0, 12500, 391, 3125, 3128, 391}},
    {"sequential", SEQ, 64, 64, 1, {25, 14, 13, 8, 0, 0, 8, 1, 2, 2, 1}},
    {"first_add", FA, 100000, 256, 196,
     {25284, 14112, 4900, 3920, 0, 0, 12500, 196, 3125, 3136, 196}},
    {"first_add", FA, 64, 64, 1, {25, 14, 13, 8, 0, 0, 8, 1, 2, 4, 1}},
    {"unroll_warp", UW, 100000, 256, 196,
     {8820, 7448, 4900, 3920, 0, 0, 12500, 196, 3125, 3136, 196}},
    {"unroll_warp", UW, 64, 64, 1, {13, 10, 13, 8, 0, 0, 8, 1, 2, 4, 1}},
    {"unroll_warp_sync", UWS, 100000, 256, 196,
     {7644, 7448, 3724, 3920, 0, 0, 12500, 196, 3125, 3136, 196}},
    {"unroll_warp_sync", UWS, 64, 64, 1, {7, 10, 7, 8, 0, 0, 8, 1, 2, 4, 1}},
    {"unrolled", UN256, 100000, 256, 196,
     {7644, 5880, 3724, 3920, 0, 0, 12500, 196, 3125, 3136, 196}},
    {"unrolled", UN64, 64, 64, 1, {7, 8, 7, 8, 0, 0, 8, 1, 2, 4, 1}},
    {"multi_elem", ME256, 100000, 256, 196,
     {7644, 5880, 3724, 3920, 0, 0, 12500, 196, 3125, 3130, 196}},
    {"multi_elem", ME64, 64, 64, 1, {7, 8, 7, 8, 0, 0, 8, 1, 2, 4, 1}},
};

typedef struct fixture {
    cured_model_module *ptx;
    sass_module *sass;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ptx = fixture_ptx("classic_f32.ptx");
    f->sass = fixture_sass("classic_f32.sass");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cured_model_module_free(f->ptx);
    sass_module_free(f->sass);
    free(f);
    return 0;
}

/* The launch of a row: dynamic shared max(B, 64) floats, as the catalogue
 * sizes it (B for the first four kernels, which is the same for B >= 64). */
static fixture_launch launch_of(const measured *r)
{
    fixture_launch l = {r->entry, r->grid, r->block,
                        (r->block < 64 ? 64 : r->block) * 4, r->n, 0};
    return l;
}

/* Runs both rows of `kernel` and compares every metric. */
static void check_kernel(void **state, const char *kernel)
{
    fixture *f = *state;
    int ran = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const measured *r = &rows[i];
        if (strcmp(r->kernel, kernel) != 0)
            continue;
        fixture_launch l = launch_of(r);
        cured_model_counters *c = fixture_run(f->ptx, f->sass, &l, NULL);
        int differ = 0;
        for (int k = 0; k < 11; k++) {
            uint64_t got = cured_model_counters_total(c, columns[k]);
            if (got != r->v[k]) {
                print_error("%s n=%u: %s: model %llu, ncu %llu\n", kernel, r->n,
                            cured_model_counter_describe(columns[k])->metric,
                            (unsigned long long)got, (unsigned long long)r->v[k]);
                differ = 1;
            }
        }
        assert_false(differ);
        cured_model_counters_free(c);
        ran++;
    }
    assert_int_equal(ran, 2);
}

static void test_divergent(void **s) { check_kernel(s, "divergent"); }
static void test_strided(void **s) { check_kernel(s, "strided"); }
static void test_sequential(void **s) { check_kernel(s, "sequential"); }
static void test_first_add(void **s) { check_kernel(s, "first_add"); }
static void test_unroll_warp(void **s) { check_kernel(s, "unroll_warp"); }
static void test_unroll_warp_sync(void **s) { check_kernel(s, "unroll_warp_sync"); }
static void test_unrolled(void **s) { check_kernel(s, "unrolled"); }
static void test_multi_elem(void **s) { check_kernel(s, "multi_elem"); }

/* Without the SASS the model counts what the PTX says: sequential at n = 64
 * issues 13 shared loads and 8 stores (the model's column of the first
 * comparison, docs/data/ncu-vs-model-2026-11-30-run2.txt), because the
 * warp that branches around `sdata[tid] += sdata[tid + s]` issues nothing;
 * in the SASS that branch is gone and the warp issues @!P1 LDS, LDS, STS.
 * Wavefronts are the same either way. */
static void test_ptx_level_differs(void **state)
{
    fixture *f = *state;
    fixture_launch l = launch_of(&rows[5]);
    cured_model_counters *c = fixture_run(f->ptx, NULL, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD), 13);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 13);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 8);
    cured_model_counters_free(c);
}

/* What the matcher found in sequential: 7 accesses (the load of in, the
 * store into shared, the loop's two loads and a store, the final load and
 * the store to out); the loop's three and the guarded global load are
 * predicated; two branches removed (the `i < n ?` and the `tid < s`), each
 * with a skip list. */
static void test_sequential_summary(void **state)
{
    fixture *f = *state;
    fixture_launch l = launch_of(&rows[5]);
    cured_model_sass_summary s;
    cured_model_counters *c = fixture_run(f->ptx, f->sass, &l, &s);
    assert_int_equal(s.functions, 1);
    assert_int_equal(s.memory, 7);
    assert_int_equal(s.predicated, 4);
    assert_int_equal(s.reshaped, 0);
    assert_int_equal(s.removed_branches, 2);
    assert_int_equal(s.skip_lists, 2);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_first_add),
        cmocka_unit_test(test_unroll_warp),
        cmocka_unit_test(test_unroll_warp_sync),
        cmocka_unit_test(test_unrolled),
        cmocka_unit_test(test_multi_elem),
        cmocka_unit_test(test_ptx_level_differs),
        cmocka_unit_test(test_sequential_summary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
