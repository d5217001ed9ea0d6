/* viz_cells.c - which cells a story draws, in which rows.
 *
 * defines: viz_cells_build, viz_cell_shared, viz_cell_global, viz_cell_reg
 *
 * Rows of 32 cells, like a warp's 32 lanes: the lanes' registers, one row
 * per warp, when the block shuffles; shared memory as rows of 32 elements
 * (every row holding an element the block touched, all 32 slots of it, so
 * column c is bank c for 4-byte elements); the global elements the block
 * wrote. Shared row r stands for warp r's lanes (a tree's thread t starts
 * on x[t]) when there are no register rows: a masked lane hatches the cell
 * in its column.
 */
#include "viz_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows s->rows / s->cells by one; returns the new one or NULL. */
static viz_row *add_row(viz_story *s, uint8_t kind, int32_t warp, const char *label)
{
    void *p = realloc(s->rows, (s->nrows + 1) * sizeof *s->rows);
    if (p == NULL)
        return NULL;
    s->rows = p;
    viz_row *r = &s->rows[s->nrows++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->warp = warp;
    r->first = s->ncells;
    snprintf(r->label, sizeof r->label, "%s", label);
    return r;
}

static viz_cell *add_cell(viz_story *s, viz_row *r, uint64_t key)
{
    void *p = realloc(s->cells, (s->ncells + 1) * sizeof *s->cells);
    if (p == NULL)
        return NULL;
    s->cells = p;
    viz_cell *c = &s->cells[s->ncells++];
    memset(c, 0, sizeof *c);
    c->kind = r->kind;
    c->row = (uint32_t)(r - s->rows);
    c->col = r->count++;
    c->key = key;
    return c;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The register rows: one per warp of the block. */
static int build_regs(viz_story *s)
{
    for (uint32_t w = 0; w < s->warps; w++) {
        char label[16];
        snprintf(label, sizeof label, "w%u v", w);
        viz_row *r = add_row(s, VIZ_CELL_REG, (int32_t)w, label);
        if (r == NULL)
            return -1;
        uint32_t lanes = s->threads - 32 * w < 32 ? s->threads - 32 * w : 32;
        for (uint32_t l = 0; l < lanes; l++) {
            viz_cell *c = add_cell(s, &s->rows[s->nrows - 1], 32 * w + l);
            if (c == NULL)
                return -1;
            snprintf(c->name, sizeof c->name, "w%u.v[%u]", w, l);
        }
    }
    return 0;
}

/* The shared rows. Returns 0, -1 out of memory, -2 too many cells. */
static int build_shared(viz_story *s, const cured_model_trace_op *ops, uint32_t nops,
                        const cured_model_trace_lane *lanes)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t es = 0;
    for (uint32_t i = 0; i < nops; i++) {
        const cured_model_trace_op *op = &ops[i];
        if (op->block != s->block || op->space != CURED_MODEL_TRACE_SHARED || op->nlane == 0)
            continue;
        if (es == 0 || (op->kind == CURED_MODEL_TRACE_STORE && es != op->elem_size))
            es = op->elem_size;
        for (uint32_t j = 0; j < op->nlane; j++) {
            uint64_t a = lanes[op->first_lane + j].addr;
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
        }
    }
    if (lo == UINT64_MAX)
        return 0;
    if (es != 1 && es != 2 && es != 4 && es != 8)
        es = 4;
    s->shared_elem = es;
    s->shared_base = lo / (32u * es) * (32u * es);
    s->shared_span = (hi - s->shared_base) / es + 1;
    if (s->shared_span > 16 * VIZ_MAX_CELLS)
        return -2;
    uint64_t nrows = (s->shared_span + 31) / 32;
    uint8_t *used = calloc(nrows, 1);
    s->shared_map = malloc(s->shared_span * sizeof *s->shared_map);
    if (used == NULL || s->shared_map == NULL) {
        free(used);
        return -1;
    }
    for (uint64_t i = 0; i < s->shared_span; i++)
        s->shared_map[i] = VIZ_NONE;
    for (uint32_t i = 0; i < nops; i++) {
        const cured_model_trace_op *op = &ops[i];
        if (op->block != s->block || op->space != CURED_MODEL_TRACE_SHARED)
            continue;
        for (uint32_t j = 0; j < op->nlane; j++)
            used[(lanes[op->first_lane + j].addr - s->shared_base) / es / 32] = 1;
    }
    uint64_t cells = 0;
    for (uint64_t r = 0; r < nrows; r++)
        cells += used[r] ? 32 : 0;
    if (cells > VIZ_MAX_CELLS) {
        free(used);
        return -2;
    }
    uint32_t kept = 0;
    for (uint64_t r = 0; r < nrows; r++) {
        if (!used[r])
            continue;
        char label[16];
        snprintf(label, sizeof label, "x[%" PRIu64 "]", 32 * r);
        /* without register rows, shared row k stands for warp k's lanes */
        int32_t warp = !s->has_regs && kept < s->warps ? (int32_t)kept : -1;
        if (add_row(s, VIZ_CELL_SHARED, warp, label) == NULL) {
            free(used);
            return -1;
        }
        kept++;
        for (uint64_t c = 32 * r; c < 32 * r + 32 && c < s->shared_span; c++) {
            viz_cell *cell = add_cell(s, &s->rows[s->nrows - 1], s->shared_base + c * es);
            if (cell == NULL) {
                free(used);
                return -1;
            }
            cell->index = (uint32_t)c;
            snprintf(cell->name, sizeof cell->name, "x[%" PRIu64 "]", c);
            s->shared_map[c] = s->ncells - 1;
        }
    }
    free(used);
    return 0;
}

/* The global rows: the elements the block wrote. */
static int build_global(viz_story *s, const cured_model_trace_op *ops, uint32_t nops,
                        const cured_model_trace_lane *lanes,
                        const cured_model_memory *memory)
{
    uint64_t *addr = NULL;
    uint32_t n = 0, capn = 0, es = 4;
    for (uint32_t i = 0; i < nops; i++) {
        const cured_model_trace_op *op = &ops[i];
        if (op->block != s->block || op->space != CURED_MODEL_TRACE_GLOBAL ||
            (op->kind != CURED_MODEL_TRACE_STORE && op->kind != CURED_MODEL_TRACE_ATOMIC))
            continue;
        es = op->elem_size ? op->elem_size : 4;
        for (uint32_t j = 0; j < op->nlane; j++) {
            if (n == capn) {
                capn = capn ? 2 * capn : 64;
                void *p = realloc(addr, capn * sizeof *addr);
                if (p == NULL) {
                    free(addr);
                    return -1;
                }
                addr = p;
            }
            addr[n++] = lanes[op->first_lane + j].addr;
        }
    }
    if (n == 0)
        return 0;
    qsort(addr, n, sizeof *addr, by_u64);
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; i++)
        if (u == 0 || addr[i] != addr[u - 1])
            addr[u++] = addr[i];
    if (u > VIZ_MAX_CELLS) {
        free(addr);
        return -2;
    }
    for (uint32_t i = 0; i < u; i++) {
        const cured_model_buffer *b =
            memory ? cured_model_memory_find(memory, addr[i], es) : NULL;
        char name[32];
        uint64_t index = 0;
        if (b != NULL) {
            index = (addr[i] - b->addr) / es;
            snprintf(name, sizeof name, "%.16s[%" PRIu64 "]", b->name, index);
        } else {
            snprintf(name, sizeof name, "0x%" PRIx64, addr[i]);
        }
        if (i % 32 == 0) {
            char label[16];
            snprintf(label, sizeof label, "%.8s", b ? b->name : "global");
            if (add_row(s, VIZ_CELL_GLOBAL, -1, label) == NULL) {
                free(addr);
                return -1;
            }
        }
        viz_cell *c = add_cell(s, &s->rows[s->nrows - 1], addr[i]);
        if (c == NULL) {
            free(addr);
            return -1;
        }
        c->index = (uint32_t)index;
        snprintf(c->name, sizeof c->name, "%s", name);
    }
    free(addr);
    return 0;
}

