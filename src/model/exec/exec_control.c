/* exec_control.c - the instructions that decide which lanes run next,
 * besides the branch (which the step loop keeps inline): call, ret, exit,
 * and the block barriers (bar.sync, barrier.sync, bar.red, bar.arrive);
 * the cluster barrier is exec_cluster.c's.
 *
 * defines: exec_call, exec_ret, exec_exit, exec_bar
 *
 * Each moves lanes between the warp's current group, its parked lanes and
 * its waits (exec_sched.h says how groups are chosen); a barrier that all
 * its threads reached, and warp-sync waits whose lanes exit, are
 * exec_wait.c's; exit tells exec_cluster.c which lanes left. Calls keep a
 * per-thread stack of return keys and local frame bases; call-site
 * .params are copied lane by lane.
 */
#include "exec_sched.h"

#include <string.h>

// ----------------------------------------------------------------------------
// Barriers and exit

/* bar.sync / barrier.sync / bar.red / bar.arrive by lanes m of the group. */
void exec_bar(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    exec_block *b = x->block;
    if (m == 0) {
        exec_sched_next(w);
        return;
    }
    int red = ins->sub == PTX_BAR_RED;
    int first_op = red ? 1 : 0;
    int nsrc = ins->nops - first_op - (red ? 1 : 0);
    int l0 = __builtin_ctz(m);
    const uint64_t *idv = exec_src(x, w, &ins->ops[first_op], x->tmp[0], m);
    uint64_t id = idv[l0] & 0xFFFFFFFFu;
    uint32_t count = 0;
    if (nsrc >= 2) {
        const uint64_t *cv = exec_src(x, w, &ins->ops[first_op + 1], x->tmp[1], m);
        count = (uint32_t)cv[l0];
    }
    if (id >= EXEC_BARRIERS) {
        exec_report(x, w, ins, l0, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, 0,
                    "barrier id %llu is out of range 0..15", (unsigned long long)id);
        return;
    }
    if (count != 0)
        b->expect[id] = count;
    b->arrived[id] += exec_popc32(m);
    if (x->nobs)
        b->last[id] = x->ev;
    if (ins->sub == PTX_BAR_ARRIVE) {
        exec_sched_next(w);
        exec_wait_barrier(x, (uint32_t)id);
        return;
    }
    const uint64_t *pv = NULL;
    if (red)
        pv = exec_src(x, w, &ins->ops[ins->nops - 1], x->tmp[2], m);
    uint64_t after = w->cur_key + 1;
    EXEC_LANES(m, l, {
        w->key[l] = after;
        w->bar_id[l] = (uint8_t)id;
        w->bar_ins[l] = ins;
        w->bar_pred[l] = pv ? (uint8_t)(pv[l] & 1) : 0;
    });
    if (w->bar_wait == 0 || after < w->bar_key)
        w->bar_key = after;
    w->bar_wait |= m;
    w->cur &= ~m;
    if (w->cur)
        exec_sched_next(w);
    else
        exec_sched_select(w);
    exec_wait_barrier(x, (uint32_t)id);
}

/* Lanes `gone` of the group exit (exit, or ret from the kernel). */
void exec_exit(exec_launch *x, exec_warp *w, uint32_t gone)
{
    exec_block *b = x->block;
    if (gone == 0) {
        exec_sched_next(w);
        return;
    }
    w->exited |= gone;
    w->cur &= ~gone;
    b->live -= exec_popc32(gone);
    for (int i = 0; i < x->nobs; i++)
        if (x->obs[i].lanes_exit)
            x->obs[i].lanes_exit(x->obs[i].ctx, &x->ev, gone);
    if (w->sync_wait)
        exec_wait_lanes_gone(x, w, gone);
    if (w->cur)
        exec_sched_next(w);
    else
        exec_sched_select(w);
    for (uint32_t id = 0; id < EXEC_BARRIERS; id++)
        if (b->arrived[id])
            exec_wait_barrier(x, id);
    exec_cluster_lanes_gone(x, w, gone);
}

// ----------------------------------------------------------------------------
// Calls

