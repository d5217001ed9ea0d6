/* exec_fixture.c - helpers for the interpreter's tests (exec_fixture.h).
 *
 * defines: xf_load, xf_free, xf_kernel, xf_param, xf_buffer, xf_run,
 *          xf_run_pairs, xf_line_of, xf_has_finding
 */
#include "exec_fixture.h"
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

void xf_load(exec_fixture *fx, const char *ptx)
{
    memset(fx, 0, sizeof *fx);
    fx->module = test_parse_ptx_file(EXEC_FIXTURES, ptx);
    fx->memory = cured_model_memory_new();
    assert_non_null(fx->memory);
    fx->function = -1;
}

void xf_free(exec_fixture *fx)
{
    cured_model_findings_clear(&fx->result.findings);
    cured_model_memory_free(fx->memory);
    cured_model_module_free(fx->module);
    memset(fx, 0, sizeof *fx);
}

void xf_kernel(exec_fixture *fx, const char *name)
{
    fx->function = cured_model_find_function(fx->module, name);
    if (fx->function < 0)
        fail_msg("no kernel %s", name);
    memset(fx->params, 0, sizeof fx->params);
    memset(&fx->launch, 0, sizeof fx->launch);
    fx->launch.module = fx->module;
    fx->launch.function = fx->function;
    fx->launch.memory = fx->memory;
    fx->launch.params = fx->params;
    fx->launch.params_size = (size_t)fx->module->functions[fx->function].param_bytes;
}

void xf_param(exec_fixture *fx, int index, uint64_t v)
{
    const ptx_function *f = &fx->module->functions[fx->function];
    assert_true(index >= 0 && index < f->nparams);
    const ptx_symbol *s = &fx->module->symbols[f->params[index]];
    assert_true(s->offset + s->size <= sizeof fx->params);
    memcpy(fx->params + s->offset, &v, (size_t)(s->size < 8 ? s->size : 8));
}

uint64_t xf_buffer(exec_fixture *fx, const char *name, uint64_t bytes, const void *init,
                   void **host)
{
    cured_model_buffer *b = cured_model_memory_alloc(fx->memory, name, bytes, 1);
    assert_non_null(b);
    if (init != NULL)
        memcpy(b->data, init, (size_t)bytes);
    if (host != NULL)
        *host = b->data;
    return b->addr;
}

int xf_run(exec_fixture *fx, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
           unsigned bz)
{
    fx->launch.grid = (cured_model_dim3){gx, gy, gz};
    fx->launch.block = (cured_model_dim3){bx, by, bz};
    cured_model_findings_clear(&fx->result.findings);
    return cured_model_run(&fx->launch, &fx->result);
}

void *xf_run_pairs(exec_fixture *fx, const char *ptx, const char *kernel, const void *pairs,
                   int n, int cols)
{
    const uint32_t *p = pairs;
    uint32_t *a, *b;
    void *out;
    xf_load(fx, ptx);
    xf_kernel(fx, kernel);
    xf_param(fx, 0, xf_buffer(fx, "a", (uint64_t)n * 4, NULL, (void **)&a));
    xf_param(fx, 1, xf_buffer(fx, "b", (uint64_t)n * 4, NULL, (void **)&b));
    xf_param(fx, 2, xf_buffer(fx, "out", (uint64_t)n * (uint64_t)cols * 4, NULL, &out));
    for (int i = 0; i < n; i++) {
        a[i] = p[2 * i];
        b[i] = p[2 * i + 1];
    }
    assert_int_equal(xf_run(fx, 1, 1, 1, (unsigned)n, 1, 1), 0);
    return out;
}

uint32_t xf_line_of(const char *file, const char *snippet)
{
    char *text = test_read_file(EXEC_FIXTURES, file, NULL);
    char *at = strstr(text, snippet);
    if (at == NULL || strstr(at + 1, snippet) != NULL)
        fail_msg("'%s' is not on exactly one line of %s", snippet, file);
    uint32_t line = test_line_number(text, at);
    free(text);
    return line;
}

const cured_model_finding *xf_has_finding(const exec_fixture *fx, cured_model_finding_kind kind)
{
    for (int i = 0; i < fx->result.findings.count; i++)
        if (fx->result.findings.items[i].kind == kind)
            return &fx->result.findings.items[i];
    return NULL;
}
