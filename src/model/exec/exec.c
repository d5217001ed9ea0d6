/* exec.c - the interpreter's entry point: checks a launch, lays out what
 * it needs (register windows, call frames, per-thread params, local and
 * shared memory), runs the grid cluster by cluster and fills the result.
 *
 * defines: cured_model_run
 *
 * Blocks run one after another in linear order (x fastest), so a kernel
 * that lets the last block to finish do the final step (single-pass
 * reduction with a __device__ counter) works. In a launch with thread-
 * block clusters, the clusters run one after another and the CTAs of one
 * together, in passes over them in rank order (cluster_run); without, each
 * block is a cluster of one and runs alone. Within a block, a warp runs
 * until it blocks at a barrier, waits at a warp-synchronous instruction or
 * exits, then the next warp runs (exec_step.c); when every live thread
 * has arrived at a barrier it is released and the warps go on from warp 0,
 * so what follows a barrier runs in warp order (atomics after a
 * __syncthreads() happen in thread order within a block).
 *
 * Device-function calls keep a per-thread call stack (return key, local
 * frame) and one register window per function and warp; recursion is not
 * supported (CURED_MODEL_FIND_UNSUPPORTED before anything runs).
 */
#include "exec_sched.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXEC_MAX_THREADS 1024
#define EXEC_MAX_SHARED (227u * 1024)
#define EXEC_MAX_CLUSTER 16     /* blocks a cluster may hold (sm_90's
                                   non-portable limit) */

// ----------------------------------------------------------------------------
// Launch checks

/* Adds a finding not tied to an instruction. */
static void launch_finding(cured_model_result *r, cured_model_finding_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void launch_finding(cured_model_result *r, cured_model_finding_kind kind, const char *fmt, ...)
{
    cured_model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.severity = CURED_MODEL_ERROR;
    f.function = -1;
    f.pc = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    cured_model_findings_add(&r->findings, &f);
}

/* Bytes of the block's shared window: static part aligned to the extern
 * alignment, then the dynamic part. */
static uint64_t shared_window(const cured_model_launch *l, uint64_t *dyn_base)
{
    const cured_model_module *m = l->module;
    uint64_t align = m->shared_extern_align ? m->shared_extern_align : 16;
    uint64_t st = m->functions[l->function].shared_static_bytes;
    *dyn_base = (st + align - 1) / align * align;
    return *dyn_base + l->dynamic_shared_bytes;
}

/* The launch's cluster dimensions into c (NULL: only checked): its own,
 * else the kernel's .reqnctapercluster, else 1 x 1 x 1. Returns 0, or -1
 * with a CURED_MODEL_FIND_BAD_LAUNCH finding: a zero dimension among
 * nonzero ones, one that does not divide the grid's, more than
 * EXEC_MAX_CLUSTER blocks, or dimensions other than the kernel's. */
static int cluster_dims(const cured_model_launch *l, exec_cluster *c, cured_model_result *r)
{
    const ptx_function *f = &l->module->functions[l->function];
    const uint32_t *req = f->reqnctapercluster;
    uint32_t d[3] = {l->cluster.x, l->cluster.y, l->cluster.z};
    int given = d[0] || d[1] || d[2];
    int kernel = req[0] != 0;
    if (!given) {
        for (int i = 0; i < 3; i++)
            d[i] = kernel ? req[i] : 1;
    } else if (!d[0] || !d[1] || !d[2]) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "cluster %ux%ux%u: every dimension is 1 or more (all 0: no cluster)",
                       d[0], d[1], d[2]);
        return -1;
    } else if (kernel && (d[0] != req[0] || d[1] != req[1] || d[2] != req[2])) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "cluster %ux%ux%u, but %s was compiled for clusters of %ux%ux%u "
                       "(.reqnctapercluster)", d[0], d[1], d[2], f->name, req[0], req[1], req[2]);
        return -1;
    }
    uint64_t ncta = (uint64_t)d[0] * d[1] * d[2];
    if (ncta > EXEC_MAX_CLUSTER || l->grid.x % d[0] || l->grid.y % d[1] || l->grid.z % d[2]) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "cluster %ux%ux%u for grid %ux%ux%u: a cluster holds 1 to %d blocks and "
                       "each of its dimensions divides the grid's", d[0], d[1], d[2],
                       l->grid.x, l->grid.y, l->grid.z, EXEC_MAX_CLUSTER);
        return -1;
    }
    if (c != NULL) {
        memcpy(c->dim, d, sizeof d);
        c->ncta = (uint32_t)ncta;
        c->explicit_dims = given || kernel;
    }
    return 0;
}

