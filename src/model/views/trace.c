/* trace.c - the trace as a model observer: every warp instruction with its
 * lanes, the shared and global values it read and wrote, shuffles with
 * their source lanes and values, barrier releases and source lines. The
 * grouping into steps is the step view's (which runs inside the trace, fed
 * the same events) and trace_steps.c's.
 *
 * defines: cured_model_trace_new, cured_model_trace_free,
 *          cured_model_trace_observer, cured_model_trace_set_limits,
 *          cured_model_trace_steps, cured_model_trace_ops,
 *          cured_model_trace_lanes, cured_model_trace_step_view,
 *          cured_model_trace_grid, cured_model_trace_block,
 *          cured_model_trace_file, cured_model_trace_opcode_name,
 *          cured_model_trace_complete
 *
 * Values: observers see memory before an instruction's stores, so a store's
 * values are read back in instr_done, after it took effect (a load's before
 * and after are the same). A shuffle's values come from the interpreter's
 * shuffle call; the sum a lane makes of what it received is the result of
 * the first later instruction of its warp that reads the shuffle's
 * destination register (through register moves and selects), read in that
 * instruction's instr_done.
 */
#include "trace_impl.h"
#include "step_view_impl.h"
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_OPS (1u << 20)
#define DEFAULT_MAX_LANES (1u << 21)

/* Grows *array (elem bytes each, capacity *cap) to hold need. 0 or -1. */
static int grow(void **array, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint32_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *p = realloc(*array, (size_t)n * elem);
    if (p == NULL)
        return -1;
    *array = p;
    *cap = n;
    return 0;
}

/* ------------------------------------------------------------ records */

static uint8_t kind_of(const ptx_instr *ins)
{
    switch (ins->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU: return CURED_MODEL_TRACE_LOAD;
    case PTX_OP_ST: return CURED_MODEL_TRACE_STORE;
    case PTX_OP_ATOM:
    case PTX_OP_RED: return CURED_MODEL_TRACE_ATOMIC;
    case PTX_OP_SHFL: return CURED_MODEL_TRACE_SHUFFLE;
    default: return CURED_MODEL_TRACE_OTHER;
    }
}

static uint8_t value_of(unsigned type)
{
    if (type == PTX_T_F32 || type == PTX_T_F64 || type == PTX_T_F16 ||
        type == PTX_T_BF16 || type == PTX_T_F16X2 || type == PTX_T_BF16X2)
        return CURED_MODEL_TRACE_FLOAT;
    if (type >= PTX_T_S8 && type <= PTX_T_S64)
        return CURED_MODEL_TRACE_SIGNED;
    return CURED_MODEL_TRACE_UNSIGNED;
}

static uint8_t space_of(unsigned space)
{
    return space == PTX_S_SHARED ? CURED_MODEL_TRACE_SHARED
         : space == PTX_S_GLOBAL ? CURED_MODEL_TRACE_GLOBAL
         : CURED_MODEL_TRACE_NO_SPACE;
}

/* Appends an op for event e; returns its index, or -1 when recording has
 * stopped (a limit or host memory ran out). */
static int64_t new_op(cured_model_trace *t, const cured_model_event *e)
{
    if (t->incomplete)
        return -1;
    if (t->nops >= t->max_ops ||
        grow((void **)&t->ops, &t->cap_ops, t->nops + 1, sizeof *t->ops) < 0) {
        t->incomplete = 1;
        return -1;
    }
    const ptx_instr *ins = e->ins;
    cured_model_trace_op *op = &t->ops[t->nops];
    memset(op, 0, sizeof *op);
    op->block = e->block;
    op->warp = e->warp;
    op->function = e->function;
    op->pc = e->pc;
    op->ptx_line = ins->ptx_line;
    op->file = ins->src_file;
    op->line = ins->src_line;
    op->site_file = ins->site_line ? ins->site_file : ins->src_file;
    op->site_line = ins->site_line ? ins->site_line : ins->src_line;
    op->kind = kind_of(ins);
    op->space = space_of(ins->space);
    op->value = value_of(ins->type);
    op->elem_size = (uint8_t)ptx_type_size((ptx_type)ins->type);
    op->opcode = ins->op;
    uint32_t exited = e->warp < t->nwarps ? t->warps[e->warp].exited : 0;
    op->live = e->present & ~exited;
    op->active = e->active;
    op->lanes = e->guard_true;
    op->first_lane = t->nlanes;
    return t->nops++;
}

