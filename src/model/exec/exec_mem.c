/* exec_mem.c - memory instructions of the interpreter: ld, ldu, st, atom,
 * red and cvta, with address resolution, bounds and alignment checks, and
 * the access events observers see.
 *
 * defines: exec_mem
 *
 * Spaces and the addresses instructions use:
 * - global: device addresses of cured_model_memory buffers (and of the module's
 *   .global/.const image); an address in no buffer is CURED_MODEL_FIND_OOB_GLOBAL.
 * - shared: offsets in the block's window (static, then dynamic); past it
 *   is CURED_MODEL_FIND_OOB_SHARED. Through .shared::cluster or a generic
 *   address, one that mapa made (exec_cluster_address) is another CTA's
 *   of the cluster (resolve_cta: a rank past the cluster, a CTA whose
 *   threads all exited, an offset past its window are reported).
 * - local: offsets in the thread's local stack (frames of the call chain);
 *   past the current frame is CURED_MODEL_FIND_OOB_LOCAL.
 * - const: offsets in the module's data image; param: the kernel's
 *   parameter block, or per-thread storage for call-site and device
 *   function params (addressed through their symbols); out of range is
 *   CURED_MODEL_FIND_OOB_PARAM.
 * - generic: shared at EXEC_SHARED_BASE + offset, local at EXEC_LOCAL_BASE +
 *   (thread << 24) + offset, kernel params at EXEC_PARAM_BASE + offset,
 *   everything else global (cvta converts).
 * An address not a multiple of the access size (all elements of a .v2/.v4)
 * is CURED_MODEL_FIND_MISALIGNED. A faulting lane does not access memory; the
 * error stops the launch after the instruction.
 *
 * Atomics (atom, red, their .v2/.v4 forms) are performed lane by lane in
 * increasing lane order (a vector's elements in order);
 * atom.add.f32 flushes subnormal inputs and results to zero as PTX says,
 * f16/bf16 add (.noftz) does not.
 */
#include "exec_fp.h"
#include "exec_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Where one lane's access goes. */
typedef struct lane_ref {
    uint8_t *host;           /* the bytes */
    cured_model_buffer *buf;       /* global: the buffer (init shadow) */
    uint64_t off;            /* offset/address in its space, for events */
    uint8_t space;
} lane_ref;

// ----------------------------------------------------------------------------
// Resolution

/* Describes where global address a lies relative to the buffers. */
static void global_where(const exec_launch *x, uint64_t a, char *buf, size_t size)
{
    const cured_model_memory *mem = x->memory;
    const cured_model_buffer *below = NULL;
    for (int i = 0; mem != NULL && i < mem->nbuffers; i++)
        if (mem->buffers[i].addr <= a)
            below = &mem->buffers[i];
    if (below == NULL) {
        snprintf(buf, size, "below every buffer");
        return;
    }
    uint64_t end = below->addr + below->bytes;
    if (a >= end)
        snprintf(buf, size, "%llu bytes past the end of '%s' (%llu bytes)",
                 (unsigned long long)(a - end), below->name, (unsigned long long)below->bytes);
    else
        snprintf(buf, size, "running past the end of '%s' (%llu bytes)", below->name,
                 (unsigned long long)below->bytes);
}

/* Resolves a global access of `size` bytes at a. */
static int resolve_global(exec_launch *x, uint64_t a, unsigned size, lane_ref *r)
{
    cured_model_buffer *b = x->last_buf;
    if (b == NULL || a < b->addr || a - b->addr > b->bytes || size > b->bytes - (a - b->addr)) {
        b = cured_model_memory_find(x->memory, a, size);
        if (b == NULL)
            return -1;
        x->last_buf = b;
    }
    r->host = b->data + (a - b->addr);
    r->buf = b;
    r->off = a;
    r->space = PTX_S_GLOBAL;
    return 0;
}

/* Resolves lane l's access of `size` bytes at a, an address in the
 * .shared::cluster window that names a CTA rank (exec_cluster_address): to
 * that CTA's shared memory, the running CTA's own as a plain shared
 * access, another's as CURED_MODEL_SPACE_CLUSTER_SHARED (off: rank << 32 |
 * offset). A rank the cluster does not have, a CTA whose threads have all
 * exited (its shared memory is gone) and an offset past the window are
 * reported. Returns 0, or -1 after the report. */