/* Checks what cured_model_run needs before anything runs. Returns 0, or -1 with
 * a CURED_MODEL_FIND_BAD_LAUNCH finding. */
static int launch_check(const cured_model_launch *l, cured_model_result *r)
{
    if (l == NULL || l->module == NULL) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH, "no launch or no module");
        return -1;
    }
    const cured_model_module *m = l->module;
    if (l->function < 0 || l->function >= m->nfunctions || !m->functions[l->function].is_entry) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH, "function %d is not a kernel (.entry) of the module",
                       l->function);
        return -1;
    }
    const ptx_function *f = &m->functions[l->function];
    if (!f->has_body) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH, "kernel %s has no body in this module", f->name);
        return -1;
    }
    if (f->unusable != NULL) {
        launch_finding(r, CURED_MODEL_FIND_UNSUPPORTED,
                       "kernel %.60s cannot run in the model: %.100s (PTX line %u)",
                       f->name, f->unusable, f->unusable_ptx_line);
        return -1;
    }
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    if (threads == 0 || threads > EXEC_MAX_THREADS || l->block.z > 64) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "block %ux%ux%u: a block needs 1 to %d threads (z at most 64)",
                       l->block.x, l->block.y, l->block.z, EXEC_MAX_THREADS);
        return -1;
    }
    if (l->grid.x == 0 || l->grid.y == 0 || l->grid.z == 0 || l->grid.x > 0x7FFFFFFFu ||
        l->grid.y > 65535 || l->grid.z > 65535) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "grid %ux%ux%u: x must be 1..2^31-1, y and z 1..65535",
                       l->grid.x, l->grid.y, l->grid.z);
        return -1;
    }
    uint64_t dyn_base;
    uint64_t window = shared_window(l, &dyn_base);
    if (window > EXEC_MAX_SHARED) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "%llu bytes of shared memory per block (static %llu + dynamic %u) "
                       "is over the 227 KiB limit",
                       (unsigned long long)window, (unsigned long long)f->shared_static_bytes,
                       l->dynamic_shared_bytes);
        return -1;
    }
    if (l->params_size < f->param_bytes || (f->param_bytes > 0 && l->params == NULL)) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "%s takes %llu bytes of parameters, the launch gives %zu",
                       f->name, (unsigned long long)f->param_bytes,
                       l->params ? l->params_size : (size_t)0);
        return -1;
    }
    if (cluster_dims(l, NULL, r) != 0)
        return -1;
    if (l->nobservers < 0 || (l->nobservers > 0 && l->observers == NULL)) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH, "nobservers is %d but observers is NULL",
                       l->nobservers);
        return -1;
    }
    if (m->global_bytes > 0 && l->memory == NULL) {
        launch_finding(r, CURED_MODEL_FIND_BAD_LAUNCH,
                       "the module has %llu bytes of .global/.const data but the launch has no memory",
                       (unsigned long long)m->global_bytes);
        return -1;
    }
    return 0;
}

// ----------------------------------------------------------------------------
// Call graph

/* Fills fns[fi] (frame, deepest stack and call chain below it) by a
 * depth-first walk. state: 0 unseen, 1 on the path, 2 done. Returns the
 * index of a function that calls itself (directly or not), else -1. */
