/* model_plan.h - a catalogue kernel's whole launch plan, run in the model:
 * what cured_catalogue_run does on a GPU, launch after launch, on the CPU
 * (`cured model KERNEL --whole-plan`, and tests/model/catalogue's sums).
 *
 * defines: cli_plan_launch, cli_plan_run, cli_plan_watch,
 *          cli_plan_run_catalogue, cli_plan_run_catalogue_at,
 *          cli_plan_run_watched, cli_plan_run_clear
 *
 * The plan is the dispatch's own (cured_dispatch_plan, src/lib/plan.c) for a
 * device shape; the buffers and parameters are those src/lib/run.cu passes,
 * as docs/kernels.md lays them out: block-level kernels pass after pass,
 * pass k writing scratch buffer k % 2 and the last one *out; two_pass's two
 * launches through scratch buffer 0; atomic after zeroing *out; single_pass
 * with its counter in the scratch's zeroed state area. The scratch is
 * cured_catalogue_temp_bytes() long, exactly what a caller allocates, so a
 * plan that outgrew it is an out-of-bounds finding.
 *
 * Every launch runs with the model's checks (racecheck, initcheck of shared
 * and global memory) attached. *out (and the element after it, a guard) and
 * the scratch's partial area start poisoned (0xFF bytes for floats, a NaN,
 * 0xAB for integers) and marked unwritten, so a read of a value no launch
 * wrote is a finding and a value never written shows as poison.
 */
#ifndef CURED_CLI_MODEL_PLAN_H
#define CURED_CLI_MODEL_PLAN_H

#include "cured.h"
#include "dispatch.h"
#include "cured_model.h"

#include <stddef.h>
#include <stdint.h>

/* One launch of the plan, as it ran. */
typedef struct cli_plan_launch {
    int function;                /* the entry run: an index into the module */
    int completed;               /* ran to its end with no error finding */
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    cured_model_findings findings;     /* this launch's: interpreter and checks */
} cli_plan_launch;

/* What one run of a plan did. */
typedef struct cli_plan_run {
    cured_plan plan;             /* the dispatch's plan that was run */
    int launches_run;            /* launches that ran to their end */
    int launches_started;        /* launch[0 .. launches_started) are filled */
    cli_plan_launch launch[CURED_MAX_LAUNCHES];
    int completed;               /* 1: every launch of the plan completed */
    uint8_t value[8];            /* *out after the run (element-size bytes) */
    int wrote_past_out;          /* 1: the element after *out lost its poison */
    int state_dirty;             /* 1: the scratch's state area (the first
                                    CURED_TEMP_STATE_BYTES) is not zero after */
    uint64_t thread_instructions; /* over every launch */
    cured_model_findings findings;     /* every launch's together */
    char error[256];             /* why the plan could not run (return -1) */
} cli_plan_run;

/* What a caller adds to every launch of a run (cli_plan_run_watched). */
typedef struct cli_plan_watch {
    const cured_model_observer *observers; /* run beside the checks (counters ...) */
    int nobservers;
    uint64_t step_limit;         /* per launch; 0: the model's default */
    /* Called before launch k runs `function` (an index into the module):
     * where a caller prepares per-entry state (the SASS facts of the
     * counters). Returns 0, or -1 with one line in err to stop the run
     * (it then returns -1 with that line). May be NULL. */
    int (*before_launch)(void *ctx, int k, int function, char *err, size_t cap);
    void *ctx;
} cli_plan_watch;

/* Runs catalogue kernel `kernel` over the n elements of dtype at `in` with
 * blocks of `block` threads: the whole plan cured_dispatch_plan gives for
 * device shape *dev, in the model, from the catalogue module m (the
 * embedded PTX, parsed). Fills *r (cli_plan_run_clear frees its findings).
 * Returns 0 when the plan ran: then r->completed says whether every launch
 * finished (a launch with an error finding stops the plan, as a fault stops
 * a stream) and r->value holds *out. Returns -1 with r->error when it could
 * not: an argument the dispatch rejects, no entry in m for a launch's
 * kernel, dtype and block, parameters that differ from docs/kernels.md's,
 * a launch the model refuses, out of host memory. */
int cli_plan_run_catalogue(const cured_model_module *m, int kernel, cured_dtype dtype,
                           const void *in, uint64_t n, int block,
                           const cured_device_shape *dev, cli_plan_run *r);

/* cli_plan_run_catalogue with the input in_offset bytes past a 256-byte
 * aligned address, as a caller's d_in + 1 would be (in_offset a multiple of
 * the element size: an unaligned element is a misaligned-access finding). */
int cli_plan_run_catalogue_at(const cured_model_module *m, int kernel,
                              cured_dtype dtype, const void *in, uint64_t n,
                              size_t in_offset, int block,
                              const cured_device_shape *dev, cli_plan_run *r);

/* cli_plan_run_catalogue_at with the caller's observers, step limit and
 * before_launch hook (watch may be NULL: none). */
int cli_plan_run_watched(const cured_model_module *m, int kernel, cured_dtype dtype,
                         const void *in, uint64_t n, size_t in_offset,
                         int block, const cured_device_shape *dev,
                         const cli_plan_watch *watch, cli_plan_run *r);

/* Frees r's findings (the run's and each launch's). Can't fail. */
void cli_plan_run_clear(cli_plan_run *r);

#endif /* CURED_CLI_MODEL_PLAN_H */
