/* test_exec_cluster.c - the thread-block cluster instructions end to end.
 * In clusters of one CTA (a launch without cluster dimensions):
 * barrier.cluster.arrive/wait (with .release/.acquire, .relaxed and
 * .aligned, split, several phases, threads that exit before arriving or
 * between arriving and waiting), mapa to rank 0 (generic and
 * .shared::cluster), ld/st/atom/red on the .shared::cluster window,
 * getctarank, the cluster's rank and size, the race check across a phase,
 * and the misuse the model reports (mapa to rank 1, a wait with no
 * arrival, a second arrival, .aligned in divergent code, a phase that
 * never completes). In clusters of several CTAs: another CTA's shared
 * memory through mapa, the barrier across CTAs, the special registers,
 * the exact sum's gather right and with the leader's double arrival, a
 * write into an exited CTA, mapa past the cluster, a phase that never
 * completes across CTAs, launch shapes, and the checks across CTAs.
 *
 *   ctest --test-dir build -R test_exec_cluster
 *
 * Kernels: fixtures/cluster.cu and fixtures/cluster_ctas.cu (their .ptx
 * made by nvcc).
 */
#include "exec_fixture.h"
#include "ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

enum { N = 96 };   /* three warps: a wait that does not wait reads zeros */

/* Runs `kernel`(out[, arg]) in `blocks` blocks of n threads; returns out
 * (2 * n ints per block, zeroed first). */
static int *run(exec_fixture *fx, const char *kernel, unsigned blocks, unsigned n, int nparams,
                uint32_t arg)
{
    xf_load(fx, "cluster.ptx");
    xf_kernel(fx, kernel);
    int *out;
    xf_param(fx, 0, xf_buffer(fx, "out", 4ull * 2 * n * blocks, NULL, (void **)&out));
    if (nparams > 1)
        xf_param(fx, 1, arg);
    assert_int_equal(xf_run(fx, blocks, 1, 1, n, 1, 1), 0);
    return out;
}

/* Asserts a run without findings that completed. */
static void expect_clean(const exec_fixture *fx)
{
    for (int i = 0; i < fx->result.findings.count; i++)
        print_message("  finding: %s\n", fx->result.findings.items[i].message);
    assert_int_equal(fx->result.findings.count, 0);
    assert_true(fx->result.completed);
}

/* The PTX line of the k-th (0-based) instruction of `kernel` with opcode
 * op (and sub, when not 0); fails when there is none. */
static uint32_t ptx_line_of(const exec_fixture *fx, const char *kernel, int op, int sub, int k)
{
    int fi = cured_model_find_function(fx->module, kernel);
    assert_true(fi >= 0);
    const ptx_function *f = &fx->module->functions[fi];
    for (int pc = 0; pc < f->ncode; pc++)
        if (f->code[pc].op == op && (sub == 0 || f->code[pc].sub == sub) && k-- == 0)
            return f->code[pc].ptx_line;
    fail_msg("no such instruction in %s", kernel);
    return 0;
}

/* The one error finding, of `kind`, at PTX line ptx_line and the line of
 * fixture `cu` holding `snippet`, with `text` in its message; the run
 * stopped. */
static const cured_model_finding *expect_error_in(const exec_fixture *fx, const char *cu,
                                                  cured_model_finding_kind kind,
                                                  uint32_t ptx_line, const char *snippet,
                                                  const char *text)
{
    const cured_model_finding *f = xf_has_finding(fx, kind);
    if (f == NULL) {
        for (int i = 0; i < fx->result.findings.count; i++)
            print_message("  finding: %s\n", fx->result.findings.items[i].message);
        fail_msg("no '%s' finding", cured_model_finding_kind_name(kind));
    }
    print_message("  %s\n", f->message);
    assert_int_equal(fx->result.findings.errors, 1);
    assert_int_equal(f->severity, CURED_MODEL_ERROR);
    assert_int_equal(f->ptx_line, ptx_line);
    assert_int_equal(f->src_line, xf_line_of(cu, snippet));
    assert_non_null(strstr(f->message, text));
    assert_false(fx->result.completed);
    return f;
}

