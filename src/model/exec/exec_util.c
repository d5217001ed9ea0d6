/* exec_util.c - the interpreter's shared helpers: source operands that are
 * not plain registers (immediates, special registers, symbol addresses,
 * negated predicates), symbol addresses, events, findings and the text
 * that names instructions and lanes in messages.
 *
 * defines: exec_src_slow, exec_sym_addr, exec_reg_width, exec_event,
 *          exec_event_done,
 *          exec_report, exec_ins_text, exec_lanes_text
 *
 * A finding's source line is the innermost .loc of its instruction, except
 * inside a CUDA toolkit header (an inlined intrinsic such as
 * __shfl_down_sync), where it is the line the kernel's own code calls it
 * from (the outermost inlined_at).
 *
 * Special registers: %smid is 0 and %nsmid 1 (one SM runs the blocks one
 * after another); %warpid is the warp's index in its block and %nwarpid
 * the block's warp count; %clock, %clock64 and %globaltimer count the warp
 * instructions the launch has issued so far (deterministic; %clock_hi and
 * %globaltimer_lo/hi are its halves); %envregN are 0; a launch is
 * one cluster-less grid (%cluster_ctaid 0, %cluster_nctaid 1, %clusterid
 * = %ctaid).
 */
#include "exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// ----------------------------------------------------------------------------
// Operands

/* Value of special register o for lane l. */
static uint64_t sreg_value(const exec_launch *x, const exec_warp *w, const ptx_operand *o, int l)
{
    const cured_model_launch *ln = x->launch;
    const exec_block *b = &x->block;
    unsigned c = o->comp < 3 ? o->comp : 3;
    const uint32_t ntid[4] = {ln->block.x, ln->block.y, ln->block.z, 0};
    const uint32_t nctaid[4] = {ln->grid.x, ln->grid.y, ln->grid.z, 0};
    uint64_t lt = ((uint64_t)1 << l) - 1;
    switch (o->sreg) {
    case PTX_SREG_TID: return c < 3 ? w->tid[c][l] : 0;
    case PTX_SREG_NTID: return ntid[c];
    case PTX_SREG_CTAID: case PTX_SREG_CLUSTERID: return c < 3 ? b->ctaid[c] : 0;
    case PTX_SREG_NCTAID: case PTX_SREG_NCLUSTERID: return nctaid[c];
    case PTX_SREG_LANEID: return (uint64_t)l;
    case PTX_SREG_WARPID: return w->index;
    case PTX_SREG_NWARPID: return (uint64_t)b->nwarps;
    case PTX_SREG_SMID: return 0;
    case PTX_SREG_NSMID: return 1;
    case PTX_SREG_GRIDID: return 0;
    case PTX_SREG_LANEMASK_EQ: return (uint64_t)1 << l;
    case PTX_SREG_LANEMASK_LE: return (lt << 1 | 1) & 0xFFFFFFFFu;
    case PTX_SREG_LANEMASK_LT: return lt;
    case PTX_SREG_LANEMASK_GE: return ~lt & 0xFFFFFFFFu;
    case PTX_SREG_LANEMASK_GT: return ~(lt << 1 | 1) & 0xFFFFFFFFu;
    case PTX_SREG_CLOCK: return x->steps & 0xFFFFFFFFu;
    case PTX_SREG_CLOCK64: case PTX_SREG_GLOBALTIMER: return x->steps;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return ln->dynamic_shared_bytes;
    case PTX_SREG_TOTAL_SMEM_SIZE: return b->shared_bytes;
    case PTX_SREG_CLUSTER_CTAID: return 0;
    case PTX_SREG_CLUSTER_NCTAID: return c < 3 ? 1 : 0;
    case PTX_SREG_CLUSTER_CTARANK: return 0;
    case PTX_SREG_CLUSTER_NCTARANK: return 1;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return 0;
    case PTX_SREG_ENVREG: return 0;
    case PTX_SREG_CLOCK_HI: case PTX_SREG_GLOBALTIMER_HI: return x->steps >> 32;
    case PTX_SREG_GLOBALTIMER_LO: return x->steps & 0xFFFFFFFFu;
    default: return 0;
    }
}

uint64_t exec_sym_addr(const exec_launch *x, const exec_warp *w, int sym, int l)
{
    if (sym < 0 || sym >= x->module->nsymbols)
        return 0;
    const ptx_symbol *s = &x->module->symbols[sym];
    switch (s->space) {
    case PTX_S_SHARED:
        return s->offset;
    case PTX_S_LOCAL:
        return w->local_base[l] + s->offset;
    case PTX_S_GLOBAL:
        return (x->image ? x->image->addr : 0) + s->offset;
    case PTX_S_CONST:
    case PTX_S_PARAM:
    default:
        return s->offset;
    }
}

