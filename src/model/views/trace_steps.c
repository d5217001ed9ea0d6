/* trace_steps.c - cuts a barrier interval of the trace into the steps a
 * reader sees.
 *
 * defines: trace_close_interval
 *
 * The interval is the step view's (it closes at a barrier release or at the
 * block's end). Without shuffles it is one step. With them, op by op in
 * execution order, a warp's ops before its first shfl of the interval are
 * round 0, its k-th shfl and what follows it round k; from the first memory
 * access after its last shfl on, its ops are the tail (rounds + 1): lane 0
 * storing a warp's sum is a step apart from the additions. Rounds with
 * nothing to show (no shared or global access, no shuffle) join the next
 * round that has something, or the last one. The barrier release belongs to
 * the last step.
 */
#include "trace_impl.h"
#include "step_view_impl.h"

#include <stdlib.h>
#include <string.h>

/* 1 when op shows something: a shared or global access, a shuffle. */
static int visible(const cured_model_trace_op *op)
{
    if (op->kind == CURED_MODEL_TRACE_SHUFFLE)
        return op->lanes != 0;
    return (op->kind == CURED_MODEL_TRACE_LOAD || op->kind == CURED_MODEL_TRACE_STORE ||
            op->kind == CURED_MODEL_TRACE_ATOMIC) &&
           op->space != CURED_MODEL_TRACE_NO_SPACE && op->nlane > 0;
}

static int is_memory(const cured_model_trace_op *op)
{
    return op->kind != CURED_MODEL_TRACE_SHUFFLE && visible(op);
}

/* Appends a step. Returns it, or NULL when out of host memory. */
static cured_model_trace_step *new_step(cured_model_trace *t)
{
    if (t->nsteps == t->cap_steps) {
        uint32_t n = t->cap_steps ? t->cap_steps * 2 : 64;
        void *p = realloc(t->steps, (size_t)n * sizeof *t->steps);
        if (p == NULL)
            return NULL;
        t->steps = p;
        t->cap_steps = n;
    }
    cured_model_trace_step *s = &t->steps[t->nsteps++];
    memset(s, 0, sizeof *s);
    return s;
}

static void reset_warps(cured_model_trace *t)
{
    for (uint32_t w = 0; w < t->nwarps; w++) {
        t->warps[w].shfl = 0;
        t->warps[w].pending_shfl = -1;
        t->warps[w].consumer = -1;
    }
}

/* 1 for a shared store or atomic the lesson's rules count. */
static int counted_store(const cured_model_trace_op *op)
{
    return (op->kind == CURED_MODEL_TRACE_STORE || op->kind == CURED_MODEL_TRACE_ATOMIC) &&
           op->space == CURED_MODEL_TRACE_SHARED && op->counted > 0;
}

/* An interval without shuffles: when a warp makes several counted shared
 * stores in it (levels of a tree run by one warp with no barrier between
 * them, as an unrolled last warp does), a warp's k-th such store closes its
 * round k; else one round. Returns the round count. */
static uint32_t store_rounds(cured_model_trace *t, uint32_t first, uint32_t n,
                             uint32_t *round, uint32_t *seen)
{
    uint32_t most = 0;
    for (uint32_t i = 0; i < n; i++) {
        const cured_model_trace_op *op = &t->ops[first + i];
        if (op->warp < t->nwarps && counted_store(op) && ++seen[op->warp] > most)
            most = seen[op->warp];
    }
    memset(seen, 0, t->nwarps * sizeof *seen);
    for (uint32_t i = 0; i < n; i++) {
        const cured_model_trace_op *op = &t->ops[first + i];
        uint32_t w = op->warp < t->nwarps ? op->warp : 0;
        if (op->kind == CURED_MODEL_TRACE_BARRIER) {
            round[i] = UINT32_MAX;
            continue;
        }
        round[i] = most >= 2 ? seen[w] : 0;
        if (counted_store(op))
            seen[w]++;
    }
    return most >= 2 ? most : 0;
}

/* The rounds of ops [first, first + n) into round[] (the barrier release:
 * UINT32_MAX); returns the interval's round count R (tail: R + 1). */
