/* test_views_e2e.c - the lesson's table and the hardware counts, from
 * the real PTX of the page's four kernels run through the whole model
 * (PTX text -> parser -> interpreter -> counters and seed view).
 *
 *   ctest --test-dir build -R test_model_views_e2e
 *
 * seed_kernels.cu holds our copies of the four versions; seed_kernels.ptx
 * is `nvcc -arch=sm_90 -ptx -lineinfo seed_kernels.cu`. Each kernel runs one
 * block of 64 threads (two warps) over in[i] = i + 1, so out[0] must be
 * 64 * 65 / 2 = 2080 (exact in float). The hand derivations refer to the PTX
 * (line numbers of seed_kernels.ptx are not used; the structure is).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "step_view.h"
#include "test_files.h"

/* ------------------------------------------------------------- running */

static cured_model_module *load_fixture(void)
{
    return test_parse_ptx_file(SEED_FIXTURES, "seed_kernels.ptx");
}

/* One kernel's run: both views, filled. */
typedef struct run {
    cured_model_module *m;
    cured_model_counters *c;
    cured_model_step_view *v;
} run;

/* Runs `kernel` on one block of 64 threads over in[i] = i + 1 with
 * `dynamic_shared` bytes, checks that it completed with no finding and
 * summed right. */
static run run_kernel_in(cured_model_module *m, const char *kernel,
                         uint32_t dynamic_shared)
{
    run r;
    r.m = m;
    int fn = cured_model_find_function(r.m, kernel);
    assert_true(fn >= 0);
    r.c = cured_model_counters_new(r.m, fn);
    r.v = cured_model_step_view_new(r.m, fn);
    assert_non_null(r.c);
    assert_non_null(r.v);

    cured_model_memory *mem = cured_model_memory_new();
    assert_non_null(mem);
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", 64 * sizeof(float), 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", sizeof(float), 1);
    assert_non_null(in);
    assert_non_null(out);
    for (int i = 0; i < 64; i++) {
        float x = (float)(i + 1);
        memcpy(in->data + 4 * i, &x, 4);
    }
    uint64_t params[2] = {in->addr, out->addr};

    cured_model_observer obs[2] = {cured_model_counters_observer(r.c),
                             cured_model_step_view_observer(r.v)};
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = r.m;
    l.function = fn;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){64, 1, 1};
    l.dynamic_shared_bytes = dynamic_shared;
    l.params = params;
    l.params_size = sizeof params;
    l.memory = mem;
    l.observers = obs;
    l.nobservers = 2;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&l, &res), 0);
    for (int i = 0; i < res.findings.count; i++)
        print_error("%s: finding: %s\n", kernel, res.findings.items[i].message);
    assert_int_equal(res.findings.count, 0);
    assert_true(res.completed);
    float sum;
    memcpy(&sum, out->data, 4);
    assert_true(sum == 2080.0f);
    /* the counters see every instruction the interpreter issues */
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_INST), res.warp_instructions);
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_THREAD_INST),
                     res.thread_instructions);
    assert_true(cured_model_counters_complete(r.c));
    assert_true(cured_model_step_view_complete(r.v));
    cured_model_findings_clear(&res.findings);
    cured_model_memory_free(mem);
    return r;
}

static run run_kernel(const char *kernel, uint32_t dynamic_shared)
{
    return run_kernel_in(load_fixture(), kernel, dynamic_shared);
}

static void run_free(run *r)
{
    cured_model_counters_free(r->c);
    cured_model_step_view_free(r->v);
    cured_model_module_free(r->m);
}

static void expect_row(const run *r, const char *label, const char *expected)
{
    char row[128];
    cured_model_step_summary s = cured_model_step_view_summary(r->v);
    cured_model_step_view_format_row(row, sizeof row, label, &s);
    assert_string_equal(row, expected);
}

#define CTR(r, id) cured_model_counters_total((r).c, id)

/* ------------------------------------------------------ the seed table */

/* The page's table, all four rows, from execution (the step view's rules,
 * docs/counting.md). */
