/* test_atomic_rows.c - the per-line table's atomic columns add up to the
 * totals: every counter summed over the rows of every function that ran
 * is its total, for kernels with shared atomics, global atomics and
 * reductions (the fidelity set's histogram, shared_atomic_patterns,
 * global_atomics, global_atomic64, shared_cas), counted by their SASS;
 * and the table shows the atomic columns only for such kernels.
 *
 *   ctest --test-dir build -R test_model_atomic_rows
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cured_model.h"
#include "cured_model_host.h"
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct atomic_case {
    const char *entry;
    cured_model_dim3 grid, block;
    const char *args[4];
} atomic_case;

static const atomic_case cases[] = {
    {"histogram", {4, 1, 1}, {256, 1, 1},
     {"in=u8[4096]:random", "bins=u32[16]:zeros", "s32:4096", NULL}},
    {"shared_atomic_patterns", {2, 1, 1}, {64, 1, 1},
     {"in=s32[64]:random", "out=s32[64]:zeros", NULL, NULL}},
    {"global_atomics", {4, 1, 1}, {64, 1, 1},
     {"in=s32[256]:random", "words=s32[74]:zeros", "fsum=f32[1]:zeros", NULL}},
    {"global_atomic64", {4, 1, 1}, {256, 1, 1},
     {"in=u64[1024]:random", "total=u64[1]:zeros", "tickets=u64[5]:zeros", NULL}},
    {"shared_cas", {2, 1, 1}, {32, 1, 1},
     {"in=s32[32]:random", "out=s32[64]:zeros", NULL, NULL}},
    {"vector_copy", {4, 1, 1}, {128, 1, 1},   /* no atomics: no atomic columns */
     {"in=f32[4000]:random", "out=f32[4000]:zeros", "s32:1000", NULL}},
};

typedef struct run {
    cured_model_source src;
    cured_model_sass_source sass;
    cured_model_counters *c;
} run;

/* Runs case k of the fidelity set, counted by its SASS. */
static void run_case(const atomic_case *k, run *r)
{
    char err[1200];
    memset(r, 0, sizeof *r);
    assert_int_equal(cured_model_source_ptx_file(&r->src, FIDELITY_DIR "/kernels.ptx", err,
                                                 sizeof err), 0);
    assert_int_equal(cured_model_source_parse(&r->src, err, sizeof err), 0);
    assert_int_equal(cured_model_sass_source_file(&r->sass, FIDELITY_DIR "/kernels.sass",
                                                  err, sizeof err), 0);
    int fn = cured_model_find_function(r->src.module, k->entry);
    assert_true(fn >= 0);
    cured_model_arg args[4];
    int n = 0;
    for (; n < 4 && k->args[n]; n++)
        assert_int_equal(cured_model_arg_parse(k->args[n], &args[n], err, sizeof err), 0);
    cured_model_memory *mem = cured_model_memory_new();
    uint8_t *params;
    size_t size;
    assert_int_equal(cured_model_args_bind(r->src.module, fn, args, n, mem, &params, &size,
                                           err, sizeof err), 0);
    r->c = cured_model_counters_new(r->src.module, fn);
    assert_int_equal(cured_model_sass_source_apply(&r->sass, r->src.module, fn, r->c, err,
                                                   sizeof err), 0);
    cured_model_observer o = cured_model_counters_observer(r->c);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = r->src.module;
    l.function = fn;
    l.grid = k->grid;
    l.block = k->block;
    l.params = params;
    l.params_size = size;
    l.memory = mem;
    l.observers = &o;
    l.nobservers = 1;
    cured_model_result res;
    assert_int_equal(cured_model_run(&l, &res), 0);
    assert_true(res.completed);
    cured_model_findings_clear(&res.findings);
    free(params);
    cured_model_memory_free(mem);
}

static void run_free(run *r)
{
    cured_model_counters_free(r->c);
    cured_model_sass_source_free(&r->sass);
    cured_model_source_free(&r->src);
}

/* Every counter: the rows by source line, over every function, sum to the
 * total; so do the rows by PTX line. */