static int resolve_cta(exec_launch *x, exec_warp *w, const ptx_instr *ins, int l, uint64_t a,
                       unsigned size, lane_ref *r)
{
    char t[64];
    const exec_cluster *c = &x->cluster;
    uint32_t rank = exec_cluster_rank(a);
    uint64_t off = exec_cluster_offset(a);
    if (rank >= c->ncta) {
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a,
                    "%s at shared::cluster address 0x%llx: CTA rank %u, in a cluster of %u",
                    exec_ins_text(ins, t, sizeof t), (unsigned long long)a, rank, c->ncta);
        return -1;
    }
    const exec_block *target = &c->ctas[rank];
    if (target->live == 0) {
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a,
                    "%s at offset %llu of CTA rank %u's shared memory: every thread of that "
                    "CTA has exited, so its shared memory is gone (a cluster barrier before "
                    "it exits keeps it)",
                    exec_ins_text(ins, t, sizeof t), (unsigned long long)off, rank);
        return -1;
    }
    if (off >= target->shared_bytes || size > target->shared_bytes - off) {
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a,
                    "%s at offset %lld of CTA rank %u is past its %llu-byte shared window",
                    exec_ins_text(ins, t, sizeof t), (long long)off, rank,
                    (unsigned long long)target->shared_bytes);
        return -1;
    }
    r->host = target->shared + off;
    if (target == x->block) {
        r->space = PTX_S_SHARED;
        r->off = off;
    } else {
        r->space = CURED_MODEL_SPACE_CLUSTER_SHARED;
        r->off = (uint64_t)target->index << 32 | off;
    }
    return 0;
}

/* Resolves lane l's access of `size` bytes at address a of `space`
 * (generic resolved first). sym: the symbol the address was formed from
 * (-1 none), for per-thread params. Returns 0, or reports and returns -1. */
