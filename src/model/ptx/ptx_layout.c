/* ptx_layout.c - what the parser settles after reading: branch and call
 * targets, which functions cannot run (callers of unusable ones), and the
 * shared-memory layout.
 *
 * defines: ptx_close_block_labels, ptx_finish_module
 *
 * Shared memory: each kernel sees its own static shared variables (its
 * demoted ones, module-scope ones it or its callees use) from offset 0,
 * packed in declaration order, as the CUDA toolchain lays them out. One
 * symbol has one offset, so a variable used by several kernels is placed
 * after everything those kernels already placed; variables of unrelated
 * kernels overlap, as they never share a block. Dynamic (.extern) shared
 * arrays all start at one offset: after the static variables of every
 * kernel that uses them, aligned to shared_extern_align.
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ptx_close_block_labels(ptx_parser *p, int32_t depth)
{
    /* pending fixups are ordered by depth: this block's are a suffix */
    size_t first = p->nlabel_fixups;
    while (first > 0 && p->label_fixups[first - 1].depth >= depth)
        first--;
    ptx_function *fn = ptx_current(p);
    size_t kept = first;
    for (size_t i = first; i < p->nlabel_fixups; i++) {
        ptx_fixup fix = p->label_fixups[i];
        const ptx_token *t = &p->toks.items[fix.token];
        const ptx_binding *b = ptx_scope_find(&p->labels, ptx_text(p, t), t->len);
        if (b != NULL && b->depth == depth) {
            fn->code[fix.instr].ops[fix.operand].imm = b->index;
            continue;
        }
        if (depth <= 1)
            return ptx_fail(p, t, "undefined label '%.*s'", ptx_show_len(t),
                            ptx_text(p, t));
        fix.depth = depth - 1;
        p->label_fixups[kept++] = fix;
    }
    p->nlabel_fixups = kept;
    return 0;
}

/* Resolves calls to functions defined after them, then checks every
 * call's parameter counts against its callee. */
static int resolve_calls(ptx_parser *p)
{
    cured_model_module *m = p->m;
    for (size_t i = 0; i < p->ncall_fixups; i++) {
        const ptx_fixup *fix = &p->call_fixups[i];
        const ptx_token *t = &p->toks.items[fix->token];
        const ptx_binding *b = ptx_scope_find(&p->names, ptx_text(p, t), t->len);
        if (b == NULL || b->kind != PTX_BIND_FUNC)
            return ptx_fail(p, t, "call to undeclared function '%.*s'",
                            ptx_show_len(t), ptx_text(p, t));
        m->functions[fix->function].code[fix->instr].callee = b->index;
    }
    for (int f = 0; f < m->nfunctions; f++) {
        const ptx_function *fn = &m->functions[f];
        for (int pc = 0; pc < fn->ncode; pc++) {
            const ptx_instr *ins = &fn->code[pc];
            if (ins->op != PTX_OP_CALL)
                continue;
            const ptx_function *callee = &m->functions[ins->callee];
            if (ins->call_nargs != callee->nparams) {
                ptx_error_setf(p->err, ins->ptx_line, 0, "call to '%s' passes %u "
                               "argument%s, it takes %d", callee->name,
                               ins->call_nargs, ins->call_nargs == 1 ? "" : "s",
                               callee->nparams);
                return -1;
            }
            if (ins->call_nret > callee->nrets) {
                ptx_error_setf(p->err, ins->ptx_line, 0, "call to '%s' expects a "
                               "return value it does not have", callee->name);
                return -1;
            }
        }
    }
    return 0;
}

/* A function that calls one the model cannot run cannot run either: it
 * takes the callee's reason (and the place of its instruction), prefixed
 * with the call, until nothing changes (a call chain is at most
 * nfunctions long). Returns 0 or -1 (out of memory). */
