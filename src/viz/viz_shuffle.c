/* viz_shuffle.c - which lanes of a shuffle reduction make additions that
 * count.
 *
 * defines: viz_shuffle_useful
 *
 * `v += __shfl_down_sync(mask, v, d)` runs on all 32 lanes, but only some
 * of the sums reach the result: lanes 16-31 of the first round add values
 * nobody reads again, and lanes that hold no data (a partial second round
 * over the warp sums, where lanes past the warp count take 0) add zeros.
 * Per barrier interval and warp, from the trace: the data-bearing lanes are
 * those that loaded a value before the warp's first shuffle, then every
 * lane that received from a bearing lane; the used lanes are those that
 * store after the warp's last shuffle, then, round by round backwards,
 * every lane a used lane received from. A lane's add counts when it is
 * used after the round, reads in range from another lane, and both it and
 * its source bear data.
 */
#include "viz_impl.h"

#include <stdlib.h>
#include <string.h>

/* The source lane of lane l in shuffle op, and whether it was in range;
 * -1 when l took no part. */
static int source_of(const cured_model_trace_op *op, const cured_model_trace_lane *lanes,
                     uint32_t l, int *in_range)
{
    for (uint32_t j = 0; j < op->nlane; j++) {
        const cured_model_trace_lane *r = &lanes[op->first_lane + j];
        if (r->lane == l) {
            *in_range = (r->flags & CURED_MODEL_TRACE_IN_RANGE) != 0;
            return (int)r->addr;
        }
    }
    return -1;
}

static int is_data_op(const cured_model_trace_op *op, uint8_t kind)
{
    return op->kind == kind && op->space != CURED_MODEL_TRACE_NO_SPACE && op->nlane > 0;
}

/* One warp's shuffles in one interval: ops[idx[0 .. n)] in order, the
 * interval's ops being [first, last). */
static void one_chain(const cured_model_trace_op *ops, const cured_model_trace_lane *lanes,
                      uint32_t first, uint32_t last, uint32_t warp, const uint32_t *idx,
                      uint32_t n, uint32_t *bearing_before, uint32_t *useful)
{
    uint32_t loaded = 0, users = 0;
    for (uint32_t i = first; i < idx[0]; i++)
        if (ops[i].warp == warp && ops[i].block == ops[idx[0]].block &&
            is_data_op(&ops[i], CURED_MODEL_TRACE_LOAD))
            loaded |= ops[i].lanes;
    for (uint32_t i = idx[n - 1] + 1; i < last; i++)
        if (ops[i].warp == warp && ops[i].block == ops[idx[0]].block &&
            (is_data_op(&ops[i], CURED_MODEL_TRACE_STORE) ||
             is_data_op(&ops[i], CURED_MODEL_TRACE_ATOMIC)))
            users |= ops[i].lanes;
    uint32_t bearing = loaded ? loaded : ops[idx[0]].lanes;
    for (uint32_t k = 0; k < n; k++) {
        const cured_model_trace_op *op = &ops[idx[k]];
        bearing_before[k] = bearing;
        uint32_t got = 0;
        for (uint32_t l = 0; l < 32; l++) {
            int in_range, src = source_of(op, lanes, l, &in_range);
            if (src >= 0 && in_range && (bearing >> src & 1))
                got |= 1u << l;
        }
        bearing |= got;
    }
    uint32_t live = users ? users : ops[idx[n - 1]].lanes;
    for (uint32_t k = n; k-- > 0;) {
        const cured_model_trace_op *op = &ops[idx[k]];
        uint32_t before = live, mask = 0;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(live >> l & 1))
                continue;
            int in_range, src = source_of(op, lanes, l, &in_range);
            if (src < 0 || !in_range || (uint32_t)src == l)
                continue;
            before |= 1u << src;
            if ((bearing_before[k] >> src & 1) && (bearing_before[k] >> l & 1))
                mask |= 1u << l;
        }
        useful[idx[k]] = mask;
        live = before;
    }
}

int viz_shuffle_useful(const viz_story *s, const cured_model_trace *t, uint32_t *useful)
{
    const cured_model_trace_step *steps;
    const cured_model_trace_op *ops;
    const cured_model_trace_lane *lanes;
    uint32_t nsteps = cured_model_trace_steps(t, &steps);
    uint32_t nops = cured_model_trace_ops(t, &ops);
    cured_model_trace_lanes(t, &lanes);
    memset(useful, 0, (size_t)nops * sizeof *useful);
    uint32_t *idx = malloc(((size_t)nops + 1) * sizeof *idx);
    uint32_t *bearing = malloc(((size_t)nops + 1) * sizeof *bearing);
    if (idx == NULL || bearing == NULL) {
        free(idx);
        free(bearing);
        return -1;
    }
    for (uint32_t a = 0; a < nsteps;) {
        uint32_t b = a;
        while (b < nsteps && steps[b].block == steps[a].block &&
               steps[b].interval == steps[a].interval)
            b++;
        if (steps[a].block == s->block) {
            uint32_t first = steps[a].first_op;
            uint32_t last = steps[b - 1].first_op + steps[b - 1].nops;
            for (uint32_t w = 0; w < s->warps; w++) {
                uint32_t n = 0;
                for (uint32_t i = first; i < last; i++)
                    if (ops[i].warp == w && ops[i].kind == CURED_MODEL_TRACE_SHUFFLE &&
                        ops[i].nlane > 0)
                        idx[n++] = i;
                if (n > 0)
                    one_chain(ops, lanes, first, last, w, idx, n, bearing, useful);
            }
        }
        a = b;
    }
    free(idx);
    free(bearing);
    return 0;
}
