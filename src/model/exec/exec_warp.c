/* exec_warp.c - the warp-synchronous instructions of the interpreter:
 * shfl.sync, vote.sync, match.sync, redux.sync, activemask and
 * bar.warp.sync, with the checks compute-sanitizer makes on their masks.
 *
 * defines: exec_warp_op
 *
 * Masks (CURED_MODEL_FIND_BAD_MASK, an error): the executing lane must be in its
 * mask; every lane the mask names must exist in the warp (a partial last
 * warp has fewer than 32) and must not have exited; a shfl may read only a
 * lane of its mask. Lanes the mask names that are live but elsewhere (at
 * another pc, not yet here) are waited for, as a GPU's convergence
 * barrier does: the arrived lanes park at the instruction until the rest
 * come (min-PC scheduling usually brings them together at once). If they
 * exit first, or the block can go no further, that is the finding
 * (exec_wait.c keeps the waits and reports them). As on sm_70 and later,
 * bar.warp.sync (__syncwarp) at different places syncs with each other;
 * shfl/vote/match/redux must meet at one instruction.
 *
 * shfl follows the PTX ISA's definition: b and c are taken modulo 32 as
 * its pseudo-code does (bval = b[4:0], clamp = c[4:0], segment mask =
 * c[12:8]); a lane whose computed source is out of range gets its own
 * value and p = false. A source lane in range but outside the mask (or not
 * executing) gives an undefined value on a GPU; the model returns that
 * lane's register and reports nothing, because the usual guarded idiom
 * (shuffle, then keep the sum only where lane + offset < k) reads it and
 * throws it away, and nvcc computes the add before the select.
 */
#include "exec_internal.h"

#include <string.h>

/* Lanes that wait at w's current key for the rest of their masks. */
static uint32_t waiting_here(const exec_warp *w)
{
    uint32_t at = 0;
    EXEC_LANES(w->sync_wait, l, if (w->key[l] == w->cur_key) at |= 1u << l;);
    return at;
}

/* Lanes that wait at another bar.warp.sync than the current one: on sm_70
 * and later, __syncwarp() calls at different places sync with each other. */
static uint32_t waiting_at_other_syncwarp(const exec_warp *w)
{
    uint32_t at = 0;
    EXEC_LANES(w->sync_wait, l, {
        uint64_t k = w->key[l];
        if (k != w->cur_key &&
            w->functions[exec_key_fn(k)].code[exec_key_pc(k)].op == PTX_OP_BAR_WARP)
            at |= 1u << l;
    });
    return at;
}

/* Checks the masks mv of the lanes e. Returns the union of the masks, or
 * reports and returns 0 (an error: the launch stops). */
static uint32_t check_masks(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t e,
                            const uint64_t *mv)
{
    char t[64], lanes[96];
    uint32_t u = 0;
    int bad = -1;
    EXEC_LANES(e, l, {
        uint32_t mk = (uint32_t)mv[l];
        u |= mk;
        if (!(mk >> l & 1) && bad < 0)
            bad = l;
    });
    if (bad >= 0) {
        exec_report(x, w, ins, bad, CURED_MODEL_FIND_BAD_MASK, CURED_MODEL_ERROR, 0,
                    "%s: lane %d executes it but its mask 0x%08x does not name it",
                    exec_ins_text(ins, t, sizeof t), bad, (uint32_t)mv[bad]);
        return 0;
    }
    if (u & ~w->present) {
        exec_report(x, w, ins, -1, CURED_MODEL_FIND_BAD_MASK, CURED_MODEL_ERROR, 0,
                    "%s: mask 0x%08x names lanes %s, which do not exist (warp %u has %d threads)",
                    exec_ins_text(ins, t, sizeof t), u,
                    exec_lanes_text(u & ~w->present, lanes, sizeof lanes), w->index,
                    __builtin_popcount(w->present));
        return 0;
    }
    if (u & w->exited) {
        exec_report(x, w, ins, -1, CURED_MODEL_FIND_BAD_MASK, CURED_MODEL_ERROR, 0,
                    "%s: mask 0x%08x names lanes %s, which have exited",
                    exec_ins_text(ins, t, sizeof t), u,
                    exec_lanes_text(u & w->exited, lanes, sizeof lanes));
        return 0;
    }
    return u;
}

