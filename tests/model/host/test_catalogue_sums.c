/* test_catalogue_sums.c - every catalogue kernel sums right in the model:
 * the whole launch plan libcured's dispatch makes on an H200, run from the
 * embedded catalogue PTX on fresh random inputs, against a C reference.
 *
 *   ctest --test-dir build -R test_catalogue_sums --output-on-failure
 *   CURED_TEST_SEED=S build/tests/model/catalogue/test_catalogue_sums
 *
 * What runs: the 13 kernels at blocks 32, 64, 256 and n = 0, 1, 31, 33,
 * 1000, 5000, 70001 (multi-block grids, n not a power of two), for i32
 * (exact, modulo 2^32) and f32 (within the proven bound of the plan's
 * order of summation, src/reference), f32 again on integer-valued data
 * (exact), i64 and u64 at n = 5000, and i32 and f32 at 70001 on a small
 * device whose capped grids loop: 949 plans, about 4 s on one core;
 * then every kernel on d_in + 1 (not 16-byte aligned) gives the bits of
 * an aligned input.
 * Each run checks: every launch completed; no error finding, and no hazard
 * either except the unroll_warp exhibit's shared-memory race, which must be
 * reported; nothing written past *out; the scratch's state area zero again
 * (single_pass re-armed its counter); the value; single_pass's bits equal
 * two_pass's; the first launch is the one `cured model KERNEL` runs. Plus:
 * the embedded PTX has an entry for every kernel, dtype and (unrolled,
 * multi_elem) block size, with the parameters docs/kernels.md gives.
 *
 * The seed comes from the clock unless CURED_TEST_SEED is set; it is
 * printed first and on every failure. Skipped (77) without embedded PTX.
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model_host.h"
#include "catalogue_ptx.h"
#include "dispatch.h"
#include "ptx.h"
#include "ref_sum.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

/* The H200's shape, the model's default device. */
static const cured_device_shape *h200(void)
{
    return &cured_device_preset_find("h200")->shape;
}

static const uint64_t sizes[] = {0, 1, 31, 33, 1000, 5000, 70001};
static const int blocks[] = {32, 64, 256};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t base_seed;

// ----------------------------------------------------------------------------
// Setup

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CURED_TEST_SEED, or the clock. */
static uint64_t pick_seed(void)
{
    const char *env = getenv("CURED_TEST_SEED");
    if (env != NULL && *env != '\0')
        return strtoull(env, NULL, 0);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec;
}

/* Parses the embedded catalogue PTX into *state; skips the whole group
 * when the build has none. */
static int parse_catalogue(void **state)
{
    size_t len;
    const char *text = cured_model_catalogue_ptx(&len);
    if (text == NULL) {
        print_message("no embedded catalogue PTX in this build: skipped\n");
        exit(77);
    }
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, len, &err);
    if (m == NULL) {
        print_message("catalogue.ptx: line %u: %s\n", err.line, err.message);
        return -1;
    }
    *state = m;
    return 0;
}

static int free_catalogue(void **state)
{
    cured_model_module_free(*state);
    return 0;
}

// ----------------------------------------------------------------------------
// The catalogue is complete

/* The size in bytes of each parameter of `kernel` (docs/kernels.md):
 * returns the count. */
static int param_sizes(int kernel, uint8_t *sizes_out)
{
    const cured_kernel_info *info = cured_catalogue_entry(kernel);
    int count = strcmp(info->name, "single_pass") == 0 ? 5 : 3;
    for (int i = 0; i < count; i++)
        sizes_out[i] = 8;
    if (info->level == CURED_LEVEL_BLOCK)
        sizes_out[2] = 4; /* unsigned n */
    return count;
}

static int has_block_instances(const char *name)
{
    return strcmp(name, "unrolled") == 0 || strcmp(name, "multi_elem") == 0;
}

static void test_every_kernel_has_its_entries(void **state)
{
    const cured_model_module *m = *state;
    int checked = 0;
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const char *name = cured_catalogue_entry(k)->name;
        for (int d = 0; d < CURED_CATALOGUE_DTYPES; d++) {
            const char *dtype = cured_dtype_name((cured_dtype)d);
            for (int b = 32; b <= 1024; b *= 2) {
                if (cured_dispatch_check_shape(k, (cured_dtype)d, 1, b) != CURED_SUCCESS)
                    fail_msg("dispatch rejects %s %s %d", name, dtype, b);
                char entry[256], want[16];
                int rc = cured_model_catalogue_entry_name(m, name, dtype, b, entry, sizeof entry);
                if (rc != CURED_MODEL_CATALOGUE_OK)
                    fail_msg("no entry for %s %s block %d (%d)", name, dtype, b, rc);
                int fn = cured_model_find_function(m, entry);
                assert_true(fn >= 0);
                const ptx_function *f = &m->functions[fn];
                assert_true(f->is_entry && f->has_body);
                snprintf(want, sizeof want, "Lj%dE", b); /* unrolled_kernel<T, b> */
                if (has_block_instances(name) != (strstr(entry, want) != NULL))
                    fail_msg("%s %s block %d found %s", name, dtype, b, entry);
                uint8_t size[5];
                int count = param_sizes(k, size);
                assert_int_equal(f->nparams, count);
                for (int i = 0; i < count; i++)
                    assert_int_equal(m->symbols[f->params[i]].size, size[i]);
                checked++;
            }
        }
    }
    assert_int_equal(checked, 13 * CURED_CATALOGUE_DTYPES * 6);
    assert_int_equal(cured_catalogue_count(), 13);
}