static void test_lesson_table(void **state)
{
    (void)state;
    run r[4] = {run_kernel("seed_divergent", 256), run_kernel("seed_strided", 256),
                run_kernel("seed_sequential", 256), run_kernel("seed_shuffle", 0)};
    expect_row(&r[0], "divergent", "| divergent | 189 | 6 | 1-way | 2 of 2 |");
    expect_row(&r[1], "strided index", "| strided index | 189 | 6 | 2-way | 0 of 1 |");
    expect_row(&r[2], "sequential", "| sequential | 189 | 6 | 1-way | 0 of 1 |");
    expect_row(&r[3], "warp shuffle", "| warp shuffle | 4 | 1 | - | none |");
    /* what the conventions left out, for the tree versions: 64 stores of
     * the load, the barrier after it, thread 0's read of sdata[0] */
    for (int i = 0; i < 3; i++) {
        cured_model_step_summary s = cured_model_step_view_summary(r[i].v);
        assert_int_equal(s.initial_stores, 64);
        assert_int_equal(s.initial_barriers, 1);
        assert_int_equal(s.final_reads, 1);
        assert_int_equal(s.tree_steps, 6);
    }
    cured_model_step_summary s = cured_model_step_view_summary(r[3].v);
    assert_int_equal(s.shuffle_rounds, 5);
    assert_int_equal(s.initial_stores, 0);
    assert_int_equal(s.final_reads, 0);
    for (int i = 0; i < 4; i++)
        run_free(&r[i]);
}

/* ------------------------------------------------------ hardware view */

/* Divergent, per warp (PTX of seed_divergent):
 * - 18 instructions before the loop (2 ld.param, 3 mov of special regs, mad,
 *   cvta, mul.wide, add, ld.global, shl, mov, add, st.shared, bar.sync,
 *   setp, @%p1 bra not taken, mov %r14 = 1);
 * - per step: shl, rem, setp, @%p2 bra (4), the add block for the adding
 *   lanes (shl, add, ld, ld, add, st: 6), bar.sync, setp, mov, @%p3 bra (4);
 *   warp 0 has adding lanes at all 6 steps (tid 0), warp 1 at s = 1..16
 *   (tid 32 is not a multiple of 64): warp 0 6 * 14 = 84, warp 1 5 * 14 + 8
 *   = 78;
 * - after: setp, @%p4 bra (2), thread 0's ld.shared, cvta, mul.wide, add,
 *   st.global (5, warp 0 only), ret (1): warp 0 8, warp 1 3.
 * Warp instructions: (18 + 84 + 8) + (18 + 78 + 3) = 110 + 99 = 209.
 * Thread instructions: warp 0: 18 * 32 + (8 * 32 * 6 + 6 * (16+8+4+2+1+1))
 * + (2 * 32 + 5 + 32) = 576 + 1728 + 101 = 2405; warp 1: 576 + (8 * 32 * 6
 * + 6 * (16+8+4+2+1)) + (2 * 32 + 32) = 576 + 1722 + 96 = 2394; 4799.
 * Shared: ld 2 per add block * 11 + the final read = 23, st 2 + 11 = 13;
 * words read/written at step s are t and t + s for t a multiple of 2s, all in
 * different banks within a warp: wavefronts = instructions, no conflicts.
 * Global: 2 warps x 128 bytes = 2 requests, 8 sectors; one 4-byte store.
 * Barriers: 7 bar.sync per warp = 14. Branches: per warp @%p1, 2 per step,
 * @%p4 = 14; 28. Divergent: @%p2 splits warp 0 at every step (6) and warp
 * 1 at s = 1..16 (5), @%p4 splits warp 0 (lane 0 against 31): 12. */
static void test_divergent_counts(void **state)
{
    (void)state;
    run r = run_kernel("seed_divergent", 256);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_INST), 209);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_THREAD_INST), 4799);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD), 23);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 23);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 0);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_CONFLICTS), 0);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_LD), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_ST), 1);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_ST_SECTORS), 1);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_BARRIERS), 14);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_BRANCHES), 28);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_DIVERGENT_BRANCHES), 12);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHUFFLES), 0);
    /* 4799 / (209 * 32) */
    assert_true(cured_model_counters_active_share(r.c) > 0.7175 &&
                cured_model_counters_active_share(r.c) < 0.7177);
    /* line 29 (sdata[tid] += sdata[tid + s]): the add block, 11 times */
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(r.c, -1, CURED_MODEL_BY_SOURCE, &rows);
    assert_true(n > 0);
    int found = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].line == 29) {
            found = 1;
            assert_int_equal(rows[i].v[CURED_MODEL_CTR_INST], 66);
            assert_int_equal(rows[i].v[CURED_MODEL_CTR_SHARED_LD], 22);
            assert_int_equal(rows[i].v[CURED_MODEL_CTR_SHARED_ST], 11);
        }
    assert_true(found);
    free(rows);
    run_free(&r);
}