int viz_cells_build(viz_story *s, const cured_model_trace *t,
                    const cured_model_memory *memory, char *err, size_t cap)
{
    const cured_model_trace_op *ops;
    const cured_model_trace_lane *lanes;
    uint32_t nops = cured_model_trace_ops(t, &ops);
    cured_model_trace_lanes(t, &lanes);
    s->has_regs = 0;
    for (uint32_t i = 0; i < nops; i++)
        if (ops[i].block == s->block && ops[i].kind == CURED_MODEL_TRACE_SHUFFLE)
            s->has_regs = 1;
    if (s->has_regs && build_regs(s) != 0)
        goto oom;
    int rc = build_shared(s, ops, nops, lanes);
    if (rc == -2) {
        snprintf(err, cap, "the kernel touches more shared memory than can be drawn "
                 "(%d cells of 32 per row at most)", VIZ_MAX_CELLS);
        return -1;
    }
    if (rc != 0)
        goto oom;
    rc = build_global(s, ops, nops, lanes, memory);
    if (rc == -2) {
        snprintf(err, cap, "the kernel writes more global elements than can be "
                 "drawn (%d at most)", VIZ_MAX_CELLS);
        return -1;
    }
    if (rc != 0)
        goto oom;
    if (s->ncells == 0) {
        snprintf(err, cap, "nothing to draw: the kernel's block 0 makes no shared "
                 "access, no shuffle and writes no global memory");
        return -1;
    }
    return 0;
oom:
    snprintf(err, cap, "out of host memory");
    return -1;
}

uint32_t viz_cell_shared(const viz_story *s, uint64_t offset)
{
    if (s->shared_map == NULL || offset < s->shared_base)
        return VIZ_NONE;
    uint64_t i = (offset - s->shared_base) / s->shared_elem;
    return i < s->shared_span ? s->shared_map[i] : VIZ_NONE;
}

uint32_t viz_cell_global(const viz_story *s, uint64_t addr)
{
    /* the global cells are few and sorted by address */
    uint32_t lo = 0, hi = s->ncells;
    while (lo < s->ncells && s->cells[lo].kind != VIZ_CELL_GLOBAL)
        lo++;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->cells[mid].key < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->ncells && s->cells[lo].kind == VIZ_CELL_GLOBAL &&
                   s->cells[lo].key == addr
               ? lo
               : VIZ_NONE;
}

uint32_t viz_cell_reg(const viz_story *s, uint32_t thread)
{
    if (!s->has_regs || thread >= s->threads)
        return VIZ_NONE;
    return thread;   /* the register rows come first, one cell per thread */
}
