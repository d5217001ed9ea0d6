/* exec_operand.c - operands the inline fast path (exec_internal.h) leaves
 * to a call: sources that are not plain registers (immediates, special
 * registers, symbol addresses, negated predicates), symbol addresses,
 * register widths, and the destinations of a comparison.
 *
 * defines: exec_src_slow, exec_sym_addr, exec_reg_width, exec_write_compare
 *
 * Special registers: %smid is 0 and %nsmid 1 (one SM runs the blocks one
 * after another); %warpid is the warp's index in its block and %nwarpid
 * the block's warp count; %clock, %clock64 and %globaltimer count the warp
 * instructions the launch has issued so far (deterministic; %clock_hi and
 * %globaltimer_lo/hi are its halves); %envregN are 0; the cluster
 * registers follow the launch's cluster dimensions (exec.c: 1 x 1 x 1
 * without them, so %clusterid = %ctaid and %cluster_ctarank 0).
 */
#include "exec_internal.h"

// ----------------------------------------------------------------------------
// Operands

/* Value of special register o for lane l. */
static uint64_t sreg_value(const exec_launch *x, const exec_warp *w, const ptx_operand *o, int l)
{
    const cured_model_launch *ln = x->launch;
    const exec_block *b = x->block;
    unsigned c = o->comp < 3 ? o->comp : 3;
    const uint32_t ntid[4] = {ln->block.x, ln->block.y, ln->block.z, 0};
    const uint32_t nctaid[4] = {ln->grid.x, ln->grid.y, ln->grid.z, 0};
    const uint32_t *cdim = x->cluster.dim;
    uint64_t lt = ((uint64_t)1 << l) - 1;
    switch (o->sreg) {
    case PTX_SREG_TID: return c < 3 ? w->tid[c][l] : 0;
    case PTX_SREG_NTID: return ntid[c];
    case PTX_SREG_CTAID: return c < 3 ? b->ctaid[c] : 0;
    case PTX_SREG_NCTAID: return nctaid[c];
    case PTX_SREG_CLUSTERID: return c < 3 ? b->ctaid[c] / cdim[c] : 0;
    case PTX_SREG_NCLUSTERID: return c < 3 ? nctaid[c] / cdim[c] : 0;
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
    case PTX_SREG_CLUSTER_CTAID: return c < 3 ? b->ctaid[c] % cdim[c] : 0;
    case PTX_SREG_CLUSTER_NCTAID: return c < 3 ? cdim[c] : 0;
    case PTX_SREG_CLUSTER_CTARANK: return b->rank;
    case PTX_SREG_CLUSTER_NCTARANK: return x->cluster.ncta;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return (uint64_t)x->cluster.explicit_dims;
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
// Comparisons

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