static int resolve(exec_launch *x, exec_warp *w, const ptx_instr *ins, int l, unsigned space,
                   uint64_t a, unsigned size, int sym, int64_t sym_off, lane_ref *r)
{
    char t[64], where[128];
    exec_block *b = x->block;
    int store = ins->op == PTX_OP_ST || ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED;
    /* addresses that may name another CTA: generic, .shared::cluster */
    int windowed = space == PTX_S_GENERIC || (ins->flags & PTX_F_CLUSTER_WINDOW);
    r->buf = NULL;
    if (space == PTX_S_GENERIC) {
        if (a >= EXEC_SHARED_BASE && a < EXEC_SHARED_BASE + EXEC_WINDOW_SIZE) {
            space = PTX_S_SHARED;
            a -= EXEC_SHARED_BASE;
        } else if (a >= EXEC_LOCAL_BASE && a < EXEC_LOCAL_BASE + EXEC_WINDOW_SIZE) {
            uint64_t owner = (a - EXEC_LOCAL_BASE) >> EXEC_LOCAL_SHIFT;
            uint64_t me = (uint64_t)w->index * CURED_MODEL_WARP_SIZE + (uint64_t)l;
            if (owner != me) {
                exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_LOCAL, CURED_MODEL_ERROR, a,
                            "%s at generic address 0x%llx: that is thread %llu's local memory, "
                            "not this thread's", exec_ins_text(ins, t, sizeof t),
                            (unsigned long long)a, (unsigned long long)owner);
                return -1;
            }
            space = PTX_S_LOCAL;
            a = (a - EXEC_LOCAL_BASE) & ((1ull << EXEC_LOCAL_SHIFT) - 1);
        } else if (a >= EXEC_PARAM_BASE && a < EXEC_PARAM_BASE + EXEC_WINDOW_SIZE) {
            space = PTX_S_PARAM;
            a -= EXEC_PARAM_BASE;
            sym = -1;
        } else {
            space = PTX_S_GLOBAL;
        }
    }
    r->space = (uint8_t)space;
    r->off = a;
    switch (space) {
    case PTX_S_GLOBAL:
        if (resolve_global(x, a, size, r) == 0)
            return 0;
        global_where(x, a, where, sizeof where);
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_GLOBAL, CURED_MODEL_ERROR, a,
                    "%s of %u bytes at 0x%llx is outside every buffer: %s",
                    exec_ins_text(ins, t, sizeof t), size, (unsigned long long)a, where);
        return -1;
    case PTX_S_SHARED:
        if (windowed && exec_cluster_rank(a) != EXEC_OWN_CTA)
            return resolve_cta(x, w, ins, l, a, size, r);
        if (a < b->shared_bytes && size <= b->shared_bytes - a) {
            r->host = b->shared + a;
            return 0;
        }
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_SHARED, CURED_MODEL_ERROR, a,
                    "%s at offset %lld is past the block's %llu-byte shared window",
                    exec_ins_text(ins, t, sizeof t), (long long)a,
                    (unsigned long long)b->shared_bytes);
        return -1;
    case PTX_S_LOCAL: {
        uint64_t top = w->local_base[l] + x->fns[w->fn].frame;
        if (a < top && size <= top - a) {
            uint64_t thread = (uint64_t)w->index * CURED_MODEL_WARP_SIZE + (uint64_t)l;
            r->host = b->local + thread * x->local_stack + a;
            return 0;
        }
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_LOCAL, CURED_MODEL_ERROR, a,
                    "%s at offset %lld is past the thread's %llu bytes of local memory",
                    exec_ins_text(ins, t, sizeof t), (long long)a, (unsigned long long)top);
        return -1;
    }
    case PTX_S_CONST: {
        uint64_t n = x->image ? x->image->bytes : 0;
        if (!store && a < n && size <= n - a) {
            r->host = x->image->data + a;
            return 0;
        }
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_PARAM, CURED_MODEL_ERROR, a,
                    "%s at offset %lld is outside the module's %llu bytes of constant data",
                    exec_ins_text(ins, t, sizeof t), (long long)a, (unsigned long long)n);
        return -1;
    }
    case PTX_S_PARAM: {
        uint64_t tp = sym >= 0 ? x->sym_tparam[sym] : UINT64_MAX;
        if (tp != UINT64_MAX) {                 /* per-thread param */
            const ptx_symbol *s = &x->module->symbols[sym];
            uint64_t ssize = s->size ? s->size : 8;
            if (sym_off >= 0 && (uint64_t)sym_off < ssize && size <= ssize - (uint64_t)sym_off) {
                r->off = tp + (uint64_t)sym_off;
                r->host = w->tparam + (size_t)l * x->tparam_bytes + r->off;
                return 0;
            }
            exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_PARAM, CURED_MODEL_ERROR, a,
                        "%s at offset %lld of param %s (%llu bytes) is out of range",
                        exec_ins_text(ins, t, sizeof t), (long long)sym_off, s->name,
                        (unsigned long long)ssize);
            return -1;
        }
        size_t n = x->launch->params_size;
        if (!store && a < n && size <= n - a && x->launch->params != NULL) {
            r->host = (uint8_t *)(uintptr_t)x->launch->params + a;
            return 0;
        }
        exec_report(x, w, ins, l, CURED_MODEL_FIND_OOB_PARAM, CURED_MODEL_ERROR, a,
                    store ? "%s at offset %lld: kernel parameters are read-only (%zu bytes)"
                          : "%s at offset %lld is past the kernel's %zu bytes of parameters",
                    exec_ins_text(ins, t, sizeof t), (long long)a, n);
        return -1;
    }
    default:
        exec_report(x, w, ins, l, CURED_MODEL_FIND_UNSUPPORTED, CURED_MODEL_ERROR, a,
                    "%s: memory space %u is not supported", exec_ins_text(ins, t, sizeof t),
                    space);
        return -1;
    }
}

/* Resolves every lane of m for an access of `size` bytes through address
 * operand o; fills refs and returns the lanes that can go ahead. */
static uint32_t resolve_lanes(exec_launch *x, exec_warp *w, const ptx_instr *ins,
                              const ptx_operand *o, uint32_t m, unsigned size, lane_ref *refs)
{
    uint32_t ok = 0;
    int sym = o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_SYM ? o->sym : -1;
    int64_t off = o->kind == PTX_OPND_ADDR ? o->imm : 0;
    const uint64_t *base = NULL;
    if (o->reg >= 0 && (o->kind == PTX_OPND_ADDR || o->kind == PTX_OPND_REG))
        base = w->R + (size_t)o->reg * CURED_MODEL_WARP_SIZE;
    int globalish = ins->space == PTX_S_GLOBAL || ins->space == PTX_S_GENERIC;
    EXEC_LANES(m, l, {
        uint64_t a;
        if (base != NULL)
            a = base[l] + (uint64_t)off;
        else if (sym >= 0)
            a = exec_sym_addr(x, w, sym, l) + (uint64_t)off;
        else
            a = (uint64_t)(o->kind == PTX_OPND_IMM || o->kind == PTX_OPND_ADDR ? o->imm : 0);
        if (size > 1 && (a & (size - 1)) != 0) {
            char t[64];
            exec_report(x, w, ins, l, CURED_MODEL_FIND_MISALIGNED, CURED_MODEL_ERROR, a,
                        "%s at address 0x%llx is not a multiple of its %u-byte size",
                        exec_ins_text(ins, t, sizeof t), (unsigned long long)a, size);
            continue;
        }
        cured_model_buffer *bf = x->last_buf;
        if (globalish && bf != NULL && a < EXEC_PARAM_BASE && a >= bf->addr &&
            a - bf->addr <= bf->bytes && size <= bf->bytes - (a - bf->addr)) {
            /* the common case: the buffer the last access hit */
            refs[l].host = bf->data + (a - bf->addr);
            refs[l].buf = bf;
            refs[l].off = a;
            refs[l].space = PTX_S_GLOBAL;
            ok |= 1u << l;
            continue;
        }
        if (resolve(x, w, ins, l, ins->space, a, size, base == NULL ? sym : -1, off, &refs[l]) == 0)
            ok |= 1u << l;
    });
    return ok;
}

