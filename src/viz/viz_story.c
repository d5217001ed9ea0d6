/* viz_story.c - a traced launch as the frames a reader sees: per step of
 * block 0, every cell's value and role (viz_step.c), the running counts of
 * the lesson and the maths; the story's life and what the renderers read
 * of it.
 *
 * defines: viz_story_build, viz_story_free, viz_story_frames,
 *          viz_story_title, viz_story_id, viz_story_final
 *
 * Counts come from the trace (the step view's rules), never from the
 * drawing: a step's accesses and barrier are the trace step's, a tree
 * step's bank degree and divergent warps the step view's; the additions
 * and depth are those drawn.
 */
#include "viz_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frame k (k >= 1) from trace step si. */
static int one_frame(viz_build *b, uint32_t si, uint32_t k, uint32_t *level)
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
    if (viz_step_read(b, si, &f, values, known, roles) != 0)
        return -1;

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
            viz_step_conflict(b, si, f.conflict, sizeof f.conflict);
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
    fr->offset = viz_step_offset(s, &f);
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
static uint64_t count_n(const viz_build *b)
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

static void build_free(viz_build *b)
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
static uint8_t value_kind(const viz_build *b, unsigned *size)
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
    viz_build b;
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
    b.reads = malloc(th * VIZ_MAX_READS * sizeof *b.reads);
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
