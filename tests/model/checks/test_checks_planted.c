/* test_checks_planted.c - the planted-bug suite: each check of the model
 * catches a bug planted in a small kernel and is silent on its correct twin,
 * end to end (PTX text -> parser -> interpreter -> checks -> findings).
 *
 *   ctest --test-dir build -R test_checks_planted
 *
 * The kernels are fixtures/NAME.cu, compiled to the committed NAME.ptx
 * with `nvcc -arch=sm_90 -ptx -lineinfo`. The planted statement is marked
 * `PLANTED(name)` in the .cu; the test reads the marker's line from the .cu
 * and asserts the finding's kind and source line. Out of bounds, bad masks,
 * barrier divergence and the step limit are the interpreter's findings;
 * races and unwritten reads are the checks observer's (checks.h).
 */
#include "checks.h"
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

// ----------------------------------------------------------------------------
// Fixtures: files, markers, modules

/* The 1-based line of fixtures/<cu> that holds "PLANTED(<marker>)". */
static uint32_t planted_line(const char *cu, const char *marker)
{
    char *text = test_read_file(CHECKS_FIXTURES, cu, NULL);
    char needle[96];
    snprintf(needle, sizeof needle, "PLANTED(%s)", marker);
    char *at = strstr(text, needle);
    if (at == NULL)
        fail_msg("no %s in %s", needle, cu);
    uint32_t line = test_line_number(text, at);
    free(text);
    return line;
}

static cured_model_module *load_module(const char *ptx)
{
    return test_parse_ptx_file(CHECKS_FIXTURES, ptx);
}

// ----------------------------------------------------------------------------
// Running one kernel with the checks attached

#define MAX_ARGS 4

/* One kernel argument: a buffer of `count` 4-byte elements (float or int,
 * filled from `fill` when given, left unwritten for the initcheck when
 * `unwritten`), or a 32-bit integer. */
typedef struct arg {
    int is_buffer;
    uint32_t count;
    const void *fill;
    int unwritten;
    int32_t value;
} arg;

typedef struct run {
    const cured_model_module *module;
    cured_model_result result;
    cured_model_findings checks;      /* the checks observer's findings */
    cured_model_memory *memory;
    cured_model_buffer *buffers[MAX_ARGS];
    int rc;
} run;

/* Runs `entry` of `m` as <<<grid, block>>> with args, the checks attached.
 * step_limit 0 means the default. */
static run *run_kernel(const cured_model_module *m, const char *entry, uint32_t grid,
                       uint32_t block, const arg *args, int nargs, uint64_t step_limit,
                       int check_uninit_global)
{
    run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->module = m;
    int fn = cured_model_find_function(m, entry);
    if (fn < 0)
        fail_msg("no entry %s", entry);
    const ptx_function *f = &m->functions[fn];
    assert_int_equal(f->nparams, nargs);
    r->memory = cured_model_memory_new();
    assert_non_null(r->memory);
    uint8_t params[256] = {0};
    assert_true(f->param_bytes <= sizeof params);
    for (int i = 0; i < nargs; i++) {
        const ptx_symbol *p = &m->symbols[f->params[i]];
        if (args[i].is_buffer) {
            char name[16];
            snprintf(name, sizeof name, "arg%d", i);
            cured_model_buffer *b = cured_model_memory_alloc(r->memory, name, 4ull * args[i].count,
                                                 !args[i].unwritten);
            assert_non_null(b);
            if (args[i].fill)
                memcpy(b->data, args[i].fill, 4ull * args[i].count);
            r->buffers[i] = b;
            assert_int_equal(p->size, 8);
            memcpy(params + p->offset, &b->addr, 8);
        } else {
            assert_int_equal(p->size, 4);
            memcpy(params + p->offset, &args[i].value, 4);
        }
    }
    cured_model_checks *checks = cured_model_checks_new(&r->checks);
    assert_non_null(checks);
    cured_model_observer obs = cured_model_checks_observer(checks);
    cured_model_launch launch = {
        .module = m, .function = fn, .grid = {grid, 1, 1}, .block = {block, 1, 1},
        .params = params, .params_size = (size_t)f->param_bytes, .memory = r->memory,
        .step_limit = step_limit, .observers = &obs, .nobservers = 1,
        .check_uninit_global = check_uninit_global};
    r->rc = cured_model_run(&launch, &r->result);
    cured_model_checks_free(checks);
    return r;
}

