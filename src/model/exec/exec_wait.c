/* exec_wait.c - what lanes wait for, as services for the instructions that
 * make them wait or leave: block barriers (released when every thread they
 * wait for has arrived), warp-synchronous instructions (lanes park at one
 * until the rest of their mask comes; waiters whose masks name lanes that
 * exit are reported), and the report of a block whose live threads all
 * wait for something that cannot come.
 *
 * defines: exec_wait_barrier, exec_wait_sync, exec_wait_sync_join,
 *          exec_wait_sync_pass, exec_wait_lanes_gone, exec_wait_deadlock
 *
 * Called by exec_control.c (bar, exit), exec_warp.c (lanes that wait for
 * the rest of their mask) and exec.c (the deadlock); calls only what is
 * below it (exec_sched.h, exec_report.c, and exec_cluster.c for a deadlock
 * at the cluster barrier). Out of line: the common case, a
 * converged warp, never waits.
 */
#include "exec_sched.h"

#include <stdio.h>

// ----------------------------------------------------------------------------
// Block barriers

void exec_wait_barrier(exec_launch *x, uint32_t id)
{
    exec_block *b = x->block;
    if (b->arrived[id] == 0)
        return;
    uint32_t need = b->expect[id] ? b->expect[id] : b->live;
    if (b->arrived[id] < need)
        return;
    /* the lanes of one warp must wait at one barrier instruction when it is
     * .aligned (bar.sync, __syncthreads()): in divergent code that is
     * undefined */
    uint32_t red_count = 0, red_all = 1, red_any = 0;
    char lanes[96], gone[96];
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        const ptx_instr *first = NULL;
        uint32_t at = 0;
        EXEC_LANES(w->bar_wait, l, {
            if (w->bar_id[l] == id)
                at |= 1u << l;
        });
        if (at && (w->passed & ~at) && (w->bar_ins[__builtin_ctz(at)]->flags & PTX_F_ALIGNED) &&
            !x->stop) {
            int l = __builtin_ctz(at);
            exec_report(x, w, w->bar_ins[l], l, CURED_MODEL_FIND_BARRIER_DIVERGENCE, CURED_MODEL_ERROR, 0,
                        "barrier %u is reached by lanes %s of warp %u while lanes %s of that "
                        "warp went on past it: __syncthreads() in divergent code",
                        id, exec_lanes_text(at, lanes, sizeof lanes), w->index,
                        exec_lanes_text(w->passed & ~at, gone, sizeof gone));
        }
        EXEC_LANES(at, l, {
            if (first == NULL)
                first = w->bar_ins[l];
            else if (w->bar_ins[l] != first && (first->flags & PTX_F_ALIGNED) && !x->stop) {
                exec_report(x, w, first, __builtin_ctz(at), CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                            CURED_MODEL_ERROR, 0,
                            "lanes of warp %u wait at two different barrier instructions for "
                            "barrier %u (PTX lines %u and %u): __syncthreads() in divergent code",
                            w->index, id, first->ptx_line, w->bar_ins[l]->ptx_line);
            }
            if (w->bar_ins[l]->sub == PTX_BAR_RED) {
                red_count += w->bar_pred[l];
                red_all &= w->bar_pred[l];
                red_any |= w->bar_pred[l];
            }
        });
    }
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        uint32_t at = 0;
        uint64_t mk = UINT64_MAX;
        EXEC_LANES(w->bar_wait, l, {
            if (w->bar_id[l] == id) {
                at |= 1u << l;
                if (w->key[l] < mk)
                    mk = w->key[l];
                const ptx_instr *bi = w->bar_ins[l];
                if (bi->sub == PTX_BAR_RED && bi->ndst > 0 && bi->ops[0].kind == PTX_OPND_REG) {
                    uint64_t *win = w->regs[exec_key_fn(w->key[l])];
                    uint64_t v = bi->red_op == PTX_ATOM_POPC ? red_count
                                 : bi->red_op == PTX_ATOM_OR ? red_any : red_all;
                    win[(size_t)bi->ops[0].reg * CURED_MODEL_WARP_SIZE + l] = v;
                }
            }
        });
        w->passed = 0;
        if (at == 0)
            continue;
        w->bar_wait &= ~at;
        exec_sched_wake(w, at, mk);
    }
    b->arrived[id] = 0;
    b->expect[id] = 0;
    b->released = 1;
    if (x->nobs) {
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].barrier)
                x->obs[i].barrier(x->obs[i].ctx, &b->last[id], id);
    }
}