/* Appends a lane record to op k. Returns it, or NULL when recording stops. */
static cured_model_trace_lane *new_lane(cured_model_trace *t, int64_t k)
{
    if (t->nlanes >= t->max_lanes ||
        grow((void **)&t->lanes, &t->cap_lanes, t->nlanes + 1, sizeof *t->lanes) < 0) {
        t->incomplete = 1;
        return NULL;
    }
    cured_model_trace_lane *l = &t->lanes[t->nlanes++];
    memset(l, 0, sizeof *l);
    t->ops[k].nlane++;
    return l;
}

/* The element of `size` bytes at addr in op k's space, as event e sees
 * memory now; 0 when it is outside (the interpreter reported that). */
static uint64_t read_value(const cured_model_trace *t, const cured_model_event *e,
                           uint8_t space, uint64_t addr, unsigned size)
{
    uint64_t v = 0;
    if (size > 8)
        size = 8;
    if (space == CURED_MODEL_TRACE_SHARED) {
        if (e->shared != NULL && addr + size <= e->shared_bytes)
            memcpy(&v, e->shared + addr, size);
    } else if (space == CURED_MODEL_TRACE_GLOBAL && t->memory != NULL) {
        const cured_model_buffer *b = cured_model_memory_find(t->memory, addr, size);
        if (b != NULL)
            memcpy(&v, b->data + (addr - b->addr), size);
    }
    return v;
}

/* ---------------------------------------------------------- callbacks */

static void on_launch_begin(void *ctx, const cured_model_launch *launch)
{
    cured_model_trace *t = ctx;
    t->memory = launch->memory;
    t->grid = launch->grid;
    t->block = launch->block;
}

static void on_block_begin(void *ctx, uint32_t block, uint32_t threads)
{
    cured_model_trace *t = ctx;
    if (t->vo.block_begin)
        t->vo.block_begin(t->vo.ctx, block, threads);
    uint32_t nw = (threads + CURED_MODEL_WARP_SIZE - 1) / CURED_MODEL_WARP_SIZE;
    if (grow((void **)&t->warps, &t->cap_warps, nw, sizeof *t->warps) < 0) {
        t->incomplete = 1;
        t->in_block = 0;
        return;
    }
    t->nwarps = nw;
    for (uint32_t w = 0; w < nw; w++) {
        t->warps[w].exited = 0;
        t->warps[w].shfl = 0;
        t->warps[w].pending_shfl = -1;
        t->warps[w].consumer = -1;
    }
    t->block_index = block;
    t->in_block = 1;
    t->instr_open = 0;
    t->interval_first = t->nops;
    t->interval_view = t->view->cur;
}

static void on_block_end(void *ctx, uint32_t block)
{
    cured_model_trace *t = ctx;
    if (t->vo.block_end)
        t->vo.block_end(t->vo.ctx, block);
    if (t->in_block)
        trace_close_interval(t, CURED_MODEL_TRACE_END_NONE);
    t->in_block = 0;
}

/* 1 when ins reads register slot `slot` among its sources. */
static int reads_slot(const ptx_instr *ins, int32_t slot)
{
    for (int k = ins->ndst; k < ins->nops && k < PTX_MAX_OPERANDS; k++) {
        const ptx_operand *o = &ins->ops[k];
        if ((o->kind == PTX_OPND_REG || o->kind == PTX_OPND_ADDR) && o->reg == slot)
            return 1;
        if (o->kind == PTX_OPND_VEC)
            for (int i = 0; i < o->vec_count && i < 4; i++)
                if (o->vec[i] == slot)
                    return 1;
    }
    return 0;
}

static void on_instr(void *ctx, const cured_model_event *e)
{
    cured_model_trace *t = ctx;
    if (t->vo.instr)
        t->vo.instr(t->vo.ctx, e);
    t->instr_open = 0;
    if (!t->in_block || e->warp >= t->nwarps)
        return;
    int64_t k = new_op(t, e);
    if (k < 0)
        return;
    t->instr_first = (uint32_t)k;
    t->instr_open = 1;
    t->access_op = -1;
    trace_warp *w = &t->warps[e->warp];
    const ptx_instr *ins = e->ins;
    if (ins->op == PTX_OP_SHFL) {
        w->shfl++;
        w->pending_shfl = k;
        w->shfl_slot = ins->ndst > 0 && ins->ops[0].kind == PTX_OPND_REG ? ins->ops[0].reg
                                                                         : -1;
    } else if (w->pending_shfl >= 0 && w->shfl_slot >= 0 && reads_slot(ins, w->shfl_slot)) {
        if ((ins->op == PTX_OP_MOV || ins->op == PTX_OP_SELP) && ins->ndst == 1 &&
            ins->ops[0].kind == PTX_OPND_REG && ins->ops[0].reg >= 0) {
            /* a copy into another register (mov.b32 %f, %r) or a choice
             * between it and something else (selp: the guarded idiom
             * `lane + offset < k ? shuffled : 0`): the value's use comes
             * later */
            w->shfl_slot = ins->ops[0].reg;
        } else {
            w->consumer = k;
            w->consumer_of = w->pending_shfl;
            w->pending_shfl = -1;
        }
    }
}