// ----------------------------------------------------------------------------
// The sums

/* The inputs, src/reference's seeded fill: "random" floats uniform in
 * [-0.5, 0.5) and integers with every bit random (so sums wrap); "exact"
 * integers +-1..4 as floats, every partial sum of at most 2^22 of them
 * exact in f32, so the result must be the exact sum to the bit. */
static cured_ref_fill make_fill(int exact, uint64_t seed)
{
    cured_ref_fill f = cured_ref_fill_standard(seed);
    if (exact) {
        f.kind = CURED_REF_FILL_SPARSE;
        f.sparsity = 1;
        f.max_magnitude = 4;
    } else {
        f.int_bits = 64;
    }
    return f;
}

typedef struct sweep {
    const cured_model_module *m;
    const cured_device_shape *dev; /* NULL: the H200 preset */
    cured_dtype dtype;
    int exact;                     /* the data: 0 random, 1 exact (see make_fill) */
    const char *kind_name;
    long runs, failures, launches;
    uint64_t thread_instructions;
} sweep;

static void report(sweep *s, const char *kernel, uint64_t n, int block,
                   const char *what)
{
    s->failures++;
    print_message("FAIL %s dtype=%s data=%s n=%llu block=%d: %s "
                  "(rerun: CURED_TEST_SEED=%llu)\n", kernel,
                  cured_dtype_name(s->dtype), s->kind_name, (unsigned long long)n,
                  block, what, (unsigned long long)base_seed);
}

/* The findings a correct run of kernel k may have: none, except for the
 * unroll_warp exhibit (is_exhibit in the catalogue), which must report its tail's shared race (and only that)
 * whenever it launched. Returns 1 when r's findings are those. */
static int findings_as_expected(sweep *s, int k, uint64_t n, int block,
                                const cured_model_plan_result *r)
{
    const char *kernel = cured_catalogue_entry(k)->name;
    int exhibit = cured_catalogue_entry(k)->is_exhibit;
    int races = 0, ok = 1;
    char msg[400];
    for (int i = 0; i < r->findings.count; i++) {
        const cured_model_finding *f = &r->findings.items[i];
        if (exhibit && f->kind == CURED_MODEL_FIND_RACE_SHARED && f->severity == CURED_MODEL_HAZARD) {
            races++;
            continue;
        }
        snprintf(msg, sizeof msg, "%s finding: %s: %s",
                 f->severity == CURED_MODEL_ERROR ? "error" : "hazard",
                 cured_model_finding_kind_name(f->kind), f->message);
        report(s, kernel, n, block, msg);
        ok = 0;
    }
    if (exhibit && r->plan.launches > 0 && races == 0) {
        report(s, kernel, n, block, "the exhibit's shared race was not reported");
        ok = 0;
    }
    return ok;
}

/* `cured model KERNEL --n N --block B` runs the plan's first launch: the
 * same grid, block and dynamic shared memory as the H200 preset's plan. */
static int first_launch_is_the_clis(int kernel, cured_dtype dtype, uint64_t n,
                                    int block, const cured_plan *plan)
{
    cured_model_catalogue_launch cli;
    char err[160];
    if (n == 0)
        return 1;
    if (cured_model_catalogue_launch_make(kernel, dtype, n, block, 1, h200(), &cli, err,
                                          sizeof err) != 0)
        return 0;
    const cured_launch *l = &plan->launch[0];
    return cli.grid.x == l->grid && cli.block.x == (uint32_t)l->block &&
           cli.dynamic_shared == l->shared_bytes;
}

/* Runs kernel's plan over `in` and checks everything (see the file's
 * header). two_pass_value holds two_pass's result for this input and block
 * (two_pass runs before single_pass, in catalogue order), which
 * single_pass must equal bit for bit. */