static void run_free(run *r)
{
    cured_model_findings_clear(&r->result.findings);
    cured_model_findings_clear(&r->checks);
    cured_model_memory_free(r->memory);
    free(r);
}

/* Every finding of the run, the interpreter's then the checks', in *n. */
static const cured_model_finding *finding_at(const run *r, int i)
{
    if (i < r->result.findings.count)
        return &r->result.findings.items[i];
    return &r->checks.items[i - r->result.findings.count];
}

static int nfindings(const run *r)
{
    return r->result.findings.count + r->checks.count;
}

/* Prints the findings (shown only when an assertion fails after it). */
static void print_findings(const run *r)
{
    for (int i = 0; i < nfindings(r); i++) {
        const cured_model_finding *f = finding_at(r, i);
        print_message("  finding: %s, line %u, thread (%u,%u,%u), block %u: %s\n",
                      cured_model_finding_kind_name(f->kind), f->src_line, f->thread[0],
                      f->thread[1], f->thread[2], f->block[0], f->message);
    }
}

/* The first finding of `kind`, or NULL. */
static const cured_model_finding *find_kind(const run *r, cured_model_finding_kind kind)
{
    for (int i = 0; i < nfindings(r); i++)
        if (finding_at(r, i)->kind == kind)
            return finding_at(r, i);
    return NULL;
}

/* Whether finding f is on .cu line `line`: its own source line, or, for an
 * instruction inlined from a CUDA header (a shuffle intrinsic), the kernel
 * line it was inlined at. */
static int on_line(const run *r, const cured_model_finding *f, uint32_t line)
{
    if (f->src_line == line)
        return 1;
    const cured_model_module *m = r->module;
    if (f->function < 0 || f->function >= m->nfunctions || f->pc < 0 ||
        f->pc >= m->functions[f->function].ncode)
        return 0;
    return m->functions[f->function].code[f->pc].site_line == line;
}

/* Asserts the run has a finding of `kind` on source line `line`. */
static void expect_finding(const run *r, cured_model_finding_kind kind, uint32_t line)
{
    const cured_model_finding *f = find_kind(r, kind);
    if (f == NULL || !on_line(r, f, line)) {
        print_findings(r);
        fail_msg("expected a '%s' finding on line %u", cured_model_finding_kind_name(kind), line);
    }
}

/* Asserts the kernel ran to completion with no finding at all. */
static void expect_silent(const run *r)
{
    if (r->rc != 0 || nfindings(r) != 0 || !r->result.completed) {
        print_findings(r);
        fail_msg("expected a clean run: rc %d, completed %d, %d findings", r->rc,
                 r->result.completed, nfindings(r));
    }
}

static const float *floats(const run *r, int arg)
{
    return (const float *)r->buffers[arg]->data;
}

/* 1, 2, ..., n as floats (sums of up to 2^24 stay exact). */
static float *counting(uint32_t n)
{
    float *v = malloc(n * sizeof *v);
    assert_non_null(v);
    for (uint32_t i = 0; i < n; i++)
        v[i] = (float)(i + 1);
    return v;
}

#define BUF(n) {.is_buffer = 1, .count = (n)}
#define BUF_FILL(n, p) {.is_buffer = 1, .count = (n), .fill = (p)}
#define BUF_UNWRITTEN(n) {.is_buffer = 1, .count = (n), .unwritten = 1}
#define INT(v) {.value = (v)}

// ----------------------------------------------------------------------------
// Out of bounds (the interpreter's)

