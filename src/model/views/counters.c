/* counters.c - the hardware view as a model observer: per-instruction counts
 * named as Nsight Compute names them (the conventions are in
 * docs/counting.md).
 *
 * defines: cured_model_counter_describe, cured_model_counters_new, cured_model_counters_free,
 *          cured_model_counters_reset, cured_model_counters_observer,
 *          cured_model_counters_total, cured_model_counters_totals, cured_model_counters_at,
 *          cured_model_counters_active_share, cured_model_counters_lines,
 *          cured_model_counters_function, cured_model_counters_module,
 *          cured_model_counters_complete
 */
#include "counters_impl.h"

#include "bank.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the table */

static const cured_model_counter_info counter_info[CURED_MODEL_CTR_COUNT] = {
    [CURED_MODEL_CTR_INST] = {"inst", "smsp__inst_executed.sum",
        "warp instructions executed (PTX instructions, not SASS)"},
    [CURED_MODEL_CTR_THREAD_INST] = {"thread_inst", "smsp__thread_inst_executed.sum",
        "thread instructions: active lanes summed over warp instructions"},
    [CURED_MODEL_CTR_THREAD_INST_PRED_ON] = {"thread_inst_pred_on",
        "smsp__thread_inst_executed_pred_on.sum",
        "thread instructions whose guard predicate held"},
    [CURED_MODEL_CTR_SHARED_LD] = {"shared_ld", "smsp__inst_executed_op_shared_ld.sum",
        "shared-memory load warp instructions"},
    [CURED_MODEL_CTR_SHARED_ST] = {"shared_st", "smsp__inst_executed_op_shared_st.sum",
        "shared-memory store warp instructions"},
    [CURED_MODEL_CTR_SHARED_ATOM] = {"shared_atom",
        "smsp__inst_executed_op_shared_atom.sum",
        "shared-memory atomic warp instructions"},
    [CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS] = {"shared_ld_wavefronts",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "shared-load wavefronts (32 banks of 4 bytes, broadcast per word)"},
    [CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS] = {"shared_st_wavefronts",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "shared-store wavefronts"},
    [CURED_MODEL_CTR_SHARED_LD_CONFLICTS] = {"shared_ld_conflicts",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "shared-load bank conflicts: wavefronts beyond the ideal"},
    [CURED_MODEL_CTR_SHARED_ST_CONFLICTS] = {"shared_st_conflicts",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "shared-store bank conflicts: wavefronts beyond the ideal"},
    [CURED_MODEL_CTR_GLOBAL_LD] = {"global_ld", "smsp__inst_executed_op_global_ld.sum",
        "global load warp instructions"},
    [CURED_MODEL_CTR_GLOBAL_ST] = {"global_st", "smsp__inst_executed_op_global_st.sum",
        "global store warp instructions"},
    [CURED_MODEL_CTR_GLOBAL_ATOM] = {"global_atom",
        "smsp__inst_executed_op_global_atom.sum",
        "global atomic warp instructions (atom: the old value is returned)"},
    [CURED_MODEL_CTR_GLOBAL_RED] = {"global_red", "smsp__inst_executed_op_global_red.sum",
        "global reduction warp instructions (red: nothing returned)"},
    [CURED_MODEL_CTR_GLOBAL_LD_REQUESTS] = {"global_ld_requests",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "global load requests (one per warp instruction)"},
    [CURED_MODEL_CTR_GLOBAL_ST_REQUESTS] = {"global_st_requests",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "global store requests"},
    [CURED_MODEL_CTR_GLOBAL_ATOM_REQUESTS] = {"global_atom_requests",
        "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
        "global atomic requests"},
    [CURED_MODEL_CTR_GLOBAL_RED_REQUESTS] = {"global_red_requests",
        "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
        "global reduction requests"},
    [CURED_MODEL_CTR_GLOBAL_LD_SECTORS] = {"global_ld_sectors",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "32-byte sectors the global loads touch"},
    [CURED_MODEL_CTR_GLOBAL_ST_SECTORS] = {"global_st_sectors",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "32-byte sectors the global stores touch"},
    [CURED_MODEL_CTR_GLOBAL_ATOM_SECTORS] = {"global_atom_sectors",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
        "32-byte sectors the global atomics touch"},
    [CURED_MODEL_CTR_GLOBAL_RED_SECTORS] = {"global_red_sectors",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
        "32-byte sectors the global reductions touch"},
    [CURED_MODEL_CTR_LOCAL_LD] = {"local_ld", "smsp__inst_executed_op_local_ld.sum",
        "local-memory load warp instructions (spills, local arrays)"},
    [CURED_MODEL_CTR_LOCAL_ST] = {"local_st", "smsp__inst_executed_op_local_st.sum",
        "local-memory store warp instructions"},
    [CURED_MODEL_CTR_BRANCHES] = {"branches", "smsp__inst_executed_op_branch.sum",
        "branch warp instructions (PTX bra)"},
    [CURED_MODEL_CTR_DIVERGENT_BRANCHES] = {"divergent_branches",
        "smsp__sass_branch_targets_threads_divergent.sum",
        "conditional branches whose active lanes split (0 < taken < active)"},
    [CURED_MODEL_CTR_BARRIERS] = {"barriers", "sass__inst_executed_per_opcode [BAR]",
        "barrier warp instructions (bar.sync, bar.arrive, bar.red), per warp"},
    [CURED_MODEL_CTR_SHUFFLES] = {"shuffles", "sass__inst_executed_per_opcode [SHFL]",
        "warp shuffle instructions (shfl.sync)"},
    [CURED_MODEL_CTR_VOTES] = {"votes", "sass__inst_executed_per_opcode [VOTE]",
        "warp vote instructions (vote.sync)"},
};

