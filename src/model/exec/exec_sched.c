/* exec_sched.c - the interpreter's warp scheduler: min-PC reconvergence,
 * one warp instruction at a time, control flow (bra, call, ret, exit),
 * block barriers and the deadlock report.
 *
 * defines: exec_sched_select, exec_sched_repark, exec_warp_run,
 *          exec_block_deadlock
 *
 * Reconvergence by min-PC: every lane has its own key (call depth,
 * function, pc; exec_internal.h). Each step the warp issues the
 * instruction at the smallest key among its runnable lanes, for exactly
 * the lanes at that key. After a divergent branch the side with the
 * smaller pc runs first; the other side waits, and the two merge when the
 * first reaches the other's pc. For the structured code nvcc emits that is
 * the join point of an if/else and the exit of a loop with per-lane trip
 * counts; code laid out out of order (a block placed after the join and
 * branching back) reconverges later than a GPU would, which changes
 * counts, not results. Deeper call frames run first.
 *
 * The current group is kept apart from the parked lanes so that the common
 * case, a converged warp, costs one compare per instruction.
 */
#include "exec_internal.h"

#include <stdio.h>
#include <string.h>

// ----------------------------------------------------------------------------
// Groups

void exec_sched_select(exec_warp *w)
{
    uint32_t p = w->parked;
    if (p == 0) {
        w->cur = 0;
        return;
    }
    uint64_t mk = UINT64_MAX;
    EXEC_LANES(p, l, if (w->key[l] < mk) mk = w->key[l];);
    uint32_t grp = 0;
    uint64_t second = UINT64_MAX;
    EXEC_LANES(p, l, {
        if (w->key[l] == mk)
            grp |= 1u << l;
        else if (w->key[l] < second)
            second = w->key[l];
    });
    w->cur = grp;
    w->cur_key = mk;
    w->parked = p & ~grp;
    w->parked_min = second;
    exec_sched_set_fn(w);
}

void exec_sched_repark(exec_warp *w)
{
    EXEC_LANES(w->cur, l, w->key[l] = w->cur_key;);
    w->parked |= w->cur;
    w->cur = 0;
    exec_sched_select(w);
}

/* Parks `lanes` (runnable, not in cur) at key k. */
static void sched_park(exec_warp *w, uint32_t lanes, uint64_t k)
{
    if (lanes == 0)
        return;
    EXEC_LANES(lanes, l, w->key[l] = k;);
    if (w->parked == 0 || k < w->parked_min)
        w->parked_min = k;
    w->parked |= lanes;
}

/* The current group moves on to the next instruction. */
static inline void sched_next(exec_warp *w)
{
    w->cur_key++;
    exec_sched_check(w);
}

// ----------------------------------------------------------------------------
// Barriers

/* Releases barrier `id` of the block when every thread it waits for has
 * arrived: all live threads, or the count bar.sync named. */
static void barrier_try_release(exec_launch *x, uint32_t id)
{
    exec_block *b = &x->block;
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
        if (w->parked == 0 || mk < w->parked_min)
            w->parked_min = mk;
        w->parked |= at;
        if (w->cur == 0)
            exec_sched_select(w);
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

/* bar.sync / barrier.sync / bar.red / bar.arrive by lanes m of the group. */
static void sched_bar(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    exec_block *b = &x->block;
    if (m == 0) {
        sched_next(w);
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
        sched_next(w);
        barrier_try_release(x, (uint32_t)id);
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
        sched_next(w);
    else
        exec_sched_select(w);
    barrier_try_release(x, (uint32_t)id);
}

/* Lanes `gone` of the group exit (exit, or ret from the kernel). */
static void sched_exit(exec_launch *x, exec_warp *w, uint32_t gone)
{
    exec_block *b = &x->block;
    if (gone == 0) {
        sched_next(w);
        return;
    }
    w->exited |= gone;
    w->cur &= ~gone;
    b->live -= exec_popc32(gone);
    for (int i = 0; i < x->nobs; i++)
        if (x->obs[i].lanes_exit)
            x->obs[i].lanes_exit(x->obs[i].ctx, &x->ev, gone);
    if (w->sync_wait)
        exec_warp_lanes_gone(x, w, gone);
    if (w->cur)
        sched_next(w);
    else
        exec_sched_select(w);
    for (uint32_t id = 0; id < EXEC_BARRIERS; id++)
        if (b->arrived[id])
            barrier_try_release(x, id);
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
static void sched_call(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    const cured_model_module *mod = x->module;
    if (m == 0) {
        sched_next(w);
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
    sched_park(w, w->cur & ~m, w->cur_key + 1);
    w->cur = m;
    w->cur_key = exec_key(depth + 1, (uint32_t)callee, 0);
    exec_sched_set_fn(w);
    exec_sched_check(w);
}

/* ret by lanes m: back to each lane's caller (or exit from the kernel). */
static void sched_ret(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint32_t depth = exec_key_depth(w->cur_key);
    if (depth == 0) {
        sched_exit(x, w, m);
        return;
    }
    if (m == 0) {
        sched_next(w);
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
    sched_park(w, stay, w->cur_key + 1);
    EXEC_LANES(m, l, {
        if (w->parked == 0 || w->key[l] < w->parked_min)
            w->parked_min = w->key[l];
        w->parked |= 1u << l;
    });
    w->cur = 0;
    exec_sched_select(w);
}

// ----------------------------------------------------------------------------
// One step

/* The branch: lanes m jump to the label, the rest of the group goes on. */
static void sched_bra(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
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
        sched_next(w);
    } else {
        sched_park(w, m, target);
        sched_park(w, w->cur & ~m, w->cur_key + 1);
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
        sched_ret(x, w, NULL, w->cur);
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
        sched_bra(x, w, ins, m);
        return;
    case PTX_OP_CALL:
        sched_call(x, w, ins, m);
        return;
    case PTX_OP_RET:
        sched_ret(x, w, ins, m);
        return;
    case PTX_OP_EXIT:
        sched_exit(x, w, m);
        return;
    case PTX_OP_BAR:
        sched_bar(x, w, ins, m);
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
    case PTX_OP_LD:
    case PTX_OP_LDU:
    case PTX_OP_ST:
    case PTX_OP_ATOM:
    case PTX_OP_RED:
    case PTX_OP_CVTA:
        rc = exec_mem(x, w, ins, m);
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
    sched_next(w);
}

void exec_warp_run(exec_launch *x, exec_warp *w)
{
    x->block.released = 0;
    while (w->cur && !x->stop && !x->block.released) {
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

// ----------------------------------------------------------------------------
// Deadlock

void exec_block_deadlock(exec_launch *x)
{
    exec_block *b = &x->block;
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