static void run_one(sweep *s, int kernel, const void *in, uint64_t n, int block,
                    const cured_ref_sum *ref, uint8_t *two_pass_value)
{
    const char *name = cured_catalogue_entry(kernel)->name;
    size_t es = cured_dtype_size(s->dtype);
    cured_model_plan_result r;
    char msg[512];
    s->runs++;
    const cured_device_shape *dev = s->dev != NULL ? s->dev : h200();
    if (cured_model_plan_run_catalogue(s->m, kernel, s->dtype, in, n, block, dev, &r) != 0) {
        report(s, name, n, block, r.error);
        cured_model_plan_result_clear(&r);
        return;
    }
    s->launches += r.launches_run;
    s->thread_instructions += r.thread_instructions;
    int ok = findings_as_expected(s, kernel, n, block, &r);
    if (!r.completed || r.launches_run != r.plan.launches) {
        snprintf(msg, sizeof msg, "ran %d of %d launches", r.launches_run,
                 r.plan.launches);
        report(s, name, n, block, msg);
        ok = 0;
    }
    if (r.wrote_past_out) {
        report(s, name, n, block, "wrote past *out");
        ok = 0;
    }
    if (r.state_dirty) {
        report(s, name, n, block, "scratch state area not zero after the run");
        ok = 0;
    }
    if (s->dev == NULL && !first_launch_is_the_clis(kernel, s->dtype, n, block, &r.plan)) {
        report(s, name, n, block, "the first launch differs from `cured model`'s");
        ok = 0;
    }
    uint64_t h = cured_catalogue_chain_length(kernel, &r.plan);
    if (ok && !cured_ref_sum_check(ref, r.value, h, msg, sizeof msg)) {
        report(s, name, n, block, msg);
        ok = 0;
    }
    if (strcmp(name, "two_pass") == 0)
        memcpy(two_pass_value, r.value, es);
    if (ok && strcmp(name, "single_pass") == 0 && memcmp(two_pass_value, r.value, es) != 0)
        report(s, name, n, block, "not two_pass's bits");
    cured_model_plan_result_clear(&r);
}

/* Every kernel at every block of `blocks_used` over fresh inputs of each
 * size in `ns`; prints the totals, asserts no failure. */
static void run_sweep(sweep *s, const uint64_t *ns, size_t nn,
                      const int *bs, size_t nb)
{
    double start = now();
    size_t es = cured_dtype_size(s->dtype);
    for (size_t i = 0; i < nn; i++) {
        uint64_t n = ns[i];
        void *in = malloc(n * es + 1);
        assert_non_null(in);
        uint64_t seed = base_seed ^ (n * 0x9e3779b97f4a7c15ull) ^
                        ((uint64_t)s->dtype << 56) ^ ((uint64_t)s->exact << 48);
        cured_ref_fill fill = make_fill(s->exact, seed);
        assert_int_equal(cured_ref_fill_buffer(&fill, s->dtype, in, n), 0);
        cured_ref_sum ref;
        assert_int_equal(cured_ref_sum_of(s->dtype, in, n, &ref), 0);
        if (s->exact)
            assert_true(cured_ref_sum_bound(&ref, n) == 0);
        for (size_t b = 0; b < nb; b++) {
            uint8_t two_pass_value[8] = {0};
            for (int k = 0; k < cured_catalogue_count(); k++)
                run_one(s, k, in, n, bs[b], &ref, two_pass_value);
        }
        free(in);
    }
    print_message("%s %s%s: %ld runs, %ld launches, %.0f M thread-instructions, "
                  "%.2f s, %ld failed (seed %llu)\n", cured_dtype_name(s->dtype),
                  s->kind_name, s->dev != NULL ? " (small device)" : "", s->runs, s->launches,
                  (double)s->thread_instructions / 1e6, now() - start, s->failures,
                  (unsigned long long)base_seed);
    assert_int_equal(s->failures, 0);
}

static void test_i32_sums_exactly(void **state)
{
    sweep s = {.m = *state, .dtype = CURED_I32, .kind_name = "random"};
    run_sweep(&s, sizes, COUNT(sizes), blocks, COUNT(blocks));
}

static void test_f32_sums_within_the_bound(void **state)
{
    sweep s = {.m = *state, .dtype = CURED_F32, .kind_name = "random"};
    run_sweep(&s, sizes, COUNT(sizes), blocks, COUNT(blocks));
}

/* Integer-valued floats with sum|x| <= 2^24: every order of summation is
 * exact, so a lost or doubled element shows, however small. */
static void test_f32_sums_integers_exactly(void **state)
{
    sweep s = {.m = *state, .dtype = CURED_F32, .exact = 1, .kind_name = "exact"};
    run_sweep(&s, sizes, COUNT(sizes), blocks, COUNT(blocks));
}