static int call_walk(const cured_model_module *m, exec_fn *fns, uint8_t *state, int fi)
{
    const ptx_function *f = &m->functions[fi];
    state[fi] = 1;
    fns[fi].reachable = 1;
    fns[fi].frame = (uint32_t)((f->local_bytes + 15) / 16 * 16);
    uint64_t below = 0;
    int depth = 0;
    for (int i = 0; i < f->ncode; i++) {
        const ptx_instr *ins = &f->code[i];
        if (ins->op != PTX_OP_CALL || ins->callee < 0 || ins->callee >= m->nfunctions)
            continue;
        int c = ins->callee;
        if (state[c] == 1)
            return c;
        if (state[c] == 0) {
            int rec = call_walk(m, fns, state, c);
            if (rec >= 0)
                return rec;
        }
        if (fns[c].stack > below)
            below = fns[c].stack;
        if (fns[c].depth + 1 > depth)
            depth = fns[c].depth + 1;
    }
    fns[fi].stack = fns[fi].frame + below;
    fns[fi].depth = depth;
    state[fi] = 2;
    return -1;
}

/* Lays out per-thread .param storage: every .param symbol that is not one
 * of the launched kernel's own parameters (call-site params, device
 * functions' params and return values). */
static int layout_tparams(exec_launch *x)
{
    const cured_model_module *m = x->module;
    x->sym_tparam = malloc((size_t)(m->nsymbols ? m->nsymbols : 1) * sizeof *x->sym_tparam);
    if (x->sym_tparam == NULL)
        return -1;
    uint64_t off = 0;
    for (int i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        x->sym_tparam[i] = UINT64_MAX;
        if (s->space != PTX_S_PARAM)
            continue;
        int kernel_param = 0;
        for (int k = 0; k < x->entry->nparams; k++)
            if (x->entry->params[k] == i)
                kernel_param = 1;
        if (kernel_param)
            continue;
        uint64_t align = s->align > 8 ? s->align : 8;
        off = (off + align - 1) / align * align;
        x->sym_tparam[i] = off;
        off += s->size ? s->size : 8;
    }
    if (off > 0xFFFFFFFFull / CURED_MODEL_WARP_SIZE)
        return -1;
    x->tparam_bytes = (uint32_t)off;
    return 0;
}

// ----------------------------------------------------------------------------
// Block state

/* Allocates CTA b's warps, windows and memories. Returns 0 or -1. */
static int block_alloc(exec_launch *x, exec_block *b)
{
    const cured_model_launch *l = x->launch;
    const cured_model_module *m = x->module;
    b->threads = l->block.x * l->block.y * l->block.z;
    b->nwarps = (int)((b->threads + CURED_MODEL_WARP_SIZE - 1) / CURED_MODEL_WARP_SIZE);
    b->shared_bytes = shared_window(l, &b->dyn_base);
    b->shared = calloc(1, (size_t)(b->shared_bytes ? b->shared_bytes : 1));
    b->local = calloc(1, (size_t)(b->threads * x->local_stack + 1));
    b->warps = calloc((size_t)b->nwarps, sizeof *b->warps);
    if (b->shared == NULL || b->local == NULL || b->warps == NULL)
        return -1;
    size_t frames = (size_t)(x->fns[x->entry_index].depth + 1) * CURED_MODEL_WARP_SIZE;
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        w->index = (uint32_t)wi;
        w->functions = m->functions;
        w->regs = calloc((size_t)m->nfunctions, sizeof *w->regs);
        w->ret_key = calloc(frames, sizeof *w->ret_key);
        w->ret_call = calloc(frames, sizeof *w->ret_call);
        w->saved_base = calloc(frames, sizeof *w->saved_base);
        w->tparam = calloc((size_t)x->tparam_bytes * CURED_MODEL_WARP_SIZE + 1, 1);
        if (w->regs == NULL || w->ret_key == NULL || w->ret_call == NULL ||
            w->saved_base == NULL || w->tparam == NULL)
            return -1;
        for (int fi = 0; fi < m->nfunctions; fi++) {
            if (!x->fns[fi].reachable)
                continue;
            size_t n = (size_t)(m->functions[fi].nregs > 0 ? m->functions[fi].nregs : 1);
            w->regs[fi] = calloc(n * CURED_MODEL_WARP_SIZE, sizeof(uint64_t));
            if (w->regs[fi] == NULL)
                return -1;
        }
    }
    return 0;
}

