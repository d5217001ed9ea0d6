/* exec_cluster.c - the thread-block cluster instructions: barrier.cluster.
 * arrive and barrier.cluster.wait (a split barrier over the live threads
 * of the cluster's CTAs), mapa and getctarank.
 *
 * defines: exec_cluster_bar, exec_cluster_op, exec_cluster_lanes_gone,
 *          exec_cluster_deadlock
 *
 * A launch without cluster dimensions runs as on a GPU: every CTA is a
 * cluster of one (%cluster_nctarank 1, %cluster_ctarank 0: exec_operand.c)
 * and the cluster barrier spans the CTA's threads. With them (exec.c) a
 * cluster's CTAs run together and the barrier spans all their threads. A
 * thread arrives once per phase and waits after it arrived; a phase
 * completes when every live (not exited) thread of the cluster has
 * arrived, so threads that exit no longer count. Completion releases the
 * threads waiting at it (a thread that waits after its phase completed
 * goes straight on) and is, for the observers, a barrier like bar.sync's
 * (id EXEC_CLUSTER_BARRIER: the race check orders shared accesses across
 * it). The model runs one step at a time, sequentially consistent, so
 * .release and .acquire need nothing more; .relaxed is run as .release.
 *
 * mapa gives, in a cluster of two or more, the offset with the rank above
 * it (exec_cluster_address: what exec_mem.c resolves to that CTA's shared
 * memory); in a cluster of one, the address itself. getctarank reads the
 * rank back (an offset with none above it: this CTA's).
 *
 * Errors: a wait with no arrival before it, a second arrival without a
 * wait between, an .aligned form that not the whole warp executes, and a
 * wait that can never end (CURED_MODEL_FIND_BARRIER_DIVERGENCE); mapa to a rank
 * the cluster does not have, or of a generic address outside shared
 * memory, and getctarank of one (CURED_MODEL_FIND_OOB_SHARED).
 *
 * Called by the step loop (the instructions), exec_control.c (exit) and
 * exec_wait.c (the deadlock); calls only what is below them (exec_sched.h,
 * exec_operand.c, exec_report.c).
 */
#include "exec_sched.h"

#include <stdio.h>

// ----------------------------------------------------------------------------
// The barrier

/* Live threads of the cluster: of all its CTAs. */
static uint32_t cluster_live(const exec_launch *x)
{
    uint32_t live = 0;
    for (uint32_t r = 0; r < x->cluster.ncta; r++)
        live += x->cluster.ctas[r].live;
    return live;
}

/* Completes the current phase when every live thread of the cluster has
 * arrived at it: its waiters, in every CTA, go on after their wait, its
 * other arrivals will pass their wait, the observers hear of a barrier.
 * Nothing happens before then. */
static void phase_try_complete(exec_launch *x)
{
    exec_cluster *c = &x->cluster;
    if (c->count == 0 || c->count < cluster_live(x))
        return;
    for (uint32_t r = 0; r < c->ncta; r++) {
        exec_block *b = &c->ctas[r];
        for (int wi = 0; wi < b->nwarps; wi++) {
            exec_warp *w = &b->warps[wi];
            uint32_t go = w->cluster_wait;
            w->cluster_pending = 0;
            if (go == 0)
                continue;
            uint64_t mk = UINT64_MAX;
            EXEC_LANES(go, l, if (w->key[l] < mk) mk = w->key[l];);
            w->cluster_wait = 0;
            w->cluster_arrived &= ~go;
            exec_sched_wake(w, go, mk);
        }
        b->released = 1;
    }
    c->count = 0;
    c->phase++;
    /* a barrier for every CTA of the cluster: the last arrival's event,
     * told once per block */
    for (uint32_t r = 0; r < c->ncta; r++) {
        cured_model_event e = c->last;
        e.block = c->ctas[r].index;
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].barrier)
                x->obs[i].barrier(x->obs[i].ctx, &e, EXEC_CLUSTER_BARRIER);
    }
}