// ----------------------------------------------------------------------------
// Warp-synchronous waits

void exec_wait_sync(exec_warp *w, uint32_t m, uint32_t mask)
{
    EXEC_LANES(m, l, {
        w->key[l] = w->cur_key;
        w->sync_mask[l] = mask;
    });
    w->sync_wait |= m;
    w->cur &= ~m;
    if (w->cur)
        exec_sched_next(w);
    else
        exec_sched_select(w);
}

void exec_wait_sync_join(exec_warp *w, uint32_t here)
{
    w->sync_wait &= ~here;
    w->cur |= here;
}

void exec_wait_sync_pass(exec_warp *w, uint32_t go)
{
    w->sync_wait &= ~go;
    EXEC_LANES(go, l, {
        w->key[l]++;
        if (w->parked == 0 || w->key[l] < w->parked_min)
            w->parked_min = w->key[l];
    });
    w->parked |= go;
}

void exec_wait_lanes_gone(exec_launch *x, exec_warp *w, uint32_t gone)
{
    char t[64], lanes[96];
    EXEC_LANES(w->sync_wait, l, {
        if ((w->sync_mask[l] & gone) && !x->stop) {
            const ptx_instr *ins =
                &w->functions[exec_key_fn(w->key[l])].code[exec_key_pc(w->key[l])];
            exec_report(x, w, ins, l, CURED_MODEL_FIND_BAD_MASK, CURED_MODEL_ERROR, 0,
                        "%s: lanes %s named in the mask exited without reaching it",
                        exec_ins_text(ins, t, sizeof t),
                        exec_lanes_text(w->sync_mask[l] & gone, lanes, sizeof lanes));
        }
    });
}

// ----------------------------------------------------------------------------
// Deadlock

void exec_wait_deadlock(exec_launch *x)
{
    exec_block *b = x->block;
    char lanes[96];
    /* a warp-synchronous instruction whose mask names lanes that never come */
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        if (w->sync_wait == 0)
            continue;
        int l = __builtin_ctz(w->sync_wait);
        uint32_t missing = w->sync_mask[l] & ~w->sync_wait & ~w->exited;
        uint32_t fn = exec_key_fn(w->key[l]);
        const ptx_instr *ins = &w->functions[fn].code[exec_key_pc(w->key[l])];
        char t[64];
        exec_report(x, w, ins, l, CURED_MODEL_FIND_BAD_MASK, CURED_MODEL_ERROR, 0,
                    "%s: lanes %s named in the mask never reach it (%s)",
                    exec_ins_text(ins, t, sizeof t), exec_lanes_text(missing, lanes, sizeof lanes),
                    (missing & w->bar_wait) ? "they wait at a block barrier"
                                            : "they wait elsewhere");
        return;
    }
    /* a cluster barrier phase that not every live thread arrives at */
    if (exec_cluster_deadlock(x))
        return;
    /* a barrier that not every live thread reaches */
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        if (w->bar_wait == 0)
            continue;
        int l = __builtin_ctz(w->bar_wait);
        uint32_t id = w->bar_id[l];
        const ptx_instr *other = NULL;
        for (int wj = 0; wj < b->nwarps && other == NULL; wj++) {
            exec_warp *v = &b->warps[wj];
            EXEC_LANES(v->bar_wait, k, {
                if (other == NULL && (v->bar_id[k] != id || v->bar_ins[k] != w->bar_ins[l]))
                    other = v->bar_ins[k];
            });
        }
        char where[64] = "no other barrier";
        if (other != NULL)
            snprintf(where, sizeof where, "a barrier at PTX line %u", other->ptx_line);
        exec_report(x, w, w->bar_ins[l], l, CURED_MODEL_FIND_BARRIER_DIVERGENCE, CURED_MODEL_ERROR, 0,
                    "barrier %u waits for all %u live threads of the block; %u arrived and "
                    "the rest wait at %s: the barrier can never complete",
                    id, b->expect[id] ? b->expect[id] : b->live, b->arrived[id], where);
        return;
    }
    exec_report(x, &b->warps[0], &b->warps[0].functions[x->entry_index].code[0], 0,
                CURED_MODEL_FIND_BARRIER_DIVERGENCE, CURED_MODEL_ERROR, 0,
                "the block's %u live threads can neither run nor exit", b->live);
}
