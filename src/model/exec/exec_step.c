/* exec_step.c - the step loop: a warp issues one instruction at a time,
 * for the lanes of its current group, until it has none left to run; each
 * step computes the guard, tells the observers, and hands the instruction
 * to its family, or takes the branch itself; the instructions that have
 * nothing to do in the model (membar, prefetch, nanosleep, griddepcontrol)
 * end here.
 *
 * defines: exec_warp_run
 *
 * The interpreter's files, top down: exec.c (the launch, the block loop)
 * -> exec_step.c (this loop, and bra) -> the instruction families:
 * exec_control.c (call, ret, exit, bar), exec_warp.c (shfl, vote, match,
 * redux, bar.warp.sync), exec_mem.c (ld, st, atom, red, cvta), exec_alu.c
 * (-> exec_bits.c), exec_float.c and exec_cvt.c (-> exec_fp.c) -> the
 * services below them: exec_wait.c (barriers, warp-sync waits, deadlock),
 * exec_cluster.c (the cluster barrier, mapa, getctarank; also an
 * instruction family),
 * exec_operand.c (operands), exec_report.c (events, findings, text),
 * memory.c and findings.c; exec_sched.h (groups, inline) and
 * exec_internal.h (the state) are read by all.
 */
#include "exec_sched.h"

/* The branch: lanes m jump to the label, the rest of the group goes on.
 * Here, not in exec_control.c, so that it stays inline: loops run it at
 * every trip. */
static void exec_bra(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (ins->guard >= 0)
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].branch)
                x->obs[i].branch(x->obs[i].ctx, &x->ev, m);
    if (ins->ops[0].kind != PTX_OPND_LABEL) {
        exec_report(x, w, ins, -1, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, 0,
                    "branch to a non-label target");
        return;
    }
    uint64_t target = (w->cur_key & ~0xFFFFFFFFull) | (uint32_t)ins->ops[0].imm;
    if (m == w->cur) {
        w->cur_key = target;
        exec_sched_check(w);
    } else if (m == 0) {
        exec_sched_next(w);
    } else {
        exec_sched_park(w, m, target);
        exec_sched_park(w, w->cur & ~m, w->cur_key + 1);
        w->cur = 0;
        exec_sched_select(w);
    }
}

/* The guard mask: lanes of `active` whose guard predicate holds. */
static inline uint32_t guard_mask(const exec_warp *w, const ptx_instr *ins, uint32_t active)
{
    if (ins->guard < 0)
        return active;
    const uint64_t *g = w->R + (size_t)ins->guard * CURED_MODEL_WARP_SIZE;
    uint32_t gm = 0;
    EXEC_LANES(active, l, gm |= (uint32_t)(g[l] & 1) << l;);
    return ins->guard_neg ? active & ~gm : gm;
}

/* Reports an instruction form the model cannot run. */
static void report_unsupported(exec_launch *x, exec_warp *w, const ptx_instr *ins)
{
    char t[64];
    exec_report(x, w, ins, -1, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, 0,
                "the model cannot run '%s' (this form of the instruction)",
                exec_ins_text(ins, t, sizeof t));
}