static uint32_t assign_rounds(cured_model_trace *t, uint32_t first, uint32_t n,
                              uint32_t *round, uint32_t *seen, uint8_t *tail)
{
    uint32_t R = 0;
    for (uint32_t w = 0; w < t->nwarps; w++)
        if (t->warps[w].shfl > R)
            R = t->warps[w].shfl;
    if (R == 0)
        return store_rounds(t, first, n, round, seen);
    for (uint32_t i = 0; i < n; i++) {
        const cured_model_trace_op *op = &t->ops[first + i];
        uint32_t w = op->warp < t->nwarps ? op->warp : 0;
        if (op->kind == CURED_MODEL_TRACE_BARRIER) {
            round[i] = UINT32_MAX;
            continue;
        }
        if (op->kind == CURED_MODEL_TRACE_SHUFFLE) {
            round[i] = ++seen[w];
            continue;
        }
        round[i] = seen[w];
        uint32_t last = t->warps[w].shfl;
        if (last > 0 && seen[w] == last && (tail[w] || is_memory(op))) {
            tail[w] = 1;
            round[i] = R + 1;
        }
    }
    return R;
}

void trace_close_interval(cured_model_trace *t, int end)
{
    uint32_t first = t->interval_first, n = t->nops - first;
    const cured_model_step_view *v = t->view;
    int iv = t->interval_view;
    int have_iv = iv >= 0 && iv < v->nintervals;
    if (n == 0 || t->incomplete) {
        reset_warps(t);
        return;
    }
    uint32_t *round = malloc((size_t)n * sizeof *round);
    uint32_t *seen = calloc(t->nwarps ? t->nwarps : 1, sizeof *seen);
    uint8_t *tail = calloc(t->nwarps ? t->nwarps : 1, 1);
    cured_model_trace_op *copy = malloc((size_t)n * sizeof *copy);
    uint32_t R = 0, *group = NULL, *label = NULL;
    uint8_t *shown = NULL;
    if (round && seen && tail && copy) {
        R = assign_rounds(t, first, n, round, seen, tail);
        group = malloc((size_t)(R + 2) * sizeof *group);
        label = malloc((size_t)(R + 2) * sizeof *label);
        shown = calloc(R + 2, 1);
    }
    if (group == NULL || label == NULL || shown == NULL) {
        t->incomplete = 1;
        goto done;
    }
    for (uint32_t i = 0; i < n; i++)
        if (round[i] != UINT32_MAX && visible(&t->ops[first + i]))
            shown[round[i]] = 1;

    /* rounds -> steps: an unshown round joins the next shown one */
    uint32_t nsteps = 0;
    for (uint32_t r = 0; r <= R + 1; r++) {
        group[r] = nsteps;
        if (shown[r])
            label[nsteps++] = r;
    }
    if (nsteps == 0) {
        nsteps = 1;
        label[0] = 0;
    }
    for (uint32_t r = 0; r <= R + 1; r++)
        if (group[r] >= nsteps)
            group[r] = nsteps - 1;

    /* reorder the ops step by step, keeping execution order */
    memcpy(copy, &t->ops[first], (size_t)n * sizeof *copy);
    uint32_t at = first, base = t->nsteps;
    int64_t *acc = calloc(nsteps, sizeof *acc);
    if (acc == NULL) {
        t->incomplete = 1;
        goto done;
    }
    for (uint32_t s = 0; s < nsteps; s++) {
        cured_model_trace_step *st = new_step(t);
        if (st == NULL) {
            t->incomplete = 1;
            free(acc);
            goto done;
        }
        st->block = t->block_index;
        st->interval = have_iv ? v->intervals[iv].s.interval : 0;
        st->tree_step = -1;
        st->round = label[s];
        st->first_op = at;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t g = round[i] == UINT32_MAX ? nsteps - 1 : group[round[i]];
            if (g != s)
                continue;
            t->ops[at] = copy[i];
            t->ops[at].step = base + s;
            acc[s] += (int64_t)copy[i].counted - (int64_t)copy[i].final_reads;
            at++;
        }
        st->nops = at - st->first_op;
    }
    /* a final read taken back after its step: from the steps before */
    for (uint32_t s = nsteps; s-- > 1;)
        if (acc[s] < 0) {
            acc[s - 1] += acc[s];
            acc[s] = 0;
        }
    uint32_t best = 0;
    for (uint32_t s = 0; s < nsteps; s++) {
        t->steps[base + s].accesses = acc[s] > 0 ? (uint64_t)acc[s] : 0;
        if (acc[s] > acc[best])
            best = s;
    }
    if (have_iv && v->intervals[iv].step >= 0)
        t->steps[base + best].tree_step = v->intervals[iv].step;
    t->steps[base + nsteps - 1].end = (uint8_t)end;
    free(acc);
done:
    free(round);
    free(seen);
    free(tail);
    free(copy);
    free(group);
    free(label);
    free(shown);
    reset_warps(t);
}
