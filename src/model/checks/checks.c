/* checks.c - the checks as a cured_model_observer: follows blocks, barriers, warp
 * syncs and memory accesses, and turns what the shadows find into findings.
 *
 * defines: cured_model_checks_new, cured_model_checks_observer,
 *          cured_model_checks_set_warp_ops_sync, cured_model_checks_free,
 *          checks_report, checks_where, checks_thread_text
 *
 * The shared-memory shadow is in checks_shared.c, the global init shadow in
 * checks_global.c; checks.h says what is checked.
 */
#include "checks_impl.h"
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ----------------------------------------------------------------------------
// Naming threads and instructions

void checks_thread_text(const cured_model_checks *c, uint32_t t, char *buf, size_t size)
{
    uint32_t bx = c->block_dim.x ? c->block_dim.x : 1u << 30;
    uint32_t by = c->block_dim.y ? c->block_dim.y : 1;
    snprintf(buf, size, "(%u,%u,%u)", t % bx, (t / bx) % by, t / bx / by);
}

/* The part of path after its last '/'. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void checks_where(const cured_model_module *m, int32_t function, int32_t pc, char *buf,
                  size_t size)
{
    const ptx_instr *ins = NULL;
    if (m && function >= 0 && function < m->nfunctions && pc >= 0 &&
        pc < m->functions[function].ncode)
        ins = &m->functions[function].code[pc];
    if (ins == NULL) {
        snprintf(buf, size, "pc %d", (int)pc);
    } else if (ins->src_line == 0) {
        snprintf(buf, size, "ptx line %u", ins->ptx_line);
    } else {
        const char *file = "?";
        if (ins->src_file < m->nfiles && m->files[ins->src_file])
            file = base_name(m->files[ins->src_file]);
        snprintf(buf, size, "%s:%u", file, ins->src_line);
    }
}

/* blockIdx of linear block index b. */
static void block_index(const cured_model_checks *c, uint32_t b, uint32_t out[3])
{
    uint32_t gx = c->grid.x ? c->grid.x : 1u << 30;
    uint32_t gy = c->grid.y ? c->grid.y : 1;
    out[0] = b % gx;
    out[1] = (b / gx) % gy;
    out[2] = b / gx / gy;
}

void checks_report(cured_model_checks *c, const cured_model_event *e, cured_model_finding_kind kind,
                   int lane, uint64_t address, const char *message)
{
    cured_model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.severity = CURED_MODEL_HAZARD;
    block_index(c, e->block, f.block);
    uint32_t t = e->warp * CURED_MODEL_WARP_SIZE + (uint32_t)lane;
    uint32_t bx = c->block_dim.x ? c->block_dim.x : 1u << 30;
    uint32_t by = c->block_dim.y ? c->block_dim.y : 1;
    f.thread[0] = t % bx;
    f.thread[1] = (t / bx) % by;
    f.thread[2] = t / bx / by;
    f.function = e->function;
    f.pc = e->pc;
    if (e->ins) {
        f.ptx_line = e->ins->ptx_line;
        f.src_file = e->ins->src_file;
        f.src_line = e->ins->src_line;
    }
    f.address = address;
    snprintf(f.message, sizeof f.message, "%s", message);
    cured_model_findings_add(c->out, &f);
}

// ----------------------------------------------------------------------------
// Blocks

/* The running block with linear index `block`, or NULL. */
static checks_block *find_block(cured_model_checks *c, uint32_t block)
{
    for (int i = 0; i < c->nblocks; i++)
        if (c->blocks[i].live && c->blocks[i].block == block)
            return &c->blocks[i];
    return NULL;
}

/* A free block record with its clocks and shadow allocated, or NULL when out
 * of host memory. Records are reused, so blocks run one after another
 * allocate once. */
static checks_block *claim_block(cured_model_checks *c)
{
    for (int i = 0; i < c->nblocks; i++)
        if (!c->blocks[i].live)
            return &c->blocks[i];
    checks_block *blocks = realloc(c->blocks, (size_t)(c->nblocks + 1) * sizeof *blocks);
    if (blocks == NULL)
        return NULL;
    c->blocks = blocks;
    checks_block *b = &blocks[c->nblocks];
    memset(b, 0, sizeof *b);
    b->vc = calloc(CHECKS_MAX_WARPS, sizeof *b->vc);
    if (b->vc == NULL)
        return NULL;
    c->nblocks++;
    return b;
}

/* A block starts: a fresh record (barrier count 0, clocks 0) and a shadow
 * whose cells all read as fresh. Out of host memory: the block goes
 * unchecked. */
