/* viz_story.c - a traced launch as the frames a reader sees: per step of
 * block 0, every cell's value, its role (receives a sum, is read from shared
 * memory or from another lane's register, a masked or idle lane), an arrow
 * per addition or copy, the running counts of the lesson and the maths.
 *
 * defines: viz_story_build, viz_story_free, viz_story_frames,
 *          viz_story_title, viz_story_id, viz_story_final, viz_value_of,
 *          viz_format_value
 *
 * Reading a step's ops in execution order: a thread that writes a shared
 * element it read in the same step adds the other elements it read into it
 * (one addition per write; an arrow from each); a write after reads of
 * other elements copies them (the final read of x[0] into out[0]); a write
 * with no read in the step takes the thread's register (a warp's sum) or a
 * value from global memory. A shuffle lane whose addition counts
 * (viz_shuffle.c) receives from its source lane. Counts come from the trace
 * (the step view's rules), never from the drawing.
 */
#include "viz_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_READS 8   /* shared elements remembered per thread per step */

double viz_value_of(uint64_t bits, uint8_t kind, unsigned size)
{
    if (size == 0 || size > 8)
        size = 8;
    if (size < 8)
        bits &= (1ull << (8 * size)) - 1;
    if (kind == CURED_MODEL_TRACE_FLOAT) {
        if (size == 4) {
            float f;
            uint32_t b = (uint32_t)bits;
            memcpy(&f, &b, 4);
            return f;
        }
        if (size == 8) {
            double d;
            memcpy(&d, &bits, 8);
            return d;
        }
        return (double)bits;
    }
    if (kind == CURED_MODEL_TRACE_SIGNED && size < 8) {
        uint64_t m = 1ull << (8 * size - 1);
        return (double)(int64_t)((bits ^ m) - m);
    }
    if (kind == CURED_MODEL_TRACE_SIGNED)
        return (double)(int64_t)bits;
    return (double)bits;
}

const char *viz_format_value(double v, uint8_t kind, char *buf, size_t cap)
{
    if (kind != CURED_MODEL_TRACE_FLOAT || (v == floor(v) && fabs(v) < 1e9))
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.4g", v);
    return buf;
}

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

/* ------------------------------------------------------------ scratch */

/* One write of a step. */
typedef struct write_rec {
    uint32_t thread, cell;
    double value;
    int atomic;
} write_rec;

/* What building the frames needs besides the story. */
typedef struct build {
    viz_story *s;
    const cured_model_trace *t;
    const cured_model_trace_step *steps;
    uint32_t nsteps;
    const cured_model_trace_op *ops;
    const cured_model_trace_lane *lanes;
    const cured_model_step *tree;      /* the step view's tree steps */
    int ntree;
    uint32_t *useful;                  /* per op (viz_shuffle.c) */
    uint32_t *depth;                   /* per cell */
    uint32_t *writer;                  /* per cell: the thread that wrote it
                                          last, VIZ_NONE */
    uint32_t *reads;                   /* per thread: MAX_READS cells */
    uint8_t *nreads;                   /* per thread */
    uint8_t *wrote, *loaded;           /* per thread, this step */
    write_rec *writes;
    uint32_t nwrites, cap_writes;
    uint32_t *shfl_count;              /* per warp */
    uint32_t *working, *live;          /* per warp, this step */
    uint8_t *seen;
    /* facts arrays (threads * 4 each) */
    uint32_t *fa, *fb, *fc, *ga, *gb, *gc;
} build;

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

static int add_write(build *b, uint32_t thread, uint32_t cell, double value, int atomic)
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
    b->writes[b->nwrites++] = (write_rec){thread, cell, value, atomic};
    if (thread < b->s->threads)
        b->wrote[thread] = 1;
    return 0;
}

static int has_read(const build *b, uint32_t thread, uint32_t cell)
{
    for (uint32_t i = 0; i < b->nreads[thread]; i++)
        if (b->reads[thread * MAX_READS + i] == cell)
            return 1;
    return 0;
}

/* The value lane `lane` of warp w offers at its next shuffle in the same
 * interval after step si, when there is one. */
