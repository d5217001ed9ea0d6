/* viz_caption.c - one sentence per step, from what the trace saw in it:
 * "stride 16: threads 0-15 add x[tid + 16] into x[tid] (16 threads); no
 * bank conflict; 1 of 1 working warps diverges; 2 __syncthreads() so far".
 *
 * defines: viz_caption, viz_set_text, viz_fit_index
 *
 * Every number is the step's: the threads that added and the elements they
 * touched (their indices fitted to a*tid + b when they fit), the bank
 * degree and divergent warps of the step view, the lanes a shuffle read,
 * the values written. Nothing is known about a kernel in advance.
 */
#include "viz_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAPTION_MAX 1024

/* Appends printf text to buf (cap bytes, NUL ended). */
static void add(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void viz_set_text(const uint32_t *v, uint32_t n, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (n == 0)
        return;
    if (n == 1) {
        snprintf(buf, cap, "%u", v[0]);
        return;
    }
    int contiguous = 1, progression = n >= 4;
    for (uint32_t i = 1; i < n; i++) {
        contiguous &= v[i] == v[i - 1] + 1;
        progression &= v[i] - v[i - 1] == v[1] - v[0];
    }
    if (contiguous) {
        snprintf(buf, cap, "%u-%u", v[0], v[n - 1]);
        return;
    }
    if (progression) {
        snprintf(buf, cap, "%u, %u, %u, ..., %u", v[0], v[1], v[2], v[n - 1]);
        return;
    }
    for (uint32_t i = 0; i < n && i < 6; i++)
        add(buf, cap, "%s%u", i ? ", " : "", v[i]);
    if (n > 6)
        add(buf, cap, ", ... (%u in all)", n);
}

/* The distinct values of v[0 .. n), sorted, into out (at most max). */
static uint32_t distinct(const uint32_t *v, uint32_t n, uint32_t *out, uint32_t max)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n && k < max; i++)
        out[k++] = v[i];
    qsort(out, k, sizeof *out, by_u32);
    uint32_t u = 0;
    for (uint32_t i = 0; i < k; i++)
        if (u == 0 || out[i] != out[u - 1])
            out[u++] = out[i];
    return u;
}

int viz_fit_index(const viz_story *s, const viz_facts *f, int64_t *a_out, int64_t *b_out)
{
    if (f->nadds == 0)
        return 0;
    int64_t t0 = f->add_thread[0], d0 = s->cells[f->add_dst[0]].index;
    int64_t a = 1;
    for (uint32_t i = 1; i < f->nadds; i++)
        if (f->add_thread[i] != (uint32_t)t0) {
            int64_t dt = (int64_t)f->add_thread[i] - t0;
            int64_t dd = (int64_t)s->cells[f->add_dst[i]].index - d0;
            if (dd % dt != 0)
                return 0;
            a = dd / dt;
            break;
        }
    int64_t b = d0 - a * t0;
    for (uint32_t i = 0; i < f->nadds; i++)
        if ((int64_t)s->cells[f->add_dst[i]].index != a * (int64_t)f->add_thread[i] + b)
            return 0;
    *a_out = a;
    *b_out = b;
    return 1;
}

/* "tid", "4*tid", "2*tid + 1" for dst index = a * tid + b over the adds;
 * "" when they fit no such line. */
static void index_expr(const viz_story *s, const viz_facts *f, char *buf, size_t cap)
{
    int64_t a, b;
    buf[0] = '\0';
    if (!viz_fit_index(s, f, &a, &b))
        return;
    if (a == 1 && b == 0)
        snprintf(buf, cap, "tid");
    else if (b == 0)
        snprintf(buf, cap, "%lld*tid", (long long)a);
    else
        snprintf(buf, cap, "%lld*tid %c %lld", (long long)a, b < 0 ? '-' : '+',
                 (long long)(b < 0 ? -b : b));
}

/* The warps clause of a step. */
static void warps_clause(const viz_story *s, const viz_facts *f, char *buf, size_t cap)
{
    uint32_t idle = s->warps > f->warps_working ? s->warps - f->warps_working : 0;
    if (f->warps_working == 0)
        return;
    if (f->warps_divergent == 0)
        add(buf, cap, "; no warp diverges");
    else if (f->warps_divergent == f->warps_working && f->warps_working == 2)
        add(buf, cap, "; both warps diverge");
    else
        add(buf, cap, "; %u of %u working warp%s diverge%s", f->warps_divergent,
            f->warps_working, f->warps_working == 1 ? "" : "s",
            f->warps_divergent == 1 ? "s" : "");
    if (idle > 0 && s->warps > 1)
        add(buf, cap, " (%u warp%s idle)", idle, idle == 1 ? "" : "s");
}

