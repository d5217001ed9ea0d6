/* trace_impl.h - the trace's internal state, shared by trace.c (the
 * observer: recording ops, lanes and values) and trace_steps.c (closing a
 * barrier interval into the steps a reader sees). Not an API: only
 * trace*.c include it.
 *
 * defines: trace_warp, struct cured_model_trace, trace_close_interval
 */
#ifndef CURED_MODEL_TRACE_IMPL_H
#define CURED_MODEL_TRACE_IMPL_H

#include "cured_model.h"

#include <stdint.h>

/* Per warp of the running block. */
typedef struct trace_warp {
    uint32_t exited;          /* lanes that exited */
    uint32_t shfl;            /* shfl ops of this warp in the open interval */
    int64_t pending_shfl;     /* the last shfl op whose result no later
                                 instruction has read yet, -1 */
    int32_t shfl_slot;        /* its destination register slot */
    int64_t consumer;         /* the op that read it, awaiting instr_done; -1 */
    int64_t consumer_of;      /* the shfl op it read */
} trace_warp;

struct cured_model_trace {
    const cured_model_module *module;
    int function;
    cured_model_step_view *view;   /* the step view inside (owned) */
    cured_model_observer vo;       /* its observer */
    const cured_model_memory *memory;
    cured_model_dim3 grid, block;

    cured_model_trace_op *ops;
    uint32_t nops, cap_ops, max_ops;
    cured_model_trace_lane *lanes;
    uint32_t nlanes, cap_lanes, max_lanes;
    cured_model_trace_step *steps;
    uint32_t nsteps, cap_steps;

    trace_warp *warps;
    uint32_t nwarps, cap_warps;
    int in_block;
    uint32_t block_index;
    uint32_t interval_first;  /* first op of the open interval */
    int interval_view;        /* the step view's index of the open interval,
                                 -1 when it has none */
    uint32_t instr_first;     /* first op of the instruction running */
    int instr_open;           /* its ops await instr_done */
    int64_t access_op;        /* its op that an access filled, -1: none yet */
    int incomplete;           /* host memory or a limit ran out */
};

/* Closes the open interval of the running block: assigns its ops
 * [t->interval_first, t->nops) to steps (rounds, merged where there is
 * nothing to show), reorders them step by step and appends the steps;
 * `end` is how the last of them ended (cured_model_trace_end). Resets the
 * warps' per-interval state. (trace_steps.c) */
void trace_close_interval(cured_model_trace *t, int end);

#endif /* CURED_MODEL_TRACE_IMPL_H */