static int spread_unusable(ptx_parser *p)
{
    cured_model_module *m = p->m;
    for (int changed = 1, rounds = 0; changed && rounds <= m->nfunctions; rounds++) {
        changed = 0;
        for (int f = 0; f < m->nfunctions; f++) {
            ptx_function *fn = &m->functions[f];
            for (int pc = 0; pc < fn->ncode && fn->unusable == NULL; pc++) {
                const ptx_instr *ins = &fn->code[pc];
                if (ins->op != PTX_OP_CALL || m->functions[ins->callee].unusable == NULL)
                    continue;
                const ptx_function *callee = &m->functions[ins->callee];
                char why[256];
                snprintf(why, sizeof why, "calls '%.60s', which the model cannot run: %s",
                         callee->name, callee->unusable);
                fn->unusable = ptx_strndup(why, strlen(why));
                if (fn->unusable == NULL) {
                    ptx_error_setf(p->err, 1, 1, "out of memory");
                    return -1;
                }
                fn->unusable_ptx_line = callee->unusable_ptx_line;
                fn->unusable_line = callee->unusable_line;   /* still a frame */
                changed = 1;
            }
        }
    }
    return 0;
}

/* Per-function facts the layout needs, in compressed rows: the shared
 * variables each function names and the functions it calls. */
typedef struct call_graph {
    int nfunctions;
    int32_t *shared_of_symbol;   /* symbol -> shared ordinal, -1 */
    int32_t *shared_symbols;     /* ordinal -> symbol */
    int nshared;
    size_t *ref_start;           /* nfunctions + 1 */
    int32_t *refs;               /* shared ordinals */
    size_t *callee_start;        /* nfunctions + 1 */
    int32_t *callees;
    int32_t *stamp;              /* scratch, one per function */
    int32_t *stack;              /* scratch, one per function */
} call_graph;

/* Frees the graph's arrays. Can't fail. */
static void graph_free(call_graph *g)
{
    free(g->shared_of_symbol);
    free(g->shared_symbols);
    free(g->ref_start);
    free(g->refs);
    free(g->callee_start);
    free(g->callees);
    free(g->stamp);
    free(g->stack);
}

/* Appends v to a growing int32 array. */
static int push_int(int32_t **array, size_t *count, size_t *cap, int32_t v)
{
    if (cured_grow((void **)array, cap, *count + 1, sizeof **array) != 0)
        return -1;
    (*array)[(*count)++] = v;
    return 0;
}

/* Builds the shared-variable ordinals, each function's shared references
 * and callees. Returns 0, or -1 when out of memory (g may be half built:
 * graph_free it). */
static int graph_build(const cured_model_module *m, call_graph *g)
{
    memset(g, 0, sizeof *g);
    size_t nf = (size_t)m->nfunctions, ns = (size_t)m->nsymbols;
    g->nfunctions = m->nfunctions;
    g->shared_of_symbol = malloc((ns + 1) * sizeof *g->shared_of_symbol);
    g->shared_symbols = malloc((ns + 1) * sizeof *g->shared_symbols);
    g->ref_start = calloc(nf + 1, sizeof *g->ref_start);
    g->callee_start = calloc(nf + 1, sizeof *g->callee_start);
    g->stamp = malloc((nf + 1) * sizeof *g->stamp);
    g->stack = malloc((nf + 1) * sizeof *g->stack);
    int32_t *seen_shared = NULL;
    if (!g->shared_of_symbol || !g->shared_symbols || !g->ref_start ||
        !g->callee_start || !g->stamp || !g->stack)
        return -1;
    for (size_t s = 0; s < ns; s++) {
        g->shared_of_symbol[s] = -1;
        if (m->symbols[s].space == PTX_S_SHARED) {
            g->shared_of_symbol[s] = g->nshared;
            g->shared_symbols[g->nshared++] = (int32_t)s;
        }
    }
    seen_shared = malloc(((size_t)g->nshared + 1) * sizeof *seen_shared);
    if (seen_shared == NULL)
        return -1;
    for (int s = 0; s < g->nshared; s++)
        seen_shared[s] = -1;
    for (size_t f = 0; f < nf; f++)
        g->stamp[f] = -1;
    size_t nrefs = 0, refs_cap = 0, ncallees = 0, callees_cap = 0;
    for (size_t f = 0; f < nf; f++) {
        const ptx_function *fn = &m->functions[f];
        g->ref_start[f] = nrefs;
        g->callee_start[f] = ncallees;
        for (int pc = 0; pc < fn->ncode; pc++) {
            const ptx_instr *ins = &fn->code[pc];
            if (ins->op == PTX_OP_CALL && g->stamp[ins->callee] != (int32_t)f) {
                g->stamp[ins->callee] = (int32_t)f;
                if (push_int(&g->callees, &ncallees, &callees_cap, ins->callee) != 0)
                    goto fail;
            }
            for (int o = 0; o < ins->nops; o++) {
                int32_t sym = ins->ops[o].sym;
                if (sym < 0 || g->shared_of_symbol[sym] < 0)
                    continue;
                int32_t ord = g->shared_of_symbol[sym];
                if (seen_shared[ord] == (int32_t)f)
                    continue;
                seen_shared[ord] = (int32_t)f;
                if (push_int(&g->refs, &nrefs, &refs_cap, ord) != 0)
                    goto fail;
            }
        }
    }
    g->ref_start[nf] = nrefs;
    g->callee_start[nf] = ncallees;
    free(seen_shared);
    return 0;
fail:
    free(seen_shared);
    return -1;
}