/* The tree step: additions in shared memory. */
static void tree_caption(const viz_story *s, const viz_frame *fr, const viz_facts *f,
                         char *buf, size_t cap)
{
    uint32_t *th = malloc(f->nadds * sizeof *th);
    char set[160] = "", expr[48];
    uint32_t nth = th ? distinct(f->add_thread, f->nadds, th, f->nadds) : 0;
    if (th)
        viz_set_text(th, nth, set, sizeof set);
    free(th);
    index_expr(s, f, expr, sizeof expr);
    int32_t d = fr->offset;
    if (d != 0 && expr[0])
        add(buf, cap, "stride %d: thread%s %s add%s x[%s %c %d] into x[%s] (%u thread%s)",
            d < 0 ? -d : d, nth == 1 ? "" : "s", set, nth == 1 ? "s" : "", expr,
            d < 0 ? '-' : '+', d < 0 ? -d : d, expr, nth, nth == 1 ? "" : "s");
    else
        add(buf, cap, "thread%s %s add%s another element of shared memory into one "
            "they read (%u addition%s)", nth == 1 ? "" : "s", set, nth == 1 ? "s" : "",
            f->nadds, f->nadds == 1 ? "" : "s");
    if (f->tree_step >= 0) {
        if (f->degree > 1)
            add(buf, cap, "; %u-way bank conflict: %s", f->degree,
                f->conflict[0] ? f->conflict : "several words of one bank");
        else
            add(buf, cap, "; no bank conflict");
    }
    warps_clause(s, f, buf, cap);
}

static void shuffle_caption(const viz_facts *f, char *buf, size_t cap)
{
    char useful[96] = "", own[96] = "";
    uint32_t lanes[32], n = 0, m = 0, own_lanes[32];
    for (uint32_t l = 0; l < 32; l++) {
        if (f->shuffle_useful_lanes >> l & 1)
            lanes[n++] = l;
        if (f->shuffle_own_lanes >> l & 1)
            own_lanes[m++] = l;
    }
    viz_set_text(lanes, n, useful, sizeof useful);
    viz_set_text(own_lanes, m, own, sizeof own);
    int d = f->shuffle_delta;
    switch (f->shuffle_mode) {
    case 'd': add(buf, cap, "shfl.down by %d in %u warp%s: lane l adds lane l + %d's v", d,
                  f->shuffle_ops, f->shuffle_ops == 1 ? "" : "s", d); break;
    case 'u': add(buf, cap, "shfl.up by %d in %u warp%s: lane l adds lane l - %d's v", d,
                  f->shuffle_ops, f->shuffle_ops == 1 ? "" : "s", d); break;
    case 'x': add(buf, cap, "shfl.xor %d in %u warp%s: lane l adds lane l ^ %d's v", d,
                  f->shuffle_ops, f->shuffle_ops == 1 ? "" : "s", d); break;
    default: add(buf, cap, "a shuffle in %u warp%s: lanes read other lanes' registers",
                 f->shuffle_ops, f->shuffle_ops == 1 ? "" : "s"); break;
    }
    if (f->shuffle_useful > 0)
        add(buf, cap, "; %u addition%s count (lane%s %s of each warp)", f->shuffle_useful,
            f->shuffle_useful == 1 ? "" : "s", n == 1 ? "" : "s", useful);
    else
        add(buf, cap, "; no sum made here is used (the lanes read hold no data yet)");
    if (m > 0)
        add(buf, cap, "; lane%s %s read%s past the warp's end and get%s %s own value back",
            m == 1 ? "" : "s", own, m == 1 ? "s" : "", m == 1 ? "s" : "",
            m == 1 ? "its" : "their");
}

/* Copies: "thread 0 copies x[0] = 2011 to out[0]", "threads 0, 32 write 2
 * values into shared memory (x[0] = 250, x[1] = 267), each from its
 * register". */
