/* viz_step.c - one step of a story: what each cell does in it (roles),
 * the arrows of its additions and copies, and its facts for the caption,
 * read from the trace's ops of that step in execution order.
 *
 * defines: viz_step_read, viz_step_conflict, viz_step_offset
 *
 * A thread that writes a shared element it read in the same step, or one
 * it wrote before and keeps in a register (v += x[tid + s]; x[tid] = v),
 * adds the other elements it read into it (one addition per write; an arrow
 * from each); a write after reads of other elements copies them (the final
 * read of x[0] into out[0]) or, with several, adds them (thread 0 summing
 * the warps' sums); a write with no read in the step takes the thread's
 * register (a warp's sum) or a value from global memory. A shuffle lane
 * whose addition counts (viz_shuffle.c) receives from its source lane. The
 * live lanes of a working warp that neither access memory nor shuffle are
 * masked; a warp with no such lane is idle.
 */
#include "viz_impl.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- roles */

static int priority(char role)
{
    switch (role) {
    case VIZ_ROLE_DST: return 5;
    case VIZ_ROLE_SHARED:
    case VIZ_ROLE_REG: return 4;
    case VIZ_ROLE_OWN: return 3;
    case VIZ_ROLE_MASKED: return 2;
    case VIZ_ROLE_IDLE: return 1;
    default: return 0;
    }
}

static void set_role(char *roles, uint32_t cell, char role)
{
    if (cell != VIZ_NONE && priority(role) > priority(roles[cell]))
        roles[cell] = role;
}



static int add_arrow(viz_story *s, uint32_t from, uint32_t to, uint8_t kind)
{
    if (from == VIZ_NONE || to == VIZ_NONE || from == to)
        return 0;
    viz_frame *f = &s->frames[s->nframes - 1];
    for (uint32_t i = f->first_arrow; i < s->narrows; i++)
        if (s->arrows[i].from == from && s->arrows[i].to == to)
            return 0;
    if (s->narrows == s->cap_arrows) {
        uint32_t n = s->cap_arrows ? 2 * s->cap_arrows : 256;
        void *p = realloc(s->arrows, n * sizeof *s->arrows);
        if (p == NULL)
            return -1;
        s->arrows = p;
        s->cap_arrows = n;
    }
    s->arrows[s->narrows++] = (viz_arrow){from, to, kind};
    f->narrows++;
    return 0;
}

static int add_line(viz_story *s, viz_line l)
{
    if (l.source == (uint16_t)VIZ_NONE)
        return 0;
    viz_frame *f = &s->frames[s->nframes - 1];
    for (uint32_t i = f->first_line; i < s->nlines; i++)
        if (s->lines[i].source == l.source && s->lines[i].line == l.line)
            return 0;
    if (s->nlines == s->cap_lines) {
        uint32_t n = s->cap_lines ? 2 * s->cap_lines : 128;
        void *p = realloc(s->lines, n * sizeof *s->lines);
        if (p == NULL)
            return -1;
        s->lines = p;
        s->cap_lines = n;
    }
    s->lines[s->nlines++] = l;
    f->nlines++;
    return 0;
}

static int add_write(viz_build *b, uint32_t thread, uint32_t cell, double value, int atomic)
{
    if (cell == VIZ_NONE)
        return 0;
    if (b->nwrites == b->cap_writes) {
        uint32_t n = b->cap_writes ? 2 * b->cap_writes : 256;
        void *p = realloc(b->writes, n * sizeof *b->writes);
        if (p == NULL)
            return -1;
        b->writes = p;
        b->cap_writes = n;
    }
    b->writes[b->nwrites++] = (viz_write){thread, cell, value, atomic};
    if (thread < b->s->threads)
        b->wrote[thread] = 1;
    return 0;
}

static int has_read(const viz_build *b, uint32_t thread, uint32_t cell)
{
    for (uint32_t i = 0; i < b->nreads[thread]; i++)
        if (b->reads[thread * VIZ_MAX_READS + i] == cell)
            return 1;
    return 0;
}

