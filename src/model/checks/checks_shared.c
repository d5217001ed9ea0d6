/* checks_shared.c - the shared-memory shadow: races (racecheck) and reads of
 * bytes no thread wrote (initcheck, shared side).
 *
 * defines: checks_shared_access, checks_warp_sync, checks_find_block
 *
 * Each shared byte of a running block keeps its last write and the reads
 * since then, each as a checks_ref: the thread, the block's barrier count,
 * the warp's instruction count and the lane's warp-sync clock. An earlier
 * access p is ordered before a later access q when they are the same
 * thread, or a barrier came between (p's barrier count is older), or they
 * are lanes of one warp and either the same warp instruction or a warp sync
 * has made q's lane see a clock of p's lane newer than p's. Warp syncs merge
 * per-lane vector clocks (32 x 32 per warp), so orderings chain through
 * lanes as they do on the GPU.
 *
 * In a thread-block cluster, threads of other blocks access this block's
 * shared memory too (distributed shared memory, through mapa): each ref
 * names its block and the cluster barrier's phase count then, and two
 * accesses from different blocks are ordered only by a completed phase of
 * the cluster barrier between them.
 */
#include "checks_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKS_MAX_SHARED (256u * 1024u) /* above the 227 KiB a block gets */

checks_block *checks_find_block(cured_model_checks *c, uint32_t block)
{
    for (int i = 0; i < c->nblocks; i++)
        if (c->blocks[i].live && c->blocks[i].block == block)
            return &c->blocks[i];
    return NULL;
}

/* Grows b's shadow to cover `end` bytes. Returns 0, or -1 when end is past
 * any block's shared memory or out of host memory. */
static int ensure_cells(checks_block *b, size_t end)
{
    if (end <= b->ncells)
        return 0;
    if (end > CHECKS_MAX_SHARED)
        return -1;
    size_t n = end < 1024 ? 1024 : end;
    checks_cell *cells = realloc(b->cells, n * sizeof *cells);
    if (cells == NULL)
        return -1;
    memset(cells + b->ncells, 0, (n - b->ncells) * sizeof *cells);
    b->cells = cells;
    b->ncells = n;
    return 0;
}

/* The current access of `lane`, by a thread of block b, as a ref. */
static checks_ref current_ref(const checks_block *b, const cured_model_access *a, int lane)
{
    const cured_model_event *e = a->event;
    checks_ref r;
    r.block = b->block;
    r.cepoch = b->cepoch;
    r.epoch = b->epoch;
    r.inst = b->inst[e->warp];
    r.clock = b->vc[e->warp][lane][lane];
    r.pc = e->pc;
    r.function = e->function;
    r.thread = (uint16_t)(e->warp * CURED_MODEL_WARP_SIZE + (uint32_t)lane);
    r.kind = a->kind;
    return r;
}

/* Whether the earlier access p is ordered before the later access q, a
 * thread of block b's. */
static int ordered(const checks_block *b, const checks_ref *p, const checks_ref *q)
{
    if (p->cepoch != q->cepoch)
        return 1;   /* a phase of the cluster barrier between */
    if (p->block != q->block)
        return 0;   /* another block's: nothing else orders them */
    if (p->thread == q->thread || p->epoch != q->epoch)
        return 1;
    uint32_t w = q->thread / CURED_MODEL_WARP_SIZE;
    if (p->thread / CURED_MODEL_WARP_SIZE != w)
        return 0;
    if (p->inst == q->inst)
        return 1;
    return b->vc[w][q->thread % CURED_MODEL_WARP_SIZE][p->thread % CURED_MODEL_WARP_SIZE] > p->clock;
}

/* Whether two accesses to one byte conflict: one writes, and not both are
 * atomics. */
static int conflicts(const checks_ref *p, const checks_ref *q)
{
    if (p->kind == CURED_MODEL_LOAD && q->kind == CURED_MODEL_LOAD)
        return 0;
    return !(p->kind == CURED_MODEL_ATOMIC && q->kind == CURED_MODEL_ATOMIC);
}

/* "read", "write" or "atomic" for a cured_model_access_kind. */
static const char *kind_word(uint8_t kind)
{
    return kind == CURED_MODEL_LOAD ? "read" : kind == CURED_MODEL_STORE ? "write" : "atomic";
}

/* Thread `r->thread` of r's block, "(x,y,z)", with " of block (x,y,z)"
 * when that is not block `here`. */
static void ref_thread_text(const cured_model_checks *c, const checks_ref *r, uint32_t here,
                            char *buf, size_t size)
{
    char t[40];
    checks_thread_text(c, r->thread, t, sizeof t);
    if (r->block == here) {
        snprintf(buf, size, "%s", t);
        return;
    }
    uint32_t gx = c->grid.x ? c->grid.x : 1, gy = c->grid.y ? c->grid.y : 1;
    snprintf(buf, size, "%s of block (%u,%u,%u)", t, r->block % gx, r->block / gx % gy,
             r->block / gx / gy);
}