static void on_access(void *ctx, const cured_model_access *a)
{
    cured_model_trace *t = ctx;
    const cured_model_step_view *v = t->view;
    uint64_t accesses = v->accesses, initial = v->initial_stores, finals = v->final_reads;
    if (t->vo.access)
        t->vo.access(t->vo.ctx, a);
    if (!t->instr_open || t->incomplete)
        return;
    int64_t k = t->nops - 1;
    if (t->access_op >= 0) {
        /* a generic access reaching a second space: an op of its own */
        cured_model_trace_op copy = t->ops[k];
        k = new_op(t, a->event);
        if (k < 0)
            return;
        t->ops[k] = copy;
        t->ops[k].nlane = 0;
        t->ops[k].counted = t->ops[k].initial = t->ops[k].final_reads = 0;
        t->ops[k].first_lane = t->nlanes;
    }
    t->access_op = k;
    cured_model_trace_op *op = &t->ops[k];
    op->space = space_of(a->space);
    op->lanes = a->mask;
    op->elem_size = a->elem_size;
    op->final_reads = (uint32_t)(v->final_reads - finals);
    op->counted = (uint32_t)(v->accesses + op->final_reads - accesses);
    op->initial = (uint32_t)(v->initial_stores - initial);
    if (op->space == CURED_MODEL_TRACE_NO_SPACE)
        return;
    unsigned elem = a->elem_size ? a->elem_size : 1;
    unsigned n = a->size / elem ? a->size / elem : 1;
    for (uint32_t lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(a->mask >> lane & 1))
            continue;
        for (unsigned i = 0; i < n; i++) {
            cured_model_trace_lane *l = new_lane(t, k);
            if (l == NULL)
                return;
            l->lane = (uint8_t)lane;
            l->elem = (uint8_t)i;
            l->addr = a->addr[lane] + (uint64_t)i * elem;
            l->before = read_value(t, a->event, op->space, l->addr, elem);
            l->after = l->before;
        }
    }
}

static void on_shuffle(void *ctx, const cured_model_shuffle *s)
{
    cured_model_trace *t = ctx;
    if (!t->instr_open || t->incomplete)
        return;
    int64_t k = t->nops - 1;
    t->ops[k].lanes = s->lanes;
    t->ops[k].elem_size = 4;
    for (uint32_t lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(s->lanes >> lane & 1))
            continue;
        cured_model_trace_lane *l = new_lane(t, k);
        if (l == NULL)
            return;
        l->lane = (uint8_t)lane;
        l->flags = (uint8_t)((s->in_range >> lane & 1) ? CURED_MODEL_TRACE_IN_RANGE : 0);
        l->addr = s->src_lane[lane];
        l->before = s->offered[lane];
        l->after = s->received[lane];
    }
}

/* The consumer of a shuffle took effect: its result is each lane's sum. */
static void record_sums(cured_model_trace *t, const cured_model_event *e, trace_warp *w)
{
    const ptx_instr *ins = e->ins;
    cured_model_trace_op *sh = &t->ops[w->consumer_of];
    w->consumer = -1;
    if (ins->ndst == 0 || ins->ops[0].kind != PTX_OPND_REG || ins->ops[0].reg < 0 ||
        e->regs == NULL)
        return;
    const uint64_t *d = e->regs + (size_t)ins->ops[0].reg * CURED_MODEL_WARP_SIZE;
    sh->value = value_of(ins->type);
    for (uint32_t i = 0; i < sh->nlane; i++) {
        cured_model_trace_lane *l = &t->lanes[sh->first_lane + i];
        if (!(e->guard_true >> l->lane & 1))
            continue;
        l->sum = d[l->lane] & 0xFFFFFFFFu;
        l->flags |= CURED_MODEL_TRACE_HAS_SUM;
    }
}

