/* checks.c - the checks as a cured_model_observer: follows blocks, barriers, warp
 * syncs and memory accesses, and hands the accesses to the shadows, which
 * make the findings.
 *
 * defines: cured_model_checks_new, cured_model_checks_observer,
 *          cured_model_checks_set_warp_ops_sync, cured_model_checks_free,
 *          cured_model_checks_bytes_per_shared_byte
 *
 * The checks' files, top down: checks.c (the observer) -> checks_shared.c
 * (the shared-memory shadow) and checks_global.c (the global init shadow)
 * -> checks_report.c (naming threads and instructions, making findings);
 * checks_impl.h is the state they share; docs/counting.md ("The checks")
 * says what is checked.
 */
#include "checks_impl.h"
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

// ----------------------------------------------------------------------------
// Blocks

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
    b->cepoch = 0;
    memset(b->inst, 0, sizeof b->inst);
    uint32_t nwarps = (threads + CURED_MODEL_WARP_SIZE - 1) / CURED_MODEL_WARP_SIZE;
    if (nwarps > CHECKS_MAX_WARPS)
        nwarps = CHECKS_MAX_WARPS;
    memset(b->vc, 0, nwarps * sizeof *b->vc);
}

/* A block ended: its record is free for the next one. */
static void on_block_end(void *ctx, uint32_t block)
{
    checks_block *b = checks_find_block(ctx, block);
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
    checks_block *b = checks_find_block(ctx, e->block);
    if (b && e->warp < CHECKS_MAX_WARPS)
        b->inst[e->warp]++;
}

/* Sends a shared access (the block's own or, in a cluster, another
 * block's) to the race/init shadow, a global one to the global init
 * shadow; other spaces are not checked here. */
static void on_access(void *ctx, const cured_model_access *a)
{
    cured_model_checks *c = ctx;
    if (a->space == PTX_S_SHARED || a->space == CURED_MODEL_SPACE_CLUSTER_SHARED) {
        checks_block *b = checks_find_block(c, a->event->block);
        if (b && a->event->warp < CHECKS_MAX_WARPS)
            checks_shared_access(c, b, a);
    } else if (a->space == PTX_S_GLOBAL) {
        checks_global_access(c, a);
    }
}

/* A block barrier released: everything before it is ordered before
 * everything after it; a phase of the cluster barrier also orders the
 * accesses of the cluster's other blocks to this block's shared memory. */
static void on_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    checks_block *b = checks_find_block(ctx, e->block);
    if (b) {
        b->epoch++;
        b->cepoch += id == CURED_MODEL_CLUSTER_BARRIER;
    }
}

/* A warp sync over `mask`: orders those lanes for shared memory when it is
 * bar.warp.sync (or any *.sync warp op, when asked for). */
static void on_warp_sync(void *ctx, const cured_model_event *e, uint32_t mask)
{
    cured_model_checks *c = ctx;
    int orders_memory = e->ins == NULL || e->ins->op == PTX_OP_BAR_WARP ||
                        c->warp_ops_sync;
    checks_block *b = checks_find_block(c, e->block);
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

size_t cured_model_checks_bytes_per_shared_byte(void)
{
    return sizeof(checks_cell);
}