/* Reports the race of q (the current access, lane `lane`) with the earlier p,
 * once per pair of instructions. */
static void report_race(cured_model_checks *c, const cured_model_access *a, int lane,
                        uint32_t offset, const checks_ref *q, const checks_ref *p)
{
    for (int i = 0; i < c->npairs; i++) {
        const checks_pair *r = &c->pairs[i];
        if (r->function == q->function && r->pc == q->pc &&
            r->other_function == p->function && r->other_pc == p->pc)
            return;
    }
    if (c->npairs == c->pairs_cap) {
        int cap = c->pairs_cap ? 2 * c->pairs_cap : 16;
        checks_pair *pairs = realloc(c->pairs, (size_t)cap * sizeof *pairs);
        if (pairs == NULL)
            return;
        c->pairs = pairs;
        c->pairs_cap = cap;
    }
    c->pairs[c->npairs++] = (checks_pair){q->function, q->pc, p->function, p->pc};

    const cured_model_module *m = a->event->module;
    char qt[96], pt[96], qw[80], pw[80], msg[320];
    ref_thread_text(c, q, q->block, qt, sizeof qt);
    ref_thread_text(c, p, q->block, pt, sizeof pt);
    checks_where(m, q->function, q->pc, qw, sizeof qw);
    checks_where(m, p->function, p->pc, pw, sizeof pw);
    int same_warp = p->thread / CURED_MODEL_WARP_SIZE == q->thread / CURED_MODEL_WARP_SIZE;
    snprintf(msg, sizeof msg, "%s by thread %.40s at %.46s races with %s by thread %.40s at %.46s "
             "(no %s between)", kind_word(q->kind), qt, qw, kind_word(p->kind), pt, pw,
             p->block != q->block ? "cluster barrier"
             : same_warp ? "__syncwarp" : "__syncthreads");
    checks_report(c, a->event, CURED_MODEL_FIND_RACE_SHARED, lane, offset, msg);
}

/* Checks q against the earlier access p of the same byte. Returns 1 when
 * they race (and reports it). */
static int check_pair(cured_model_checks *c, const checks_block *src,
                      const cured_model_access *a, int lane, uint32_t offset,
                      const checks_ref *q, const checks_ref *p)
{
    if (!conflicts(p, q) || ordered(src, p, q))
        return 0;
    report_race(c, a, lane, offset, q, p);
    return 1;
}

/* Remembers the read q in the cell. With every slot taken it drops the
 * oldest read of the warp holding most slots (q's own warp on a tie), so
 * the reads kept span as many warps as they can: a later write races with
 * any kept read from another warp. */
static void add_reader(checks_cell *cell, const checks_ref *q)
{
    /* the reads a barrier ordered before q go: all of them after a phase
     * of the cluster barrier, those of q's block after its barrier */
    if (cell->nreaders == 0 || cell->read_cepoch != q->cepoch ||
        (cell->read_block == q->block && cell->read_epoch != q->epoch)) {
        cell->nreaders = 0;
        cell->read_epoch = q->epoch;
        cell->read_cepoch = q->cepoch;
        cell->read_block = q->block;
    } else if (cell->read_block != q->block) {
        cell->read_block = CHECKS_MIXED;
    }
    for (int i = 0; i < cell->nreaders; i++) {
        if (cell->readers[i].thread == q->thread && cell->readers[i].block == q->block) {
            cell->readers[i] = *q;
            return;
        }
    }
    if (cell->nreaders < CHECKS_READERS) {
        cell->readers[cell->nreaders++] = *q;
        return;
    }
    uint32_t qw = q->thread / CURED_MODEL_WARP_SIZE;
    int victim = 0, victim_count = -1;
    for (int i = 0; i < CHECKS_READERS; i++) {
        uint32_t w = cell->readers[i].thread / CURED_MODEL_WARP_SIZE;
        int count = w == qw; /* q is about to join its own warp */
        for (int k = 0; k < CHECKS_READERS; k++)
            count += cell->readers[k].thread / CURED_MODEL_WARP_SIZE == w;
        int same_warp = w == cell->readers[victim].thread / CURED_MODEL_WARP_SIZE;
        if (count > victim_count ||
            (same_warp && cell->readers[i].inst < cell->readers[victim].inst)) {
            victim = i;
            victim_count = count;
        }
    }
    cell->readers[victim] = *q;
}

/* Records the write (or atomic) q as the cell's last write; the reads
 * before it are dropped: a later access that is ordered after q is ordered
 * after them, and one that is not races with q itself. */
