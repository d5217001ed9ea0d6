/* plan_runner.h - a catalogue kernel's whole launch plan, run in the model:
 * what cured_catalogue_run does on a GPU, launch after launch, on the CPU.
 *
 * defines: plan_runner_h200, plan_run, plan_run_catalogue,
 *          plan_run_catalogue_at, plan_run_clear
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
#ifndef CURED_TEST_PLAN_RUNNER_H
#define CURED_TEST_PLAN_RUNNER_H

#include "cured.h"
#include "dispatch.h"
#include "model.h"

#include <stdint.h>

/* The device the CLI's model describes (src/cli/model_catalogue.c: 132
 * multiprocessors of 2048 threads, at most 32 blocks each): an H200. */
extern const cured_device_shape plan_runner_h200;

/* What one run of a plan did. */
typedef struct plan_run {
    cured_plan plan;             /* the dispatch's plan that was run */
    int launches_run;            /* launches that ran to their end */
    int completed;               /* 1: every launch of the plan completed */
    uint8_t value[8];            /* *out after the run (element-size bytes) */
    int wrote_past_out;          /* 1: the element after *out lost its poison */
    int state_dirty;             /* 1: the scratch's state area (the first
                                    CURED_TEMP_STATE_BYTES) is not zero after */
    uint64_t thread_instructions; /* over every launch */
    model_findings findings;     /* every launch's: interpreter and checks */
    char error[256];             /* why the plan could not run (return -1) */
} plan_run;

/* Runs catalogue kernel `kernel` over the n elements of dtype at `in` with
 * blocks of `block` threads: the whole plan cured_dispatch_plan gives for
 * device shape *dev, in the model, from the catalogue module m (the
 * embedded PTX, parsed). Fills *r (plan_run_clear frees its findings).
 * Returns 0 when the plan ran: then r->completed says whether every launch
 * finished (a launch with an error finding stops the plan, as a fault stops
 * a stream) and r->value holds *out. Returns -1 with r->error when it could
 * not: an argument the dispatch rejects, no entry in m for a launch's
 * kernel, dtype and block, parameters that differ from docs/kernels.md's,
 * a launch the model refuses, out of host memory. */
int plan_run_catalogue(const ptx_module *m, int kernel, cured_dtype dtype,
                       const void *in, uint64_t n, int block,
                       const cured_device_shape *dev, plan_run *r);

/* plan_run_catalogue with the input in_offset bytes past a 256-byte
 * aligned address, as a caller's d_in + 1 would be (in_offset a multiple of
 * the element size: an unaligned element is a misaligned-access finding). */
int plan_run_catalogue_at(const ptx_module *m, int kernel, cured_dtype dtype,
                          const void *in, uint64_t n, size_t in_offset,
                          int block, const cured_device_shape *dev, plan_run *r);

/* Frees r's findings. Can't fail. */
void plan_run_clear(plan_run *r);

#endif /* CURED_TEST_PLAN_RUNNER_H */
