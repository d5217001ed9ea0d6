/* lesson_legend.h - what the lesson table's columns mean, said under it.
 *
 * defines: cli_lesson_legend
 */
#ifndef CURED_CLI_LESSON_LEGEND_H
#define CURED_CLI_LESSON_LEGEND_H

#include "cured_model.h"

#include <stdint.h>
#include <stdio.h>

/* Prints, under the lesson table, what each column counts and leaves out,
 * with the runs' own numbers (views and counters: divergent, strided,
 * sequential, shuffle; block: threads per block), the maths of the tree
 * measured beside the formula (the sequential run), and the commands to
 * try next. Returns 0, or -1 on a write error. */
int cli_lesson_legend(FILE *out, const cured_model_step_view *const views[4],
                      const cured_model_counters *const counters[4], uint32_t block);

#endif /* CURED_CLI_LESSON_LEGEND_H */