static int next_offered(const build *b, uint32_t si, uint32_t w, uint32_t lane,
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
static int read_ops(build *b, uint32_t si, viz_facts *f, double *values, uint8_t *known,
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
                if (!has_read(b, th, c) && b->nreads[th] < MAX_READS)
                    b->reads[th * MAX_READS + b->nreads[th]++] = c;
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
static int place_writes(build *b, viz_facts *f, double *values, uint8_t *known, char *roles)
{
    viz_story *s = b->s;
    for (uint32_t i = 0; i < b->nwrites; i++) {
        const write_rec *wr = &b->writes[i];
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
                uint32_t r = b->reads[th * MAX_READS + k];
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
                uint32_t r = b->reads[th * MAX_READS + k];
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
static int place_register_loads(build *b, uint32_t si, viz_facts *f, double *values,
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
            uint32_t r = b->reads[th * MAX_READS + k];
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
static void place_lanes(build *b, viz_facts *f, char *roles)
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
static void conflict_example(const build *b, uint32_t si, char *out, size_t cap)
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
static int32_t common_offset(const viz_story *s, const viz_facts *f)
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

/* Frame k (k >= 1) from trace step si. */
static int one_frame(build *b, uint32_t si, uint32_t k, uint32_t *level)
{
    viz_story *s = b->s;
    uint32_t nc = s->ncells;
    double *values = s->values + (size_t)k * nc;
    uint8_t *known = s->known + (size_t)k * nc;
    char *roles = s->roles + (size_t)k * nc;
    memcpy(values, values - nc, nc * sizeof *values);
    memcpy(known, known - nc, nc);
    memset(roles, VIZ_ROLE_NONE, nc);
    viz_frame *fr = &s->frames[k];
    const viz_frame *prev = &s->frames[k - 1];
    memset(fr, 0, sizeof *fr);
    fr->trace_step = si;
    fr->first_arrow = s->narrows;
    fr->first_line = s->nlines;
    s->nframes = k + 1;

    memset(b->nreads, 0, s->threads);
    memset(b->wrote, 0, s->threads);
    memset(b->loaded, 0, s->threads);
    memset(b->working, 0, s->warps * sizeof *b->working);
    memset(b->live, 0, s->warps * sizeof *b->live);
    memset(b->seen, 0, s->warps);
    b->nwrites = 0;
    viz_facts f;
    memset(&f, 0, sizeof f);
    f.add_thread = b->fa;
    f.add_dst = b->fb;
    f.add_src = b->fc;
    f.copy_thread = b->ga;
    f.copy_dst = b->gb;
    f.copy_src = b->gc;
    const cured_model_trace_step *st = &b->steps[si];
    f.tree_step = st->tree_step;
    f.end = st->end;

    if (read_ops(b, si, &f, values, known, roles) != 0 ||
        place_writes(b, &f, values, known, roles) != 0 ||
        place_register_loads(b, si, &f, values, known, roles) != 0)
        return -1;
    place_lanes(b, &f, roles);
    for (uint32_t th = 0; th < s->threads; th++)
        f.threads_global += b->loaded[th];

    /* the counts */
    fr->accesses = prev->accesses + st->accesses;
    fr->syncs = prev->syncs + (st->end == CURED_MODEL_TRACE_END_BARRIER);
    fr->shuffles_per_warp = 0;
    for (uint32_t w = 0; w < s->warps; w++)
        if (b->shfl_count[w] > fr->shuffles_per_warp)
            fr->shuffles_per_warp = b->shfl_count[w];
    fr->worst_degree = prev->worst_degree;
    fr->has_first = prev->has_first;
    fr->first_divergent = prev->first_divergent;
    fr->first_warps = prev->first_warps;
    fr->step_working = f.warps_working;
    fr->step_divergent = f.warps_divergent;
    if (st->tree_step >= 0 && st->tree_step < b->ntree) {
        const cured_model_step *ts = &b->tree[st->tree_step];
        fr->is_tree = 1;
        fr->step_degree = ts->bank_degree;
        fr->step_working = ts->warps;
        fr->step_divergent = ts->divergent_warps;
        f.degree = ts->bank_degree;
        if (ts->bank_degree > fr->worst_degree)
            fr->worst_degree = ts->bank_degree;
        if (!fr->has_first) {
            fr->has_first = 1;
            fr->first_divergent = ts->divergent_warps;
            fr->first_warps = ts->warps;
        }
        f.warps_working = ts->warps;
        f.warps_divergent = ts->divergent_warps;
        if (ts->bank_degree > 1)
            conflict_example(b, si, f.conflict, sizeof f.conflict);
    }
    snprintf(fr->conflict, sizeof fr->conflict, "%s", f.conflict);
    fr->adds = f.nadds + f.shuffle_useful + f.gather_adds;
    if (fr->adds > 0)
        fr->level = ++*level;
    fr->levels = *level;
    fr->total_adds = prev->total_adds + fr->adds;
    fr->depth = prev->depth;
    for (uint32_t c = 0; c < nc; c++)
        if (b->depth[c] > fr->depth)
            fr->depth = b->depth[c];
    fr->offset = common_offset(s, &f);
    int64_t a, b0;
    if (viz_fit_index(s, &f, &a, &b0) && a > 0 && a < INT32_MAX)
        fr->coef = (int32_t)a;
    for (uint32_t c = 0; c < nc; c++)
        if (known[c] && fabs(values[c]) > s->max_abs)
            s->max_abs = fabs(values[c]);
    fr->caption = viz_caption(s, k, &f);
    return fr->caption == NULL ? -1 : 0;
}

/* n: the values that entered the reduction: the initial stores into
 * shared memory, else the values read from global memory before the first
 * barrier (a grid kernel's last block reads the partial sums back later). */
static uint64_t count_n(const build *b)
{
    uint64_t initial = 0, global = 0;
    for (uint32_t si = 0; si < b->nsteps; si++) {
        const cured_model_trace_step *st = &b->steps[si];
        if (st->block != b->s->block)
            continue;
        if (st->interval != b->steps[0].interval && initial == 0 && global > 0)
            break;
        for (uint32_t i = st->first_op; i < st->first_op + st->nops; i++) {
            const cured_model_trace_op *op = &b->ops[i];
            initial += op->initial;
            if (op->kind == CURED_MODEL_TRACE_LOAD && op->space == CURED_MODEL_TRACE_GLOBAL)
                global += op->nlane;
        }
    }
    return initial ? initial : global;
}

static void build_free(build *b)
{
    free(b->useful);
    free(b->depth);
    free(b->writer);
    free(b->reads);
    free(b->nreads);
    free(b->wrote);
    free(b->loaded);
    free(b->writes);
    free(b->shfl_count);
    free(b->working);
    free(b->live);
    free(b->seen);
    free(b->fa);
    free(b->fb);
    free(b->fc);
    free(b->ga);
    free(b->gb);
    free(b->gc);
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* The story's value kind and size (*size): what its shared stores hold,
 * else its global stores, else its shuffles (whose adds say s32 for any
 * 32-bit integer). */
static uint8_t value_kind(const build *b, unsigned *size)
{
    const uint8_t order[3][2] = {{CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_SHARED},
                                 {CURED_MODEL_TRACE_STORE, CURED_MODEL_TRACE_GLOBAL},
                                 {CURED_MODEL_TRACE_SHUFFLE, CURED_MODEL_TRACE_NO_SPACE}};
    const cured_model_trace_op *ops = b->ops;
    for (int k = 0; k < 3; k++)
        for (uint32_t si = 0; si < b->nsteps; si++) {
            const cured_model_trace_step *st = &b->steps[si];
            for (uint32_t i = st->first_op; i < st->first_op + st->nops; i++)
                if (ops[i].block == b->s->block && ops[i].kind == order[k][0] &&
                    ops[i].space == order[k][1] && ops[i].nlane > 0) {
                    *size = ops[i].elem_size;
                    return ops[i].value;
                }
        }
    *size = 4;
    return CURED_MODEL_TRACE_UNSIGNED;
}

int viz_story_build(const cured_model_trace *trace, const cured_model_memory *memory,
                    const viz_story_info *info, viz_story **out, char *err, size_t cap)
{
    *out = NULL;
    if (!cured_model_trace_complete(trace)) {
        snprintf(err, cap, "the trace is incomplete (the launch is too long to "
                 "record, or host memory ran out)");
        return -1;
    }
    build b;
    memset(&b, 0, sizeof b);
    b.t = trace;
    b.nsteps = cured_model_trace_steps(trace, &b.steps);
    uint32_t nops = cured_model_trace_ops(trace, &b.ops);
    cured_model_trace_lanes(trace, &b.lanes);
    b.ntree = cured_model_step_view_steps(cured_model_trace_step_view(trace), &b.tree);
    if (b.nsteps == 0) {
        snprintf(err, cap, "the launch ran no step to draw");
        return -1;
    }
    viz_story *s = calloc(1, sizeof *s);
    if (s == NULL)
        goto oom;
    b.s = s;
    copy_text(s->id, sizeof s->id, info->id);
    copy_text(s->label, sizeof s->label, info->label);
    copy_text(s->code, sizeof s->code, info->code);
    copy_text(s->group, sizeof s->group, info->group);
    copy_text(s->dtype, sizeof s->dtype, info->dtype);
    cured_model_dim3 g = cured_model_trace_grid(trace), bl = cured_model_trace_block(trace);
    s->threads = bl.x * bl.y * bl.z;
    s->warps = (s->threads + 31) / 32;
    s->blocks = g.x * g.y * g.z;
    s->block = b.steps[0].block;
    if (viz_cells_build(s, trace, memory, err, cap) != 0) {
        viz_story_free(s);
        return -1;
    }
    unsigned size;
    s->value_kind = value_kind(&b, &size);
    if (s->dtype[0] == '\0')    /* the caller did not say: what the kernel stores */
        snprintf(s->dtype, sizeof s->dtype, "%c%u",
                 s->value_kind == CURED_MODEL_TRACE_FLOAT    ? 'f'
                 : s->value_kind == CURED_MODEL_TRACE_SIGNED ? 's'
                                                             : 'u',
                 8 * size);
    viz_sources_build(s, trace);

    uint32_t frames = 1;
    for (uint32_t i = 0; i < b.nsteps; i++)
        frames += b.steps[i].block == s->block;
    size_t nc = s->ncells, th = s->threads;
    s->frames = calloc(frames, sizeof *s->frames);
    s->values = calloc((size_t)frames * nc, sizeof *s->values);
    s->known = calloc((size_t)frames * nc, 1);
    s->roles = malloc((size_t)frames * nc);
    b.useful = malloc(((size_t)nops + 1) * sizeof *b.useful);
    b.depth = calloc(nc, sizeof *b.depth);
    b.writer = malloc(nc * sizeof *b.writer);
    b.reads = malloc(th * MAX_READS * sizeof *b.reads);
    b.nreads = calloc(th, 1);
    b.wrote = calloc(th, 1);
    b.loaded = calloc(th, 1);
    b.shfl_count = calloc(s->warps, sizeof *b.shfl_count);
    b.working = calloc(s->warps, sizeof *b.working);
    b.live = calloc(s->warps, sizeof *b.live);
    b.seen = calloc(s->warps, 1);
    b.fa = malloc(4 * th * sizeof *b.fa);
    b.fb = malloc(4 * th * sizeof *b.fb);
    b.fc = malloc(4 * th * sizeof *b.fc);
    b.ga = malloc(4 * th * sizeof *b.ga);
    b.gb = malloc(4 * th * sizeof *b.gb);
    b.gc = malloc(4 * th * sizeof *b.gc);
    if (!s->frames || !s->values || !s->known || !s->roles || !b.useful || !b.depth ||
        !b.writer ||
        !b.reads || !b.nreads || !b.wrote || !b.loaded || !b.shfl_count || !b.working ||
        !b.live || !b.seen || !b.fa || !b.fb || !b.fc || !b.ga || !b.gb || !b.gc ||
        viz_shuffle_useful(s, trace, b.useful) != 0)
        goto oom_story;
    s->n = count_n(&b);
    for (size_t c = 0; c < nc; c++)
        b.writer[c] = VIZ_NONE;

    memset(s->roles, VIZ_ROLE_NONE, nc);
    s->frames[0].trace_step = VIZ_NONE;
    s->nframes = 1;
    uint32_t k = 1, level = 0;
    for (uint32_t si = 0; si < b.nsteps; si++) {
        if (b.steps[si].block != s->block)
            continue;
        if (one_frame(&b, si, k, &level) != 0)
            goto oom_story;
        k++;
    }
    s->frames[0].caption = viz_caption(s, 0, NULL);
    if (s->frames[0].caption == NULL)
        goto oom_story;

    const viz_frame *last = &s->frames[s->nframes - 1];
    s->final.accesses = last->accesses;
    s->final.syncs = last->syncs;
    s->final.worst_degree = last->worst_degree;
    s->final.has_first_step = last->has_first;
    s->final.first_divergent = last->first_divergent;
    s->final.first_warps = last->first_warps;
    s->final.shuffles_per_warp = last->shuffles_per_warp;
    s->final.additions = last->total_adds;
    s->final.depth = last->depth;
    s->final.n = s->n;
    char blocks[48];
    if (s->blocks > 1)
        snprintf(blocks, sizeof blocks, "block 0 of %u, each of", s->blocks);
    else
        snprintf(blocks, sizeof blocks, "one block of");
    snprintf(s->title, sizeof s->title, "%s: %llu values (%s), %s %u threads (%u warp%s)",
             s->label, (unsigned long long)s->n, s->dtype, blocks, s->threads, s->warps,
             s->warps == 1 ? "" : "s");
    build_free(&b);
    *out = s;
    return 0;
oom_story:
    viz_story_free(s);
oom:
    build_free(&b);
    snprintf(err, cap, "out of host memory");
    return -1;
}

void viz_story_free(viz_story *s)
{
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->nframes; i++)
        free(s->frames[i].caption);
    viz_sources_free(s);
    free(s->frames);
    free(s->values);
    free(s->known);
    free(s->roles);
    free(s->arrows);
    free(s->lines);
    free(s->rows);
    free(s->cells);
    free(s->shared_map);
    free(s);
}

int viz_story_frames(const viz_story *s)
{
    return (int)s->nframes;
}

const char *viz_story_title(const viz_story *s)
{
    return s->title;
}

const char *viz_story_id(const viz_story *s)
{
    return s->id;
}

viz_final viz_story_final(const viz_story *s)
{
    return s->final;
}
