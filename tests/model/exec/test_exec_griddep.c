/* test_exec_griddep.c - programmatic dependent launch end to end: the
 * model runs griddepcontrol.wait and griddepcontrol.launch_dependents as a
 * GPU runs them in a launch without the programmatic-stream-serialization
 * attribute (no grid before, none after: the wait returns at once, the
 * trigger does nothing), counts them as issued instructions, and lets them
 * order nothing: no barrier, no ordering for the race check.
 *
 *   ctest --test-dir build -R test_exec_griddep
 *
 * Kernels: fixtures/griddep.cu (griddep.ptx made by nvcc).
 */
#include "exec_fixture.h"
#include "ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* Counts the block barriers the observers hear of. */
static void count_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    (void)e;
    (void)id;
    ++*(int *)ctx;
}

/* One launch of `kernel`(in, out, n) in `blocks` blocks of `threads`, in[i]
 * = 7 * i - 100, with the counters, a barrier count and (when `checks`) the
 * race check watching. */
typedef struct griddep_run {
    exec_fixture fx;
    int in[256];
    int *out;                      /* blocks * threads ints, zeroed first */
    cured_model_counters *counters;
    cured_model_findings checked;  /* the checks' findings */
    int barriers;
} griddep_run;

static void run(griddep_run *r, const char *kernel, unsigned blocks, unsigned threads, int n,
                int checks)
{
    memset(r, 0, sizeof *r);
    assert_true(blocks * threads <= 256);
    for (int i = 0; i < 256; i++)
        r->in[i] = 7 * i - 100;
    xf_load(&r->fx, "griddep.ptx");
    xf_kernel(&r->fx, kernel);
    xf_param(&r->fx, 0, xf_buffer(&r->fx, "in", sizeof r->in, r->in, NULL));
    xf_param(&r->fx, 1, xf_buffer(&r->fx, "out", 4ull * blocks * threads, NULL,
                                  (void **)&r->out));
    xf_param(&r->fx, 2, (uint32_t)n);
    r->counters = cured_model_counters_new(r->fx.module, r->fx.function);
    assert_non_null(r->counters);
    cured_model_observer obs[3];
    memset(obs, 0, sizeof obs);
    obs[0] = cured_model_counters_observer(r->counters);
    obs[1].ctx = &r->barriers;
    obs[1].barrier = count_barrier;
    cured_model_checks *c = NULL;
    if (checks) {
        c = cured_model_checks_new(&r->checked);
        assert_non_null(c);
        obs[2] = cured_model_checks_observer(c);
    }
    r->fx.launch.observers = obs;
    r->fx.launch.nobservers = checks ? 3 : 2;
    assert_int_equal(xf_run(&r->fx, blocks, 1, 1, threads, 1, 1), 0);
    cured_model_checks_free(c);
    for (int i = 0; i < r->fx.result.findings.count; i++)
        print_message("  finding: %s\n", r->fx.result.findings.items[i].message);
    assert_int_equal(r->fx.result.findings.count, 0);
    assert_true(r->fx.result.completed);
}

static void run_free(griddep_run *r)
{
    cured_model_counters_free(r->counters);
    cured_model_findings_clear(&r->checked);
    xf_free(&r->fx);
}

/* The pc of the k-th (0-based) griddepcontrol with action `sub` in the
 * kernel run; fails when there is none. */
static int griddep_pc(const griddep_run *r, int sub, int k)
{
    const ptx_function *f = &r->fx.module->functions[r->fx.function];
    for (int pc = 0; pc < f->ncode; pc++)
        if (f->code[pc].op == PTX_OP_GRIDDEPCONTROL && f->code[pc].sub == sub && k-- == 0)
            return pc;
    fail_msg("no such griddepcontrol");
    return -1;
}

/* Asserts the counts of the instruction at pc: warp instructions, thread
 * instructions, thread instructions whose guard held. */
static void expect_counts(const griddep_run *r, int pc, uint64_t inst, uint64_t threads,
                          uint64_t pred_on)
{
    const uint64_t *row = cured_model_counters_at(r->counters, r->fx.function, pc);
    assert_non_null(row);
    assert_int_equal(row[CURED_MODEL_CTR_INST], inst);
    assert_int_equal(row[CURED_MODEL_CTR_THREAD_INST], threads);
    assert_int_equal(row[CURED_MODEL_CTR_THREAD_INST_PRED_ON], pred_on);
}