/* expect_error_in for the kernels of cluster.cu. */
static const cured_model_finding *expect_error(const exec_fixture *fx,
                                               cured_model_finding_kind kind, uint32_t ptx_line,
                                               const char *snippet, const char *text)
{
    return expect_error_in(fx, "cluster.cu", kind, ptx_line, snippet, text);
}

// ----------------------------------------------------------------------------
// The barrier and mapa, used right

static void test_neighbour_through_mapa(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "neighbour", 2, N, 1, 0);
    expect_clean(&fx);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < N; t++) {
            int u = (t + 1) % N;
            assert_int_equal(out[b * 2 * N + t], u * 7 + 1 + 1000 * b);
            /* rank 0 of a cluster of 1 */
            assert_int_equal(out[b * 2 * N + N + t], 1);
        }
    xf_free(&fx);
}

static void test_two_phases_in_a_row(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "two_phases", 1, N, 1, 0);
    expect_clean(&fx);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], (t + 1) * 10 + 3 * t);
    xf_free(&fx);
}

static void test_exit_before_arrive(void **state)
{
    (void)state;
    exec_fixture fx;
    int keep = 70;   /* warp 2 in part: its other lanes' exit completes the phase */
    int *out = run(&fx, "exit_early", 1, N, 2, (uint32_t)keep);
    expect_clean(&fx);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], t < keep ? ((t + 1) % keep) * 5 + 2 : 0);
    xf_free(&fx);
}

static void test_exit_between_arrive_and_wait(void **state)
{
    (void)state;
    exec_fixture fx;
    int drop = 40;   /* warp 0 and part of warp 1 arrive, then exit */
    int *out = run(&fx, "exit_between", 1, N, 2, (uint32_t)drop);
    expect_clean(&fx);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], t >= drop ? ((t + 1) % N) * 11 + 3 : 0);
    xf_free(&fx);
}

static void test_aligned_forms(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "aligned", 1, N, 1, 0);
    expect_clean(&fx);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], ((t + 1) % N) * 2 + 9);
    xf_free(&fx);
}

static void test_shared_cluster_window(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "window", 1, N, 1, 0);
    expect_clean(&fx);
    for (int t = 0; t < N; t++) {
        assert_int_equal(out[t], t * 3 + 1100);
        assert_int_equal(out[N + t], ((t + 1) % N) * 3 + 1000);
    }
    xf_free(&fx);
}

static void test_mapa_rank_0(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "mapa_rank", 1, N, 2, 0);
    expect_clean(&fx);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], t + 40);
    xf_free(&fx);
}

/* A completed phase orders shared memory as a block barrier does; reading
 * between arrive and wait is a race. */
static void test_race_check_across_phase(void **state)
{
    (void)state;
    const char *kernels[2] = {"neighbour", "racy"};
    for (int k = 0; k < 2; k++) {
        exec_fixture fx;
        xf_load(&fx, "cluster.ptx");
        xf_kernel(&fx, kernels[k]);
        xf_param(&fx, 0, xf_buffer(&fx, "out", 4ull * 2 * N, NULL, NULL));
        cured_model_findings found;
        memset(&found, 0, sizeof found);
        cured_model_checks *checks = cured_model_checks_new(&found);
        assert_non_null(checks);
        cured_model_observer obs = cured_model_checks_observer(checks);
        fx.launch.observers = &obs;
        fx.launch.nobservers = 1;
        assert_int_equal(xf_run(&fx, 1, 1, 1, N, 1, 1), 0);
        cured_model_checks_free(checks);
        int races = 0;
        for (int i = 0; i < found.count; i++)
            races += found.items[i].kind == CURED_MODEL_FIND_RACE_SHARED;
        if (k == 0)
            assert_int_equal(found.count, 0);
        else
            assert_true(races > 0);
        cured_model_findings_clear(&found);
        xf_free(&fx);
    }
}

