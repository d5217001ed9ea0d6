/* exec_report.c - what the interpreter tells the world: the event an
 * instruction gives its observers, the findings it makes, and the text
 * that names instructions and lanes in their messages.
 *
 * defines: exec_event, exec_event_done, exec_report, exec_ins_text,
 *          exec_lanes_text
 *
 * A finding's source line is its instruction's user line (ptx.h): the
 * innermost .loc, except inside a CUDA toolkit header (an inlined
 * intrinsic such as __shfl_down_sync or atomicAdd), where it is the line
 * of the user's own code that calls it.
 */
#include "exec_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    e->block = x->block->index;
    e->warp = w->index;
    e->present = w->present;
    e->active = active;
    e->guard_true = g;
    e->shared = x->block->shared;
    e->shared_bytes = x->block->shared_bytes;
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

void exec_report(exec_launch *x, const exec_warp *w, const ptx_instr *ins, int lane,
                 cured_model_finding_kind kind, cured_model_severity sev, uint64_t address,
                 const char *fmt, ...)
{
    cured_model_finding f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.severity = sev;
    const exec_block *b = x->block;
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
        f.src_file = ins->user_file;
        f.src_line = ins->user_line;
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

static const char *space_name(const ptx_instr *ins)
{
    switch (ins->space) {
    case PTX_S_GLOBAL: return ".global";
    case PTX_S_SHARED:
        return (ins->flags & PTX_F_CLUSTER_WINDOW) ? ".shared::cluster" : ".shared";
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
    case PTX_OP_BAR_CLUSTER:
        if (s == PTX_BAR_WAIT)
            return (ins->flags & PTX_F_ALIGNED) ? ".wait.aligned" : ".wait";
        switch (ins->flags & (PTX_F_RELAXED | PTX_F_ALIGNED)) {
        case PTX_F_RELAXED: return ".arrive.relaxed";
        case PTX_F_ALIGNED: return ".arrive.aligned";
        case PTX_F_RELAXED | PTX_F_ALIGNED: return ".arrive.relaxed.aligned";
        default: return ".arrive";
        }
    default: return "";
    }
}

const char *exec_ins_text(const ptx_instr *ins, char *buf, size_t size)
{
    const char *name = ptx_opcode_name((ptx_opcode)ins->op);
    const char *sp = "";
    if (ins->op == PTX_OP_LD || ins->op == PTX_OP_LDU || ins->op == PTX_OP_ST ||
        ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED || ins->op == PTX_OP_CVTA ||
        ins->op == PTX_OP_MAPA || ins->op == PTX_OP_GETCTARANK)
        sp = space_name(ins);
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