/* Lanes m arrive at the current phase. */
static void cluster_arrive(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    exec_cluster *c = &x->cluster;
    uint32_t twice = m & w->cluster_arrived;
    if (twice) {
        char t[64];
        exec_report(x, w, ins, __builtin_ctz(twice), CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                    CURED_MODEL_ERROR, 0,
                    "%s: the thread arrives at the cluster barrier a second time with no "
                    "barrier.cluster.wait since its last arrival (phase %u)",
                    exec_ins_text(ins, t, sizeof t), c->phase);
        return;
    }
    w->cluster_arrived |= m;
    w->cluster_pending |= m;
    c->count += exec_popc32(m);
    if (x->nobs)
        c->last = x->ev;
    exec_sched_next(w);
    phase_try_complete(x);
}

/* Lanes m wait for the phase they arrived at. */
static void cluster_wait(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint32_t early = m & ~w->cluster_arrived;
    if (early) {
        char t[64];
        exec_report(x, w, ins, __builtin_ctz(early), CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                    CURED_MODEL_ERROR, 0,
                    "%s: the thread waits at the cluster barrier without having arrived "
                    "(barrier.cluster.arrive) since its last wait",
                    exec_ins_text(ins, t, sizeof t));
        return;
    }
    uint32_t stay = m & w->cluster_pending;
    w->cluster_arrived &= ~(m & ~stay);   /* their phase is complete */
    if (stay == 0) {
        exec_sched_next(w);
        return;
    }
    uint64_t after = w->cur_key + 1;
    EXEC_LANES(stay, l, w->key[l] = after;);
    w->cluster_wait |= stay;
    w->cur &= ~stay;
    if (w->cur)
        exec_sched_next(w);
    else
        exec_sched_select(w);
}

void exec_cluster_bar(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (m == 0) {
        exec_sched_next(w);
        return;
    }
    uint32_t live = w->present & ~w->exited;
    if ((ins->flags & PTX_F_ALIGNED) && m != live) {
        char t[64], here[96], away[96];
        exec_report(x, w, ins, __builtin_ctz(m), CURED_MODEL_FIND_BARRIER_DIVERGENCE,
                    CURED_MODEL_ERROR, 0,
                    "%s is executed by lanes %s of warp %u without lanes %s: .aligned needs "
                    "every live lane of the warp",
                    exec_ins_text(ins, t, sizeof t), exec_lanes_text(m, here, sizeof here),
                    w->index, exec_lanes_text(live & ~m, away, sizeof away));
        return;
    }
    if (ins->sub == PTX_BAR_ARRIVE)
        cluster_arrive(x, w, ins, m);
    else
        cluster_wait(x, w, ins, m);
}

void exec_cluster_lanes_gone(exec_launch *x, exec_warp *w, uint32_t gone)
{
    x->cluster.count -= exec_popc32(gone & w->cluster_pending);
    w->cluster_pending &= ~gone;
    w->cluster_arrived &= ~gone;
    phase_try_complete(x);
}

/* Where the first live thread of the cluster that has not arrived at the
 * phase waits instead, into buf ("thread 32 waits at PTX line 602", with
 * its CTA's rank in a cluster of several; "elsewhere" when it waits at
 * nothing the model names). */
static void away_text(const exec_cluster *c, char *buf, size_t size)
{
    snprintf(buf, size, "elsewhere");
    for (uint32_t r = 0; r < c->ncta; r++) {
        const exec_block *b = &c->ctas[r];
        for (int wi = 0; wi < b->nwarps; wi++) {
            const exec_warp *v = &b->warps[wi];
            uint32_t away = v->present & ~v->exited & ~v->cluster_pending;
            if (away == 0)
                continue;
            int a = __builtin_ctz(away);
            const ptx_instr *at = NULL;
            if (v->bar_wait >> a & 1)
                at = v->bar_ins[a];
            else if (v->sync_wait >> a & 1)
                at = &v->functions[exec_key_fn(v->key[a])].code[exec_key_pc(v->key[a])];
            uint32_t thread = v->index * CURED_MODEL_WARP_SIZE + (uint32_t)a;
            if (at != NULL && c->ncta > 1)
                snprintf(buf, size, "thread %u of CTA rank %u waits at PTX line %u", thread, r,
                         at->ptx_line);
            else if (at != NULL)
                snprintf(buf, size, "thread %u waits at PTX line %u", thread, at->ptx_line);
            return;
        }
    }
}