// ----------------------------------------------------------------------------
// Misuse

static void test_mapa_rank_1(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out = run(&fx, "mapa_rank", 1, N, 2, 1);
    const cured_model_finding *f =
        expect_error(&fx, CURED_MODEL_FIND_OOB_SHARED, ptx_line_of(&fx, "mapa_rank", PTX_OP_MAPA, 0, 0),
                     "__cluster_map_shared_rank(s, rank)",
                     "mapa.u64 to CTA rank 1 of a cluster of 1 CTA");
    assert_int_equal(f->thread[0], 0);
    for (int t = 0; t < N; t++)
        assert_int_equal(out[t], 0);   /* nothing read through it */
    xf_free(&fx);
}

static void test_wait_without_arrive(void **state)
{
    (void)state;
    exec_fixture fx;
    run(&fx, "wait_first", 1, N, 1, 0);
    expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                 ptx_line_of(&fx, "wait_first", PTX_OP_BAR_CLUSTER, PTX_BAR_WAIT, 0),
                 "/* no arrival before it */",
                 "barrier.cluster.wait: the thread waits at the cluster barrier without having "
                 "arrived");
    xf_free(&fx);
}

static void test_double_arrive(void **state)
{
    (void)state;
    exec_fixture fx;
    run(&fx, "arrive_twice", 1, N, 1, 0);
    expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                 ptx_line_of(&fx, "arrive_twice", PTX_OP_BAR_CLUSTER, PTX_BAR_ARRIVE, 1),
                 "/* again */", "barrier.cluster.arrive: the thread arrives at the cluster "
                 "barrier a second time");
    xf_free(&fx);
}

static void test_aligned_in_divergent_code(void **state)
{
    (void)state;
    exec_fixture fx;
    run(&fx, "aligned_divergent", 1, 32, 1, 0);
    int fi = cured_model_find_function(fx.module, "aligned_divergent");
    uint32_t line = 0;
    for (int pc = 0; pc < fx.module->functions[fi].ncode; pc++) {
        const ptx_instr *ins = &fx.module->functions[fi].code[pc];
        if (ins->op == PTX_OP_BAR_CLUSTER && (ins->flags & PTX_F_ALIGNED))
            line = ins->ptx_line;
    }
    const cured_model_finding *f =
        expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE, line,
                     "arrive_aligned() { asm", "barrier.cluster.arrive.aligned is executed by "
                     "lanes 0-15 of warp 0 without lanes 16-31");
    assert_int_equal(f->thread[0], 0);
    xf_free(&fx);
}

static void test_phase_never_completes(void **state)
{
    (void)state;
    exec_fixture fx;
    run(&fx, "stuck", 1, 64, 1, 0);
    char where[64];
    snprintf(where, sizeof where, "32 have and thread 32 waits at PTX line %u",
             ptx_line_of(&fx, "stuck", PTX_OP_BAR, 0, 0));
    expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                 ptx_line_of(&fx, "stuck", PTX_OP_BAR_CLUSTER, PTX_BAR_WAIT, 0),
                 "/* never completes */", where);
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Clusters of several CTAs (cluster_ctas.cu)

/* Runs cluster_ctas.cu's `kernel`(out[, arg]) in `blocks` blocks of n
 * threads, in clusters of `cluster` blocks (0: the launch names none);
 * returns cured_model_run's status, out (2 * n ints per block) in *out. */
static int run_ctas(exec_fixture *fx, const char *kernel, unsigned blocks, unsigned cluster,
                    unsigned n, int nparams, uint32_t arg, int **out)
{
    xf_load(fx, "cluster_ctas.ptx");
    xf_kernel(fx, kernel);
    xf_param(fx, 0, xf_buffer(fx, "out", 4ull * 2 * n * blocks, NULL, (void **)out));
    if (nparams > 1)
        xf_param(fx, 1, arg);
    if (cluster != 0)
        fx->launch.cluster = (cured_model_dim3){cluster, 1, 1};
    return xf_run(fx, blocks, 1, 1, n, 1, 1);
}