/* Strided: the add block runs in warp 0 only (index = 2 s tid < 64 means
 * tid < 32 / s): 6 times. Shared ld 12 + 1 = 13, st 2 + 6 = 8. At s = 1..16
 * the lanes touch words 2st and 2st + s, t < 32/s, spanning 64 words: two
 * per bank, 2 wavefronts for each load and the store; s = 32 one lane, 1.
 * ld wavefronts 5 * 4 + 2 + 1 = 23 (conflicts 23 - 13 = 10), st 2 + 5 * 2 +
 * 1 = 13 (conflicts 5). Divergent branches: @%p2 splits warp 0 at s = 2..32
 * (5; at s = 1 no lane jumps, warp 1 always jumps), @%p4 once: 6. */
static void test_strided_counts(void **state)
{
    (void)state;
    run r = run_kernel("seed_strided", 256);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 23);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 10);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_CONFLICTS), 5);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_BARRIERS), 14);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_DIVERGENT_BRANCHES), 6);
    run_free(&r);
}

/* Sequential: warp 0 runs the add block at s = 32..1 (6 times), warp 1 never:
 * ld 13, st 8; consecutive words: wavefronts = instructions, no conflicts.
 * Divergent: @%p2 (tid >= s) splits warp 0 at s = 16..1 (5), @%p4 once: 6. */
static void test_sequential_counts(void **state)
{
    (void)state;
    run r = run_kernel("seed_sequential", 256);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 13);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 0);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_CONFLICTS), 0);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_BARRIERS), 14);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_DIVERGENT_BRANCHES), 6);
    run_free(&r);
}

/* Shuffle: 5 shfl.sync per warp = 10; lane 0 of each warp stores (2 st, 1
 * wavefront each); one bar.sync per warp = 2; thread 0 loads the 2 warp
 * sums (the unrolled-by-4 loop is skipped for 2 warps, the remainder loop
 * runs twice: 2 ld). Divergent branches: @%p6 (lane != 0) in both warps,
 * @%p7 (tid != 0) in warp 0; thread 0's own branches have one lane: 3. */
static void test_shuffle_counts(void **state)
{
    (void)state;
    run r = run_kernel("seed_shuffle", 0);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHUFFLES), 10);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_BARRIERS), 2);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_DIVERGENT_BRANCHES), 3);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 8);
    assert_int_equal(CTR(r, CURED_MODEL_CTR_GLOBAL_ST_SECTORS), 1);
    run_free(&r);
}

/* The rows by source line name the user's lines: the shuffles of
 * __shfl_down_sync (inlined from sm_30_intrinsics.hpp) are on line 79,
 * `v += __shfl_down_sync(FULL_MASK, v, offset);`, with the code the
 * intrinsic inlined there; no row is in a toolkit header, and at most one
 * row has no line. */
static void test_shuffle_rows_at_the_calling_line(void **state)
{
    (void)state;
    run r = run_kernel("seed_shuffle", 0);
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(r.c, -1, CURED_MODEL_BY_SOURCE, &rows);
    assert_true(n > 0);
    const cured_model_module *m = cured_model_counters_module(r.c);
    uint64_t shuffles_79 = 0, inst_79 = 0;
    int no_line = 0;
    for (int i = 0; i < n; i++) {
        assert_false(ptx_toolkit_file(m, rows[i].file));
        no_line += rows[i].line == 0;
        if (rows[i].line == 0)
            assert_int_equal(i, n - 1);   /* last */
        if (rows[i].line == 79) {
            shuffles_79 = rows[i].v[CURED_MODEL_CTR_SHUFFLES];
            inst_79 = rows[i].v[CURED_MODEL_CTR_INST];
        }
    }
    assert_true(no_line <= 1);
    assert_int_equal(shuffles_79, 10);
    /* per warp and round: mov.b32, shfl, mov.b32 from the intrinsic, the
     * add of line 79: at least 4 * 5 * 2 */
    assert_true(inst_79 >= 40);
    free(rows);
    run_free(&r);
}

/* Instructions with no line, before any .loc and after `.loc 1 0 0`, are
 * one "(no line)" row, after the rows that have a line. */