/* Frees what block_alloc made for b (any part may be missing). */
static void block_free(exec_launch *x, exec_block *b)
{
    for (int wi = 0; b->warps != NULL && wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        for (int fi = 0; w->regs != NULL && fi < x->module->nfunctions; fi++)
            free(w->regs[fi]);
        free(w->regs);
        free(w->ret_key);
        free(w->ret_call);
        free(w->saved_base);
        free(w->tparam);
    }
    free(b->warps);
    free(b->shared);
    free(b->local);
}

/* Allocates the cluster's CTAs. Returns 0 or -1. */
static int cluster_alloc(exec_launch *x)
{
    exec_cluster *c = &x->cluster;
    c->ctas = calloc(c->ncta, sizeof *c->ctas);
    if (c->ctas == NULL)
        return -1;
    for (uint32_t r = 0; r < c->ncta; r++)
        if (block_alloc(x, &c->ctas[r]) != 0)
            return -1;
    x->block = &c->ctas[0];
    return 0;
}

/* Frees the cluster's CTAs (any part may be missing). */
static void cluster_free(exec_launch *x)
{
    exec_cluster *c = &x->cluster;
    for (uint32_t r = 0; c->ctas != NULL && r < c->ncta; r++)
        block_free(x, &c->ctas[r]);
    free(c->ctas);
}

/* Resets CTA b's state for the block with linear index bi of the grid,
 * rank `rank` of its cluster. */
static void block_reset(exec_launch *x, exec_block *b, uint32_t bi, uint32_t rank)
{
    const cured_model_launch *l = x->launch;
    const cured_model_module *m = x->module;
    b->index = bi;
    b->rank = rank;
    b->ctaid[0] = bi % l->grid.x;
    b->ctaid[1] = (bi / l->grid.x) % l->grid.y;
    b->ctaid[2] = bi / (l->grid.x * l->grid.y);
    b->live = b->threads;
    b->released = 0;
    memset(b->arrived, 0, sizeof b->arrived);
    memset(b->expect, 0, sizeof b->expect);
    memset(b->shared, 0, (size_t)b->shared_bytes);
    memset(b->local, 0, (size_t)(b->threads * x->local_stack));
    for (int wi = 0; wi < b->nwarps; wi++) {
        exec_warp *w = &b->warps[wi];
        uint32_t first = (uint32_t)wi * CURED_MODEL_WARP_SIZE;
        uint32_t n = b->threads - first < CURED_MODEL_WARP_SIZE ? b->threads - first : CURED_MODEL_WARP_SIZE;
        w->present = n == CURED_MODEL_WARP_SIZE ? EXEC_FULL : (1u << n) - 1;
        w->exited = w->bar_wait = w->sync_wait = w->parked = 0;
        w->cluster_wait = w->cluster_arrived = w->cluster_pending = 0;
        w->cur = w->present;
        w->cur_key = exec_key(0, (uint32_t)x->entry_index, 0);
        w->code = NULL;
        exec_sched_set_fn(w);
        w->cc = 0;
        for (uint32_t ln = 0; ln < CURED_MODEL_WARP_SIZE; ln++) {
            uint32_t t = first + ln;
            w->tid[0][ln] = t % l->block.x;
            w->tid[1][ln] = (t / l->block.x) % l->block.y;
            w->tid[2][ln] = t / (l->block.x * l->block.y);
            w->local_base[ln] = 0;
        }
        for (int fi = 0; fi < m->nfunctions; fi++)
            if (w->regs[fi] != NULL)
                memset(w->regs[fi], 0,
                       (size_t)(m->functions[fi].nregs > 0 ? m->functions[fi].nregs : 1) *
                           CURED_MODEL_WARP_SIZE * sizeof(uint64_t));
        memset(w->tparam, 0, (size_t)x->tparam_bytes * CURED_MODEL_WARP_SIZE);
    }
}