static void test_i64_sums_exactly(void **state)
{
    static const uint64_t one_size[] = {5000};
    sweep s = {.m = *state, .dtype = CURED_I64, .kind_name = "random"};
    run_sweep(&s, one_size, 1, blocks, COUNT(blocks));
}

static void test_u64_sums_exactly(void **state)
{
    static const uint64_t one_size[] = {5000};
    sweep s = {.m = *state, .dtype = CURED_U64, .kind_name = "random"};
    run_sweep(&s, one_size, 1, blocks, COUNT(blocks));
}

/* A device of 2 multiprocessors: the grids of multi_elem, shuffle,
 * shuffle_wide and the grid level hit their cap of resident blocks at small
 * n, so their threads loop (at 70001 values and B = 32, 64 blocks:
 * multi_elem's and shuffle's threads take 18 trips of two elements,
 * thread_sum's two trips of four wide vectors and one more vector), which
 * the H200's grids do only past millions of values.
 */
static void test_looping_grids_sum_right(void **state)
{
    static const cured_device_shape small = {2, 2048, 32};
    static const uint64_t one_size[] = {70001};
    static const int two_blocks[] = {32, 256};
    sweep i = {.m = *state, .dev = &small, .dtype = CURED_I32, .kind_name = "random"};
    run_sweep(&i, one_size, 1, two_blocks, COUNT(two_blocks));
    sweep f = {.m = *state, .dev = &small, .dtype = CURED_F32, .kind_name = "random"};
    run_sweep(&f, one_size, 1, two_blocks, COUNT(two_blocks));
}

/* A caller's d_in + 1 is not 16-byte aligned: thread_sum (load.cuh) then
 * reads the same wide vectors element by element, so every kernel must
 * give the bits it gives on an aligned input, with no finding. */
static void test_misaligned_input_gives_the_same_bits(void **state)
{
    static const cured_dtype dtypes[] = {CURED_I32, CURED_F32};
    static const uint64_t ns[] = {5000, 70001};
    static const int bs[] = {32, 256};
    const cured_model_module *m = *state;
    int compared = 0;
    for (size_t d = 0; d < COUNT(dtypes); d++) {
        size_t es = cured_dtype_size(dtypes[d]);
        for (size_t i = 0; i < COUNT(ns); i++) {
            void *in = malloc(ns[i] * es);
            assert_non_null(in);
            cured_ref_fill fill = make_fill(0, base_seed + ns[i]);
            cured_ref_fill_buffer(&fill, dtypes[d], in, ns[i]);
            for (size_t b = 0; b < COUNT(bs); b++) {
                for (int k = 0; k < cured_catalogue_count(); k++) {
                    cured_model_plan_result aligned, shifted;
                    assert_int_equal(cured_model_plan_run_catalogue_at(m, k, dtypes[d], in, ns[i], 0,
                                                               bs[b], h200(),
                                                               &aligned), 0);
                    assert_int_equal(cured_model_plan_run_catalogue_at(m, k, dtypes[d], in, ns[i], es,
                                                               bs[b], h200(),
                                                               &shifted), 0);
                    assert_true(aligned.completed && shifted.completed);
                    if (!cured_catalogue_entry(k)->is_exhibit)
                        assert_int_equal(shifted.findings.count, 0);
                    if (memcmp(aligned.value, shifted.value, es) != 0)
                        fail_msg("%s %s n=%llu block=%d: d_in + 1 gives other bits "
                                 "(CURED_TEST_SEED=%llu)", cured_catalogue_entry(k)->name,
                                 cured_dtype_name(dtypes[d]), (unsigned long long)ns[i],
                                 bs[b], (unsigned long long)base_seed);
                    compared++;
                    cured_model_plan_result_clear(&aligned);
                    cured_model_plan_result_clear(&shifted);
                }
            }
            free(in);
        }
    }
    assert_int_equal(compared, 2 * 2 * 2 * 13);
}

int main(void)
{
    base_seed = pick_seed();
    printf("seed %llu (CURED_TEST_SEED=%llu reruns these inputs)\n",
           (unsigned long long)base_seed, (unsigned long long)base_seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel_has_its_entries),
        cmocka_unit_test(test_i32_sums_exactly),
        cmocka_unit_test(test_f32_sums_within_the_bound),
        cmocka_unit_test(test_f32_sums_integers_exactly),
        cmocka_unit_test(test_i64_sums_exactly),
        cmocka_unit_test(test_u64_sums_exactly),
        cmocka_unit_test(test_looping_grids_sum_right),
        cmocka_unit_test(test_misaligned_input_gives_the_same_bits),
    };
    return cmocka_run_group_tests(tests, parse_catalogue, free_catalogue);
}