/* Tells the observers about the access of lanes ok, one event per space. */
static void report_access(exec_launch *x, const lane_ref *refs, uint32_t ok, unsigned kind,
                          unsigned size, unsigned elem)
{
    uint32_t left = ok;
    while (left) {
        unsigned space = refs[__builtin_ctz(left)].space;
        cured_model_access a;
        a.event = &x->ev;
        a.space = (uint8_t)space;
        a.kind = (uint8_t)kind;
        a.size = (uint8_t)size;
        a.elem_size = (uint8_t)elem;
        a.mask = 0;
        memset(a.addr, 0, sizeof a.addr);
        EXEC_LANES(left, l, {
            if (refs[l].space == space) {
                a.mask |= 1u << l;
                a.addr[l] = refs[l].off;
            }
        });
        left &= ~a.mask;
        for (int i = 0; i < x->nobs; i++)
            if (x->obs[i].access)
                x->obs[i].access(x->obs[i].ctx, &a);
    }
}

/* Marks a global access's bytes written in its buffer's init shadow. */
static inline void mark_written(const lane_ref *r, unsigned size)
{
    if (r->buf != NULL && r->buf->init != NULL)
        memset(r->buf->init + (r->host - r->buf->data), 1, size);
}

// ----------------------------------------------------------------------------
// ld / st

/* Element size of a memory instruction's type (pred: 1). */
static unsigned elem_size(const ptx_instr *ins)
{
    return ins->type == PTX_T_PRED ? 1 : ptx_type_size((ptx_type)ins->type);
}

/* ld/ldu: narrow signed types sign-extend to the register's width. */
static int mem_ld(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned es = elem_size(ins), n = ins->vec > 1 ? ins->vec : 1, size = es * n;
    if (es == 0 || es > 8 || ins->nops < 2)
        return -1;
    lane_ref refs[CURED_MODEL_WARP_SIZE];
    uint32_t ok = resolve_lanes(x, w, ins, &ins->ops[1], m, size, refs);
    if (x->nobs && ok)
        report_access(x, refs, ok, CURED_MODEL_LOAD, size, es);
    const ptx_operand *d = &ins->ops[0];
    int sgn = exec_type_signed(ins->type);
    for (unsigned i = 0; i < n; i++) {
        int reg = d->kind == PTX_OPND_VEC ? d->vec[i] : d->reg;
        if (reg < 0)
            continue;
        uint64_t *r = w->R + (size_t)reg * CURED_MODEL_WARP_SIZE;
        unsigned rw = exec_reg_width(x, w, reg);
        uint64_t rmask = exec_width_mask(rw < es ? es : rw);
        if (es == 4 && !sgn) {
            EXEC_LANES(ok, l, {
                uint32_t v;
                memcpy(&v, refs[l].host + 4 * i, 4);
                r[l] = v;
            });
            continue;
        }
        EXEC_LANES(ok, l, {
            uint64_t v = 0;
            memcpy(&v, refs[l].host + (size_t)es * i, es);
            if (sgn && es < 8)
                v = (uint64_t)exec_sext(v, es * 8) & rmask;
            r[l] = v;
        });
    }
    return 0;
}