int exec_cluster_deadlock(exec_launch *x)
{
    exec_cluster *c = &x->cluster;
    exec_block *wb = NULL;
    exec_warp *w = NULL;
    for (uint32_t r = 0; r < c->ncta && w == NULL; r++)
        for (int wi = 0; wi < c->ctas[r].nwarps && w == NULL; wi++)
            if (c->ctas[r].warps[wi].cluster_wait) {
                wb = &c->ctas[r];
                w = &wb->warps[wi];
            }
    if (w == NULL)
        return 0;
    int l = __builtin_ctz(w->cluster_wait);
    uint64_t k = w->key[l];
    const ptx_instr *ins = &w->functions[exec_key_fn(k)].code[exec_key_pc(k) - 1];
    char where[128];
    away_text(c, where, sizeof where);
    char t[64], whom[48] = "of the CTA";
    if (c->ncta > 1)
        snprintf(whom, sizeof whom, "of the cluster's %u CTAs", c->ncta);
    x->block = wb;
    exec_report(x, w, ins, l, CURED_MODEL_FIND_BARRIER_DIVERGENCE, CURED_MODEL_ERROR, 0,
                "%s waits for all %u live threads %s to arrive at phase %u; %u have "
                "and %s: the phase can never complete",
                exec_ins_text(ins, t, sizeof t), cluster_live(x), whom, c->phase, c->count,
                where);
    return 1;
}

// ----------------------------------------------------------------------------
// mapa and getctarank

/* 1 when generic address a lies in the shared window. */
static int generic_shared(uint64_t a)
{
    return a >= EXEC_SHARED_BASE && a - EXEC_SHARED_BASE < EXEC_WINDOW_SIZE;
}

int exec_cluster_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (m == 0)
        return 0;
    if (ins->nops < (ins->op == PTX_OP_MAPA ? 3 : 2))
        return -1;
    char t[64];
    const exec_cluster *c = &x->cluster;
    int generic = ins->space == PTX_S_GENERIC;
    uint64_t base = generic ? EXEC_SHARED_BASE : 0;
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = exec_src(x, w, &ins->ops[1], x->tmp[0], m);
    const uint64_t *rank = NULL;
    if (ins->op == PTX_OP_MAPA)
        rank = exec_src(x, w, &ins->ops[2], x->tmp[1], m);
    uint64_t mk = exec_width_mask(ptx_type_size((ptx_type)ins->type));
    int bad = -1;
    EXEC_LANES(m, l, {
        if (bad < 0 && (generic && !generic_shared(a[l])))
            bad = l;
    });
    if (bad >= 0) {
        exec_report(x, w, ins, bad, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a[bad],
                    "%s of generic address 0x%llx, which is not shared memory",
                    exec_ins_text(ins, t, sizeof t), (unsigned long long)a[bad]);
        return 0;
    }
    if (rank != NULL) {
        EXEC_LANES(m, l, {
            if (bad < 0 && (uint32_t)rank[l] >= c->ncta)
                bad = l;
        });
        if (bad >= 0) {
            exec_report(x, w, ins, bad, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a[bad],
                        c->ncta == 1 ? "%s to CTA rank %u of a cluster of %u CTA (the launch has "
                                       "no clusters: rank 0 only)"
                                     : "%s to CTA rank %u of a cluster of %u CTAs",
                        exec_ins_text(ins, t, sizeof t), (uint32_t)rank[bad], c->ncta);
            return 0;
        }
        /* in a cluster of one, every rank is this CTA: the same address;
         * else the offset in the window with the rank above it */
        EXEC_LANES(m, l, {
            uint64_t off = exec_cluster_offset(a[l] - base);
            d[l] = (c->ncta == 1 ? a[l]
                                 : base + exec_cluster_address((uint32_t)rank[l], off)) & mk;
        });
        return 0;
    }
    /* getctarank: the rank an address names (this CTA's: its own) */
    EXEC_LANES(m, l, {
        uint32_t r = exec_cluster_rank(a[l] - base);
        d[l] = r == EXEC_OWN_CTA ? x->block->rank : r;
    });
    return 0;
}
