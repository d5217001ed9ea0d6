/* seed_view.c - the seed page's view as a model observer: per-thread purity
 * of registers, counted shared accesses and barriers, tree steps (the rules
 * are in seed_view.h).
 *
 * defines: model_seed_view_new, model_seed_view_free, model_seed_view_reset,
 *          model_seed_view_observer, model_seed_view_summary,
 *          model_seed_view_steps, model_seed_view_complete
 */
#include "seed_view.h"

#include "bank.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- the state */

/* The words one thread read in the current interval: an open-addressing
 * set of word + 1 (0 = empty), emptied lazily when the epoch moves on. */
typedef struct word_set {
    uint32_t *keys;
    uint32_t cap;       /* a power of two, or 0 */
    uint32_t count;
    uint32_t epoch;
} word_set;

/* Per thread, per register slot of one function: purity and the shared
 * load the value came from (0: none). Indexed [thread * nregs + slot]. */
typedef struct taint_file {
    uint8_t *pure;
    uint64_t *origin;
    uint32_t threads;   /* threads allocated for */
} taint_file;

/* A barrier interval of some block; `step` is its index in steps[] once it
 * closed as a tree step, else -1. */
typedef struct interval {
    model_seed_step s;
    int tree;
    int step;
} interval;

struct model_seed_view {
    const ptx_module *module;
    int function;
    int incomplete;

    /* totals over blocks */
    uint64_t accesses, barriers, initial_stores, initial_barriers, final_reads;
    uint64_t shuffles;
    uint32_t shuffle_rounds, blocks;

    interval *intervals;
    int nintervals, cap_intervals;
    model_seed_step *steps;
    int nsteps, cap_steps;

    /* the block running */
    int in_block;
    uint32_t block, nthreads, nwarps, cap_threads;
    int cur;                  /* index of the open interval in intervals[] */
    uint32_t epoch;           /* moves on with every interval */
    int pending_initial;      /* pure stores since the last barrier */
    uint64_t load_seq;
    uint32_t *lanes;          /* per warp: lanes with counted accesses now */
    uint32_t *shfl_count;     /* per warp: shfl instructions this block */
    uint32_t *adding_epoch;   /* per thread: epoch it was last counted adding */
    word_set *reads;          /* per thread */
    uint64_t *subtracted;     /* final reads taken out in this block */
    int nsubtracted, cap_subtracted;
    taint_file *taint;        /* per function of the module */
};

/* Grows *array (of elem bytes, capacity *cap) to hold `need`. 0 or -1. */
static int grow(void **array, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*array, (size_t)n * elem);
    if (p == NULL)
        return -1;
    *array = p;
    *cap = n;
    return 0;
}