/* The counters' totals are the launch's: every instruction the model
 * issued, griddepcontrol included, is in both. */
static void expect_totals_match(const griddep_run *r)
{
    const ptx_function *f = &r->fx.module->functions[r->fx.function];
    uint64_t sum = 0;
    for (int pc = 0; pc < f->ncode; pc++) {
        const uint64_t *row = cured_model_counters_at(r->counters, r->fx.function, pc);
        sum += row[CURED_MODEL_CTR_INST];
    }
    assert_int_equal(sum, r->fx.result.warp_instructions);
    assert_int_equal(cured_model_counters_total(r->counters, CURED_MODEL_CTR_INST),
                     r->fx.result.warp_instructions);
    assert_int_equal(cured_model_counters_total(r->counters, CURED_MODEL_CTR_THREAD_INST),
                     r->fx.result.thread_instructions);
}

// ----------------------------------------------------------------------------
// Results and counts

/* Every thread waits, then triggers, then loads and stores: the results
 * are the kernel's, each instruction is issued once per warp. */
static void test_wait_and_trigger_in_every_thread(void **state)
{
    (void)state;
    griddep_run r;
    int n = 150;   /* 2 blocks of 3 warps, the last 42 threads idle */
    run(&r, "scale", 2, 96, n, 0);
    for (int i = 0; i < 192; i++)
        assert_int_equal(r.out[i], i < n ? 3 * r.in[i] + 1 : 0);
    expect_counts(&r, griddep_pc(&r, PTX_GDC_WAIT, 0), 6, 192, 192);
    expect_counts(&r, griddep_pc(&r, PTX_GDC_LAUNCH_DEPENDENTS, 0), 6, 192, 192);
    expect_totals_match(&r);
    assert_int_equal(cured_model_counters_total(r.counters, CURED_MODEL_CTR_BARRIERS), 0);
    assert_int_equal(r.barriers, 0);
    run_free(&r);
}

/* A wait in divergent code (odd threads only) and a guarded trigger
 * (lane 0 of each warp): issued for the lanes that reach them, the guard
 * counted as for any instruction. */
static void test_divergent_wait_and_guarded_trigger(void **state)
{
    (void)state;
    griddep_run r;
    int n = 50;
    run(&r, "trigger_once", 1, 64, n, 0);
    for (int i = 0; i < 64; i++)
        assert_int_equal(r.out[i], i < n ? r.in[i] - 5 : 0);
    expect_counts(&r, griddep_pc(&r, PTX_GDC_WAIT, 0), 2, 32, 32);
    const ptx_function *f = &r.fx.module->functions[r.fx.function];
    int trigger = griddep_pc(&r, PTX_GDC_LAUNCH_DEPENDENTS, 0);
    assert_true(f->code[trigger].guard >= 0);
    expect_counts(&r, trigger, 2, 64, 2);
    expect_totals_match(&r);
    run_free(&r);
}

// ----------------------------------------------------------------------------
// Nothing ordered

/* The wait is no barrier: shared memory written before it and read after
 * it by another thread is a race; with __syncthreads() after it, the
 * results are right and there is none. */
static void test_wait_orders_nothing_in_the_block(void **state)
{
    (void)state;
    enum { T = 96 };
    griddep_run r;
    run(&r, "shared_racy", 1, T, 3, 1);
    int races = 0;
    for (int i = 0; i < r.checked.count; i++) {
        print_message("  checked: %s\n", r.checked.items[i].message);
        races += r.checked.items[i].kind == CURED_MODEL_FIND_RACE_SHARED;
    }
    assert_true(races > 0);
    assert_int_equal(r.barriers, 0);
    run_free(&r);

    run(&r, "shared_synced", 1, T, 3, 1);
    assert_int_equal(r.checked.count, 0);
    assert_int_equal(r.barriers, 1);   /* the __syncthreads() */
    for (int t = 0; t < T; t++)
        assert_int_equal(r.out[t], ((t + 1) % T) * 2 + r.in[t] + 3);
    expect_counts(&r, griddep_pc(&r, PTX_GDC_WAIT, 0), 3, T, T);
    expect_counts(&r, griddep_pc(&r, PTX_GDC_LAUNCH_DEPENDENTS, 0), 3, T, T);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_and_trigger_in_every_thread),
        cmocka_unit_test(test_divergent_wait_and_guarded_trigger),
        cmocka_unit_test(test_wait_orders_nothing_in_the_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