const cured_model_counter_info *cured_model_counter_describe(cured_model_counter id)
{
    if ((int)id < 0 || id >= CURED_MODEL_CTR_COUNT)
        return NULL;
    return &counter_info[id];
}

/* ------------------------------------------------------------- the state */

cured_model_counters *cured_model_counters_new(const cured_model_module *module, int function)
{
    if (module == NULL || function < 0 || function >= module->nfunctions)
        return NULL;
    cured_model_counters *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->module = module;
    c->function = function;
    c->rows = calloc((size_t)module->nfunctions, sizeof *c->rows);
    if (c->rows == NULL) {
        free(c);
        return NULL;
    }
    return c;
}

void cured_model_counters_free(cured_model_counters *c)
{
    if (c == NULL)
        return;
    for (int f = 0; f < c->module->nfunctions; f++)
        free(c->rows[f].v);
    free(c->rows);
    free(c);
}

void cured_model_counters_reset(cured_model_counters *c)
{
    memset(c->totals, 0, sizeof c->totals);
    for (int f = 0; f < c->module->nfunctions; f++) {
        const ptx_function *fn = &c->module->functions[f];
        if (c->rows[f].v != NULL)
            memset(c->rows[f].v, 0,
                   (size_t)fn->ncode * CURED_MODEL_CTR_COUNT * sizeof(uint64_t));
    }
    c->incomplete = 0;
}