const uint64_t *exec_src_slow(exec_launch *x, exec_warp *w, const ptx_operand *o,
                              uint64_t *tmp, uint32_t m)
{
    switch (o->kind) {
    case PTX_OPND_REG: {
        if (o->reg < 0) {
            EXEC_LANES(m, l, tmp[l] = 0;);
            return tmp;
        }
        const uint64_t *r = w->R + (size_t)o->reg * CURED_MODEL_WARP_SIZE;
        EXEC_LANES(m, l, tmp[l] = !(r[l] & 1););   /* `!%p` */
        return tmp;
    }
    case PTX_OPND_IMM: {
        uint64_t v = (uint64_t)o->imm;
        for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++)
            tmp[l] = v;
        return tmp;
    }
    case PTX_OPND_SREG:
        EXEC_LANES(m, l, tmp[l] = sreg_value(x, w, o, l););
        return tmp;
    case PTX_OPND_SYM:
    case PTX_OPND_ADDR:
        EXEC_LANES(m, l, tmp[l] = (o->sym >= 0 ? exec_sym_addr(x, w, o->sym, l)
                                               : o->reg >= 0 ? w->R[(size_t)o->reg * CURED_MODEL_WARP_SIZE + l]
                                                             : 0) +
                                  (o->kind == PTX_OPND_ADDR ? (uint64_t)o->imm : 0););
        return tmp;
    default:
        EXEC_LANES(m, l, tmp[l] = 0;);
        return tmp;
    }
}

unsigned exec_reg_width(const exec_launch *x, const exec_warp *w, int reg)
{
    const ptx_function *f = &x->module->functions[w->fn];
    if (reg < 0 || reg >= f->nregs)
        return 8;
    unsigned t = f->regs[reg].type;
    if (t == PTX_T_PRED)
        return 1;
    unsigned n = ptx_type_size((ptx_type)t);
    return n == 0 || n > 8 ? 8 : n;
}

// ----------------------------------------------------------------------------
// Events and findings

void exec_event(exec_launch *x, const exec_warp *w, const ptx_instr *ins, uint32_t active,
                uint32_t g)
{
    cured_model_event *e = &x->ev;
    e->module = x->module;
    e->function = (int32_t)w->fn;
    e->pc = (int32_t)(ins - w->code);
    e->ins = ins;
    e->block = x->block.index;
    e->warp = w->index;
    e->present = w->present;
    e->active = active;
    e->guard_true = g;
    e->shared = x->block.shared;
    e->shared_bytes = x->block.shared_bytes;
    e->regs = w->R;
}

void exec_event_done(exec_launch *x)
{
    for (int i = 0; i < x->nobs; i++)
        if (x->obs[i].instr_done)
            x->obs[i].instr_done(x->obs[i].ctx, &x->ev);
}

/* The function whose code holds ins, or -1. */
static int function_of(const cured_model_module *m, const ptx_instr *ins)
{
    for (int i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (f->ncode > 0 && ins >= f->code && ins < f->code + f->ncode)
            return i;
    }
    return -1;
}

/* 1 when .file `file` of m is a CUDA toolkit header (an intrinsic such as
 * __shfl_down_sync inlined into the kernel). */
static int toolkit_file(const cured_model_module *m, unsigned file)
{
    if (file == 0 || (int)file >= m->nfiles || m->files[file] == NULL)
        return 0;
    const char *p = m->files[file];
    return strstr(p, "/targets/") != NULL || strstr(p, "/cuda/include/") != NULL ||
           (strstr(p, "/cuda") != NULL && strstr(p, "/include/") != NULL);
}

void exec_report(exec_launch *x, const exec_warp *w, const ptx_instr *ins, int lane,
                 cured_model_finding_kind kind, cured_model_severity sev, uint64_t address,
                 const char *fmt, ...)
{
    cured_model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.severity = sev;
    const exec_block *b = &x->block;
    memcpy(f.block, b->ctaid, sizeof f.block);
    if (lane < 0 || lane >= CURED_MODEL_WARP_SIZE) {
        uint32_t m = w->cur ? w->cur : w->present;
        lane = m ? __builtin_ctz(m) : 0;
    }
    f.thread[0] = w->tid[0][lane];
    f.thread[1] = w->tid[1][lane];
    f.thread[2] = w->tid[2][lane];
    f.function = -1;
    f.pc = -1;
    if (ins != NULL) {
        f.function = function_of(x->module, ins);
        if (f.function >= 0)
            f.pc = (int32_t)(ins - x->module->functions[f.function].code);
        f.ptx_line = ins->ptx_line;
        f.src_file = ins->src_file;
        f.src_line = ins->src_line;
        if (toolkit_file(x->module, ins->src_file) && ins->site_line != 0) {
            f.src_file = ins->site_file;
            f.src_line = ins->site_line;
        }
    }
    f.address = address;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    cured_model_findings_add(&x->result->findings, &f);
    if (sev == CURED_MODEL_ERROR)
        x->stop = 1;
}

