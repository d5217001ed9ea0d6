/* counters_impl.h - the counters' internal state, shared by counters.c (the
 * observer and the rows) and counters_sass.c (SASS facts, skip lists and
 * the predicated-SASS rules). Not an API: only counters*.c include it.
 *
 * defines: counters_rows, struct cured_model_counters, counters_row, counters_add,
 *          counters_fact, counters_sass_free, counters_issue_idle,
 *          counters_issue_skipped
 */
#ifndef CURED_MODEL_COUNTERS_IMPL_H
#define CURED_MODEL_COUNTERS_IMPL_H

#include "counters.h"

#include <stdint.h>

/* Per-function state: rows allocated when the function first runs, SASS
 * facts and skip lists when the matcher sets them. */
typedef struct counters_rows {
    uint64_t *v;            /* ncode * CURED_MODEL_CTR_COUNT, NULL until it runs */
    cured_model_sass_fact *sass;  /* ncode facts, NULL when none was set */
    uint8_t *has_fact;      /* ncode flags: sass[pc] is set */
    int32_t **skips;        /* ncode skip lists, each [0] = its length */
} counters_rows;

struct cured_model_counters {
    const cured_model_module *module;
    int function;
    int incomplete;             /* some rows could not be allocated */
    uint64_t totals[CURED_MODEL_CTR_COUNT];
    counters_rows *rows;        /* module->nfunctions */
    char sass_label[201];       /* "" for PTX-level counts */
};

/* The row of (function, pc), allocating the function's rows on first use;
 * NULL when out of range or out of host memory (then only totals count). */
uint64_t *counters_row(cured_model_counters *c, int function, int pc);

/* Adds n to counter id of the row (may be NULL) and of the totals. */
void counters_add(cured_model_counters *c, uint64_t *row, cured_model_counter id,
                  uint64_t n);

/* The fact at (function, pc), NULL when there is none (no range checks:
 * function and pc must be valid). */
const cured_model_sass_fact *counters_fact(const cured_model_counters *c, int function,
                                     int pc);

/* Frees function f's facts and skip lists. */
void counters_sass_free(cured_model_counters *c, int f);

/* Rule (1) of counters.h: e issued a memory instruction with no lane whose
 * guard holds; counts its SASS pieces when its fact says predicated. */
void counters_issue_idle(cured_model_counters *c, const cured_model_event *e);

/* Rule (2): every active lane of e's warp jumped at the branch e; counts
 * the branch's skip list. */
void counters_issue_skipped(cured_model_counters *c, const cured_model_event *e);

#endif /* CURED_MODEL_COUNTERS_IMPL_H */