static void test_one_row_without_a_line(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n"
        "\tmov.u32 %r1, 1;\n"
        "\t.loc 1 5 1\n\tmov.u32 %r2, 2;\n"
        "\t.loc 1 0 0\n\tadd.u32 %r1, %r1, %r2;\n\tret;\n}\n"
        ".file 1 \"/nowhere/k.cu\"\n";
    cured_model_module *m = test_parse_ptx(text, sizeof text - 1, "no_line");
    cured_model_counters *c = cured_model_counters_new(m, 0);
    assert_non_null(c);
    cured_model_observer obs = cured_model_counters_observer(c);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = m;
    l.function = 0;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){32, 1, 1};
    l.observers = &obs;
    l.nobservers = 1;
    cured_model_result res;
    assert_int_equal(cured_model_run(&l, &res), 0);
    cured_model_findings_clear(&res.findings);
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(c, -1, CURED_MODEL_BY_SOURCE, &rows);
    assert_int_equal(n, 2);
    assert_int_equal(rows[0].line, 5);
    assert_int_equal(rows[0].v[CURED_MODEL_CTR_INST], 1);
    assert_int_equal(rows[1].line, 0);
    assert_int_equal(rows[1].file, 0);
    assert_int_equal(rows[1].v[CURED_MODEL_CTR_INST], 3);   /* mov, add, ret */
    free(rows);
    cured_model_counters_free(c);
    cured_model_module_free(m);
}

/* The per-line table as text, and the JSON, of r's counters: a string
 * the caller frees. */
static char *report_of(const run *r, const char *ptx, size_t len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    assert_non_null(out);
    assert_int_equal(cured_model_counters_print_table(out, r->c, CURED_MODEL_BY_SOURCE,
                                                      ptx, len), 0);
    assert_int_equal(cured_model_counters_write_json(out, r->c), 0);
    fclose(out);
    return buf;
}

/* Each row ends with its line: the .cu's text when the file the PTX's
 * .file names is there (the fixture's .file, pointed at our copy), the
 * PTX line of its first instruction when it is not (the fixture as
 * committed names a path this machine lacks); the legend follows. */
static void test_rows_show_their_line(void **state)
{
    (void)state;
    size_t len;
    char *ptx = test_read_file(SEED_FIXTURES, "seed_kernels.ptx", &len);
    const char *old_path = "/work/main/tests/model/counters/seed_kernels.cu";
    char *at = strstr(ptx, old_path);
    assert_non_null(at);
    size_t head = (size_t)(at - ptx), tail = len - head - strlen(old_path);
    char *moved = malloc(len + 4096);
    assert_non_null(moved);
    int n = snprintf(moved, len + 4096, "%.*s%s/seed_kernels.cu", (int)head, ptx,
                     SEED_FIXTURES);
    memcpy(moved + n, at + strlen(old_path), tail + 1);
    size_t moved_len = (size_t)n + tail;

    run r = run_kernel_in(test_parse_ptx(moved, moved_len, "moved"), "seed_sequential", 256);
    char *text = report_of(&r, moved, moved_len);
    /* line 62: 11 trips of the add block: 6 instructions each */
    assert_non_null(strstr(text, "\nseed_kernels.cu:62 "));
    assert_non_null(strstr(text, "  sdata[tid] += sdata[tid + s];\n"));
    assert_non_null(strstr(text, "\"line\": 62, \"source_text\": \"sdata[tid] += sdata[tid + s];\""));
    assert_non_null(strstr(text, "columns of the per-line table:\n"));
    assert_non_null(strstr(text, "  ld.cf     shared-load bank conflicts"));
    assert_non_null(strstr(text, "  div.br    divergent branches"));
    assert_null(strstr(text, "ptx: ld.shared"));
    free(text);
    run_free(&r);

    r = run_kernel_in(test_parse_ptx(ptx, len, "seed_kernels.ptx"), "seed_sequential", 256);
    text = report_of(&r, ptx, len);
    assert_null(strstr(text, "sdata[tid] += sdata[tid + s];"));
    assert_non_null(strstr(text, "  ptx: ld.shared.f32 "));
    assert_non_null(strstr(text, "\"line\": 62, \"source_text\": null"));
    free(text);
    run_free(&r);
    free(moved);
    free(ptx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_table),
        cmocka_unit_test(test_divergent_counts),
        cmocka_unit_test(test_strided_counts),
        cmocka_unit_test(test_sequential_counts),
        cmocka_unit_test(test_shuffle_counts),
        cmocka_unit_test(test_shuffle_rows_at_the_calling_line),
        cmocka_unit_test(test_rows_show_their_line),
        cmocka_unit_test(test_one_row_without_a_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
