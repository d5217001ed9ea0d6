/* model_notes.h - the lines that close a `cured model` report: why the
 * step limit that stopped a launch was what it was, and, last, whether the
 * result can be trusted.
 *
 * defines: cli_model_print_notes, cli_model_json_trust
 */
#ifndef CURED_CLI_MODEL_NOTES_H
#define CURED_CLI_MODEL_NOTES_H

#include "cured_model.h"

#include <stdio.h>

/* Prints the closing notes for a run with findings f: when a step-limit
 * finding is among them and the limit was the default (default_limit),
 * how that default is sized and that --step-limit sets another; then,
 * LAST, when hazards that can change the result are among them
 * (cured_model_findings_result_hazards), "result not trustworthy: N
 * hazards (KINDS) can change what the kernel computes; --strict makes
 * them fail the run". Nothing when neither applies. */
void cli_model_print_notes(FILE *out, const cured_model_findings *f, int default_limit);

/* Writes `"result_trustworthy": true|false,` and `"result_hazards": N` on
 * the next line, indented by two (the same verdict, for --json; no comma
 * before or after). */
void cli_model_json_trust(FILE *out, const cured_model_findings *f);

#endif /* CURED_CLI_MODEL_NOTES_H */