static unsigned popcount32(uint32_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* ---------------------------------------------------------- the observer */

static void on_instr(void *ctx, const cured_model_event *e)
{
    cured_model_counters *c = ctx;
    uint64_t *row = counters_row(c, e->function, e->pc);
    counters_add(c, row, CURED_MODEL_CTR_INST, 1);
    counters_add(c, row, CURED_MODEL_CTR_THREAD_INST, popcount32(e->active));
    counters_add(c, row, CURED_MODEL_CTR_THREAD_INST_PRED_ON, popcount32(e->guard_true));
    switch (e->ins->op) {
    case PTX_OP_BRA:
    case PTX_OP_BRX:
        counters_add(c, row, CURED_MODEL_CTR_BRANCHES, 1);
        break;
    case PTX_OP_BAR:
        counters_add(c, row, CURED_MODEL_CTR_BARRIERS, 1);
        break;
    case PTX_OP_SHFL:
        counters_add(c, row, CURED_MODEL_CTR_SHUFFLES, 1);
        break;
    case PTX_OP_VOTE:
        counters_add(c, row, CURED_MODEL_CTR_VOTES, 1);
        break;
    default:
        break;
    }
    if (c->sass == NULL)
        return;                        /* PTX-level counts */
    if (e->guard_true == 0)
        counters_issue_idle(c, e);
    if (e->ins->op == PTX_OP_BRA && e->ins->guard < 0 && e->active != 0)
        counters_issue_skipped(c, e);  /* an unconditional jump */
}

/* The counters one global access of each kind feeds: instructions,
 * requests, sectors. */
static const cured_model_counter global_ctr[4][3] = {
    {CURED_MODEL_CTR_GLOBAL_LD, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS, CURED_MODEL_CTR_GLOBAL_LD_SECTORS},
    {CURED_MODEL_CTR_GLOBAL_ST, CURED_MODEL_CTR_GLOBAL_ST_REQUESTS, CURED_MODEL_CTR_GLOBAL_ST_SECTORS},
    {CURED_MODEL_CTR_GLOBAL_ATOM, CURED_MODEL_CTR_GLOBAL_ATOM_REQUESTS,
     CURED_MODEL_CTR_GLOBAL_ATOM_SECTORS},
    {CURED_MODEL_CTR_GLOBAL_RED, CURED_MODEL_CTR_GLOBAL_RED_REQUESTS,
     CURED_MODEL_CTR_GLOBAL_RED_SECTORS},
};

/* Counts one SASS-level piece of an access: lanes in `mask` access `size`
 * bytes at addr[l]. */
static void count_piece(cured_model_counters *c, uint64_t *row, const cured_model_access *a,
                        const uint64_t addr[32], unsigned size, int reduction)
{
    switch (a->space) {
    case PTX_S_SHARED: {
        if (a->kind == CURED_MODEL_ATOMIC) {
            counters_add(c, row, CURED_MODEL_CTR_SHARED_ATOM, 1);
            break;
        }
        bank_shared_cost cost = bank_shared_cost_of(addr, a->mask, size);
        int st = a->kind == CURED_MODEL_STORE;
        counters_add(c, row, st ? CURED_MODEL_CTR_SHARED_ST : CURED_MODEL_CTR_SHARED_LD, 1);
        counters_add(c, row, st ? CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS
                         : CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS, cost.wavefronts);
        counters_add(c, row, st ? CURED_MODEL_CTR_SHARED_ST_CONFLICTS
                         : CURED_MODEL_CTR_SHARED_LD_CONFLICTS, cost.conflicts);
        break;
    }
    case PTX_S_GLOBAL: {
        int k = a->kind == CURED_MODEL_LOAD ? 0 : a->kind == CURED_MODEL_STORE ? 1
              : a->event->ins->op == PTX_OP_RED || reduction ? 3 : 2;
        counters_add(c, row, global_ctr[k][0], 1);
        counters_add(c, row, global_ctr[k][1], 1);
        counters_add(c, row, global_ctr[k][2], bank_global_sectors(addr, a->mask, size));
        break;
    }
    case PTX_S_LOCAL:
        if (a->kind == CURED_MODEL_LOAD)
            counters_add(c, row, CURED_MODEL_CTR_LOCAL_LD, 1);
        else if (a->kind == CURED_MODEL_STORE)
            counters_add(c, row, CURED_MODEL_CTR_LOCAL_ST, 1);
        break;
    default:
        break;
    }
}

static void on_access(void *ctx, const cured_model_access *a)
{
    cured_model_counters *c = ctx;
    const cured_model_event *e = a->event;
    if (a->mask == 0)
        return;
    uint64_t *row = counters_row(c, e->function, e->pc);
    const cured_model_sass_fact *f = c->sass
                                   ? cured_model_sass_facts_at(c->sass, e->function, e->pc)
                                   : NULL;
    if (f == NULL) {
        count_piece(c, row, a, a->addr, a->size, 0);
        return;
    }
    for (unsigned k = 0; k < f->npieces; k++) {  /* none when folded */
        uint64_t addr[32];
        for (int l = 0; l < 32; l++)
            addr[l] = a->addr[l] + (uint64_t)(int64_t)f->offset[k];
        count_piece(c, row, a, addr, f->width[k], f->reduction);
    }
}

static void on_branch(void *ctx, const cured_model_event *e, uint32_t taken)
{
    cured_model_counters *c = ctx;
    if (taken != 0 && taken != e->active) {
        uint64_t *row = counters_row(c, e->function, e->pc);
        counters_add(c, row, CURED_MODEL_CTR_DIVERGENT_BRANCHES, 1);
    }
    if (taken != 0 && taken == e->active && c->sass != NULL)
        counters_issue_skipped(c, e);
}

cured_model_observer cured_model_counters_observer(cured_model_counters *c)
{
    cured_model_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = c;
    o.instr = on_instr;
    o.access = on_access;
    o.branch = on_branch;
    return o;
}

/* ------------------------------------------------------------ accessors */

uint64_t cured_model_counters_total(const cured_model_counters *c, cured_model_counter id)
{
    if ((int)id < 0 || id >= CURED_MODEL_CTR_COUNT)
        return 0;
    return c->totals[id];
}

const uint64_t *cured_model_counters_totals(const cured_model_counters *c)
{
    return c->totals;
}

const uint64_t *cured_model_counters_at(const cured_model_counters *c, int function, int pc)
{
    if (function < 0 || function >= c->module->nfunctions)
        return NULL;
    if (pc < 0 || pc >= c->module->functions[function].ncode ||
        c->rows[function].v == NULL)
        return NULL;
    return c->rows[function].v + (size_t)pc * CURED_MODEL_CTR_COUNT;
}

double cured_model_counters_active_share(const cured_model_counters *c)
{
    uint64_t inst = c->totals[CURED_MODEL_CTR_INST];
    if (inst == 0)
        return 0.0;
    return (double)c->totals[CURED_MODEL_CTR_THREAD_INST] /
           ((double)inst * CURED_MODEL_WARP_SIZE);
}

int cured_model_counters_function(const cured_model_counters *c)
{
    return c->function;
}

const cured_model_module *cured_model_counters_module(const cured_model_counters *c)
{
    return c->module;
}

int cured_model_counters_complete(const cured_model_counters *c)
{
    return !c->incomplete;
}

/* ----------------------------------------------------------------- rows */

static int compare_lines(const void *a, const void *b)
{
    const cured_model_counters_line *x = a, *y = b;
    if ((x->line == 0) != (y->line == 0))
        return x->line == 0 ? 1 : -1;   /* "(no line)" last */
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return 0;
}

/* The key of instruction `ins` under `by`. */
static void key_of(const ptx_instr *ins, cured_model_counters_by by, uint16_t *file,
                   uint32_t *line)
{
    switch (by) {
    case CURED_MODEL_BY_SOURCE:
        *file = ins->user_file;
        *line = ins->user_line;
        break;
    case CURED_MODEL_BY_SITE:
        *file = ins->site_file;
        *line = ins->site_line;
        break;
    default:
        *file = 0;
        *line = ins->ptx_line;
        return;
    }
    if (*line == 0)
        *file = 0;   /* no line: one row, whatever file `.loc N 0 0` named */
}

int cured_model_counters_lines(const cured_model_counters *c, int function,
                         cured_model_counters_by by, cured_model_counters_line **rows)
{
    *rows = NULL;
    if (function == -1)
        function = c->function;
    if (function < 0 || function >= c->module->nfunctions ||
        by < CURED_MODEL_BY_SOURCE || by > CURED_MODEL_BY_PTX)
        return -1;
    const ptx_function *fn = &c->module->functions[function];
    const uint64_t *v = c->rows[function].v;
    if (v == NULL)
        return 0;
    cured_model_counters_line *out = NULL;
    int n = 0;
    for (int pc = 0; pc < fn->ncode; pc++) {
        const uint64_t *r = v + (size_t)pc * CURED_MODEL_CTR_COUNT;
        int used = 0;      /* counted anything, even with no PTX
                              instruction issued (docs/counting.md,
                              "Predicated SASS", rule (2)) */
        for (int k = 0; k < CURED_MODEL_CTR_COUNT && !used; k++)
            used = r[k] != 0;
        if (!used)
            continue;
        uint16_t file;
        uint32_t line;
        key_of(&fn->code[pc], by, &file, &line);
        int i = 0; /* rows are few (one per source line): a linear search */
        while (i < n && (out[i].file != file || out[i].line != line))
            i++;
        if (i == n) {
            cured_model_counters_line *grown = realloc(out, (size_t)(n + 1) * sizeof *out);
            if (grown == NULL) {
                free(out);
                return -1;
            }
            out = grown;
            memset(&out[n], 0, sizeof out[n]);
            out[n].function = function;
            out[n].file = file;
            out[n].line = line;
            out[n].first_pc = pc;
            n++;
        }
        for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++)
            out[i].v[k] += r[k];
    }
    if (n > 1)
        qsort(out, (size_t)n, sizeof *out, compare_lines);
    *rows = out;
    return n;
}