/* The value lane `lane` of warp w offers at its next shuffle in the same
 * interval after step si, when there is one. */
static int next_offered(const viz_build *b, uint32_t si, uint32_t w, uint32_t lane,
                        double *value)
{
    const cured_model_trace_step *st = &b->steps[si];
    for (uint32_t j = si + 1; j < b->nsteps; j++) {
        const cured_model_trace_step *n = &b->steps[j];
        if (n->block != st->block || n->interval != st->interval)
            return 0;
        for (uint32_t i = n->first_op; i < n->first_op + n->nops; i++) {
            const cured_model_trace_op *op = &b->ops[i];
            if (op->warp != w || op->kind != CURED_MODEL_TRACE_SHUFFLE)
                continue;
            for (uint32_t k = 0; k < op->nlane; k++) {
                const cured_model_trace_lane *r = &b->lanes[op->first_lane + k];
                if (r->lane == lane) {
                    *value = viz_value_of(r->before, op->value, 4);
                    return 1;
                }
            }
            return 0;
        }
    }
    return 0;
}

/* ---------------------------------------------------------- one step */

/* Reads the ops of trace step si into the frame just opened: values, the
 * reads and writes of each thread, shuffles. */
static int read_ops(viz_build *b, uint32_t si, viz_facts *f, double *values, uint8_t *known,
                    char *roles)
{
    viz_story *s = b->s;
    const cured_model_trace_step *st = &b->steps[si];
    int mode_set = 0;
    for (uint32_t i = st->first_op; i < st->first_op + st->nops; i++) {
        const cured_model_trace_op *op = &b->ops[i];
        uint32_t w = op->warp;
        if (w >= s->warps)
            continue;
        b->seen[w] = 1;
        b->live[w] |= op->live;
        if (op->kind != CURED_MODEL_TRACE_OTHER &&
            add_line(s, viz_source_line(s, b->t, op)) != 0)
            return -1;
        int shared = op->space == CURED_MODEL_TRACE_SHARED;
        int global = op->space == CURED_MODEL_TRACE_GLOBAL;
        switch (op->kind) {
        case CURED_MODEL_TRACE_LOAD:
            if (!shared && !global)
                break;
            b->working[w] |= op->lanes;
            for (uint32_t j = 0; j < op->nlane; j++) {
                const cured_model_trace_lane *r = &b->lanes[op->first_lane + j];
                uint32_t th = w * 32 + r->lane;
                if (th >= s->threads)
                    continue;
                if (global) {
                    b->loaded[th] = 1;
                    f->global_loads++;
                    continue;
                }
                f->shared_loads++;
                uint32_t c = viz_cell_shared(s, r->addr);
                if (c == VIZ_NONE)
                    continue;
                values[c] = viz_value_of(r->after, op->value, op->elem_size);
                known[c] = 1;
                if (!has_read(b, th, c) && b->nreads[th] < VIZ_MAX_READS)
                    b->reads[th * VIZ_MAX_READS + b->nreads[th]++] = c;
            }
            break;
        case CURED_MODEL_TRACE_STORE:
        case CURED_MODEL_TRACE_ATOMIC:
            if (!shared && !global)
                break;
            b->working[w] |= op->lanes;
            f->initial += op->initial;
            f->final_reads += op->final_reads;
            for (uint32_t j = 0; j < op->nlane; j++) {
                const cured_model_trace_lane *r = &b->lanes[op->first_lane + j];
                uint32_t th = w * 32 + r->lane;
                if (shared)
                    f->shared_stores++;
                else if (op->kind == CURED_MODEL_TRACE_ATOMIC)
                    f->atomics++;
                else
                    f->global_stores++;
                uint32_t c = shared ? viz_cell_shared(s, r->addr) : viz_cell_global(s, r->addr);
                if (add_write(b, th, c, viz_value_of(r->after, op->value, op->elem_size),
                              op->kind == CURED_MODEL_TRACE_ATOMIC) != 0)
                    return -1;
            }
            break;
        case CURED_MODEL_TRACE_SHUFFLE: {
            b->working[w] |= op->lanes;
            b->shfl_count[w]++;
            f->shuffle_ops++;
            uint32_t useful = b->useful[i];
            int first_warp = f->shuffle_ops == 1;
            for (uint32_t j = 0; j < op->nlane; j++) {
                const cured_model_trace_lane *r = &b->lanes[op->first_lane + j];
                uint32_t th = w * 32 + r->lane, src = w * 32 + (uint32_t)r->addr;
                uint32_t c = viz_cell_reg(s, th), sc = viz_cell_reg(s, src);
                int in_range = (r->flags & CURED_MODEL_TRACE_IN_RANGE) != 0;
                if (in_range && r->addr != r->lane) {
                    int32_t d = (int32_t)r->addr - (int32_t)r->lane;
                    char m = d > 0 ? 'd' : 'u';
                    if (!mode_set) {
                        f->shuffle_mode = m;
                        f->shuffle_delta = d > 0 ? d : -d;
                        mode_set = 1;
                    } else if (f->shuffle_mode != 'i' &&
                               (m != f->shuffle_mode || (d > 0 ? d : -d) != f->shuffle_delta)) {
                        f->shuffle_mode =
                            ((uint32_t)r->addr ^ r->lane) == (uint32_t)f->shuffle_delta ? 'x' : 'i';
                    }
                }
                if (c == VIZ_NONE)
                    continue;
                if (!known[c]) {
                    values[c] = viz_value_of(r->before, op->value, 4);
                    known[c] = 1;
                }
                if (useful >> r->lane & 1) {
                    set_role(roles, c, VIZ_ROLE_DST);
                    set_role(roles, sc, VIZ_ROLE_REG);
                    if (add_arrow(s, sc, c, VIZ_ARROW_ADD_REG) != 0)
                        return -1;
                    uint32_t d0 = b->depth[c], d1 = sc != VIZ_NONE ? b->depth[sc] : 0;
                    b->depth[c] = (d0 > d1 ? d0 : d1) + 1;
                    f->shuffle_useful++;
                    if (first_warp)
                        f->shuffle_useful_lanes |= 1u << r->lane;
                } else if (!in_range) {
                    set_role(roles, c, VIZ_ROLE_OWN);
                    if (first_warp)
                        f->shuffle_own_lanes |= 1u << r->lane;
                }
                if (r->flags & CURED_MODEL_TRACE_HAS_SUM)
                    values[c] = viz_value_of(r->sum, op->value, 4);
            }
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

/* Turns the step's writes into roles, arrows and additions. */
static int place_writes(viz_build *b, viz_facts *f, double *values, uint8_t *known, char *roles)
{
    viz_story *s = b->s;
    for (uint32_t i = 0; i < b->nwrites; i++) {
        const viz_write *wr = &b->writes[i];
        uint32_t th = wr->thread, c = wr->cell;
        int can_read = th < s->threads;
        set_role(roles, c, VIZ_ROLE_DST);
        values[c] = wr->value;
        known[c] = 1;
        /* a thread adds into an element it reads now, or into one it wrote
         * before and keeps in a register (v += x[tid + s]; x[tid] = v) */
        int own = has_read(b, th, c) || (b->writer[c] == th && b->nreads[th] > 0);
        b->writer[c] = th;
        if (can_read && s->cells[c].kind == VIZ_CELL_SHARED && own) {
            uint32_t first_src = VIZ_NONE, depth = b->depth[c];
            for (uint32_t k = 0; k < b->nreads[th]; k++) {
                uint32_t r = b->reads[th * VIZ_MAX_READS + k];
                if (r == c)
                    continue;
                set_role(roles, r, VIZ_ROLE_SHARED);
                if (add_arrow(s, r, c, VIZ_ARROW_ADD_SHARED) != 0)
                    return -1;
                if (first_src == VIZ_NONE)
                    first_src = r;
                depth = b->depth[r] > depth ? b->depth[r] : depth;
            }
            if (first_src == VIZ_NONE)
                continue;    /* rewrote its own element */
            b->depth[c] = depth + 1;
            if (f->nadds < 4 * s->threads) {
                f->add_thread[f->nadds] = th;
                f->add_dst[f->nadds] = c;
                f->add_src[f->nadds] = first_src;
                f->nadds++;
            }
            continue;
        }
        uint32_t src = VIZ_NONE;
        if (can_read && b->nreads[th] > 0) {
            /* one element read: a copy; several: their sum (thread 0 adding
             * the warps' sums) */
            uint32_t nsrc = b->nreads[th], depth = 0;
            for (uint32_t k = 0; k < nsrc; k++) {
                uint32_t r = b->reads[th * VIZ_MAX_READS + k];
                set_role(roles, r, VIZ_ROLE_SHARED);
                if (add_arrow(s, r, c, nsrc > 1 ? VIZ_ARROW_ADD_SHARED : VIZ_ARROW_COPY) != 0)
                    return -1;
                if (src == VIZ_NONE)
                    src = r;
                depth = b->depth[r] > depth ? b->depth[r] : depth;
            }
            if (nsrc > 1) {
                b->depth[c] = depth + 1;
                f->gathers++;
                f->gather_adds += nsrc - 1;
                if (f->ncopies < 4 * s->threads) {
                    f->copy_thread[f->ncopies] = th;
                    f->copy_dst[f->ncopies] = c;
                    f->copy_src[f->ncopies] = src;
                    f->ncopies++;
                }
                continue;
            }
        } else if (can_read && viz_cell_reg(s, th) != VIZ_NONE &&
                   s->cells[c].kind != VIZ_CELL_REG) {
            src = viz_cell_reg(s, th);
            set_role(roles, src, VIZ_ROLE_REG);
            if (add_arrow(s, src, c, VIZ_ARROW_COPY) != 0)
                return -1;
        }
        b->depth[c] = src != VIZ_NONE ? b->depth[src] : 0;
        if (f->ncopies < 4 * s->threads) {
            f->copy_thread[f->ncopies] = th;
            f->copy_dst[f->ncopies] = c;
            f->copy_src[f->ncopies] = src;
            f->ncopies++;
        }
    }
    return 0;
}

/* Threads that loaded into registers and wrote nothing (a shuffle comes):
 * their register cells receive, from shared memory or global memory. */
static int place_register_loads(viz_build *b, uint32_t si, viz_facts *f, double *values,
                                uint8_t *known, char *roles)
{
    viz_story *s = b->s;
    if (!s->has_regs)
        return 0;
    for (uint32_t th = 0; th < s->threads; th++) {
        if (b->wrote[th] || (!b->loaded[th] && b->nreads[th] == 0))
            continue;
        uint32_t c = viz_cell_reg(s, th);
        double v;
        if (!next_offered(b, si, th / 32, th % 32, &v))
            continue;
        values[c] = v;
        known[c] = 1;
        set_role(roles, c, VIZ_ROLE_DST);
        f->reg_loads++;
        uint32_t depth = 0;
        for (uint32_t k = 0; k < b->nreads[th]; k++) {
            uint32_t r = b->reads[th * VIZ_MAX_READS + k];
            set_role(roles, r, VIZ_ROLE_SHARED);
            if (add_arrow(s, r, c, VIZ_ARROW_COPY) != 0)
                return -1;
            depth = b->depth[r] > depth ? b->depth[r] : depth;
        }
        b->depth[c] = depth;
    }
    return 0;
}

/* The row drawing warp w's lanes, or NULL. */
static const viz_row *lane_row(const viz_story *s, uint32_t w)
{
    for (uint32_t r = 0; r < s->nrows; r++)
        if (s->rows[r].warp == (int32_t)w)
            return &s->rows[r];
    return NULL;
}

/* Masked lanes of working warps, idle warps. */
static void place_lanes(viz_build *b, viz_facts *f, char *roles)
{
    viz_story *s = b->s;
    for (uint32_t w = 0; w < s->warps; w++) {
        const viz_row *row = lane_row(s, w);
        if (b->working[w]) {
            uint32_t masked = b->live[w] & ~b->working[w];
            f->warps_working++;
            if (masked)
                f->warps_divergent++;
            for (uint32_t l = 0; row && l < row->count; l++)
                if (masked >> l & 1)
                    set_role(roles, row->first + l, VIZ_ROLE_MASKED);
            continue;
        }
        f->warps_idle++;
        for (uint32_t l = 0; row && l < row->count; l++)
            set_role(roles, row->first + l, VIZ_ROLE_IDLE);
    }
}

/* "lanes 0 and 16 of warp 0 write x[0] and x[32], both in bank 0". */
void viz_step_conflict(const viz_build *b, uint32_t si, char *out, size_t cap)
{
    const viz_story *s = b->s;
    const cured_model_trace_step *st = &b->steps[si];
    out[0] = '\0';
    for (uint32_t i = st->first_op; i < st->first_op + st->nops; i++) {
        const cured_model_trace_op *op = &b->ops[i];
        if (op->kind != CURED_MODEL_TRACE_STORE || op->space != CURED_MODEL_TRACE_SHARED ||
            op->counted == 0)
            continue;
        for (uint32_t j = 0; j < op->nlane; j++) {
            const cured_model_trace_lane *x = &b->lanes[op->first_lane + j];
            for (uint32_t k = j + 1; k < op->nlane; k++) {
                const cured_model_trace_lane *y = &b->lanes[op->first_lane + k];
                if ((x->addr / 4) % 32 != (y->addr / 4) % 32 || x->addr / 4 == y->addr / 4)
                    continue;
                uint32_t cx = viz_cell_shared(s, x->addr), cy = viz_cell_shared(s, y->addr);
                snprintf(out, cap, "lanes %u and %u of warp %u write %s and %s, both in "
                         "bank %u", x->lane, y->lane, op->warp,
                         cx != VIZ_NONE ? s->cells[cx].name : "?",
                         cy != VIZ_NONE ? s->cells[cy].name : "?",
                         (unsigned)((x->addr / 4) % 32));
                return;
            }
        }
    }
}

/* The common offset of the step's additions: source minus destination,
 * in elements (shared) or lanes (shuffles); 0 when they differ. */
int32_t viz_step_offset(const viz_story *s, const viz_facts *f)
{
    if (f->nadds == 0)
        return f->shuffle_mode == 'd' ? f->shuffle_delta
             : f->shuffle_mode == 'u' ? -f->shuffle_delta : 0;
    int32_t d = (int32_t)s->cells[f->add_src[0]].index - (int32_t)s->cells[f->add_dst[0]].index;
    for (uint32_t i = 1; i < f->nadds; i++)
        if ((int32_t)s->cells[f->add_src[i]].index - (int32_t)s->cells[f->add_dst[i]].index != d)
            return 0;
    return d;
}

int viz_step_read(viz_build *b, uint32_t si, viz_facts *f, double *values, uint8_t *known,
                  char *roles)
{
    viz_story *s = b->s;
    memset(b->nreads, 0, s->threads);
    memset(b->wrote, 0, s->threads);
    memset(b->loaded, 0, s->threads);
    memset(b->working, 0, s->warps * sizeof *b->working);
    memset(b->live, 0, s->warps * sizeof *b->live);
    memset(b->seen, 0, s->warps);
    b->nwrites = 0;
    if (read_ops(b, si, f, values, known, roles) != 0 ||
        place_writes(b, f, values, known, roles) != 0 ||
        place_register_loads(b, si, f, values, known, roles) != 0)
        return -1;
    place_lanes(b, f, roles);
    for (uint32_t th = 0; th < s->threads; th++)
        f->threads_global += b->loaded[th];
    return 0;
}