/* Lists the functions reachable from `root` (itself included) into
 * g->stack; returns how many. `mark` must differ between calls. */
static int reachable(call_graph *g, int root, int32_t mark)
{
    int top = 0, done = 0;
    g->stack[top++] = root;
    g->stamp[root] = mark;
    while (done < top) {
        int f = g->stack[done++];
        for (size_t c = g->callee_start[f]; c < g->callee_start[f + 1]; c++) {
            int32_t callee = g->callees[c];
            if (g->stamp[callee] != mark) {
                g->stamp[callee] = mark;
                g->stack[top++] = callee;
            }
        }
    }
    return top;
}

/* v rounded up to a multiple of align (align > 0). */
static uint64_t align_up(uint64_t v, uint64_t align)
{
    return (v + align - 1) / align * align;
}

/* Places every shared variable and computes shared_static_bytes. */
static int layout_shared(ptx_parser *p)
{
    cured_model_module *m = p->m;
    call_graph g;
    int rc = -1;
    uint64_t *users = NULL, *kernel_end = NULL;
    int32_t *kernels = NULL;
    if (graph_build(m, &g) != 0)
        goto out;
    for (int f = 0; f < m->nfunctions; f++)
        g.stamp[f] = -1;
    int nk = 0;
    kernels = malloc(((size_t)m->nfunctions + 1) * sizeof *kernels);
    if (kernels == NULL)
        goto out;
    for (int f = 0; f < m->nfunctions; f++)
        if (m->functions[f].is_entry)
            kernels[nk++] = f;
    size_t words = ((size_t)nk + 63) / 64;
    if (g.nshared > 0 && words > ((size_t)1 << 22) / (size_t)g.nshared) {
        ptx_error_setf(p->err, 1, 1, "too many kernels and shared variables to "
                       "lay out");
        graph_free(&g);
        free(kernels);
        return -1;
    }
    users = calloc((size_t)g.nshared * words + 1, sizeof *users);
    kernel_end = calloc((size_t)nk + 1, sizeof *kernel_end);
    if (users == NULL || kernel_end == NULL)
        goto out;
    /* which kernels use each shared variable, through any call depth */
    for (int k = 0; k < nk; k++) {
        int n = reachable(&g, kernels[k], k);
        for (int i = 0; i < n; i++) {
            int f = g.stack[i];
            for (size_t r = g.ref_start[f]; r < g.ref_start[f + 1]; r++)
                users[(size_t)g.refs[r] * words + (size_t)k / 64] |=
                    (uint64_t)1 << (k % 64);
        }
    }
    /* static variables: after whatever their kernels placed before */
    uint64_t extern_align = m->shared_extern_align;
    for (int s = 0; s < g.nshared; s++) {
        ptx_symbol *sym = &m->symbols[g.shared_symbols[s]];
        const uint64_t *row = &users[(size_t)s * words];
        if (sym->is_extern) {
            if (sym->align > extern_align)
                extern_align = sym->align;
            continue;
        }
        uint64_t offset = 0;
        for (int k = 0; k < nk; k++)
            if ((row[k / 64] >> (k % 64)) & 1)
                offset = kernel_end[k] > offset ? kernel_end[k] : offset;
        sym->offset = align_up(offset, sym->align);
        for (int k = 0; k < nk; k++)
            if ((row[k / 64] >> (k % 64)) & 1)
                kernel_end[k] = sym->offset + sym->size;
    }
    /* dynamic shared: one offset after every user's static variables */
    uint64_t extern_base = 0;
    for (int s = 0; s < g.nshared; s++) {
        const ptx_symbol *sym = &m->symbols[g.shared_symbols[s]];
        if (!sym->is_extern)
            continue;
        for (int k = 0; k < nk; k++)
            if ((users[(size_t)s * words + (size_t)k / 64] >> (k % 64)) & 1)
                extern_base = kernel_end[k] > extern_base ? kernel_end[k] : extern_base;
    }
    extern_base = align_up(extern_base, extern_align);
    m->shared_extern_align = extern_align;
    for (int s = 0; s < g.nshared; s++) {
        ptx_symbol *sym = &m->symbols[g.shared_symbols[s]];
        if (sym->is_extern)
            sym->offset = extern_base;
    }
    /* each function's static window: its reachable variables' extent */
    for (int f = 0; f < m->nfunctions; f++) {
        int n = reachable(&g, f, nk + f);
        uint64_t end = 0;
        for (int i = 0; i < n; i++) {
            int h = g.stack[i];
            for (size_t r = g.ref_start[h]; r < g.ref_start[h + 1]; r++) {
                const ptx_symbol *sym = &m->symbols[g.shared_symbols[g.refs[r]]];
                uint64_t sym_end = sym->is_extern ? extern_base
                                                  : sym->offset + sym->size;
                end = sym_end > end ? sym_end : end;
            }
        }
        m->functions[f].shared_static_bytes = end;
    }
    rc = 0;
out:
    if (rc != 0)
        ptx_error_setf(p->err, 1, 1, "out of memory");
    graph_free(&g);
    free(users);
    free(kernel_end);
    free(kernels);
    return rc;
}