static void on_instr_done(void *ctx, const cured_model_event *e)
{
    cured_model_trace *t = ctx;
    if (!t->instr_open)
        return;
    t->instr_open = 0;
    for (uint32_t k = t->instr_first; k < t->nops; k++) {
        cured_model_trace_op *op = &t->ops[k];
        if (op->kind != CURED_MODEL_TRACE_STORE && op->kind != CURED_MODEL_TRACE_ATOMIC)
            continue;
        for (uint32_t i = 0; i < op->nlane; i++) {
            cured_model_trace_lane *l = &t->lanes[op->first_lane + i];
            l->after = read_value(t, e, op->space, l->addr, op->elem_size);
        }
    }
    trace_warp *w = &t->warps[e->warp];
    if (w->consumer >= 0 && (uint32_t)w->consumer == t->instr_first)
        record_sums(t, e, w);
}

static void on_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    cured_model_trace *t = ctx;
    const cured_model_step_view *v = t->view;
    uint64_t counted = v->barriers, initial = v->initial_barriers;
    if (t->vo.barrier)
        t->vo.barrier(t->vo.ctx, e, id);
    t->instr_open = 0;
    if (!t->in_block)
        return;
    int end = v->barriers > counted ? CURED_MODEL_TRACE_END_BARRIER
            : v->initial_barriers > initial ? CURED_MODEL_TRACE_END_INITIAL
            : CURED_MODEL_TRACE_END_NONE;
    int64_t k = new_op(t, e);
    if (k >= 0) {
        t->ops[k].kind = CURED_MODEL_TRACE_BARRIER;
        t->ops[k].space = CURED_MODEL_TRACE_NO_SPACE;
    }
    trace_close_interval(t, end);
    t->interval_first = t->nops;
    t->interval_view = t->view->cur;
}

static void on_lanes_exit(void *ctx, const cured_model_event *e, uint32_t lanes)
{
    cured_model_trace *t = ctx;
    if (t->in_block && e->warp < t->nwarps)
        t->warps[e->warp].exited |= lanes;
}

cured_model_observer cured_model_trace_observer(cured_model_trace *t)
{
    cured_model_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = t;
    o.launch_begin = on_launch_begin;
    o.block_begin = on_block_begin;
    o.block_end = on_block_end;
    o.instr = on_instr;
    o.access = on_access;
    o.barrier = on_barrier;
    o.lanes_exit = on_lanes_exit;
    o.instr_done = on_instr_done;
    o.shuffle = on_shuffle;
    return o;
}

/* ------------------------------------------------------- life and reads */

cured_model_trace *cured_model_trace_new(const cured_model_module *module, int function)
{
    if (module == NULL || function < 0 || function >= module->nfunctions)
        return NULL;
    cured_model_trace *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->view = cured_model_step_view_new(module, function);
    if (t->view == NULL) {
        free(t);
        return NULL;
    }
    t->vo = cured_model_step_view_observer(t->view);
    t->module = module;
    t->function = function;
    t->max_ops = DEFAULT_MAX_OPS;
    t->max_lanes = DEFAULT_MAX_LANES;
    t->interval_view = -1;
    return t;
}

void cured_model_trace_free(cured_model_trace *t)
{
    if (t == NULL)
        return;
    cured_model_step_view_free(t->view);
    free(t->ops);
    free(t->lanes);
    free(t->steps);
    free(t->warps);
    free(t);
}

void cured_model_trace_set_limits(cured_model_trace *t, uint32_t max_ops,
                                  uint32_t max_lanes)
{
    t->max_ops = max_ops;
    t->max_lanes = max_lanes;
}

uint32_t cured_model_trace_steps(const cured_model_trace *t,
                                 const cured_model_trace_step **out)
{
    *out = t->steps;
    return t->nsteps;
}

uint32_t cured_model_trace_ops(const cured_model_trace *t, const cured_model_trace_op **out)
{
    *out = t->ops;
    return t->nops;
}

uint32_t cured_model_trace_lanes(const cured_model_trace *t,
                                 const cured_model_trace_lane **out)
{
    *out = t->lanes;
    return t->nlanes;
}

const cured_model_step_view *cured_model_trace_step_view(const cured_model_trace *t)
{
    return t->view;
}

cured_model_dim3 cured_model_trace_grid(const cured_model_trace *t)
{
    return t->grid;
}

cured_model_dim3 cured_model_trace_block(const cured_model_trace *t)
{
    return t->block;
}

const char *cured_model_trace_file(const cured_model_trace *t, unsigned file)
{
    if (file == 0 || (int)file >= t->module->nfiles)
        return NULL;
    return t->module->files[file];
}

const char *cured_model_trace_opcode_name(unsigned opcode)
{
    return ptx_opcode_name((ptx_opcode)opcode);
}

int cured_model_trace_complete(const cured_model_trace *t)
{
    return !t->incomplete && cured_model_step_view_complete(t->view);
}
