/* model_output.h - what `cured model` prints: findings one per line,
 * buffers' values, and the JSON pieces of --json.
 *
 * defines: cli_print_findings, cli_print_buffer, cli_json_findings,
 *          cli_json_buffer, cli_print_steps
 */
#ifndef CURED_CLI_MODEL_OUTPUT_H
#define CURED_CLI_MODEL_OUTPUT_H

#include "json_out.h"

#include "cured_model.h"
#include "ptx.h"
#include "args.h"
#include "step_view.h"

#include <stddef.h>
#include <stdio.h>

/* Prints each finding on one line: severity, kind, block, thread, the
 * instruction's PTX text, its PTX line, its source file:line (and the
 * kernel's line it was inlined in), how many more times it happened, and
 * the model's message.
 * Prints nothing for an empty list. */
void cli_print_findings(FILE *out, const cured_model_findings *list,
                        const cured_model_module *module, const char *ptx_text,
                        size_t ptx_len);

/* Prints "NAME f32[COUNT] = v0 v1 ... v(k-1) ... last" : the first 8 and the
 * last 4 values when there are more than 16, every value when `all`.
 * Floats are printed so that they read back to the same bits (%.9g/%.17g). */
void cli_print_buffer(FILE *out, const cli_arg_spec *spec,
                      const cured_model_buffer *buffer, int all);

/* Prints the seed view's tree steps, one line each: block, barrier
 * interval, counted accesses, adding threads, worst bank degree, divergent
 * of participating warps. Prints a line saying so when there are none. */
void cli_print_steps(FILE *out, const cured_model_step_view *view);

/* Writes the findings as a JSON array of objects. */
void cli_json_findings(FILE *out, const cured_model_findings *list,
                       const cured_model_module *module, const char *ptx_text,
                       size_t ptx_len);

/* Writes a buffer as a JSON object {"type", "count", "values"}: every
 * value when `all`, else the first 8 and the last 4 ("values" and
 * "last_values") when there are more than 16. Floats that are not finite
 * are written as strings ("nan", "inf", "-inf"). */
void cli_json_buffer(FILE *out, const cli_arg_spec *spec,
                     const cured_model_buffer *buffer, int all);

#endif /* CURED_CLI_MODEL_OUTPUT_H */