static void on_block_begin(void *ctx, uint32_t block, uint32_t threads)
{
    cured_model_checks *c = ctx;
    checks_block *b = claim_block(c);
    if (b == NULL)
        return;
    if (b->ncells < c->window) {
        checks_cell *cells = realloc(b->cells, c->window * sizeof *cells);
        if (cells == NULL)
            return;
        /* gen 0 is never a block's, so new cells read as fresh */
        memset(cells + b->ncells, 0, (c->window - b->ncells) * sizeof *cells);
        b->cells = cells;
        b->ncells = c->window;
    }
    b->live = 1;
    b->block = block;
    b->threads = threads;
    if (c->next_gen == UINT32_MAX) { /* 2^32 blocks: clear for real once */
        for (int i = 0; i < c->nblocks; i++)
            for (size_t k = 0; k < c->blocks[i].ncells; k++)
                c->blocks[i].cells[k].gen = 0;
        c->next_gen = 0;
    }
    b->gen = ++c->next_gen;
    b->epoch = 0;
    memset(b->inst, 0, sizeof b->inst);
    uint32_t nwarps = (threads + CURED_MODEL_WARP_SIZE - 1) / CURED_MODEL_WARP_SIZE;
    if (nwarps > CHECKS_MAX_WARPS)
        nwarps = CHECKS_MAX_WARPS;
    memset(b->vc, 0, nwarps * sizeof *b->vc);
}

/* A block ended: its record is free for the next one. */
static void on_block_end(void *ctx, uint32_t block)
{
    checks_block *b = find_block(ctx, block);
    if (b)
        b->live = 0;
}

// ----------------------------------------------------------------------------
// Events

/* A launch starts: remembers its shape, memory and shared window size. */
static void on_launch_begin(void *ctx, const cured_model_launch *launch)
{
    cured_model_checks *c = ctx;
    c->grid = launch->grid;
    c->block_dim = launch->block;
    c->memory = launch->memory;
    c->check_uninit_global = launch->check_uninit_global;
    c->window = launch->dynamic_shared_bytes;
    const cured_model_module *m = launch->module;
    if (m && launch->function >= 0 && launch->function < m->nfunctions) {
        uint64_t align = m->shared_extern_align ? m->shared_extern_align : 16;
        uint64_t st = m->functions[launch->function].shared_static_bytes;
        c->window += (size_t)((st + align - 1) / align * align);
    }
    for (int i = 0; i < c->nblocks; i++)
        c->blocks[i].live = 0;
    c->npairs = 0;
}

/* Counts the warp's instructions: two accesses of one warp with the same
 * count come from one instruction and do not race with each other. */
static void on_instr(void *ctx, const cured_model_event *e)
{
    checks_block *b = find_block(ctx, e->block);
    if (b && e->warp < CHECKS_MAX_WARPS)
        b->inst[e->warp]++;
}

/* Sends a shared access to the race/init shadow, a global one to the
 * global init shadow; other spaces are not checked here. */
static void on_access(void *ctx, const cured_model_access *a)
{
    cured_model_checks *c = ctx;
    if (a->space == PTX_S_SHARED) {
        checks_block *b = find_block(c, a->event->block);
        if (b && a->event->warp < CHECKS_MAX_WARPS)
            checks_shared_access(c, b, a);
    } else if (a->space == PTX_S_GLOBAL) {
        checks_global_access(c, a);
    }
}

/* A block barrier released: everything before it is ordered before
 * everything after it. */
static void on_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    (void)id;
    checks_block *b = find_block(ctx, e->block);
    if (b)
        b->epoch++;
}

/* A warp sync over `mask`: orders those lanes for shared memory when it is
 * bar.warp.sync (or any *.sync warp op, when asked for). */
static void on_warp_sync(void *ctx, const cured_model_event *e, uint32_t mask)
{
    cured_model_checks *c = ctx;
    int orders_memory = e->ins == NULL || e->ins->op == PTX_OP_BAR_WARP ||
                        c->warp_ops_sync;
    checks_block *b = find_block(c, e->block);
    if (b && orders_memory && e->warp < CHECKS_MAX_WARPS)
        checks_warp_sync(b, e->warp, mask & e->present);
}

// ----------------------------------------------------------------------------
// API

cured_model_checks *cured_model_checks_new(cured_model_findings *out)
{
    cured_model_checks *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->out = out;
    return c;
}

cured_model_observer cured_model_checks_observer(cured_model_checks *checks)
{
    cured_model_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = checks;
    o.launch_begin = on_launch_begin;
    o.block_begin = on_block_begin;
    o.block_end = on_block_end;
    o.instr = on_instr;
    o.access = on_access;
    o.barrier = on_barrier;
    o.warp_sync = on_warp_sync;
    return o;
}

void cured_model_checks_set_warp_ops_sync(cured_model_checks *checks, int on)
{
    checks->warp_ops_sync = on != 0;
}

void cured_model_checks_free(cured_model_checks *checks)
{
    if (checks == NULL)
        return;
    for (int i = 0; i < checks->nblocks; i++) {
        free(checks->blocks[i].vc);
        free(checks->blocks[i].cells);
    }
    free(checks->blocks);
    free(checks->pairs);
    free(checks);
}