// ----------------------------------------------------------------------------
// The operations, for lanes e that all arrived

/* Writes res to the first destination and, when the instruction has one
 * (`shfl ... d|p`, `match.all ... d|p`), pres to the predicate, for lanes e.
 * res and pres are scratch rows, so a destination may alias a source. */
static void write_value_and_pred(exec_launch *x, exec_warp *w, const ptx_instr *ins,
                                 uint32_t e, const uint64_t *res, const uint64_t *pres)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    uint64_t *pd = ins->ndst > 1 ? exec_dst(x, w, &ins->ops[1]) : NULL;
    EXEC_LANES(e, l, {
        d[l] = res[l];
        if (pd)
            pd[l] = pres[l];
    });
}

/* Tells the observers that want it what a shfl exchanged among lanes e. */
static void tell_shuffle(exec_launch *x, uint32_t e, const uint64_t *a, const uint64_t *res,
                         const uint64_t *pres, const uint8_t *src)
{
    cured_model_shuffle s;
    memset(&s, 0, sizeof s);
    s.event = &x->ev;
    s.lanes = e;
    EXEC_LANES(e, l, {
        s.in_range |= (uint32_t)(pres[l] & 1) << l;
        s.src_lane[l] = src[l];
        s.offered[l] = (uint32_t)a[l];
        s.received[l] = (uint32_t)res[l];
    });
    for (int i = 0; i < x->nobs; i++)
        if (x->obs[i].shuffle)
            x->obs[i].shuffle(x->obs[i].ctx, &s);
}

static void op_shfl(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t e,
                    const uint64_t *mv)
{
    uint8_t src[CURED_MODEL_WARP_SIZE];
    int s = ins->ndst;
    const uint64_t *a = exec_src(x, w, &ins->ops[s], x->tmp[0], e);
    const uint64_t *b = exec_src(x, w, &ins->ops[s + 1], x->tmp[1], e);
    const uint64_t *c = exec_src(x, w, &ins->ops[s + 2], x->tmp[2], e);
    uint64_t *res = x->tmp[4], *pres = x->tmp[5];
    (void)mv;
    EXEC_LANES(e, l, {
        int bval = (int)(b[l] & 31), cval = (int)(c[l] & 31), seg = (int)((c[l] >> 8) & 31);
        int max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg, j, p;
        switch (ins->sub) {
        case PTX_SHFL_UP: j = l - bval; p = j >= max_lane; break;
        case PTX_SHFL_DOWN: j = l + bval; p = j <= max_lane; break;
        case PTX_SHFL_BFLY: j = l ^ bval; p = j <= max_lane; break;
        default: j = min_lane | (bval & ~seg); p = j <= max_lane; break;
        }
        if (!p)
            j = l;
        res[l] = a[j] & 0xFFFFFFFFu;
        pres[l] = (uint64_t)p;
        src[l] = (uint8_t)j;
    });
    if (x->want_shuffle)
        tell_shuffle(x, e, a, res, pres, src);
    write_value_and_pred(x, w, ins, e, res, pres);
}

/* vote.sync all/any/uni/ballot over each lane's mask. */
static void op_vote(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t e,
                    const uint64_t *mv)
{
    const uint64_t *a = exec_src(x, w, &ins->ops[ins->ndst], x->tmp[0], e);
    uint32_t yes = 0;
    EXEC_LANES(e, l, yes |= (uint32_t)(a[l] & 1) << l;);
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    EXEC_LANES(e, l, {
        uint32_t s = (uint32_t)mv[l] & e;
        switch (ins->sub) {
        case PTX_VOTE_ALL: d[l] = (yes & s) == s; break;
        case PTX_VOTE_ANY: d[l] = (yes & s) != 0; break;
        case PTX_VOTE_UNI: d[l] = (yes & s) == s || (yes & s) == 0; break;
        default: d[l] = yes & s; break;
        }
    });
}

