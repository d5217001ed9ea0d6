/* test_exec_robust.c - the interpreter never crashes: every kernel of
 * every fixture runs with null pointers, with pointers to a buffer too
 * small, and with random parameter bytes, in an odd-sized block; each run
 * must either complete or stop with an error finding (and the sanitizer
 * builds must stay silent).
 *
 *   ctest --test-dir build -R test_exec_robust
 */
#include "cured_model.h"
#include "ptx.h"
#include "ref_fill.h"
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static const char *const fixtures[] = {"alu.ptx",  "atomics.ptx",  "control.ptx", "cvt.ptx",
                                       "misc.ptx", "findings.ptx", "reduce.ptx",  "warp.ptx"};

/* Runs `fn` of m with parameters made by `how` (0 zeros, 1 a small buffer,
 * 2 random bytes: src/reference's random bits, *drawn of them used so far). */
static void run_once(const cured_model_module *m, int fn, int how, uint64_t *drawn)
{
    const ptx_function *f = &m->functions[fn];
    cured_model_memory *mem = cured_model_memory_new();
    assert_non_null(mem);
    cured_model_buffer *small = cured_model_memory_alloc(mem, "small", 64, 1);
    assert_non_null(small);
    uint8_t params[512];
    assert_true(f->param_bytes <= sizeof params);
    memset(params, 0, sizeof params);
    for (int i = 0; i < f->nparams; i++) {
        const ptx_symbol *s = &m->symbols[f->params[i]];
        uint64_t v = 0;
        if (how == 1)
            v = s->size == 8 ? small->addr : 3;
        else if (how == 2)
            v = cured_ref_random_bits(12345, (*drawn)++) >> 11;
        memcpy(params + s->offset, &v, (size_t)(s->size < 8 ? s->size : 8));
    }
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = m;
    l.function = fn;
    l.grid = (cured_model_dim3){2, 1, 1};
    l.block = (cured_model_dim3){33, 1, 1};
    l.dynamic_shared_bytes = 64;
    l.params = params;
    l.params_size = (size_t)f->param_bytes;
    l.memory = mem;
    l.step_limit = 20000;
    cured_model_result r;
    int rc = cured_model_run(&l, &r);
    assert_int_equal(rc, 0);
    if (!r.completed && r.findings.errors == 0)
        fail_msg("%s: stopped without an error finding", f->name);
    cured_model_findings_clear(&r.findings);
    cured_model_memory_free(mem);
}

static void test_every_kernel_survives_bad_input(void **state)
{
    (void)state;
    uint64_t drawn = 0;
    int runs = 0;
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        cured_model_module *m = test_parse_ptx_file(EXEC_FIXTURES, fixtures[i]);
        for (int fn = 0; fn < m->nfunctions; fn++) {
            if (!m->functions[fn].is_entry)
                continue;
            for (int how = 0; how < 3; how++) {
                run_once(m, fn, how, &drawn);
                runs++;
            }
        }
        cured_model_module_free(m);
    }
    assert_true(runs >= 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel_survives_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