static unsigned popcount32(uint32_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* ------------------------------------------------------------ word sets */

static uint32_t hash_word(uint32_t key, uint32_t cap)
{
    return (key * 2654435761u) & (cap - 1);
}

/* Empties the set if it belongs to an older epoch. */
static void set_touch(word_set *s, uint32_t epoch)
{
    if (s->epoch != epoch) {
        if (s->count)
            memset(s->keys, 0, s->cap * sizeof *s->keys);
        s->count = 0;
        s->epoch = epoch;
    }
}

static int set_contains(word_set *s, uint32_t epoch, uint32_t word)
{
    set_touch(s, epoch);
    if (s->cap == 0)
        return 0;
    uint32_t key = word + 1;
    for (uint32_t i = hash_word(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == key)
            return 1;
        if (s->keys[i] == 0)
            return 0;
    }
}

/* Adds word; returns 0, or -1 when out of host memory. */
static int set_add(word_set *s, uint32_t epoch, uint32_t word)
{
    set_touch(s, epoch);
    if (set_contains(s, epoch, word))
        return 0;
    if (2 * (s->count + 1) > s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        uint32_t *keys = calloc(cap, sizeof *keys);
        if (keys == NULL)
            return -1;
        for (uint32_t i = 0; i < s->cap; i++) {
            uint32_t k = s->keys[i];
            if (k == 0)
                continue;
            uint32_t j = hash_word(k, cap);
            while (keys[j] != 0)
                j = (j + 1) & (cap - 1);
            keys[j] = k;
        }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    uint32_t key = word + 1;
    uint32_t j = hash_word(key, s->cap);
    while (s->keys[j] != 0)
        j = (j + 1) & (s->cap - 1);
    s->keys[j] = key;
    s->count++;
    return 0;
}

/* ------------------------------------------------------------ intervals */

/* Opens interval `index` of the current block. */
static void open_interval(model_seed_view *v, uint32_t index)
{
    v->epoch++;
    memset(v->lanes, 0, v->nwarps * sizeof *v->lanes);
    if (grow((void **)&v->intervals, &v->cap_intervals, v->nintervals + 1,
             sizeof *v->intervals) < 0) {
        v->incomplete = 1;
        v->cur = -1;
        return;
    }
    interval *in = &v->intervals[v->nintervals];
    memset(in, 0, sizeof *in);
    in->s.block = v->block;
    in->s.interval = index;
    in->step = -1;
    v->cur = v->nintervals++;
}

/* Closes the open interval: counts its warps and keeps it as a step if it
 * was one. */
static void close_interval(model_seed_view *v)
{
    if (v->cur < 0)
        return;
    interval *in = &v->intervals[v->cur];
    for (uint32_t w = 0; w < v->nwarps; w++) {
        unsigned n = popcount32(v->lanes[w]);
        uint32_t present = v->nthreads - 32 * w;
        if (present > MODEL_WARP_SIZE)
            present = MODEL_WARP_SIZE;
        if (n == 0)
            continue;
        in->s.warps++;
        if (n < present)
            in->s.divergent_warps++;
    }
    if (in->tree) {
        if (grow((void **)&v->steps, &v->cap_steps, v->nsteps + 1,
                 sizeof *v->steps) < 0) {
            v->incomplete = 1;
        } else {
            v->steps[v->nsteps] = in->s;
            in->step = v->nsteps++;
        }
    }
    v->cur = -1;
}

/* ---------------------------------------------------------------- taint */

/* The taint file of `function` for the current block, allocated (all pure,
 * no origin) on first use; NULL when out of host memory. */
static taint_file *taint_of(model_seed_view *v, int function)
{
    if (function < 0 || function >= v->module->nfunctions)
        return NULL;
    taint_file *t = &v->taint[function];
    size_t nregs = (size_t)v->module->functions[function].nregs;
    if (t->pure == NULL || t->threads < v->nthreads) {
        size_t n = (size_t)v->nthreads * nregs + 1;
        uint8_t *pure = realloc(t->pure, n);
        uint64_t *origin = realloc(t->origin, n * sizeof *origin);
        if (pure == NULL || origin == NULL) {
            t->pure = pure ? pure : t->pure;
            t->origin = origin ? origin : t->origin;
            v->incomplete = 1;
            return NULL;
        }
        t->pure = pure;
        t->origin = origin;
        t->threads = v->nthreads;
        memset(t->pure, 1, n);
        memset(t->origin, 0, n * sizeof *origin);
    }
    return t;
}

/* Clears every allocated taint file for a new block. */
static void taint_reset(model_seed_view *v)
{
    for (int f = 0; f < v->module->nfunctions; f++) {
        taint_file *t = &v->taint[f];
        if (t->pure == NULL)
            continue;
        size_t n = (size_t)t->threads * (size_t)v->module->functions[f].nregs + 1;
        memset(t->pure, 1, n);
        memset(t->origin, 0, n * sizeof *t->origin);
    }
}

/* Stores in slots[] the register slots operand `op` reads or names (a REG,
 * the registers of a VEC, an ADDR's base register); returns how many (at
 * most 4). */
static int operand_regs(const ptx_operand *op, int32_t slots[5])
{
    int n = 0;
    switch (op->kind) {
    case PTX_OPND_REG:
    case PTX_OPND_ADDR:
        if (op->reg >= 0)
            slots[n++] = op->reg;
        break;
    case PTX_OPND_VEC:
        for (int i = 0; i < op->vec_count && i < 4; i++)
            if (op->vec[i] >= 0 && !(op->vec_imm_mask & (1u << i)))
                slots[n++] = op->vec[i];
        break;
    default:
        break;
    }
    return n;
}

/* Whether the registers of operands [from, to) of ins are all pure for
 * `thread`; *origin gets the origin of the single register source when the
 * operands are one REG (for mov/cvt), else 0. */
static int sources_pure(const taint_file *t, int nregs, uint32_t thread,
                        const ptx_instr *ins, int from, int to,
                        uint64_t *origin)
{
    int pure = 1;
    *origin = 0;
    for (int k = from; k < to && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = operand_regs(&ins->ops[k], slots);
        for (int i = 0; i < n; i++) {
            if (slots[i] >= nregs)
                continue;
            size_t at = (size_t)thread * (size_t)nregs + (size_t)slots[i];
            pure &= t->pure[at];
            if (to - from == 1 && ins->ops[k].kind == PTX_OPND_REG)
                *origin = t->origin[at];
        }
    }
    return pure;
}

/* Sets the destination registers of ins for `thread`. */
static void set_dsts(taint_file *t, int nregs, uint32_t thread,
                     const ptx_instr *ins, int pure, uint64_t origin)
{
    for (int k = 0; k < ins->ndst && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = operand_regs(&ins->ops[k], slots);
        for (int i = 0; i < n; i++) {
            if (slots[i] >= nregs)
                continue;
            size_t at = (size_t)thread * (size_t)nregs + (size_t)slots[i];
            t->pure[at] = (uint8_t)pure;
            t->origin[at] = origin;
        }
    }
}

/* Whether a load from `space` gives a pure value (rule 1). */
static int space_pure(int space, int is_entry)
{
    return space == PTX_S_GLOBAL || space == PTX_S_CONST ||
           (space == PTX_S_PARAM && is_entry);
}

/* The first operand holding the value a store/atom/red writes, and the
 * end of those operands. */
static void value_operands(const ptx_instr *ins, int *from, int *to)
{
    if (ins->op == PTX_OP_ST || ins->op == PTX_OP_RED)
        *from = 1;          /* st [a], v   red [a], v */
    else
        *from = ins->ndst + 1; /* atom d, [a], b (, c) */
    *to = ins->nops;
}

/* --------------------------------------------------------- the observer */

static void on_block_begin(void *ctx, uint32_t block, uint32_t threads)
{
    model_seed_view *v = ctx;
    v->in_block = 0;
    if (threads > v->cap_threads) {
        uint32_t nw = (threads + 31) / 32;
        uint32_t *lanes = realloc(v->lanes, nw * sizeof *lanes);
        if (lanes != NULL)
            v->lanes = lanes;
        uint32_t *shfl = realloc(v->shfl_count, nw * sizeof *shfl);
        if (shfl != NULL)
            v->shfl_count = shfl;
        uint32_t *adding = realloc(v->adding_epoch, threads * sizeof *adding);
        if (adding != NULL)
            v->adding_epoch = adding;
        word_set *reads = realloc(v->reads, threads * sizeof *reads);
        if (reads != NULL) {
            memset(reads + v->cap_threads, 0,
                   (threads - v->cap_threads) * sizeof *reads);
            v->reads = reads;
        }
        if (!lanes || !shfl || !adding || !reads) {
            v->incomplete = 1;
            return;
        }
        memset(v->adding_epoch + v->cap_threads, 0,
               (threads - v->cap_threads) * sizeof *adding);
        v->cap_threads = threads;
    }
    v->block = block;
    v->nthreads = threads;
    v->nwarps = (threads + 31) / 32;
    memset(v->shfl_count, 0, v->nwarps * sizeof *v->shfl_count);
    v->pending_initial = 0;
    v->nsubtracted = 0;
    v->blocks++;
    taint_reset(v);
    open_interval(v, 0);
    v->in_block = 1;
}

static void on_block_end(void *ctx, uint32_t block)
{
    model_seed_view *v = ctx;
    (void)block;
    if (v->in_block)
        close_interval(v);
    v->in_block = 0;
}

static void on_barrier(void *ctx, const model_event *e, uint32_t id)
{
    model_seed_view *v = ctx;
    (void)e;
    (void)id;
    if (!v->in_block)
        return;
    if (v->pending_initial) {
        v->initial_barriers++;
        v->pending_initial = 0;
    } else {
        v->barriers++;
    }
    uint32_t next = v->cur >= 0 ? v->intervals[v->cur].s.interval + 1 : 0;
    close_interval(v);
    open_interval(v, next);
}

static void on_instr(void *ctx, const model_event *e)
{
    model_seed_view *v = ctx;
    const ptx_instr *ins = e->ins;
    if (!v->in_block || e->warp >= v->nwarps)
        return;
    if (ins->op == PTX_OP_SHFL) {
        v->shuffles++;
        if (++v->shfl_count[e->warp] > v->shuffle_rounds)
            v->shuffle_rounds = v->shfl_count[e->warp];
    }
    if (ins->ndst == 0 || ins->op == PTX_OP_CALL || e->guard_true == 0)
        return;
    taint_file *t = taint_of(v, e->function);
    if (t == NULL)
        return;
    const ptx_function *fn = &v->module->functions[e->function];
    for (uint32_t lane = 0; lane < MODEL_WARP_SIZE; lane++) {
        if (!(e->guard_true & (1u << lane)))
            continue;
        uint32_t thread = e->warp * MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        int pure;
        uint64_t origin = 0;
        switch (ins->op) {
        case PTX_OP_LD:
        case PTX_OP_LDU:   /* shared and generic: refined by on_access */
            pure = space_pure(ins->space, fn->is_entry);
            break;
        case PTX_OP_ATOM:
        case PTX_OP_SHFL:
        case PTX_OP_VOTE:
        case PTX_OP_MATCH:
        case PTX_OP_REDUX:
            pure = 0;
            break;
        default:
            pure = sources_pure(t, fn->nregs, thread, ins, ins->ndst, ins->nops,
                                &origin);
            if (ins->op != PTX_OP_MOV && ins->op != PTX_OP_CVT)
                origin = 0;
            break;
        }
        set_dsts(t, fn->nregs, thread, ins, pure, origin);
    }
}

/* Takes the final reads that `thread` stores to global memory back out. */
static void take_back_final_reads(model_seed_view *v, const taint_file *t,
                                  int nregs, uint32_t thread,
                                  const ptx_instr *ins)
{
    int from, to;
    value_operands(ins, &from, &to);
    for (int k = from; k < to && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = operand_regs(&ins->ops[k], slots);
        for (int i = 0; i < n; i++) {
            if (slots[i] >= nregs)
                continue;
            uint64_t o = t->origin[(size_t)thread * (size_t)nregs + (size_t)slots[i]];
            if (o == 0)
                continue;
            int seen = 0;
            for (int j = 0; j < v->nsubtracted && !seen; j++)
                seen = v->subtracted[j] == o;
            if (seen)
                continue;
            if (grow((void **)&v->subtracted, &v->cap_subtracted,
                     v->nsubtracted + 1, sizeof *v->subtracted) < 0) {
                v->incomplete = 1;
                return;
            }
            v->subtracted[v->nsubtracted++] = o;
            int at = (int)(o >> 32) - 1;
            v->accesses--;
            v->final_reads++;
            if (at >= 0 && at < v->nintervals) {
                v->intervals[at].s.accesses--;
                if (v->intervals[at].step >= 0)
                    v->steps[v->intervals[at].step].accesses--;
            }
        }
    }
}

/* Counts one lane's shared access in the open interval. */
static void count_access(model_seed_view *v, uint32_t warp, uint32_t lane)
{
    v->accesses++;
    v->intervals[v->cur].s.accesses++;
    v->lanes[warp] |= 1u << lane;
}

/* Marks `thread` adding in the open interval (rule 5). */
static void mark_adding(model_seed_view *v, uint32_t thread)
{
    interval *in = &v->intervals[v->cur];
    in->tree = 1;
    if (v->adding_epoch[thread] != v->epoch) {
        v->adding_epoch[thread] = v->epoch;
        in->s.adding_threads++;
    }
}

/* A shared access: loads, stores and atomics, lane by lane. */
static void shared_access(model_seed_view *v, const model_access *a,
                          taint_file *t, int nregs)
{
    const model_event *e = a->event;
    const ptx_instr *ins = e->ins;
    unsigned size = a->size ? a->size : 1;
    uint32_t counted = 0;
    for (uint32_t lane = 0; lane < MODEL_WARP_SIZE; lane++) {
        if (!(a->mask & (1u << lane)))
            continue;
        uint32_t thread = e->warp * MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        uint32_t first = (uint32_t)(a->addr[lane] / MODEL_BANK_BYTES);
        uint32_t last = (uint32_t)((a->addr[lane] + size - 1) / MODEL_BANK_BYTES);
        if (a->kind == MODEL_LOAD) {
            count_access(v, e->warp, lane);
            for (uint32_t w = first; w <= last; w++)
                if (set_add(&v->reads[thread], v->epoch, w) < 0)
                    v->incomplete = 1;
            uint64_t origin = ((uint64_t)(v->cur + 1) << 32) |
                              (++v->load_seq & 0xffffffffu);
            set_dsts(t, nregs, thread, ins, 0, origin);
            continue;
        }
        if (a->kind == MODEL_STORE) {
            int from, to;
            uint64_t unused;
            value_operands(ins, &from, &to);
            if (sources_pure(t, nregs, thread, ins, from, to, &unused)) {
                v->initial_stores++;
                v->pending_initial = 1;
                continue;
            }
            count_access(v, e->warp, lane);
            counted |= 1u << lane;
            for (uint32_t w = first; w <= last; w++)
                if (set_contains(&v->reads[thread], v->epoch, w)) {
                    mark_adding(v, thread);
                    break;
                }
            continue;
        }
        /* an atomic reads and writes its word */
        count_access(v, e->warp, lane);
        counted |= 1u << lane;
        mark_adding(v, thread);
    }
    if (counted) {
        unsigned degree = model_bank_degree(a->addr, counted, size);
        if (degree > v->intervals[v->cur].s.bank_degree)
            v->intervals[v->cur].s.bank_degree = degree;
    }
}

static void on_access(void *ctx, const model_access *a)
{
    model_seed_view *v = ctx;
    const model_event *e = a->event;
    if (!v->in_block || v->cur < 0 || e->warp >= v->nwarps)
        return;
    taint_file *t = taint_of(v, e->function);
    if (t == NULL)
        return;
    const ptx_function *fn = &v->module->functions[e->function];
    if (a->space == PTX_S_SHARED) {
        shared_access(v, a, t, fn->nregs);
        return;
    }
    for (uint32_t lane = 0; lane < MODEL_WARP_SIZE; lane++) {
        if (!(a->mask & (1u << lane)))
            continue;
        uint32_t thread = e->warp * MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        if (a->kind == MODEL_LOAD) {
            /* a generic load that resolved to global memory is pure input */
            set_dsts(t, fn->nregs, thread, e->ins,
                     space_pure(a->space, fn->is_entry), 0);
        } else if (a->space == PTX_S_GLOBAL) {
            take_back_final_reads(v, t, fn->nregs, thread, e->ins);
        }
    }
}

model_observer model_seed_view_observer(model_seed_view *v)
{
    model_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = v;
    o.block_begin = on_block_begin;
    o.block_end = on_block_end;
    o.instr = on_instr;
    o.access = on_access;
    o.barrier = on_barrier;
    return o;
}

/* ------------------------------------------------------- life and reads */

model_seed_view *model_seed_view_new(const ptx_module *module, int function)
{
    if (module == NULL || function < 0 || function >= module->nfunctions)
        return NULL;
    model_seed_view *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    v->module = module;
    v->function = function;
    v->cur = -1;
    v->taint = calloc((size_t)module->nfunctions, sizeof *v->taint);
    if (v->taint == NULL) {
        free(v);
        return NULL;
    }
    return v;
}

void model_seed_view_free(model_seed_view *v)
{
    if (v == NULL)
        return;
    for (int f = 0; f < v->module->nfunctions; f++) {
        free(v->taint[f].pure);
        free(v->taint[f].origin);
    }
    free(v->taint);
    for (uint32_t i = 0; i < v->cap_threads; i++)
        free(v->reads[i].keys);
    free(v->reads);
    free(v->lanes);
    free(v->shfl_count);
    free(v->adding_epoch);
    free(v->intervals);
    free(v->steps);
    free(v->subtracted);
    free(v);
}

void model_seed_view_reset(model_seed_view *v)
{
    v->accesses = v->barriers = v->initial_stores = 0;
    v->initial_barriers = v->final_reads = v->shuffles = 0;
    v->shuffle_rounds = v->blocks = 0;
    v->nintervals = v->nsteps = v->nsubtracted = 0;
    v->in_block = 0;
    v->cur = -1;
    v->incomplete = 0;
}

model_seed_summary model_seed_view_summary(const model_seed_view *v)
{
    model_seed_summary s;
    memset(&s, 0, sizeof s);
    s.accesses = v->accesses;
    s.barriers = v->barriers;
    s.tree_steps = v->nsteps;
    for (int i = 0; i < v->nsteps; i++)
        if (v->steps[i].bank_degree > s.worst_bank_degree)
            s.worst_bank_degree = v->steps[i].bank_degree;
    if (v->nsteps > 0) {
        s.has_first_step = 1;
        s.first_step_divergent = v->steps[0].divergent_warps;
        s.first_step_warps = v->steps[0].warps;
    }
    s.shuffle_rounds = v->shuffle_rounds;
    s.shuffles = v->shuffles;
    s.initial_stores = v->initial_stores;
    s.initial_barriers = v->initial_barriers;
    s.final_reads = v->final_reads;
    s.blocks = v->blocks;
    return s;
}

int model_seed_view_steps(const model_seed_view *v, const model_seed_step **steps)
{
    *steps = v->steps;
    return v->nsteps;
}

int model_seed_view_complete(const model_seed_view *v)
{
    return !v->incomplete;
}