/* Issues the instruction at the group's key. */
static void exec_step(exec_launch *x, exec_warp *w)
{
    uint32_t pc = exec_key_pc(w->cur_key);
    if (pc >= w->ncode) {       /* ran off the end: as ret */
        exec_ret(x, w, NULL, w->cur);
        return;
    }
    const ptx_instr *ins = &w->code[pc];
    uint32_t active = w->cur;
    uint32_t m = guard_mask(w, ins, active);
    x->steps++;
    x->thread_steps += exec_popc32(active);
    if (w->bar_wait && w->cur_key >= w->bar_key && ins->op != PTX_OP_BRA &&
        ins->op != PTX_OP_RET && ins->op != PTX_OP_EXIT)
        w->passed |= active;
    if (x->nobs) {
        exec_event(x, w, ins, active, m);
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].instr)
                x->obs[i].instr(x->obs[i].ctx, &x->ev);
    }
    int rc;
    switch (ins->op) {
    case PTX_OP_BRA:
        exec_bra(x, w, ins, m);
        return;
    case PTX_OP_CALL:
        exec_call(x, w, ins, m);
        return;
    case PTX_OP_RET:
        exec_ret(x, w, ins, m);
        return;
    case PTX_OP_EXIT:
        exec_exit(x, w, m);
        return;
    case PTX_OP_BAR:
        exec_bar(x, w, ins, m);
        return;
    case PTX_OP_BAR_CLUSTER:
        exec_cluster_bar(x, w, ins, m);
        return;
    case PTX_OP_TRAP:
        if (m) {
            exec_report(x, w, ins, __builtin_ctz(m), CURED_MODEL_FIND_TRAP, CURED_MODEL_ERROR, 0,
                        "trap executed by %d thread(s) of warp %u", __builtin_popcount(m),
                        w->index);
            return;
        }
        rc = 0;
        break;
    case PTX_OP_MEMBAR:
    case PTX_OP_PREFETCH:
    case PTX_OP_NANOSLEEP:
        rc = 0;
        break;
    case PTX_OP_GRIDDEPCONTROL:
        /* Programmatic dependent launch. The model runs one grid, with no
         * grid before it and none after it, as a GPU runs a launch without
         * the programmatic-stream-serialization attribute: the launch began
         * once the grid before it had completed, so .wait has no
         * prerequisite grid in flight and returns at once, and
         * .launch_dependents has no dependent grid to let begin. Both are
         * counted as issued like any instruction (x->steps, the observers'
         * instr above) and touch nothing else: no memory, no barrier, no
         * event for the race check. */
        rc = 0;
        break;
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST:
    case PTX_OP_ATOM:
    case PTX_OP_RED:
    case PTX_OP_CVTA:
        rc = exec_mem(x, w, ins, m);
        break;
    case PTX_OP_MAPA:
    case PTX_OP_GETCTARANK:
        rc = exec_cluster_op(x, w, ins, m);
        break;
    case PTX_OP_SHFL:
    case PTX_OP_VOTE:
    case PTX_OP_ACTIVEMASK:
    case PTX_OP_MATCH:
    case PTX_OP_REDUX:
    case PTX_OP_BAR_WARP:
        rc = exec_warp_op(x, w, ins, m);
        if (rc == 1)
            return;
        break;
    case PTX_OP_CVT:
        rc = exec_cvt(x, w, ins, m);
        break;
    case PTX_OP_SETP:
    case PTX_OP_SET:
        rc = exec_type_float(ins->type2) ? exec_float(x, w, ins, m) : exec_alu(x, w, ins, m);
        break;
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD:
    case PTX_OP_FMA: case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN:
    case PTX_OP_MAX: case PTX_OP_NEG: case PTX_OP_ABS: case PTX_OP_RCP:
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        rc = exec_type_float(ins->type) ? exec_float(x, w, ins, m) : exec_alu(x, w, ins, m);
        break;
    default:
        rc = exec_alu(x, w, ins, m);
        break;
    }
    if (rc < 0) {
        report_unsupported(x, w, ins);
        return;
    }
    if (x->want_done)
        exec_event_done(x);
    exec_sched_next(w);
}

void exec_warp_run(exec_launch *x, exec_warp *w)
{
    x->block->released = 0;
    while (w->cur && !x->stop && !x->block->released) {
        if (x->steps >= x->limit) {
            exec_report(x, w, &w->code[exec_key_pc(w->cur_key) < w->ncode ? exec_key_pc(w->cur_key) : 0],
                        -1, CURED_MODEL_FIND_STEP_LIMIT, CURED_MODEL_ERROR, 0,
                        "the step limit of %llu warp instructions ran out here (an endless loop?)",
                        (unsigned long long)x->limit);
            return;
        }
        exec_step(x, w);
    }
}