/* Grows the .file table to cover every file index a .loc named, so
 * files[ins->src_file], files[ins->site_file] and files[ins->user_file]
 * always exist (NULL for a
 * .loc whose .file never came, which ptxas only warns about). */
static int cover_loc_files(ptx_parser *p)
{
    cured_model_module *m = p->m;
    int need = m->nfiles;
    for (int f = 0; f < m->nfunctions; f++) {
        const ptx_function *fn = &m->functions[f];
        if (fn->unusable_file >= need)
            need = fn->unusable_file + 1;
        for (int pc = 0; pc < fn->ncode; pc++) {
            const ptx_instr *ins = &fn->code[pc];
            if (ins->src_file >= need)
                need = ins->src_file + 1;
            if (ins->site_file >= need)
                need = ins->site_file + 1;
            if (ins->user_file >= need)
                need = ins->user_file + 1;
        }
    }
    if (need == m->nfiles)
        return 0;
    if (cured_grow((void **)&m->files, &p->files_cap, (size_t)need,
                 sizeof *m->files) != 0) {
        ptx_error_setf(p->err, 1, 1, "out of memory");
        return -1;
    }
    memset(m->files + m->nfiles, 0, (size_t)(need - m->nfiles) * sizeof *m->files);
    m->nfiles = need;
    return 0;
}

int ptx_finish_module(ptx_parser *p)
{
    if (resolve_calls(p) != 0 || spread_unusable(p) != 0 ||
        ptx_resolve_user_lines(p) != 0 || cover_loc_files(p) != 0)
        return -1;
    return layout_shared(p);
}
