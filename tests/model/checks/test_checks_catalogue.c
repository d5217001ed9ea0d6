/* test_checks_catalogue.c - the checks over the real catalogue: every
 * block-level kernel of src/kernels/classic.cu, run in the model from the
 * embedded catalogue PTX, sums right and raises nothing, except the
 * unroll_warp exhibit, whose implicit warp-synchronous tail races (and only
 * there), while its __syncwarp twin is silent.
 *
 *   ctest --test-dir build -R test_checks_catalogue
 *
 * Skipped when the build has no embedded catalogue PTX (no CUDA compiler).
 * Inputs are small integers, so f32 sums are exact too; the output buffer
 * starts unwritten, so the global initcheck runs as well.
 */
#include "catalogue_ptx.h"
#include "checks.h"
#include "cured.h"
#include "ref_sum.h"
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define N 1000u

static cured_model_module *catalogue(void)
{
    size_t len;
    const char *text = cured_model_catalogue_ptx(&len);
    if (text == NULL)
        return NULL;
    return test_parse_ptx(text, len, "catalogue.ptx");
}

/* The lines of classic.cu's warp_tail_unsafe: from its signature to the
 * closing brace. */
static void unsafe_tail_lines(uint32_t *first, uint32_t *last)
{
    FILE *f = fopen(CHECKS_KERNELS "/classic.cu", "r");
    assert_non_null(f);
    char line[512];
    uint32_t at = 0;
    *first = *last = 0;
    while (fgets(line, sizeof line, f)) {
        at++;
        if (*first == 0 && strstr(line, "warp_tail_unsafe(volatile"))
            *first = at;
        if (*first != 0 && line[0] == '}') {
            *last = at;
            break;
        }
    }
    fclose(f);
    assert_true(*first > 0 && *last > *first);
}

typedef struct kernel_case {
    const char *name;
    int tile;            /* elements per block: 1 = B, 2 = 2B (the grid; the
                            kernels that loop take any grid) */
    int dynamic_shared;  /* 0: none, 1: B elements, 2: max(B, 64) elements */
} kernel_case;

static const kernel_case cases[] = {
    {"divergent", 1, 1},   {"strided", 1, 1},  {"sequential", 1, 1},
    {"first_add", 2, 1},   {"unroll_warp", 2, 2}, {"unroll_warp_sync", 2, 2},
    {"unrolled", 2, 2},    {"multi_elem", 2, 2},  {"shuffle", 2, 0},
    {"shuffle_wide", 1, 0},
};

/* Runs kernel c for dtype ("i32" or "f32") with blocks of B threads over
 * in[i] = i % 7 + 1. Adds the run's findings (the interpreter's and the
 * checks') to *all and returns 1 when the run completed and its partial sums
 * add up to the total, else 0 (saying why). */