static void copy_caption(const viz_story *s, const viz_facts *f, char *buf, size_t cap)
{
    char v[32];
    uint32_t from_shared = 0, from_reg = 0, k = f->ncopies;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t src = f->copy_src[i];
        if (src != VIZ_NONE && s->cells[src].kind == VIZ_CELL_REG)
            from_reg++;
        else if (src != VIZ_NONE)
            from_shared++;
    }
    const viz_cell *dst = &s->cells[f->copy_dst[0]];
    const double *values = s->values + (size_t)(s->nframes - 1) * s->ncells;
    viz_format_value(values[f->copy_dst[0]], s->value_kind, v, sizeof v);
    if (k == 1 && f->gathers == 1) {
        add(buf, cap, "thread %u adds the %u values it read from shared memory into %s = %s",
            f->copy_thread[0], f->gather_adds + 1, dst->name, v);
        if (dst->kind == VIZ_CELL_GLOBAL)
            add(buf, cap, ": the block's result");
    } else if (k == 1 && f->copy_src[0] != VIZ_NONE) {
        const viz_cell *src = &s->cells[f->copy_src[0]];
        add(buf, cap, "thread %u %s %s = %s %s %s", f->copy_thread[0],
            f->atomics ? "adds" : "copies", src->kind == VIZ_CELL_REG ? "its v" : src->name,
            v, f->atomics ? "into" : "to", dst->name);
        if (dst->kind == VIZ_CELL_GLOBAL)
            add(buf, cap, ": the block's result");
    } else {
        uint32_t th[64];
        char set[160], cells[200] = "";
        uint32_t n = distinct(f->copy_thread, k, th, 64);
        viz_set_text(th, n, set, sizeof set);
        for (uint32_t i = 0; i < k && i < 4; i++) {
            viz_format_value(values[f->copy_dst[i]], s->value_kind, v, sizeof v);
            add(cells, sizeof cells, "%s%s = %s", i ? ", " : "", s->cells[f->copy_dst[i]].name,
                v);
        }
        if (k > 4)
            add(cells, sizeof cells, ", ...");
        add(buf, cap, "thread%s %s %s %u value%s into %s (%s)%s", n == 1 ? "" : "s", set,
            n == 1 ? "writes" : "write", k, k == 1 ? "" : "s",
            dst->kind == VIZ_CELL_GLOBAL ? "global memory" : "shared memory", cells,
            from_reg == k ? ", each from its register (its warp's sum)"
            : f->gathers == k ? ", each the sum of the elements it read from shared memory"
            : from_shared == k ? ", each copied from shared memory" : "");
    }
    if (f->final_reads)
        add(buf, cap, " (%u final read%s of shared memory: not counted)", f->final_reads,
            f->final_reads == 1 ? "" : "s");
}

/* The initial load: global memory into shared memory. */
static void load_caption(const viz_facts *f, char *buf, size_t cap)
{
    add(buf, cap, "%u thread%s read %u value%s from global memory and store %u into "
        "shared memory", f->threads_global, f->threads_global == 1 ? "" : "s",
        f->global_loads, f->global_loads == 1 ? "" : "s", f->shared_stores);
    if (f->initial == f->shared_stores)
        add(buf, cap, " (%u initial store%s: the lesson does not count them)", f->initial,
            f->initial == 1 ? "" : "s");
    else if (f->initial)
        add(buf, cap, " (%u of them initial stores, not counted)", f->initial);
}

static void register_load_caption(const viz_facts *f, char *buf, size_t cap)
{
    if (f->shared_loads > 0)
        add(buf, cap, "%u lane%s read %u value%s from shared memory into registers",
            f->reg_loads, f->reg_loads == 1 ? "" : "s", f->shared_loads,
            f->shared_loads == 1 ? "" : "s");
    else
        add(buf, cap, "%u thread%s read %u value%s from global memory into registers",
            f->threads_global, f->threads_global == 1 ? "" : "s", f->global_loads,
            f->global_loads == 1 ? "" : "s");
}

char *viz_caption(const viz_story *s, uint32_t k, const viz_facts *f)
{
    char *buf = malloc(CAPTION_MAX);
    if (buf == NULL)
        return NULL;
    buf[0] = '\0';
    if (k == 0 || f == NULL) {
        int sums = s->nframes > 0 && s->frames[s->nframes - 1].total_adds > 0;
        add(buf, CAPTION_MAX, "Before the first step: %llu values wait in global memory; "
            "%s%u threads (%u warp%s) will %s them", (unsigned long long)s->n,
            s->blocks > 1 ? "block 0's " : "one block of ", s->threads, s->warps,
            s->warps == 1 ? "" : "s", sums ? "sum" : "work on");
        if (s->blocks > 1)
            add(buf, CAPTION_MAX, " (the grid's other %u blocks do the same with theirs)",
                s->blocks - 1);
        return buf;
    }
    const viz_frame *fr = &s->frames[k];
    if (f->nadds > 0)
        tree_caption(s, fr, f, buf, CAPTION_MAX);
    else if (f->shuffle_ops > 0)
        shuffle_caption(f, buf, CAPTION_MAX);
    else if (f->initial > 0 || (f->global_loads > 0 && f->shared_stores > 0))
        load_caption(f, buf, CAPTION_MAX);
    else if (f->reg_loads > 0)
        register_load_caption(f, buf, CAPTION_MAX);
    else if (f->ncopies > 0)
        copy_caption(s, f, buf, CAPTION_MAX);
    else
        add(buf, CAPTION_MAX, "%u shared load%s, %u shared store%s, %u global store%s",
            f->shared_loads, f->shared_loads == 1 ? "" : "s", f->shared_stores,
            f->shared_stores == 1 ? "" : "s", f->global_stores,
            f->global_stores == 1 ? "" : "s");
    if (f->end == CURED_MODEL_TRACE_END_BARRIER)
        add(buf, CAPTION_MAX, "; then __syncthreads(): %u so far", fr->syncs);
    else if (f->end == CURED_MODEL_TRACE_END_INITIAL)
        add(buf, CAPTION_MAX, "; then __syncthreads(), the barrier after the initial "
            "stores (not counted)");
    return buf;
}
