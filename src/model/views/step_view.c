/* step_view.c - the step view as a model observer: counted shared
 * accesses and barriers, barrier intervals and tree steps (the rules are in
 * docs/counting.md, "The step view"; register purity is step_view_taint.c's, the words a thread
 * read step_view_words.c's).
 *
 * defines: cured_model_step_view_new, cured_model_step_view_free, cured_model_step_view_reset,
 *          cured_model_step_view_observer, cured_model_step_view_summary,
 *          cured_model_step_view_steps, cured_model_step_view_complete
 */
#include "step_view_impl.h"
#include "ptx.h"

#include "bank.h"

#include <stdlib.h>
#include <string.h>

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

/* ------------------------------------------------------------ intervals */

/* Opens interval `index` of the current block. */
static void open_interval(cured_model_step_view *v, uint32_t index)
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
static void close_interval(cured_model_step_view *v)
{
    if (v->cur < 0)
        return;
    interval *in = &v->intervals[v->cur];
    for (uint32_t w = 0; w < v->nwarps; w++) {
        unsigned n = popcount32(v->lanes[w]);
        uint32_t present = v->nthreads - 32 * w;
        if (present > CURED_MODEL_WARP_SIZE)
            present = CURED_MODEL_WARP_SIZE;
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

/* --------------------------------------------------------- the observer */

static void on_block_begin(void *ctx, uint32_t block, uint32_t threads)
{
    cured_model_step_view *v = ctx;
    if (v->in_block) {
        /* blocks that run together (a thread-block cluster): the view
         * follows one block at a time */
        v->incomplete = 1;
        return;
    }
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
    step_taint_reset(v);
    open_interval(v, 0);
    v->in_block = 1;
}

static void on_block_end(void *ctx, uint32_t block)
{
    cured_model_step_view *v = ctx;
    (void)block;
    if (v->in_block)
        close_interval(v);
    v->in_block = 0;
}

static void on_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    cured_model_step_view *v = ctx;
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

static void on_instr(void *ctx, const cured_model_event *e)
{
    cured_model_step_view *v = ctx;
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
    taint_file *t = step_taint_of(v, e->function);
    if (t == NULL)
        return;
    const ptx_function *fn = &v->module->functions[e->function];
    for (uint32_t lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(e->guard_true & (1u << lane)))
            continue;
        uint32_t thread = e->warp * CURED_MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        int pure;
        uint64_t origin = 0;
        switch (ins->op) {
        case PTX_OP_LD:
        case PTX_OP_LDU:   /* shared and generic: refined by on_access */
            pure = step_space_pure(ins->space, fn->is_entry);
            break;
        case PTX_OP_ATOM:
        case PTX_OP_SHFL:
        case PTX_OP_VOTE:
        case PTX_OP_MATCH:
        case PTX_OP_REDUX:
            pure = 0;
            break;
        default:
            pure = step_sources_pure(t, fn->nregs, thread, ins, ins->ndst, ins->nops,
                                     &origin);
            if (ins->op != PTX_OP_MOV && ins->op != PTX_OP_CVT)
                origin = 0;
            break;
        }
        step_set_dsts(t, fn->nregs, thread, ins, pure, origin);
    }
}

/* Takes the final reads that `thread` stores to global memory back out. */
static void take_back_final_reads(cured_model_step_view *v, const taint_file *t,
                                  int nregs, uint32_t thread,
                                  const ptx_instr *ins)
{
    int from, to;
    step_value_operands(ins, &from, &to);
    for (int k = from; k < to && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = step_operand_regs(&ins->ops[k], slots);
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
static void count_access(cured_model_step_view *v, uint32_t warp, uint32_t lane)
{
    v->accesses++;
    v->intervals[v->cur].s.accesses++;
    v->lanes[warp] |= 1u << lane;
}

/* Marks `thread` adding in the open interval (rule 5). */
static void mark_adding(cured_model_step_view *v, uint32_t thread)
{
    interval *in = &v->intervals[v->cur];
    in->tree = 1;
    if (v->adding_epoch[thread] != v->epoch) {
        v->adding_epoch[thread] = v->epoch;
        in->s.adding_threads++;
    }
}

/* A shared access: loads, stores and atomics, lane by lane. */
static void shared_access(cured_model_step_view *v, const cured_model_access *a,
                          taint_file *t, int nregs)
{
    const cured_model_event *e = a->event;
    const ptx_instr *ins = e->ins;
    unsigned size = a->size ? a->size : 1;
    uint32_t counted = 0;
    for (uint32_t lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(a->mask & (1u << lane)))
            continue;
        uint32_t thread = e->warp * CURED_MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        uint32_t first = (uint32_t)(a->addr[lane] / BANK_BYTES);
        uint32_t last = (uint32_t)((a->addr[lane] + size - 1) / BANK_BYTES);
        if (a->kind == CURED_MODEL_LOAD) {
            count_access(v, e->warp, lane);
            for (uint32_t w = first; w <= last; w++)
                if (step_words_add(&v->reads[thread], v->epoch, w) < 0)
                    v->incomplete = 1;
            uint64_t origin = ((uint64_t)(v->cur + 1) << 32) |
                              (++v->load_seq & 0xffffffffu);
            step_set_dsts(t, nregs, thread, ins, 0, origin);
            continue;
        }
        if (a->kind == CURED_MODEL_STORE) {
            int from, to;
            uint64_t unused;
            step_value_operands(ins, &from, &to);
            if (step_sources_pure(t, nregs, thread, ins, from, to, &unused)) {
                v->initial_stores++;
                v->pending_initial = 1;
                continue;
            }
            count_access(v, e->warp, lane);
            counted |= 1u << lane;
            for (uint32_t w = first; w <= last; w++)
                if (step_words_contains(&v->reads[thread], v->epoch, w)) {
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
        unsigned degree = bank_conflict_degree(a->addr, counted, size);
        if (degree > v->intervals[v->cur].s.bank_degree)
            v->intervals[v->cur].s.bank_degree = degree;
    }
}

static void on_access(void *ctx, const cured_model_access *a)
{
    cured_model_step_view *v = ctx;
    const cured_model_event *e = a->event;
    if (!v->in_block || v->cur < 0 || e->warp >= v->nwarps)
        return;
    taint_file *t = step_taint_of(v, e->function);
    if (t == NULL)
        return;
    const ptx_function *fn = &v->module->functions[e->function];
    if (a->space == PTX_S_SHARED) {
        shared_access(v, a, t, fn->nregs);
        return;
    }
    for (uint32_t lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(a->mask & (1u << lane)))
            continue;
        uint32_t thread = e->warp * CURED_MODEL_WARP_SIZE + lane;
        if (thread >= v->nthreads)
            continue;
        if (a->kind == CURED_MODEL_LOAD) {
            /* a generic load that resolved to global memory is pure input */
            step_set_dsts(t, fn->nregs, thread, e->ins,
                          step_space_pure(a->space, fn->is_entry), 0);
        } else if (a->space == PTX_S_GLOBAL) {
            take_back_final_reads(v, t, fn->nregs, thread, e->ins);
        }
    }
}

cured_model_observer cured_model_step_view_observer(cured_model_step_view *v)
{
    cured_model_observer o;
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

cured_model_step_view *cured_model_step_view_new(const cured_model_module *module, int function)
{
    if (module == NULL || function < 0 || function >= module->nfunctions)
        return NULL;
    cured_model_step_view *v = calloc(1, sizeof *v);
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

void cured_model_step_view_free(cured_model_step_view *v)
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

void cured_model_step_view_reset(cured_model_step_view *v)
{
    v->accesses = v->barriers = v->initial_stores = 0;
    v->initial_barriers = v->final_reads = v->shuffles = 0;
    v->shuffle_rounds = v->blocks = 0;
    v->nintervals = v->nsteps = v->nsubtracted = 0;
    v->in_block = 0;
    v->cur = -1;
    v->incomplete = 0;
}

cured_model_step_summary cured_model_step_view_summary(const cured_model_step_view *v)
{
    cured_model_step_summary s;
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

int cured_model_step_view_steps(const cured_model_step_view *v, const cured_model_step **steps)
{
    *steps = v->steps;
    return v->nsteps;
}

int cured_model_step_view_complete(const cured_model_step_view *v)
{
    return !v->incomplete;
}
