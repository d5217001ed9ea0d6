/* sass_fixture.c - the SASS tests' fixtures and runs (sass_fixture.h).
 *
 * defines: fixture_text, fixture_ptx, fixture_sass, fixture_run,
 *          fixture_counts_free
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sass_fixture.h"
#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fixture_text(const char *name, size_t *len)
{
    return test_read_file(SASS_FIXTURES, name, len);
}

cured_model_module *fixture_ptx(const char *name)
{
    return test_parse_ptx_file(SASS_FIXTURES, name);
}

sass_module *fixture_sass(const char *name)
{
    size_t len;
    char *text = fixture_text(name, &len);
    sass_error err;
    sass_module *s = sass_parse(text, len, &err);
    free(text);
    if (s == NULL)
        fail_msg("%s: %s", name, err.message);
    return s;
}

void fixture_counts_free(fixture_counts *r)
{
    cured_model_counters_free(r->c);
    cured_model_sass_facts_free(r->facts);
    r->c = NULL;
    r->facts = NULL;
}

fixture_counts fixture_run(const cured_model_module *m, const sass_module *sass,
                           const fixture_launch *l, cured_model_sass_summary *summary)
{
    int fn = cured_model_find_function(m, l->entry);
    if (fn < 0)
        fail_msg("no entry %s", l->entry);
    fixture_counts r = {cured_model_counters_new(m, fn), NULL};
    cured_model_counters *c = r.c;
    assert_non_null(c);
    if (sass != NULL) {
        cured_model_sass_summary s;
        r.facts = cured_model_sass_facts_new(m, NULL);
        assert_non_null(r.facts);
        assert_int_equal(cured_model_sass_match(r.facts, fn, sass, &s), 0);
        assert_int_equal(cured_model_counters_use_sass(c, r.facts), 0);
        /* the memory counts are exact; notes on ptxas's own branches and
           duplicated shuffles may be there */
        if (s.inexact & CURED_MODEL_SASS_INEXACT_MEMORY)
            for (int i = 0; i < s.nnotes; i++)
                print_error("%s: note at PTX line %u: %s\n", l->entry,
                            s.notes[i].ptx_line, s.notes[i].text);
        assert_false(s.inexact & CURED_MODEL_SASS_INEXACT_MEMORY);
        assert_int_equal(s.mode, CURED_MODEL_SASS_BY_PTX_LINE);
        if (summary != NULL)
            *summary = s;
        else
            cured_model_sass_summary_free(&s);
    }
    cured_model_memory *mem = cured_model_memory_new();
    assert_non_null(mem);
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", (uint64_t)l->n * 4, 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out",
                                           (uint64_t)l->grid * l->block * 4, 1);
    assert_non_null(in);
    assert_non_null(out);
    for (uint32_t i = 0; i < l->n; i++) {
        float one = 1.0f;
        memcpy(in->data + 4 * (size_t)i, &one, 4);
    }
    uint8_t params[24];
    memset(params, 0, sizeof params);
    memcpy(params, &in->addr, 8);
    memcpy(params + 8, &out->addr, 8);
    uint64_t n64 = l->n;
    uint32_t n32 = l->n;
    if (l->n_is_u64)
        memcpy(params + 16, &n64, 8);
    else
        memcpy(params + 16, &n32, 4);
    cured_model_observer obs[1] = {cured_model_counters_observer(c)};
    cured_model_launch launch;
    memset(&launch, 0, sizeof launch);
    launch.module = m;
    launch.function = fn;
    launch.grid = (cured_model_dim3){l->grid, 1, 1};
    launch.block = (cured_model_dim3){l->block, 1, 1};
    launch.dynamic_shared_bytes = l->dynamic_shared;
    launch.params = params;
    launch.params_size = m->functions[fn].param_bytes;
    launch.memory = mem;
    launch.observers = obs;
    launch.nobservers = 1;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&launch, &res), 0);
    for (int i = 0; i < res.findings.count; i++)
        print_error("%s: finding: %s\n", l->entry, res.findings.items[i].message);
    assert_int_equal(res.findings.errors, 0);
    assert_true(res.completed);
    cured_model_findings_clear(&res.findings);
    cured_model_memory_free(mem);
    return r;
}