static void test_rows_sum_to_totals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run r;
        run_case(&cases[i], &r);
        const cured_model_module *m = cured_model_counters_module(r.c);
        for (int by = CURED_MODEL_BY_SOURCE; by <= CURED_MODEL_BY_PTX; by++) {
            uint64_t sum[CURED_MODEL_CTR_COUNT] = {0};
            for (int f = 0; f < m->nfunctions; f++) {
                cured_model_counters_line *rows;
                int n = cured_model_counters_lines(r.c, f, (cured_model_counters_by)by, &rows);
                assert_true(n >= 0);
                for (int j = 0; j < n; j++)
                    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++)
                        sum[k] += rows[j].v[k];
                free(rows);
            }
            for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++)
                if (sum[k] != cured_model_counters_total(r.c, (cured_model_counter)k))
                    fail_msg("%s: %s: rows %llu, total %llu", cases[i].entry,
                             cured_model_counter_describe((cured_model_counter)k)->metric,
                             (unsigned long long)sum[k],
                             (unsigned long long)cured_model_counters_total(
                                 r.c, (cured_model_counter)k));
        }
        run_free(&r);
    }
}

/* The values the kernels' atomic totals hold (equal to ncu's on the H200,
 * docs/data/fidelity-2026-12-01): so the sums above are not of zeros. */
static void test_atomic_totals(void **state)
{
    (void)state;
    run r;
    run_case(&cases[0], &r);                   /* histogram */
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_SHARED_ATOM), 128);
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_SHARED_ATOM_WAVEFRONTS),
                     128);
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_GLOBAL_RED_SECTORS), 8);
    run_free(&r);
    run_case(&cases[1], &r);                   /* shared_atomic_patterns */
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_SHARED_ATOM_WAVEFRONTS),
                     16);
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_SHARED_ATOM_CONFLICTS),
                     4);
    run_free(&r);
    run_case(&cases[2], &r);                   /* global_atomics */
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_GLOBAL_ATOM_SECTORS),
                     256);
    assert_int_equal(cured_model_counters_total(r.c, CURED_MODEL_CTR_GLOBAL_RED_SECTORS), 544);
    run_free(&r);
}

/* The printed table of r. */
static char *table_of(run *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(cured_model_counters_print_table(f, r->c, CURED_MODEL_BY_SOURCE,
                                                      r->src.text, r->src.len), 0);
    fclose(f);
    return text;
}

/* The atomic columns are in the table of a kernel with atomics, with the
 * row of histogram's atomicAdd into shared memory (kernels.cu:275: 128
 * instructions, 128 wavefronts, 0 conflicts), and not in vector_copy's. */
static void test_atomic_columns(void **state)
{
    (void)state;
    run r;
    run_case(&cases[0], &r);
    char *text = table_of(&r);
    assert_non_null(strstr(text, " sh.atom    at.wf    at.cf "));
    assert_non_null(strstr(text, "   g.atom atom.sec    g.red  red.sec "));
    const char *row = strstr(text, "\nkernels.cu:275 ");
    assert_non_null(row);
    unsigned long long v[24];
    int n = 0;
    const char *p = row + strlen("\nkernels.cu:275 ");
    for (; n < 24 && sscanf(p, "%llu", &v[n]) == 1; n++) {
        while (*p == ' ')
            p++;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    /* inst threads sh.ld sh.st ld.wf st.wf ld.cf st.cf sh.atom at.wf at.cf */
    assert_true(n >= 11);
    assert_int_equal(v[8], 128);
    assert_int_equal(v[9], 128);
    assert_int_equal(v[10], 0);
    free(text);
    run_free(&r);
    run_case(&cases[5], &r);
    text = table_of(&r);
    char *head = strstr(text, "\nline ");   /* the header row (the legend lists all) */
    assert_non_null(head);
    *strchr(head + 1, '\n') = '\0';
    assert_non_null(strstr(head, " g.st.sec "));
    assert_null(strstr(head, "sh.atom"));
    assert_null(strstr(head, "red.sec"));
    free(text);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_sum_to_totals),
        cmocka_unit_test(test_atomic_totals),
        cmocka_unit_test(test_atomic_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