/* Lets every runnable warp of CTA b run until it blocks (after a barrier
 * is released, from warp 0 again). Returns 1 when some warp ran. */
static int block_pass(exec_launch *x, exec_block *b)
{
    int ran = 0;
    x->block = b;
    for (int wi = 0; wi < b->nwarps && !x->stop; wi++) {
        if (b->warps[wi].cur) {
            ran = 1;
            exec_warp_run(x, &b->warps[wi]);
            if (b->released) {
                b->released = 0;
                wi = -1;    /* after a barrier, from warp 0 again */
            }
        }
    }
    return ran;
}

/* Runs the cluster's CTAs together to their end (or the launch's stop):
 * passes over them in rank order until no thread is left; a pass in which
 * no warp of any CTA can run is a deadlock, reported in a CTA with live
 * threads. A cluster of one CTA runs as a lone block. */
static void cluster_run(exec_launch *x)
{
    exec_cluster *c = &x->cluster;
    for (;;) {
        int ran = 0, live = 0;
        for (uint32_t r = 0; r < c->ncta && !x->stop; r++)
            if (c->ctas[r].live)
                ran |= block_pass(x, &c->ctas[r]);
        for (uint32_t r = 0; r < c->ncta; r++)
            if (c->ctas[r].live) {
                live = 1;
                x->block = &c->ctas[r];
                break;
            }
        if (x->stop || !live)
            return;
        if (!ran) {
            exec_wait_deadlock(x);
            return;
        }
    }
}

/* The linear block index of rank `rank` in cluster k (clusters in linear
 * order, x fastest; ranks x fastest within a cluster). */
static uint32_t cluster_block(const exec_launch *x, uint64_t k, uint32_t rank)
{
    const cured_model_launch *l = x->launch;
    const exec_cluster *c = &x->cluster;
    uint32_t ncx = l->grid.x / c->dim[0], ncy = l->grid.y / c->dim[1];
    uint32_t cx = (uint32_t)(k % ncx), cy = (uint32_t)(k / ncx % ncy), cz = (uint32_t)(k / ncx / ncy);
    uint32_t bx = cx * c->dim[0] + rank % c->dim[0];
    uint32_t by = cy * c->dim[1] + rank / c->dim[0] % c->dim[1];
    uint32_t bz = cz * c->dim[2] + rank / (c->dim[0] * c->dim[1]);
    return bx + l->grid.x * (by + l->grid.y * bz);
}

// ----------------------------------------------------------------------------
// cured_model_run

/* Sets up everything a launch needs besides the block. Returns 0, 1 when
 * the kernel cannot be run (a finding says why), -1 out of host memory. */
