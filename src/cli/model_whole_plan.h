/* model_whole_plan.h - `cured model KERNEL --whole-plan`: every launch of
 * the plan libcured's dispatch makes for a catalogue kernel, run in the
 * model one after another, and the sum it leaves in *out beside a
 * reference computed in C.
 *
 * defines: cli_model_whole_plan
 */
#ifndef CURED_CLI_MODEL_WHOLE_PLAN_H
#define CURED_CLI_MODEL_WHOLE_PLAN_H

#include "model_options.h"

/* Runs o->kernel's whole plan (cured_dispatch_plan on an H200's shape, for
 * o->n random values of o->dtype seeded with o->seed, blocks of o->block.x
 * or 256 threads) through src/cli/model_plan.c, the counters (summed over
 * the launches) and the checks watching, and prints each launch with its
 * findings, the counters, and the final value beside the reference
 * (src/reference): the exact sum rounded to float64 for floats, checked
 * within the plan's bound, the exact sum modulo 2^bits for integers. o->json: one JSON object instead. Returns the exit status: 0,
 * 1 when a launch had error findings or did not complete (any finding with
 * o->strict), 2 after one line on stderr (no embedded PTX, a bad --n or
 * --block, a launch the model refuses). */
int cli_model_whole_plan(const cli_model_options *o);

#endif /* CURED_CLI_MODEL_WHOLE_PLAN_H */