static void test_oob_global_store(void **state)
{
    (void)state;
    cured_model_module *m = load_module("oob.ptx");
    arg args[] = {BUF(64), INT(64)};
    run *r = run_kernel(m, "store_unguarded", 1, 65, args, 2, 0, 0);
    expect_finding(r, CURED_MODEL_FIND_OOB_GLOBAL, planted_line("oob.cu", "oob-global"));
    assert_int_equal(find_kind(r, CURED_MODEL_FIND_OOB_GLOBAL)->thread[0], 64);
    run_free(r);

    r = run_kernel(m, "store_guarded", 1, 65, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 0)[0] == 1.0f && floats(r, 0)[63] == 1.0f);
    run_free(r);
    cured_model_module_free(m);
}

static void test_oob_shared_read(void **state)
{
    (void)state;
    cured_model_module *m = load_module("oob.ptx");
    float *in = counting(32);
    arg args[] = {BUF_FILL(32, in), BUF(32)};
    run *r = run_kernel(m, "shift_unwrapped", 1, 32, args, 2, 0, 0);
    expect_finding(r, CURED_MODEL_FIND_OOB_SHARED, planted_line("oob.cu", "oob-shared"));
    assert_int_equal(find_kind(r, CURED_MODEL_FIND_OOB_SHARED)->thread[0], 31);
    run_free(r);

    r = run_kernel(m, "shift_wrapped", 1, 32, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 2.0f && floats(r, 1)[31] == 1.0f);
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

// ----------------------------------------------------------------------------
// Races (the checks')

static void test_race_missing_barrier(void **state)
{
    (void)state;
    cured_model_module *m = load_module("race.ptx");
    float *in = counting(64);
    arg args[] = {BUF_FILL(64, in), BUF(64)};
    run *r = run_kernel(m, "reverse_no_barrier", 1, 64, args, 2, 0, 0);
    uint32_t wline = planted_line("race.cu", "race-write");
    uint32_t rline = planted_line("race.cu", "race-read");
    const cured_model_finding *f = find_kind(r, CURED_MODEL_FIND_RACE_SHARED);
    if (f == NULL)
        print_findings(r);
    assert_non_null(f);
    /* which end is found first depends on the order warps run in; the
     * message names the other end */
    char other[32];
    snprintf(other, sizeof other, "race.cu:%u", f->src_line == wline ? rline : wline);
    assert_true(f->src_line == wline || f->src_line == rline);
    assert_non_null(strstr(f->message, other));
    assert_non_null(strstr(f->message, "(no __syncthreads between)"));
    for (int i = 0; i < nfindings(r); i++) /* nothing else but what the race causes */
        assert_true(finding_at(r, i)->kind == CURED_MODEL_FIND_RACE_SHARED ||
                    finding_at(r, i)->kind == CURED_MODEL_FIND_UNINIT_SHARED);
    run_free(r);

    r = run_kernel(m, "reverse_barrier", 1, 64, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 64.0f && floats(r, 1)[63] == 1.0f);
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_unroll_warp_without_syncwarp(void **state)
{
    (void)state;
    cured_model_module *m = load_module("unroll_warp.ptx");
    float *in = counting(64);
    arg args[] = {BUF_FILL(64, in), BUF(1)};
    run *r = run_kernel(m, "unroll_warp_unsafe", 1, 64, args, 2, 0, 0);
    uint32_t line = planted_line("unroll_warp.cu", "unroll-race");
    expect_finding(r, CURED_MODEL_FIND_RACE_SHARED, line);
    const cured_model_finding *f = find_kind(r, CURED_MODEL_FIND_RACE_SHARED);
    assert_non_null(strstr(f->message, "(no __syncwarp between)"));
    for (int i = 0; i < nfindings(r); i++) { /* every step after the first races */
        const cured_model_finding *g = finding_at(r, i);
        assert_int_equal(g->kind, CURED_MODEL_FIND_RACE_SHARED);
        assert_true(g->src_line >= line && g->src_line <= line + 4);
    }
    /* lock-step in the model, so the sum still comes out right: the bug is
     * that nothing promises it on a GPU */
    assert_true(floats(r, 1)[0] == 2080.0f);
    run_free(r);
    cured_model_module_free(m);
    free(in);
}

static void test_unroll_warp_with_syncwarp(void **state)
{
    (void)state;
    cured_model_module *m = load_module("unroll_warp.ptx");
    float *in = counting(64);
    arg args[] = {BUF_FILL(64, in), BUF(1)};
    run *r = run_kernel(m, "unroll_warp_synced", 1, 64, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 2080.0f);
    run_free(r);
    cured_model_module_free(m);
    free(in);
}

// ----------------------------------------------------------------------------
// Masks, barriers, endless loops (the interpreter's)

static void test_bad_mask_partial_warp(void **state)
{
    (void)state;
    cured_model_module *m = load_module("bad_mask.ptx");
    float *in = counting(48);
    arg args[] = {BUF_FILL(48, in), BUF(48)};
    run *r = run_kernel(m, "shfl_full_mask", 1, 48, args, 2, 0, 0);
    expect_finding(r, CURED_MODEL_FIND_BAD_MASK, planted_line("bad_mask.cu", "bad-mask"));
    assert_int_equal(find_kind(r, CURED_MODEL_FIND_BAD_MASK)->thread[0], 32);
    run_free(r);

    r = run_kernel(m, "shfl_lane_mask", 1, 48, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 1.0f + 9.0f);   /* lane 0 + lane 8 */
    assert_true(floats(r, 1)[32] == 33.0f + 41.0f); /* lane 0 + lane 8 of warp 1 */
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_barrier_not_reached_by_all(void **state)
{
    (void)state;
    cured_model_module *m = load_module("control.ptx");
    float *in = counting(64);
    arg args[] = {BUF_FILL(64, in), BUF(64)};
    run *r = run_kernel(m, "barrier_in_branch", 1, 64, args, 2, 0, 0);
    expect_finding(r, CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                   planted_line("control.cu", "barrier-divergence"));
    run_free(r);

    r = run_kernel(m, "barrier_for_all", 1, 64, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 64.0f);
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_endless_loop_hits_step_limit(void **state)
{
    (void)state;
    cured_model_module *m = load_module("control.ptx");
    int32_t zero = 0, one = 1;
    arg spin[] = {BUF_FILL(1, &zero), BUF(32)};
    run *r = run_kernel(m, "spin_on_flag", 1, 32, spin, 2, 10000, 0);
    expect_finding(r, CURED_MODEL_FIND_STEP_LIMIT, planted_line("control.cu", "step-limit"));
    assert_int_equal(r->result.completed, 0);
    assert_true(r->result.warp_instructions <= 10000 + 64);
    run_free(r);

    arg go[] = {BUF_FILL(1, &one), BUF(32)};
    r = run_kernel(m, "spin_on_flag", 1, 32, go, 2, 10000, 0);
    expect_silent(r);
    assert_int_equal(((const int32_t *)r->buffers[1]->data)[31], 1);
    run_free(r);
    cured_model_module_free(m);
}

// ----------------------------------------------------------------------------
// Unwritten memory (the checks')

static void test_read_of_unwritten_shared(void **state)
{
    (void)state;
    cured_model_module *m = load_module("uninit.ptx");
    float *in = counting(64);
    arg args[] = {BUF_FILL(64, in), BUF(64)};
    run *r = run_kernel(m, "shared_half_written", 1, 64, args, 2, 0, 0);
    expect_finding(r, CURED_MODEL_FIND_UNINIT_SHARED, planted_line("uninit.cu", "uninit-shared"));
    assert_int_equal(find_kind(r, CURED_MODEL_FIND_UNINIT_SHARED)->thread[0], 32);
    assert_int_equal(nfindings(r), 1);
    run_free(r);

    r = run_kernel(m, "shared_all_written", 1, 64, args, 2, 0, 0);
    expect_silent(r);
    assert_true(floats(r, 1)[63] == 64.0f);
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_read_of_unwritten_global(void **state)
{
    (void)state;
    cured_model_module *m = load_module("uninit.ptx");
    float *in = counting(32);
    arg args[] = {BUF_FILL(32, in), BUF_UNWRITTEN(32)};
    run *r = run_kernel(m, "accumulate_unwritten", 1, 32, args, 2, 0, 1);
    expect_finding(r, CURED_MODEL_FIND_UNINIT_GLOBAL, planted_line("uninit.cu", "uninit-global"));
    assert_int_equal(find_kind(r, CURED_MODEL_FIND_UNINIT_GLOBAL)->thread[0], 0);
    assert_int_equal(nfindings(r), 1);
    run_free(r);

    r = run_kernel(m, "accumulate_unwritten", 1, 32, args, 2, 0, 0); /* not asked */
    expect_silent(r);
    run_free(r);

    r = run_kernel(m, "accumulate_written", 1, 32, args, 2, 0, 1);
    expect_silent(r);
    assert_true(floats(r, 1)[31] == 32.0f);
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_atomic_on_unwritten_global(void **state)
{
    (void)state;
    cured_model_module *m = load_module("uninit.ptx");
    arg unwritten[] = {BUF_UNWRITTEN(1)};
    run *r = run_kernel(m, "count_threads", 1, 64, unwritten, 1, 0, 1);
    expect_finding(r, CURED_MODEL_FIND_UNINIT_GLOBAL, planted_line("uninit.cu", "uninit-atomic"));
    assert_int_equal(nfindings(r), 1);
    assert_int_equal(((const int32_t *)r->buffers[0]->data)[0], 64);
    run_free(r);

    arg zeroed[] = {BUF(1)};
    r = run_kernel(m, "count_threads", 1, 64, zeroed, 1, 0, 1);
    expect_silent(r);
    assert_int_equal(((const int32_t *)r->buffers[0]->data)[0], 64);
    run_free(r);
    cured_model_module_free(m);
}

// ----------------------------------------------------------------------------
// Correct sums: no findings at all

static void test_sum_sequential_is_clean(void **state)
{
    (void)state;
    cured_model_module *m = load_module("sums.ptx");
    float *in = counting(512);
    arg args[] = {BUF_FILL(512, in), BUF(2)};
    run *r = run_kernel(m, "sum_sequential", 2, 256, args, 2, 0, 1);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 32896.0f);  /* 1 + ... + 256 */
    assert_true(floats(r, 1)[1] == 98432.0f);  /* 257 + ... + 512 */
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

static void test_sum_shuffle_is_clean(void **state)
{
    (void)state;
    cured_model_module *m = load_module("sums.ptx");
    float *in = counting(240);
    arg args[] = {BUF_FILL(240, in), BUF(3), INT(230)};
    /* 80-thread blocks: the last warp of each has 16 lanes; n = 230 leaves
     * the last block's final 10 threads without an element */
    run *r = run_kernel(m, "sum_shuffle", 3, 80, args, 3, 0, 1);
    expect_silent(r);
    assert_true(floats(r, 1)[0] == 3240.0f);   /* 1 + ... + 80 */
    assert_true(floats(r, 1)[1] == 9640.0f);   /* 81 + ... + 160 */
    assert_true(floats(r, 1)[2] == 13685.0f);  /* 161 + ... + 230 */
    run_free(r);
    free(in);
    cured_model_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_global_store),
        cmocka_unit_test(test_oob_shared_read),
        cmocka_unit_test(test_race_missing_barrier),
        cmocka_unit_test(test_unroll_warp_without_syncwarp),
        cmocka_unit_test(test_unroll_warp_with_syncwarp),
        cmocka_unit_test(test_bad_mask_partial_warp),
        cmocka_unit_test(test_barrier_not_reached_by_all),
        cmocka_unit_test(test_endless_loop_hits_step_limit),
        cmocka_unit_test(test_read_of_unwritten_shared),
        cmocka_unit_test(test_read_of_unwritten_global),
        cmocka_unit_test(test_atomic_on_unwritten_global),
        cmocka_unit_test(test_sum_sequential_is_clean),
        cmocka_unit_test(test_sum_shuffle_is_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