/* st of a register, an immediate or a vector of them. */
static int mem_st(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned es = elem_size(ins), n = ins->vec > 1 ? ins->vec : 1, size = es * n;
    if (es == 0 || es > 8 || ins->nops < 2)
        return -1;
    lane_ref refs[CURED_MODEL_WARP_SIZE];
    uint32_t ok = resolve_lanes(x, w, ins, &ins->ops[0], m, size, refs);
    if (x->nobs && ok)
        report_access(x, refs, ok, CURED_MODEL_STORE, size, es);
    const ptx_operand *s = &ins->ops[1];
    for (unsigned i = 0; i < n; i++) {
        const uint64_t *v;
        if (s->kind == PTX_OPND_VEC) {
            if (s->vec_imm_mask >> i & 1) {
                uint64_t *t = x->tmp[0];
                for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++)
                    t[l] = (uint64_t)s->vec_imm[i];
                v = t;
            } else if (s->vec[i] >= 0) {
                v = w->R + (size_t)s->vec[i] * CURED_MODEL_WARP_SIZE;
            } else {
                continue;
            }
        } else {
            v = exec_src(x, w, s, x->tmp[0], ok);
        }
        EXEC_LANES(ok, l, memcpy(refs[l].host + (size_t)es * i, &v[l], es););
    }
    EXEC_LANES(ok, l, mark_written(&refs[l], size););
    return 0;
}

// ----------------------------------------------------------------------------
// atom / red

static inline float as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The new value of an atomic operation on old with operands b, c. Returns
 * -1 in *bad for an operation/type pair the model does not know. */
static uint64_t atom_value(const ptx_instr *ins, uint64_t old, uint64_t b, uint64_t c,
                           unsigned es, int *bad)
{
    unsigned t = ins->type, bits = es * 8;
    uint64_t mk = exec_width_mask(es);
    int sgn = exec_type_signed(t);
    old &= mk;
    b &= mk;
    switch (ins->sub) {
    case PTX_ATOM_ADD:
        if (t == PTX_T_F32) {
            float r = exec_f32_ftz(exec_f32_ftz(as_f32(old)) + exec_f32_ftz(as_f32(b)));
            uint32_t u;
            memcpy(&u, &r, sizeof u);
            if ((u & 0x7FFFFFFFu) > 0x7F800000u)
                u = 0x7FFFFFFFu;
            return u;
        }
        if (t == PTX_T_F64) {
            double a, d, r;
            memcpy(&a, &old, sizeof a);
            memcpy(&d, &b, sizeof d);
            r = a + d;
            uint64_t u;
            memcpy(&u, &r, sizeof u);
            return isnan(r) ? 0x7FFFFFFFFFFFFFFFull : u;
        }
        if (t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
            int fmt = exec_fmt(t);
            uint64_t r = 0;
            for (unsigned h = 0; h < es / 2; h++) {
                uint64_t x = (old >> (16 * h)) & 0xFFFF, y = (b >> (16 * h)) & 0xFFFF;
                r |= exec_fp_from_double(exec_fp_to_double(x, fmt) + exec_fp_to_double(y, fmt),
                                         fmt, EXEC_RND_RN) << (16 * h);
            }
            return r;
        }
        return (old + b) & mk;
    case PTX_ATOM_MIN:
    case PTX_ATOM_MAX: {
        int lt = sgn ? exec_sext(old, bits) < exec_sext(b, bits) : old < b;
        if (exec_type_float(t))
            *bad = 1;
        return ((ins->sub == PTX_ATOM_MIN) == lt) ? old : b;
    }
    case PTX_ATOM_INC:
        return old >= b ? 0 : (old + 1) & mk;
    case PTX_ATOM_DEC:
        return (old == 0 || old > b) ? b : old - 1;
    case PTX_ATOM_AND: return old & b;
    case PTX_ATOM_OR: return old | b;
    case PTX_ATOM_XOR: return old ^ b;
    case PTX_ATOM_EXCH: return b;
    case PTX_ATOM_CAS: return old == b ? (c & mk) : old;
    default:
        *bad = 1;
        return old;
    }
}

/* The lane vector of element i of operand o (a VEC of n, or a scalar when
 * n is 1); NULL for a sink. */
static const uint64_t *vec_elem(exec_launch *x, exec_warp *w, const ptx_operand *o, unsigned i,
                                uint64_t *tmp, uint32_t m)
{
    if (o->kind != PTX_OPND_VEC)
        return exec_src(x, w, o, tmp, m);
    if (o->vec_imm_mask >> i & 1) {
        for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++)
            tmp[l] = (uint64_t)o->vec_imm[i];
        return tmp;
    }
    return o->vec[i] >= 0 ? w->R + (size_t)o->vec[i] * CURED_MODEL_WARP_SIZE : NULL;
}

