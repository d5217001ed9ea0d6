/* counters_impl.h - the counters' internal state and how to count into it,
 * shared by counters.c (the observer, the rows) and counters_sass.c (the
 * SASS facts in use and the predicated-SASS rules). Not an API: only
 * counters*.c include it.
 *
 * defines: counters_rows, struct cured_model_counters, counters_row,
 *          counters_add, counters_issue_idle, counters_issue_skipped
 *          (these two in counters_sass.c)
 *
 * The counters' files, top down: counters_report.c (tables, JSON, through
 * counters.h) -> counters.c (the observer, the accessors, the rows) ->
 * counters_sass.c (the SASS rules) -> this header (the state, counting
 * into a row); counters.c also uses bank.h (bank and sector rules), both
 * read sass_facts.h.
 */
#ifndef CURED_MODEL_COUNTERS_IMPL_H
#define CURED_MODEL_COUNTERS_IMPL_H

#include "counters.h"
#include "sass_facts.h"

#include <stdint.h>
#include <stdlib.h>

/* Per-function state: rows allocated when the function first runs. */
typedef struct counters_rows {
    uint64_t *v;            /* ncode * CURED_MODEL_CTR_COUNT, NULL until it runs */
} counters_rows;

struct cured_model_counters {
    const cured_model_module *module;
    int function;
    int incomplete;             /* some rows could not be allocated */
    uint64_t totals[CURED_MODEL_CTR_COUNT];
    counters_rows *rows;        /* module->nfunctions */
    const cured_model_sass_facts *sass;  /* the SASS facts, NULL: PTX-level */
};

/* The row of (function, pc), allocating the function's rows on first use;
 * NULL when out of range or out of host memory (then only totals count).
 * Inline: the observer asks for a row at every event. */
static inline uint64_t *counters_row(cured_model_counters *c, int function, int pc)
{
    if (function < 0 || function >= c->module->nfunctions)
        return NULL;
    const ptx_function *fn = &c->module->functions[function];
    if (pc < 0 || pc >= fn->ncode)
        return NULL;
    counters_rows *r = &c->rows[function];
    if (r->v == NULL) {
        r->v = calloc((size_t)fn->ncode * CURED_MODEL_CTR_COUNT, sizeof(uint64_t));
        if (r->v == NULL) {
            c->incomplete = 1;
            return NULL;
        }
    }
    return r->v + (size_t)pc * CURED_MODEL_CTR_COUNT;
}

/* Adds n to counter id of the row (may be NULL) and of the totals. */
static inline void counters_add(cured_model_counters *c, uint64_t *row,
                                cured_model_counter id, uint64_t n)
{
    c->totals[id] += n;
    if (row != NULL)
        row[id] += n;
}

/* Rule (1) of docs/counting.md, "Predicated SASS": e issued a memory
 * instruction with no lane whose guard holds; counts its SASS pieces when its fact says predicated (c
 * must use SASS facts). */
void counters_issue_idle(cured_model_counters *c, const cured_model_event *e);

/* Rule (2): every active lane of e's warp jumped at the branch e; counts
 * the branch's skip list (c must use SASS facts). */
void counters_issue_skipped(cured_model_counters *c, const cured_model_event *e);

#endif /* CURED_MODEL_COUNTERS_IMPL_H */
