/* checks_report.c - how the checks name what they find: a thread by its
 * threadIdx, an instruction by its source line, and a hazard as a finding
 * at the instruction of an event. Below the observer and the shadows,
 * which all report through it.
 *
 * defines: checks_report, checks_where, checks_thread_text
 */
#include "checks_impl.h"
#include "ptx.h"

#include <stdio.h>
#include <string.h>

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