/* 1 when the model knows atomic operation ins->sub on ins->type. */
static int atom_supported(const ptx_instr *ins)
{
    int fl = exec_type_float(ins->type);
    switch (ins->sub) {
    case PTX_ATOM_ADD:
    case PTX_ATOM_EXCH:
    case PTX_ATOM_CAS:
        return 1;
    case PTX_ATOM_MIN: case PTX_ATOM_MAX: case PTX_ATOM_INC: case PTX_ATOM_DEC:
    case PTX_ATOM_AND: case PTX_ATOM_OR: case PTX_ATOM_XOR:
        return !fl;
    default:
        return 0;
    }
}

/* atom/red (and their vector forms), lane by lane in lane order. */
static int mem_atom(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    int red = ins->op == PTX_OP_RED;
    unsigned es = elem_size(ins), n = ins->vec > 1 ? ins->vec : 1;
    int ai = red ? 0 : 1;                  /* address operand */
    if (es == 0 || es > 8 || n > 4 || ins->nops < ai + 2 || !atom_supported(ins))
        return -1;
    const uint64_t *b[4], *c = NULL;
    for (unsigned i = 0; i < n; i++) {
        b[i] = vec_elem(x, w, &ins->ops[ai + 1], i, x->tmp[i], m);
        if (b[i] == NULL)
            return -1;
    }
    if (ins->nops > ai + 2)
        c = exec_src(x, w, &ins->ops[ai + 2], x->tmp[4], m);
    lane_ref refs[CURED_MODEL_WARP_SIZE];
    uint32_t ok = resolve_lanes(x, w, ins, &ins->ops[ai], m, es * n, refs);
    if (x->nobs && ok)
        report_access(x, refs, ok, CURED_MODEL_ATOMIC, es * n, es);
    const ptx_operand *dop = &ins->ops[0];
    int bad = 0;
    /* lane by lane, in lane order; a vector lane's elements in order */
    EXEC_LANES(ok, l, {
        for (unsigned i = 0; i < n; i++) {
            uint8_t *p = refs[l].host + (size_t)es * i;
            uint64_t old = 0;
            memcpy(&old, p, es);
            uint64_t nv = atom_value(ins, old, b[i][l], c ? c[l] : 0, es, &bad);
            memcpy(p, &nv, es);
            if (red)
                continue;
            int reg = dop->kind == PTX_OPND_VEC ? dop->vec[i] : dop->reg;
            if (reg < 0)
                continue;
            unsigned rw = exec_reg_width(x, w, reg);
            w->R[(size_t)reg * CURED_MODEL_WARP_SIZE + l] =
                exec_type_signed(ins->type) && es < 8
                    ? (uint64_t)exec_sext(old, es * 8) & exec_width_mask(rw < es ? es : rw)
                    : old;
        }
        mark_written(&refs[l], es * n);
    });
    return bad ? -1 : 0;
}

// ----------------------------------------------------------------------------
// cvta

static int mem_cvta(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = exec_src(x, w, &ins->ops[1], x->tmp[0], m);
    unsigned sz = ptx_type_size((ptx_type)ins->type);
    uint64_t mk = exec_width_mask(sz ? sz : 8);
    int to = ins->cvta_to != 0;
    EXEC_LANES(m, l, {
        uint64_t base;
        switch (ins->space) {
        case PTX_S_SHARED: base = EXEC_SHARED_BASE; break;
        case PTX_S_LOCAL:
            base = EXEC_LOCAL_BASE +
                   (((uint64_t)w->index * CURED_MODEL_WARP_SIZE + (uint64_t)l) << EXEC_LOCAL_SHIFT);
            break;
        case PTX_S_CONST: base = x->image ? x->image->addr : 0; break;
        case PTX_S_PARAM: base = EXEC_PARAM_BASE; break;
        default: base = 0; break;
        }
        d[l] = (to ? a[l] - base : a[l] + base) & mk;
    });
    return 0;
}

int exec_mem(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (m == 0)
        return 0;
    switch (ins->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
        return mem_ld(x, w, ins, m);
    case PTX_OP_ST:
        return mem_st(x, w, ins, m);
    case PTX_OP_ATOM:
    case PTX_OP_RED:
        return mem_atom(x, w, ins, m);
    case PTX_OP_CVTA:
        return mem_cvta(x, w, ins, m);
    default:
        return -1;
    }
}
