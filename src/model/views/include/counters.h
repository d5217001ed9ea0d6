/* counters.h - the model's hardware view: what Nsight Compute would count
 * for a kernel, per kernel, per PTX instruction and per source line.
 *
 * defines: cured_model_counter, cured_model_counter_info, cured_model_counter_describe,
 *          cured_model_counters, cured_model_counters_new, cured_model_counters_free,
 *          cured_model_counters_reset, cured_model_counters_observer,
 *          cured_model_counters_use_sass, cured_model_counters_sass_label
 *          (these in counters_sass.c),
 *          cured_model_counters_total, cured_model_counters_totals, cured_model_counters_at,
 *          cured_model_counters_active_share, cured_model_counters_by,
 *          cured_model_counters_line, cured_model_counters_lines,
 *          cured_model_counters_function, cured_model_counters_module,
 *          cured_model_counters_complete,
 *          cured_model_counters_print_table, cured_model_counters_print_legend,
 *          cured_model_counters_write_json
 *          (the last two are in counters_report.c)
 *
 * Usage: c = cured_model_counters_new(module, entry); put
 * cured_model_counters_observer(c) in the launch's observers; cured_model_run; read the
 * totals, the rows, or print them; cured_model_counters_free(c). Several launches
 * add up until cured_model_counters_reset.
 *
 * Counts are per PTX instruction; memory instructions count as the SASS
 * issues them once given the matcher's facts (cured_model_counters_use_sass).
 * The rules are in docs/counting.md: "PTX and SASS", "Predicated SASS"
 * (rules (1) and (2)), "The counters' conventions".
 */
#ifndef CURED_MODEL_COUNTERS_H
#define CURED_MODEL_COUNTERS_H

#include "cured_model.h"
#include "ptx.h"

#include <stdint.h>
#include <stdio.h>


/* ------------------------------------------------------------- SASS */

typedef struct cured_model_sass_facts cured_model_sass_facts;  /* sass_facts.h */

/* Makes c count memory instructions as the SASS issues them, by the facts
 * f (NULL: PTX-level counts again). c keeps the pointer: f must outlive
 * every run and report of c, and facts added to f later (the matcher, for
 * another entry) count from then on. Returns 0, or -1 when f describes
 * another module than c counts (c is left as it was). */
int cured_model_counters_use_sass(cured_model_counters *c, const cured_model_sass_facts *f);

/* Where the SASS the counts follow came from (the label of the facts in
 * use), or NULL when the counts are PTX-level (or the facts have no
 * label). */
const char *cured_model_counters_sass_label(const cured_model_counters *c);


#endif /* CURED_MODEL_COUNTERS_H */