/* The PTX line of kernel's first instruction with opcode op that the line
 * of cluster_ctas.cu holding `snippet` made; fails when there is none. */
static uint32_t ptx_line_at(const exec_fixture *fx, const char *kernel, int op,
                            const char *snippet)
{
    uint32_t src = xf_line_of("cluster_ctas.cu", snippet);
    const ptx_function *f = &fx->module->functions[cured_model_find_function(fx->module, kernel)];
    for (int pc = 0; pc < f->ncode; pc++)
        if (f->code[pc].op == op && f->code[pc].user_line == src)
            return f->code[pc].ptx_line;
    fail_msg("no such instruction in %s", kernel);
    return 0;
}

/* expect_error_in for cluster_ctas.cu's `kernel`: the finding at its
 * instruction with opcode op made by the line holding `snippet`. */
static const cured_model_finding *expect_ctas_error(const exec_fixture *fx, const char *kernel,
                                                    int op, const char *snippet,
                                                    cured_model_finding_kind kind,
                                                    const char *text)
{
    return expect_error_in(fx, "cluster_ctas.cu", kind, ptx_line_at(fx, kernel, op, snippet),
                           snippet, text);
}

/* Two clusters of four: each CTA reads the next rank's shared memory
 * (generic, through __cluster_map_shared_rank) and the previous rank's
 * (mapa.shared::cluster, ld.shared::cluster), and sees the cluster's
 * registers; the same kernel without cluster dimensions reads its own. */
static void test_ring_across_ctas(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "ring", 8, 4, N, 1, 0, &out), 0);
    expect_clean(&fx);
    for (int b = 0; b < 8; b++) {
        int rank = b % 4, base = b - rank;
        int next = (rank + 1) % 4, prev = (rank + 3) % 4;
        for (int t = 0; t < N; t++) {
            int want = next * 1000 + (base + next) * 100000 + t + prev * 1000 +
                       (base + prev) * 100000 + t;
            assert_int_equal(out[b * 2 * N + t], want);
            int regs = rank | 4 << 4 | rank << 8 | 4 << 12 | (b / 4) << 16 | 2 << 20 |
                       prev << 24 | 1 << 28;
            assert_int_equal(out[b * 2 * N + N + t], regs);
        }
    }
    xf_free(&fx);
    assert_int_equal(run_ctas(&fx, "ring", 3, 0, N, 1, 0, &out), 0);
    expect_clean(&fx);
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < N; t++) {
            assert_int_equal(out[b * 2 * N + t], 2 * (b * 100000 + t));
            assert_int_equal(out[b * 2 * N + N + t], 1 << 4 | 1 << 12 | b << 16 | 3 << 20);
        }
    xf_free(&fx);
}

/* The exact sum's gather done right: one cluster of 16 CTAs (the largest)
 * and four clusters of two, every block's value in its leader's slot. */
static void test_gather_to_leader(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "gather", 16, 16, 64, 1, 0, &out), 0);
    expect_clean(&fx);
    assert_int_equal(out[0], 10 * 120 + 16);
    xf_free(&fx);
    assert_int_equal(run_ctas(&fx, "gather", 8, 2, 64, 1, 0, &out), 0);
    expect_clean(&fx);
    for (int k = 0; k < 4; k++)
        assert_int_equal(out[k], 40 * k + 12);
    xf_free(&fx);
}

/* The bug racecheck found in the library (docs/results.md, ninth round):
 * the leader arrives at the second phase without waiting out the first. */