/* Copies `bytes` of per-thread param symbol `from` to `to` for lanes m. */
static void tparam_copy(exec_launch *x, exec_warp *w, int from, int to, uint32_t m)
{
    const ptx_symbol *s = &x->module->symbols[from], *d = &x->module->symbols[to];
    uint64_t fo = x->sym_tparam[from], to_off = x->sym_tparam[to];
    if (fo == UINT64_MAX || to_off == UINT64_MAX)
        return;
    uint64_t n = s->size < d->size ? s->size : d->size;
    EXEC_LANES(m, l, {
        uint8_t *base = w->tparam + (size_t)l * x->tparam_bytes;
        memmove(base + to_off, base + fo, (size_t)n);
    });
}

/* call by lanes m: params copied in, frames pushed, the callee runs. */
void exec_call(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    const cured_model_module *mod = x->module;
    if (m == 0) {
        exec_sched_next(w);
        return;
    }
    int callee = ins->callee;
    if (callee < 0 || callee >= mod->nfunctions || !x->fns[callee].reachable) {
        exec_report(x, w, ins, -1, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, 0,
                    "indirect call (through a register): the model runs direct calls only");
        return;
    }
    const ptx_function *caller = &mod->functions[w->fn], *f = &mod->functions[callee];
    if (!f->has_body || f->ncode == 0) {
        exec_report(x, w, ins, -1, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, 0,
                    "call to %s, which has no body in this module", f->name);
        return;
    }
    uint32_t depth = exec_key_depth(w->cur_key);
    for (int i = 0; i < ins->call_nargs && i < f->nparams; i++) {
        int at = ins->call_args + ins->call_nret + i;
        if (at >= 0 && at < caller->ncall_params)
            tparam_copy(x, w, caller->call_params[at], f->params[i], m);
    }
    size_t fr = (size_t)depth * CURED_MODEL_WARP_SIZE;
    uint32_t frame = x->fns[w->fn].frame;
    EXEC_LANES(m, l, {
        w->ret_key[fr + l] = w->cur_key + 1;
        w->ret_call[fr + l] = ins;
        w->saved_base[fr + l] = w->local_base[l];
        w->local_base[l] += frame;
    });
    exec_sched_park(w, w->cur & ~m, w->cur_key + 1);
    w->cur = m;
    w->cur_key = exec_key(depth + 1, (uint32_t)callee, 0);
    exec_sched_set_fn(w);
    exec_sched_check(w);
}

/* ret by lanes m: back to each lane's caller (or exit from the kernel). */
void exec_ret(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint32_t depth = exec_key_depth(w->cur_key);
    if (depth == 0) {
        exec_exit(x, w, m);
        return;
    }
    if (m == 0) {
        exec_sched_next(w);
        return;
    }
    (void)ins;
    const cured_model_module *mod = x->module;
    const ptx_function *f = &mod->functions[w->fn];
    size_t fr = (size_t)(depth - 1) * CURED_MODEL_WARP_SIZE;
    uint64_t k0 = w->ret_key[fr + __builtin_ctz(m)];
    int same = 1;
    EXEC_LANES(m, l, {
        uint64_t rk = w->ret_key[fr + l];
        const ptx_instr *call = w->ret_call[fr + l];
        const ptx_function *caller = &mod->functions[exec_key_fn(rk)];
        for (int i = 0; i < f->nrets && i < call->call_nret; i++) {
            int at = call->call_args + i;
            if (at >= 0 && at < caller->ncall_params)
                tparam_copy(x, w, f->rets[i], caller->call_params[at], 1u << l);
        }
        w->local_base[l] = w->saved_base[fr + l];
        w->key[l] = rk;
        if (rk != k0)
            same = 0;
    });
    uint32_t stay = w->cur & ~m;
    if (same && stay == 0) {
        w->cur_key = k0;
        exec_sched_set_fn(w);
        exec_sched_check(w);
        return;
    }
    exec_sched_park(w, stay, w->cur_key + 1);
    EXEC_LANES(m, l, {
        if (w->parked == 0 || w->key[l] < w->parked_min)
            w->parked_min = w->key[l];
        w->parked |= 1u << l;
    });
    w->cur = 0;
    exec_sched_select(w);
}