// ----------------------------------------------------------------------------
// Text

static const char *space_name(unsigned s)
{
    switch (s) {
    case PTX_S_GLOBAL: return ".global";
    case PTX_S_SHARED: return ".shared";
    case PTX_S_LOCAL: return ".local";
    case PTX_S_PARAM: return ".param";
    case PTX_S_CONST: return ".const";
    default: return "";
    }
}

static const char *mode_name(const ptx_instr *ins)
{
    static const char *shfl[] = {"", ".up", ".down", ".bfly", ".idx"};
    static const char *vote[] = {"", ".all", ".any", ".uni", ".ballot"};
    static const char *atom[] = {"", ".add", ".min", ".max", ".inc", ".dec", ".and",
                                 ".or", ".xor", ".exch", ".cas", ".popc"};
    static const char *bar[] = {"", ".sync", ".arrive", ".red"};
    unsigned s = ins->sub;
    switch (ins->op) {
    case PTX_OP_SHFL: return s < 5 ? shfl[s] : "";
    case PTX_OP_VOTE: return s < 5 ? vote[s] : "";
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_REDUX: return s < 12 ? atom[s] : "";
    case PTX_OP_BAR: return s < 4 ? bar[s] : "";
    default: return "";
    }
}

const char *exec_ins_text(const ptx_instr *ins, char *buf, size_t size)
{
    const char *name = ptx_opcode_name((ptx_opcode)ins->op);
    const char *sp = "";
    if (ins->op == PTX_OP_LD || ins->op == PTX_OP_LDU || ins->op == PTX_OP_ST ||
        ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED || ins->op == PTX_OP_CVTA)
        sp = space_name(ins->space);
    char vec[8] = "";
    if (ins->vec > 1)
        snprintf(vec, sizeof vec, ".v%u", ins->vec);
    char ty[16] = "";
    if (ins->type != PTX_T_NONE)
        snprintf(ty, sizeof ty, ".%s", ptx_type_name((ptx_type)ins->type));
    snprintf(buf, size, "%s%s%s%s%s", name, sp, mode_name(ins), vec, ty);
    return buf;
}

const char *exec_lanes_text(uint32_t mask, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (mask == 0) {
        snprintf(buf, size, "none");
        return buf;
    }
    for (int l = 0; l < CURED_MODEL_WARP_SIZE && n < size;) {
        if (!(mask >> l & 1)) {
            l++;
            continue;
        }
        int e = l;
        while (e + 1 < CURED_MODEL_WARP_SIZE && (mask >> (e + 1) & 1))
            e++;
        int k = e > l ? snprintf(buf + n, size - n, "%s%d-%d", n ? ", " : "", l, e)
                      : snprintf(buf + n, size - n, "%s%d", n ? ", " : "", l);
        if (k < 0)
            break;
        n += (size_t)k;
        l = e + 1;
    }
    return buf;
}

void exec_write_compare(exec_launch *x, exec_warp *w, const ptx_instr *ins,
                        uint32_t m, const uint64_t *res, const uint64_t *c)
{
    if (ins->op == PTX_OP_SETP) {
        uint64_t *p = exec_dst(x, w, &ins->ops[0]);
        uint64_t *q = ins->ndst > 1 ? exec_dst(x, w, &ins->ops[1]) : NULL;
        EXEC_LANES(m, l, {
            uint64_t r = res[l], nr = !r;
            if (c) {
                uint64_t cv = c[l] & 1;
                switch (ins->boolop) {
                case PTX_BOOL_AND: r &= cv; nr &= cv; break;
                case PTX_BOOL_OR: r |= cv; nr |= cv; break;
                default: r ^= cv; nr ^= cv; break;
                }
            }
            p[l] = r;
            if (q)
                q[l] = nr;
        });
        return;
    }
    /* set: all ones (int) or 1.0f (f32) */
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    uint64_t one = ins->type == PTX_T_F32 ? 0x3F800000u : 0xFFFFFFFFu;
    EXEC_LANES(m, l, {
        uint64_t r = res[l];
        if (c) {
            uint64_t cv = c[l] & 1;
            r = ins->boolop == PTX_BOOL_AND ? (r & cv) : ins->boolop == PTX_BOOL_OR ? (r | cv) : (r ^ cv);
        }
        d[l] = r ? one : 0;
    });
}