static int run_case(const cured_model_module *m, const kernel_case *c, const char *dtype,
                     uint32_t B, cured_model_findings *all)
{
    char entry[256];
    int rc = cured_model_catalogue_entry_name(m, c->name, dtype, (int)B, entry, sizeof entry);
    if (rc != CURED_MODEL_CATALOGUE_OK)
        fail_msg("no catalogue entry for %s %s %u (%d)", c->name, dtype, B, rc);
    int fn = cured_model_find_function(m, entry);
    assert_true(fn >= 0);
    int is_float = strcmp(dtype, "f32") == 0;

    uint32_t tile = B * (uint32_t)c->tile;
    uint32_t grid = (N + tile - 1) / tile;
    uint32_t elems = c->dynamic_shared == 2 && B < 64 ? 64 : B;
    uint32_t shared = c->dynamic_shared ? elems * 4 : 0;

    cured_model_memory *mem = cured_model_memory_new();
    assert_non_null(mem);
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", 4 * N, 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", 4ull * grid, 0);
    assert_non_null(in);
    assert_non_null(out);
    for (uint32_t i = 0; i < N; i++) {
        int32_t v = (int32_t)(i % 7 + 1);
        float fv = (float)v;
        memcpy(in->data + 4 * i, is_float ? (const void *)&fv : (const void *)&v, 4);
    }
    /* the exact sum (small positive integers: exact as floats too) */
    cured_ref_sum ref;
    cured_ref_sum_of(is_float ? CURED_F32 : CURED_I32, in->data, N, &ref);
    int64_t want = is_float ? (int64_t)cured_ref_sum_double(&ref) : (int64_t)ref.exact_lo;
    const ptx_function *f = &m->functions[fn];
    assert_int_equal(f->nparams, 3);
    uint8_t params[64] = {0};
    uint32_t n = N;
    memcpy(params + m->symbols[f->params[0]].offset, &in->addr, 8);
    memcpy(params + m->symbols[f->params[1]].offset, &out->addr, 8);
    memcpy(params + m->symbols[f->params[2]].offset, &n, 4);

    cured_model_findings found = {0};
    cured_model_checks *checks = cured_model_checks_new(&found);
    assert_non_null(checks);
    cured_model_observer obs = cured_model_checks_observer(checks);
    cured_model_launch launch = {
        .module = m, .function = fn, .grid = {grid, 1, 1}, .block = {B, 1, 1},
        .dynamic_shared_bytes = shared, .params = params,
        .params_size = (size_t)f->param_bytes, .memory = mem, .observers = &obs,
        .nobservers = 1, .check_uninit_global = 1};
    cured_model_result result;
    memset(&result, 0, sizeof result);
    assert_int_equal(cured_model_run(&launch, &result), 0);
    cured_model_checks_free(checks);

    for (int pass = 0; pass < 2; pass++) {
        const cured_model_findings *list = pass ? &found : &result.findings;
        for (int i = 0; i < list->count; i++) {
            cured_model_findings_add(all, &list->items[i]);
            print_message("  %s %s B=%u: %s, line %u: %s\n", c->name, dtype, B,
                          cured_model_finding_kind_name(list->items[i].kind),
                          list->items[i].src_line, list->items[i].message);
        }
    }
    int ok = result.completed;
    if (ok) {
        int64_t got = 0;
        for (uint32_t b = 0; b < grid; b++) {
            int32_t v;
            float fv;
            memcpy(is_float ? (void *)&fv : (void *)&v, out->data + 4 * b, 4);
            got += is_float ? (int64_t)fv : v;
        }
        if (got != want) {
            print_message("  %s %s B=%u: partial sums add to %lld, want %lld\n", c->name,
                          dtype, B, (long long)got, (long long)want);
            ok = 0;
        }
    } else {
        print_message("  %s %s B=%u did not complete\n", c->name, dtype, B);
    }
    cured_model_findings_clear(&result.findings);
    cured_model_findings_clear(&found);
    cured_model_memory_free(mem);
    return ok;
}

/* The cases are the catalogue's block-level kernels, all of them, in
 * catalogue order: a kernel added to classic.cu is run here too. */
static void test_cases_are_the_block_level_kernels(void **state)
{
    (void)state;
    size_t c = 0;
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const cured_kernel_info *info = cured_catalogue_entry(k);
        if (info->level != CURED_LEVEL_BLOCK)
            continue;
        assert_true(c < sizeof cases / sizeof cases[0]);
        assert_string_equal(cases[c].name, info->name);
        c++;
    }
    assert_int_equal(c, sizeof cases / sizeof cases[0]);
}

static void test_correct_kernels_are_silent(void **state)
{
    (void)state;
    cured_model_module *m = catalogue();
    if (m == NULL)
        skip();
    cured_model_findings all = {0};
    static const uint32_t blocks[] = {32, 64, 256};
    int runs = 0, good = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (strcmp(cases[k].name, "unroll_warp") == 0)
            continue;
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            good += run_case(m, &cases[k], "i32", blocks[b], &all);
            good += run_case(m, &cases[k], "f32", blocks[b], &all);
            runs += 2;
        }
    }
    assert_int_equal(good, runs);
    assert_int_equal(all.count, 0);
    cured_model_findings_clear(&all);
    cured_model_module_free(m);
}

static void test_unroll_warp_exhibit_races_in_its_tail(void **state)
{
    (void)state;
    cured_model_module *m = catalogue();
    if (m == NULL)
        skip();
    uint32_t first, last;
    unsafe_tail_lines(&first, &last);
    static const kernel_case unroll = {"unroll_warp", 2, 2};
    static const uint32_t blocks[] = {32, 64, 256};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        cured_model_findings all = {0};
        assert_true(run_case(m, &unroll, "i32", blocks[b], &all)); /* lock-step: right */
        assert_true(all.count >= 1);
        for (int i = 0; i < all.count; i++) {
            const cured_model_finding *f = &all.items[i];
            assert_int_equal(f->kind, CURED_MODEL_FIND_RACE_SHARED);
            assert_true(f->src_line >= first && f->src_line <= last);
            assert_non_null(strstr(f->message, "classic.cu"));
            assert_non_null(strstr(f->message, "(no __syncwarp between)"));
        }
        cured_model_findings_clear(&all);
    }
    cured_model_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases_are_the_block_level_kernels),
        cmocka_unit_test(test_correct_kernels_are_silent),
        cmocka_unit_test(test_unroll_warp_exhibit_races_in_its_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