static int launch_setup(exec_launch *x)
{
    const cured_model_module *m = x->module;
    x->fns = calloc((size_t)m->nfunctions, sizeof *x->fns);
    uint8_t *state = calloc((size_t)m->nfunctions, 1);
    if (x->fns == NULL || state == NULL) {
        free(state);
        return -1;
    }
    int rec = call_walk(m, x->fns, state, x->entry_index);
    free(state);
    if (rec >= 0) {
        launch_finding(x->result, CURED_MODEL_FIND_UNSUPPORTED,
                       "%s makes a recursive call (%s calls itself, directly or not): the model "
                       "does not run recursion",
                       x->entry->name, m->functions[rec].name);
        return 1;
    }
    if (x->fns[x->entry_index].depth + 1 >= EXEC_MAX_DEPTH ||
        x->fns[x->entry_index].stack > (1ull << EXEC_LOCAL_SHIFT)) {
        launch_finding(x->result, CURED_MODEL_FIND_UNSUPPORTED,
                       "%s needs %d nested calls and %llu bytes of local memory per thread: "
                       "over the model's %d calls and 16 MiB",
                       x->entry->name, x->fns[x->entry_index].depth,
                       (unsigned long long)x->fns[x->entry_index].stack, EXEC_MAX_DEPTH - 1);
        return 1;
    }
    if (m->address_size == 32) {
        launch_finding(x->result, CURED_MODEL_FIND_UNSUPPORTED,
                       "the module has 32-bit addresses (.address_size 32): the model runs "
                       "64-bit PTX only");
        return 1;
    }
    cluster_dims(x->launch, &x->cluster, x->result);   /* checked before */
    x->local_stack = x->fns[x->entry_index].stack;
    if (layout_tparams(x) != 0)
        return -1;
    if (m->global_bytes > 0) {
        x->image = cured_model_memory_module_image(x->memory, m);
        if (x->image == NULL)
            return -1;
    }
    return cluster_alloc(x);
}

int cured_model_run(const cured_model_launch *launch, cured_model_result *result)
{
    if (result == NULL)
        return -1;
    memset(result, 0, sizeof *result);
    if (launch_check(launch, result) != 0)
        return -1;
    exec_launch *x = calloc(1, sizeof *x);
    if (x == NULL) {
        launch_finding(result, CURED_MODEL_FIND_BAD_LAUNCH, "out of host memory");
        return -1;
    }
    x->launch = launch;
    x->module = launch->module;
    x->entry_index = launch->function;
    x->entry = &launch->module->functions[launch->function];
    x->result = result;
    x->memory = launch->memory;
    x->limit = launch->step_limit ? launch->step_limit : CURED_MODEL_DEFAULT_STEP_LIMIT;
    x->obs = launch->observers;
    x->nobs = launch->nobservers;
    for (int i = 0; i < x->nobs; i++) {
        x->want_done |= x->obs[i].instr_done != NULL;
        x->want_shuffle |= x->obs[i].shuffle != NULL;
    }
    int rc = launch_setup(x);
    if (rc < 0)
        launch_finding(result, CURED_MODEL_FIND_BAD_LAUNCH, "out of host memory");
    if (rc == 0) {
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].launch_begin)
                x->obs[i].launch_begin(x->obs[i].ctx, launch);
        exec_cluster *c = &x->cluster;
        uint64_t nblocks = (uint64_t)launch->grid.x * launch->grid.y * launch->grid.z;
        int done = 1;
        for (uint64_t k = 0; k < nblocks / c->ncta && !x->stop; k++) {
            c->count = c->phase = 0;
            for (uint32_t r = 0; r < c->ncta; r++) {
                uint32_t bi = cluster_block(x, k, r);
                block_reset(x, &c->ctas[r], bi, r);
                for (int i = 0; i < x->nobs; i++)
                    if (x->obs[i].block_begin)
                        x->obs[i].block_begin(x->obs[i].ctx, bi, c->ctas[r].threads);
            }
            cluster_run(x);
            for (uint32_t r = 0; r < c->ncta; r++) {
                if (c->ctas[r].live != 0)
                    done = 0;
                for (int i = 0; i < x->nobs; i++)
                    if (x->obs[i].block_end)
                        x->obs[i].block_end(x->obs[i].ctx, c->ctas[r].index);
            }
        }
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].launch_end)
                x->obs[i].launch_end(x->obs[i].ctx, launch);
        result->completed = done && !x->stop;
    }
    result->warp_instructions = x->steps;
    result->thread_instructions = x->thread_steps;
    cluster_free(x);
    free(x->fns);
    free(x->sym_tparam);
    free(x);
    return rc < 0 ? -1 : 0;
}