static void set_writer(checks_cell *cell, const checks_ref *q)
{
    const checks_ref *p = &cell->write;
    if (cell->written && p->block == q->block && p->inst == q->inst && p->epoch == q->epoch &&
        p->thread / CURED_MODEL_WARP_SIZE == q->thread / CURED_MODEL_WARP_SIZE) {
        if (p->thread != q->thread) {
            cell->multi_writer = 1;
            cell->other_writer = p->thread;
            cell->other_clock = p->clock;
        }
    } else {
        cell->multi_writer = 0;
    }
    cell->write = *q;
    cell->written = 1;
    cell->nreaders = 0;
}

/* Reports a read of bytes of block b's no thread wrote. */
static void report_uninit(cured_model_checks *c, const checks_block *b,
                          const cured_model_access *a, int lane, uint32_t offset)
{
    char where[80], thread[40], whose[48] = "", msg[256];
    checks_where(a->event->module, a->event->function, a->event->pc, where, sizeof where);
    checks_thread_text(c, a->event->warp * CURED_MODEL_WARP_SIZE + (uint32_t)lane, thread,
                       sizeof thread);
    if (b->block != a->event->block) {
        uint32_t gx = c->grid.x ? c->grid.x : 1, gy = c->grid.y ? c->grid.y : 1;
        snprintf(whose, sizeof whose, " of block (%u,%u,%u)", b->block % gx,
                 b->block / gx % gy, b->block / gx / gy);
    }
    snprintf(msg, sizeof msg, "%s of shared offset 0x%x%s by thread %s at %s: no thread "
             "of %s wrote it", a->kind == CURED_MODEL_ATOMIC ? "atomic" : "read",
             offset, whose, thread, where, whose[0] ? "that block" : "the block");
    checks_report(c, a->event, CURED_MODEL_FIND_UNINIT_SHARED, lane, offset, msg);
}

/* Checks and records lane `lane`'s access, by a thread of block src, to
 * one byte of block b's shared memory. Returns 1 when the byte was read
 * unwritten. */
static int access_byte(cured_model_checks *c, checks_block *b, const checks_block *src,
                       const cured_model_access *a, int lane, uint32_t offset)
{
    checks_cell *cell = &b->cells[offset];
    if (cell->gen != b->gen) {
        memset(cell, 0, sizeof *cell);
        cell->gen = b->gen;
    }
    checks_ref q = current_ref(src, a, lane);
    int unwritten = 0;
    if (!cell->written) {
        unwritten = q.kind != CURED_MODEL_STORE;
    } else if (!check_pair(c, src, a, lane, offset, &q, &cell->write) &&
               cell->multi_writer) {
        checks_ref other = cell->write;
        other.thread = cell->other_writer;
        other.clock = cell->other_clock;
        check_pair(c, src, a, lane, offset, &q, &other);
    }
    if (q.kind == CURED_MODEL_LOAD) {
        add_reader(cell, &q);
        return unwritten;
    }
    for (int i = 0; i < cell->nreaders; i++)
        check_pair(c, src, a, lane, offset, &q, &cell->readers[i]);
    set_writer(cell, &q);
    return unwritten;
}

void checks_shared_access(cured_model_checks *c, const checks_block *src,
                          const cured_model_access *a)
{
    int reported_uninit = 0;
    int remote = a->space == CURED_MODEL_SPACE_CLUSTER_SHARED;
    for (int lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(a->mask >> lane & 1u))
            continue;
        /* whose shared memory, and where in it */
        checks_block *b = remote ? checks_find_block(c, (uint32_t)(a->addr[lane] >> 32))
                                 : checks_find_block(c, src->block);
        uint64_t start = remote ? (uint32_t)a->addr[lane] : a->addr[lane];
        if (b == NULL || start >= CHECKS_MAX_SHARED || ensure_cells(b, start + a->size) != 0)
            continue; /* out of bounds: the interpreter reports it */
        for (uint32_t k = 0; k < a->size; k++) {
            uint32_t offset = (uint32_t)start + k;
            if (access_byte(c, b, src, a, lane, offset) && !reported_uninit) {
                report_uninit(c, b, a, lane, offset);
                reported_uninit = 1;
            }
        }
    }
}

void checks_warp_sync(checks_block *b, uint32_t warp, uint32_t mask)
{
    uint32_t (*vc)[CURED_MODEL_WARP_SIZE] = b->vc[warp];
    uint32_t join[CURED_MODEL_WARP_SIZE] = {0};
    for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++)
        if (mask >> l & 1u)
            vc[l][l]++;
    for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++) {
        if (!(mask >> l & 1u))
            continue;
        for (int m = 0; m < CURED_MODEL_WARP_SIZE; m++)
            if (vc[l][m] > join[m])
                join[m] = vc[l][m];
    }
    for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++)
        if (mask >> l & 1u)
            memcpy(vc[l], join, sizeof join);
}