/* match.sync any/all over each lane's mask. */
static void op_match(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t e,
                     const uint64_t *mv)
{
    const uint64_t *a = exec_src(x, w, &ins->ops[ins->ndst], x->tmp[0], e);
    uint64_t vm = ptx_type_size((ptx_type)ins->type) >= 8 ? ~0ull : 0xFFFFFFFFu;
    uint64_t *res = x->tmp[4], *pres = x->tmp[5];
    EXEC_LANES(e, l, {
        uint32_t s = (uint32_t)mv[l] & e, same = 0;
        for (int k = 0; k < CURED_MODEL_WARP_SIZE; k++)
            if ((s >> k & 1) && (a[k] & vm) == (a[l] & vm))
                same |= 1u << k;
        if (ins->sub == PTX_MATCH_ALL) {
            res[l] = same == s ? s : 0;
            pres[l] = same == s;
        } else {
            res[l] = same;
            pres[l] = 0;
        }
    });
    write_value_and_pred(x, w, ins, e, res, pres);
}

/* redux.sync; returns -1 for an operation the model does not know. */
static int op_redux(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t e,
                    const uint64_t *mv)
{
    const uint64_t *a = exec_src(x, w, &ins->ops[ins->ndst], x->tmp[0], e);
    int sgn = exec_type_signed(ins->type);
    uint64_t *res = x->tmp[4];
    int bad = 0;
    EXEC_LANES(e, l, {
        uint32_t s = (uint32_t)mv[l] & e;
        uint32_t acc = 0;
        int first = 1;
        for (int k = 0; k < CURED_MODEL_WARP_SIZE; k++) {
            if (!(s >> k & 1))
                continue;
            uint32_t v = (uint32_t)a[k];
            if (first) {
                acc = v;
                first = 0;
                continue;
            }
            switch (ins->sub) {
            case PTX_ATOM_ADD: acc += v; break;
            case PTX_ATOM_AND: acc &= v; break;
            case PTX_ATOM_OR: acc |= v; break;
            case PTX_ATOM_XOR: acc ^= v; break;
            case PTX_ATOM_MIN:
                acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
                break;
            case PTX_ATOM_MAX:
                acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
                break;
            default: bad = 1; break;
            }
        }
        res[l] = acc;
    });
    if (bad)
        return -1;
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    EXEC_LANES(e, l, d[l] = res[l];);
    return 0;
}

// ----------------------------------------------------------------------------
// Entry

int exec_warp_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (ins->op == PTX_OP_ACTIVEMASK) {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        EXEC_LANES(m, l, d[l] = m;);
        return 0;
    }
    if (m == 0)
        return 0;
    if (ins->nops < 1)
        return -1;
    uint32_t here = waiting_here(w);
    uint32_t e = m | here;
    const uint64_t *mv = exec_src(x, w, &ins->ops[ins->nops - 1], x->tmp[3], e);
    uint32_t u = check_masks(x, w, ins, e, mv);
    if (u == 0)
        return 0;
    uint32_t elsewhere = ins->op == PTX_OP_BAR_WARP ? waiting_at_other_syncwarp(w) : 0;
    uint32_t missing = u & ~e & ~elsewhere;
    if (missing) {
        /* the arrived lanes wait here for the rest of their masks */
        exec_wait_sync(w, m, u);
        return 1;
    }
    if (here)
        exec_wait_sync_join(w, here);
    if (elsewhere & u)   /* the lanes at the other __syncwarp() go on past theirs */
        exec_wait_sync_pass(w, elsewhere & u);
    for (int i = 0; i < x->nobs; i++)
        if (x->obs[i].warp_sync)
            x->obs[i].warp_sync(x->obs[i].ctx, &x->ev, u);
    switch (ins->op) {
    case PTX_OP_SHFL:
        op_shfl(x, w, ins, e, mv);
        return 0;
    case PTX_OP_VOTE:
        op_vote(x, w, ins, e, mv);
        return 0;
    case PTX_OP_MATCH:
        op_match(x, w, ins, e, mv);
        return 0;
    case PTX_OP_REDUX:
        return op_redux(x, w, ins, e, mv);
    case PTX_OP_BAR_WARP:
        return 0;
    default:
        return -1;
    }
}
