/* model_compare.h - `cured model --compare-ncu FILE`: the model's counters
 * beside Nsight Compute's CSV of the same launch.
 *
 * defines: cli_model_compare_load, cli_model_compare_find,
 *          cli_model_compare_report, cli_model_ncu_metrics
 */
#ifndef CURED_CLI_MODEL_COMPARE_H
#define CURED_CLI_MODEL_COMPARE_H

#include "cured_model.h"
#include "cured_model_host.h"

#include <stdio.h>

/* Reads and parses the CSV at path into *r. Returns 0, or 2 after one
 * line on stderr (unreadable, malformed: "FILE: line 3: ..."). */
int cli_model_compare_load(const char *path, cured_model_ncu_report *r);

/* The kernel of r that is `entry` launched as l: its index in *kernel.
 * Returns 0, or 2 after one line on stderr naming what the CSV has
 * instead: other kernels, or this one with another grid or block. */
int cli_model_compare_find(const char *path, const cured_model_ncu_report *r,
                           const char *entry, const cured_model_launch *l, int *kernel);

/* Prints, after the run, the comparison of counters c with kernel `kernel`
 * of r (inexact: the SASS match's CURED_MODEL_SASS_INEXACT_* bits) as a
 * table, or with json as one JSON object (no newline after it); stores
 * the number of values that differ without a known reason in *different.
 * Returns 0, or 2 after one line on stderr when the CSV has none of the
 * model's metrics for the kernel. */
int cli_model_compare_report(FILE *out, const char *path, const cured_model_ncu_report *r,
                             int kernel, const cured_model_launch *l,
                             const cured_model_counters *c, unsigned inexact, int json,
                             int *different);

/* Prints the ncu metrics the comparison reads, comma-separated on one
 * line: what `ncu --metrics` takes (`cured model --ncu-metrics`). */
void cli_model_ncu_metrics(FILE *out);

#endif /* CURED_CLI_MODEL_COMPARE_H */