static void test_gather_leader_arrives_twice(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "gather_arrive_twice", 4, 4, 64, 1, 0, &out), 0);
    const cured_model_finding *f = expect_ctas_error(
        &fx, "gather_arrive_twice", PTX_OP_BAR_CLUSTER, "/* the leader's second */",
        CURED_MODEL_FIND_BARRIER_DIVERGENCE, "arrives at the cluster barrier a second time");
    assert_int_equal(f->block[0], 0);
    assert_int_equal(out[0], 0);   /* nothing summed */
    xf_free(&fx);
}

/* A CTA writes into the shared memory of a CTA whose threads all exited. */
static void test_write_after_exit(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "write_after_exit", 2, 2, 32, 1, 0, &out), 0);
    const cured_model_finding *f = expect_ctas_error(
        &fx, "write_after_exit", PTX_OP_ST, "lead[threadIdx.x] = ", CURED_MODEL_FIND_OOB_SHARED,
        "every thread of that CTA has exited");
    assert_int_equal(f->block[0], 1);
    assert_int_equal(out[1], 0);
    xf_free(&fx);
}

/* mapa to a rank past the cluster's last. */
static void test_mapa_past_cluster(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "rank_past_end", 2, 2, 32, 2, 2, &out), 0);
    expect_ctas_error(&fx, "rank_past_end", PTX_OP_MAPA, "__cluster_map_shared_rank(s, rank)",
                      CURED_MODEL_FIND_OOB_SHARED, "to CTA rank 2 of a cluster of 2 CTAs");
    xf_free(&fx);
}

/* A phase that can never complete, across two CTAs. */
static void test_phase_never_completes_in_cluster(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "cluster.ptx");
    xf_kernel(&fx, "stuck");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 4ull * 128, NULL, NULL));
    fx.launch.cluster = (cured_model_dim3){2, 1, 1};
    assert_int_equal(xf_run(&fx, 2, 1, 1, 64, 1, 1), 0);
    expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                 ptx_line_of(&fx, "stuck", PTX_OP_BAR_CLUSTER, PTX_BAR_WAIT, 0),
                 "/* never completes */", "live threads of the cluster's 2 CTAs");
    xf_free(&fx);
}

/* A kernel compiled for clusters of two runs in them without being told
 * and refuses a launch that names others; launches whose clusters do not
 * fit are refused before anything runs. */
static void test_cluster_launch_shapes(void **state)
{
    (void)state;
    exec_fixture fx;
    int *out;
    assert_int_equal(run_ctas(&fx, "fixed_pair", 4, 0, 32, 1, 0, &out), 0);
    expect_clean(&fx);
    for (int b = 0; b < 4; b++)
        assert_int_equal(out[b], b % 2 + 20);
    xf_free(&fx);
    const struct {
        const char *kernel;
        unsigned blocks, cluster;
        const char *text;
    } bad[] = {
        {"fixed_pair", 4, 4, "compiled for clusters of 2x1x1"},
        {"ring", 6, 4, "each of its dimensions divides the grid's"},
        {"ring", 32, 32, "a cluster holds 1 to 16 blocks"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(run_ctas(&fx, bad[i].kernel, bad[i].blocks, bad[i].cluster, 32, 1, 0,
                                  &out), -1);
        const cured_model_finding *f = xf_has_finding(&fx, CURED_MODEL_FIND_BAD_LAUNCH);
        assert_non_null(f);
        print_message("  %s\n", f->message);
        assert_non_null(strstr(f->message, bad[i].text));
        xf_free(&fx);
    }
    run_ctas(&fx, "ring", 4, 0, 32, 1, 0, &out);
    fx.launch.cluster = (cured_model_dim3){2, 0, 1};
    assert_int_equal(xf_run(&fx, 4, 1, 1, 32, 1, 1), -1);
    assert_non_null(strstr(xf_has_finding(&fx, CURED_MODEL_FIND_BAD_LAUNCH)->message,
                           "every dimension is 1 or more"));
    xf_free(&fx);
}

/* The checks across CTAs: none in the kernels that sync right; a remote
 * read with no cluster barrier since the store is a race, a remote read
 * of bytes no thread of that block wrote is unwritten. */
static void test_checks_across_ctas(void **state)
{
    (void)state;
    const struct {
        const char *kernel;
        unsigned blocks, cluster;
        int kind;           /* the finding expected, -1 none */
        const char *snippet, *text;
    } cases[] = {
        {"ring", 8, 4, -1, NULL, NULL},
        {"gather", 16, 16, -1, NULL, NULL},
        {"remote_racy", 2, 2, CURED_MODEL_FIND_RACE_SHARED,
         "/* no cluster barrier since the store */",
         "read by thread (0,0,0) at cluster_ctas.cu:%u races with write by thread (0,0,0) of "
         "block (0,0,0) at cluster_ctas.cu:%u (no cluster barrier between)"},
        {"remote_unwritten", 2, 2, CURED_MODEL_FIND_UNINIT_SHARED, "/* never written */",
         "read of shared offset 0x100 of block (0,0,0) by thread (0,0,0) at "
         "cluster_ctas.cu:%u: no thread of that block wrote it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        exec_fixture fx;
        xf_load(&fx, "cluster_ctas.ptx");
        xf_kernel(&fx, cases[i].kernel);
        xf_param(&fx, 0, xf_buffer(&fx, "out", 4ull * 2 * 64 * cases[i].blocks, NULL, NULL));
        fx.launch.cluster = (cured_model_dim3){cases[i].cluster, 1, 1};
        cured_model_findings found;
        memset(&found, 0, sizeof found);
        cured_model_checks *checks = cured_model_checks_new(&found);
        assert_non_null(checks);
        cured_model_observer obs = cured_model_checks_observer(checks);
        fx.launch.observers = &obs;
        fx.launch.nobservers = 1;
        assert_int_equal(xf_run(&fx, cases[i].blocks, 1, 1, 64, 1, 1), 0);
        expect_clean(&fx);
        cured_model_checks_free(checks);
        for (int k = 0; k < found.count; k++)
            print_message("  %s\n", found.items[k].message);
        if (cases[i].kind < 0) {
            assert_int_equal(found.count, 0);
        } else {
            assert_true(found.count >= 1);
            assert_int_equal(found.items[0].kind, cases[i].kind);
            assert_int_equal(found.items[0].block[0], 1);
            char text[320];
            uint32_t here = xf_line_of("cluster_ctas.cu", cases[i].snippet);
            uint32_t store = xf_line_of("cluster_ctas.cu", "/* the store */");
            snprintf(text, sizeof text, cases[i].text, here, store);
            assert_string_equal(found.items[0].message, text);
        }
        cured_model_findings_clear(&found);
        xf_free(&fx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_neighbour_through_mapa),
        cmocka_unit_test(test_two_phases_in_a_row),
        cmocka_unit_test(test_exit_before_arrive),
        cmocka_unit_test(test_exit_between_arrive_and_wait),
        cmocka_unit_test(test_aligned_forms),
        cmocka_unit_test(test_shared_cluster_window),
        cmocka_unit_test(test_mapa_rank_0),
        cmocka_unit_test(test_race_check_across_phase),
        cmocka_unit_test(test_mapa_rank_1),
        cmocka_unit_test(test_wait_without_arrive),
        cmocka_unit_test(test_double_arrive),
        cmocka_unit_test(test_aligned_in_divergent_code),
        cmocka_unit_test(test_phase_never_completes),
        cmocka_unit_test(test_ring_across_ctas),
        cmocka_unit_test(test_gather_to_leader),
        cmocka_unit_test(test_gather_leader_arrives_twice),
        cmocka_unit_test(test_write_after_exit),
        cmocka_unit_test(test_mapa_past_cluster),
        cmocka_unit_test(test_phase_never_completes_in_cluster),
        cmocka_unit_test(test_cluster_launch_shapes),
        cmocka_unit_test(test_checks_across_ctas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
