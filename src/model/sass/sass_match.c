/* sass_match.c - the matcher: pairs PTX memory instructions with their
 * SASS twins by line, turns what ptxas made of them into facts (the rules
 * are in docs/counting.md), then has sass_skip.c find the removed branches.
 *
 * defines: cured_model_sass_match
 *
 * The matcher's files, top down: sass_match.c (lines, twins, facts; the
 * driver) -> sass_skip.c (removed branches, skip lists) -> sass_summary.c
 * (notes, the summary) and sass_facts.c (the table); sass_match_impl.h is
 * the state they share.
 */
#include "sass_match_impl.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TWINS 64        /* SASS copies of one PTX access considered */
#define FOLD_REACH 16       /* how far (in pcs) a merge's carrier may be */

// ----------------------------------------------------------------------------
// Small helpers

/* 1 load, 2 store, 3 atomic or reduction; 0 for anything else. */
static int ptx_class(const ptx_instr *ins)
{
    switch (ins->op) {
    case PTX_OP_LD: case PTX_OP_LDU: return 1;
    case PTX_OP_ST: return 2;
    case PTX_OP_ATOM: case PTX_OP_RED: return 3;
    default: return 0;
    }
}

static int sass_class(const sass_instr *si)
{
    switch (si->access) {
    case SASS_A_LOAD: return 1;
    case SASS_A_STORE: return 2;
    case SASS_A_ATOMIC: case SASS_A_REDUCTION: return 3;
    default: return 0;
    }
}

static const sass_instr *sass_at(const match_state *st, int ref)
{
    const match_ref *r = &st->refs[ref];
    return &st->s->functions[r->sf].code[r->si];
}

/* The address operand of a load, store or atomic (NULL when odd). */
static const ptx_operand *address_of(const ptx_instr *ins)
{
    const ptx_operand *a = &ins->ops[ins->ndst];
    return ins->ndst < PTX_MAX_OPERANDS && a->kind == PTX_OPND_ADDR ? a : NULL;
}

/* The name a SASS function has in the PTX: "$KERNEL$FUNC" is FUNC. */
static const char *plain_name(const char *name)
{
    if (name[0] != '$')
        return name;
    const char *d = strrchr(name, '$');
    return d[1] ? d + 1 : name;
}

/* Appends SASS instruction (sf, si) to the list at *head (*tail may be
 * NULL: then it goes first). Returns the ref, or -1 out of memory. */
static int add_ref(match_state *st, int *head, int *tail, int sf, int si)
{
    if (st->nrefs == st->crefs) {
        int cap = st->crefs ? 2 * st->crefs : 256;
        match_ref *grown = realloc(st->refs, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            st->failed = 1;
            return -1;
        }
        st->refs = grown;
        st->crefs = cap;
    }
    int r = st->nrefs++;
    st->refs[r] = (match_ref){sf, si, -1};
    if (tail == NULL) {
        st->refs[r].next = *head;
        *head = r;
    } else {
        if (*tail >= 0)
            st->refs[*tail].next = r;
        else
            *head = r;
        *tail = r;
    }
    return r;
}

// ----------------------------------------------------------------------------
// Line groups

typedef struct keyed {
    uint64_t key;
    int pc;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* The SASS file index for PTX file index f (same path, else same last
 * component), 0 when none. */
static int sass_file_of(const match_state *st, int f)
{
    if (f <= 0 || f >= st->m->nfiles || st->m->files[f] == NULL)
        return 0;
    const char *path = st->m->files[f];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int by_base = 0;
    for (int i = 1; i < st->s->nfiles; i++) {
        const char *p = st->s->files[i];
        if (strcmp(p, path) == 0)
            return i;
        const char *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        if (by_base == 0 && strcmp(b, base) == 0)
            by_base = i;
    }
    return by_base;
}

static uint64_t ptx_key(const match_state *st, const ptx_instr *ins)
{
    if (st->mode == CURED_MODEL_SASS_BY_PTX_LINE)
        return ins->ptx_line;
    int f = sass_file_of(st, ins->src_file);
    return f && ins->src_line ? ((uint64_t)f << 32) | ins->src_line : 0;
}

static uint64_t sass_key(const match_state *st, const sass_instr *si)
{
    if (si->file == 0 || si->line == 0)
        return 0;
    if (st->mode == CURED_MODEL_SASS_BY_PTX_LINE)
        return (int)si->file == st->s->ptx_file ? si->line : 0;
    return ((uint64_t)si->file << 32) | si->line;
}

/* Groups the pcs by key and files every SASS instruction of the function's
 * SASS copies under its group. Returns the number of SASS instructions
 * that found a group, or -1 out of memory. */
static int build_groups(match_state *st)
{
    int n = st->fn->ncode, nk = 0;
    keyed *ks = malloc((size_t)(n ? n : 1) * sizeof *ks);
    if (ks == NULL)
        return -1;
    for (int pc = 0; pc < n; pc++) {
        st->pc_group[pc] = -1;
        uint64_t k = ptx_key(st, &st->fn->code[pc]);
        if (k)
            ks[nk++] = (keyed){k, pc};
    }
    qsort(ks, (size_t)nk, sizeof *ks, compare_keyed);
    uint64_t *gkey = malloc((size_t)(nk ? nk : 1) * sizeof *gkey);
    st->group_first = malloc((size_t)(nk + 1) * sizeof(int));
    st->group_pcs = malloc((size_t)(nk ? nk : 1) * sizeof(int));
    if (gkey == NULL || st->group_first == NULL || st->group_pcs == NULL) {
        free(ks);
        free(gkey);
        return -1;
    }
    int g = -1;
    for (int i = 0; i < nk; i++) {
        if (i == 0 || ks[i].key != ks[i - 1].key) {
            g++;
            gkey[g] = ks[i].key;
            st->group_first[g] = i;
        }
        st->group_pcs[i] = ks[i].pc;
        st->pc_group[ks[i].pc] = g;
    }
    st->ngroups = g + 1;
    st->group_first[st->ngroups] = nk;
    free(ks);
    int ng = st->ngroups ? st->ngroups : 1;
    st->group_sass = malloc((size_t)ng * sizeof(int));
    st->group_sass_tail = malloc((size_t)ng * sizeof(int));
    st->group_jumps = calloc((size_t)ng, sizeof(int));
    if (st->group_sass == NULL || st->group_sass_tail == NULL ||
        st->group_jumps == NULL) {
        free(gkey);
        return -1;
    }
    for (int i = 0; i < st->ngroups; i++)
        st->group_sass[i] = st->group_sass_tail[i] = -1;
    int found = 0;
    for (int sf = 0; sf < st->s->nfunctions; sf++) {
        const sass_function *f = &st->s->functions[sf];
        if (strcmp(plain_name(f->name), st->fn->name) != 0)
            continue;
        for (int si = 0; si < f->ncode; si++) {
            uint64_t k = sass_key(st, &f->code[si]);
            int lo = 0, hi = st->ngroups - 1, at = -1;
            while (k && lo <= hi) {
                int mid = (lo + hi) / 2;
                if (gkey[mid] == k) {
                    at = mid;
                    break;
                }
                if (gkey[mid] < k)
                    lo = mid + 1;
                else
                    hi = mid - 1;
            }
            if (at < 0)
                continue;
            if (add_ref(st, &st->group_sass[at], &st->group_sass_tail[at], sf, si) < 0) {
                free(gkey);
                return -1;
            }
            if (f->code[si].kind == SASS_K_CONTROL)
                st->group_jumps[at]++;
            found++;
        }
    }
    free(gkey);
    return found;
}

// ----------------------------------------------------------------------------
// Twins

/* Gives every pc of pcs[0..np) the twins it gets from sass[0..ns) (refs
 * into st->refs): all of them when there is one pc or when the SASS
 * accesses all look alike, in order when the counts agree; else a note. */
static void assign(match_state *st, const int *pcs, int np, const int *sass, int ns)
{
    int alike = 1;
    const sass_instr *s0 = sass_at(st, sass[0]);
    unsigned size0 = ptx_access_size(&st->fn->code[pcs[0]]);
    for (int i = 1; i < ns; i++) {
        const sass_instr *si = sass_at(st, sass[i]);
        alike &= si->width == s0->width && si->guarded == s0->guarded;
    }
    for (int i = 1; i < np; i++)
        alike &= ptx_access_size(&st->fn->code[pcs[i]]) == size0;
    alike &= s0->width == size0;
    for (int i = 0; i < np; i++) {
        int pc = pcs[i];
        if (np == 1 || alike) {
            for (int k = 0; k < ns; k++) {
                const match_ref *r = &st->refs[sass[k]];
                add_ref(st, &st->twins[pc], NULL, r->sf, r->si);
            }
        } else if (np == ns) {
            const match_ref *r = &st->refs[sass[i]];
            add_ref(st, &st->twins[pc], NULL, r->sf, r->si);
        } else {
            st->state[pc] = MATCH_UNDECIDED;
            match_note(st, pc, "%d PTX and %d SASS accesses of one kind on "
                       "one line: left PTX-level", np, ns);
            continue;
        }
        st->state[pc] = MATCH_TWINS;
    }
}

/* Pairs the group's PTX accesses with its SASS accesses, per kind (load,
 * store, atomic) and state space (a generic PTX access takes what SASS of
 * its kind no PTX access of that space claims). */
static void distribute(match_state *st, int g)
{
    static const uint8_t spaces[] = {PTX_S_SHARED, PTX_S_GLOBAL, PTX_S_LOCAL,
                                     PTX_S_GENERIC};
    int first = st->group_first[g], last = st->group_first[g + 1];
    for (int cls = 1; cls <= 3; cls++) {
        int pcs[MAX_TWINS], np = 0, sass[MAX_TWINS], ns = 0;
        uint8_t pc_used[MAX_TWINS] = {0}, s_used[MAX_TWINS] = {0};
        for (int i = first; i < last && np < MAX_TWINS; i++) {
            const ptx_instr *ins = &st->fn->code[st->group_pcs[i]];
            if (match_ptx_memory(ins) && ptx_class(ins) == cls)
                pcs[np++] = st->group_pcs[i];
        }
        for (int r = st->group_sass[g]; r >= 0 && ns < MAX_TWINS; r = st->refs[r].next) {
            const sass_instr *si = sass_at(st, r);
            if (si->kind == SASS_K_MEMORY && sass_class(si) == cls)
                sass[ns++] = r;
        }
        if (np == 0 && ns > 0)
            match_note(st, st->group_pcs[first], "SASS %s at 0x%04x has no PTX "
                       "access of its kind on this line", sass_at(st, sass[0])->opcode,
                       sass_at(st, sass[0])->offset);
        if (np == 0 || ns == 0)
            continue;
        for (int pass = 0; pass < 2; pass++)
            for (size_t k = 0; k < sizeof spaces; k++) {
                int pp[MAX_TWINS], n1 = 0, ss[MAX_TWINS], n2 = 0;
                for (int i = 0; i < np; i++)
                    if (!pc_used[i] && (pass || st->fn->code[pcs[i]].space == spaces[k]))
                        pp[n1++] = i;
                for (int i = 0; i < ns; i++)
                    if (!s_used[i] && (pass || sass_at(st, sass[i])->space == spaces[k]))
                        ss[n2++] = i;
                if (n1 == 0 || n2 == 0)
                    continue;
                int pv[MAX_TWINS], sv[MAX_TWINS];
                for (int i = 0; i < n1; i++) {
                    pv[i] = pcs[pp[i]];
                    pc_used[pp[i]] = 1;
                }
                for (int i = 0; i < n2; i++) {
                    sv[i] = sass[ss[i]];
                    s_used[ss[i]] = 1;
                }
                assign(st, pv, n1, sv, n2);
                if (pass)
                    break;
            }
    }
}

// ----------------------------------------------------------------------------
// Facts

/* Fills f from the twins of pc. Returns 0, or -1 after a note when they
 * do not make one access shape (mixed widths, offsets out of range). */
static int build_fact(match_state *st, int pc, cured_model_sass_fact *f)
{
    const ptx_instr *ins = &st->fn->code[pc];
    const ptx_operand *addr = address_of(ins);
    unsigned size = ptx_access_size(ins);
    const sass_instr *tw[MAX_TWINS];
    int n = 0;
    for (int r = st->twins[pc]; r >= 0 && n < MAX_TWINS; r = st->refs[r].next)
        tw[n++] = sass_at(st, r);
    memset(f, 0, sizeof *f);
    if (n == 0)
        return -1;                    /* only when out of memory */
    int guarded = 0, reduction = 0, space = tw[0]->space;
    int64_t lowest = tw[0]->addr_offset;
    for (int i = 0; i < n; i++) {
        if (tw[i]->width != tw[0]->width) {
            match_note(st, pc, "SASS twins of different widths (%s at 0x%04x, "
                       "%s at 0x%04x): left PTX-level", tw[0]->opcode,
                       tw[0]->offset, tw[i]->opcode, tw[i]->offset);
            return -1;
        }
        guarded += tw[i]->guarded;
        reduction |= tw[i]->access == SASS_A_REDUCTION;
        if (tw[i]->space != space)
            space = PTX_S_GENERIC;
        if (tw[i]->addr_offset < lowest)
            lowest = tw[i]->addr_offset;
    }
    unsigned w = tw[0]->width;
    f->space = (uint8_t)space;
    f->reduction = (uint8_t)reduction;
    f->predicated = guarded == n;
    if (guarded != 0 && guarded != n)
        match_note(st, pc, "%d of its %d SASS copies are predicated: counted "
                   "as unpredicated", guarded, n);
    if (w >= size) {
        f->npieces = 1;
        f->width[0] = (uint8_t)w;
        return 0;
    }
    /* narrower: pieces at the twins' offsets, from the PTX immediate when
       that places them inside the access, else from the lowest twin */
    int64_t base = addr ? addr->imm : 0;
    for (int pass = 0; pass < 2; pass++) {
        int ok = 1;
        f->npieces = 0;
        for (int i = 0; i < n && ok; i++) {
            int64_t rel = tw[i]->addr_offset - base;
            ok = rel >= 0 && rel + w <= size && rel % w == 0;
            int seen = 0;
            for (int k = 0; k < f->npieces && ok; k++)
                seen |= f->offset[k] == rel;
            if (ok && !seen) {
                if (f->npieces == CURED_MODEL_SASS_MAX_PIECES)
                    ok = 0;
                else {
                    f->offset[f->npieces] = (int16_t)rel;
                    f->width[f->npieces++] = (uint8_t)w;
                }
            }
        }
        if (ok)
            return 0;
        base = lowest;
    }
    match_note(st, pc, "SASS pieces of %u bytes at offsets that do not fit "
               "the %u-byte access: left PTX-level", w, size);
    return -1;
}

/* 1 when f differs from "one piece of the PTX width at offset 0". */
static int reshaped(const cured_model_sass_fact *f, unsigned size)
{
    return f->npieces != 1 || f->width[0] != size || f->offset[0] != 0;
}

/* A PTX access with no SASS twin: folded when a neighbour on the same
 * address register carries a wider piece that covers its bytes (that
 * piece moves down when the folded access is the lower half). */
static int fold(match_state *st, int pc)
{
    const ptx_instr *p = &st->fn->code[pc];
    const ptx_operand *a = address_of(p);
    if (a == NULL)
        return 0;
    int64_t lo_p = a->imm, hi_p = a->imm + ptx_access_size(p);
    for (int d = 1; d <= FOLD_REACH; d++)
        for (int side = -1; side <= 1; side += 2) {
            int q = pc + side * d;
            if (q < 0 || q >= st->fn->ncode || st->state[q] != MATCH_TWINS)
                continue;
            const ptx_instr *qi = &st->fn->code[q];
            const ptx_operand *b = address_of(qi);
            const cured_model_sass_fact *fq = cured_model_sass_facts_at(st->facts, st->function, q);
            if (b == NULL || fq == NULL || qi->op != p->op || qi->space != p->space ||
                b->reg != a->reg || b->sym != a->sym || fq->npieces != 1 ||
                fq->width[0] <= ptx_access_size(qi))
                continue;
            int64_t lo = b->imm + fq->offset[0], hi = lo + fq->width[0];
            cured_model_sass_fact moved = *fq;
            if (lo_p < lo && fq->offset[0] == 0 && lo_p + fq->width[0] >= b->imm +
                (int64_t)ptx_access_size(qi)) {
                moved.offset[0] = (int16_t)(lo_p - b->imm);
                lo = lo_p;
                hi = lo + fq->width[0];
            }
            if (lo_p < lo || hi_p > hi)
                continue;
            cured_model_sass_fact none;
            memset(&none, 0, sizeof none);
            none.space = fq->space;
            if (cured_model_sass_facts_set(st->facts, st->function, q, &moved) != 0 ||
                cured_model_sass_facts_set(st->facts, st->function, pc, &none) != 0) {
                st->failed = 1;
                return 0;
            }
            return 1;
        }
    return 0;
}

/* Sets the facts of every PTX access of the function. */
static void set_facts(match_state *st)
{
    cured_model_sass_summary *out = st->out;
    for (int pc = 0; pc < st->fn->ncode; pc++) {
        if (st->state[pc] != MATCH_TWINS)
            continue;
        cured_model_sass_fact f;
        if (build_fact(st, pc, &f) != 0) {
            st->state[pc] = MATCH_UNDECIDED;
            continue;
        }
        if (cured_model_sass_facts_set(st->facts, st->function, pc, &f) != 0) {
            st->failed = 1;
            return;
        }
        out->memory++;
        out->predicated += f.predicated;
        out->reshaped += reshaped(&f, ptx_access_size(&st->fn->code[pc]));
    }
    for (int pc = 0; pc < st->fn->ncode; pc++) {
        const ptx_instr *ins = &st->fn->code[pc];
        if (!match_ptx_memory(ins) || st->state[pc] != MATCH_NONE)
            continue;
        if (st->pc_group[pc] < 0) {
            match_note(st, pc, "no line to match it by: left PTX-level");
        } else if (fold(st, pc)) {
            st->state[pc] = MATCH_FOLDED;
            out->memory++;
            out->reshaped++;
        } else {
            match_note(st, pc, "no SASS access on its line and none to fold "
                       "it into: left PTX-level");
        }
    }
}

// ----------------------------------------------------------------------------
// One function, the module

static void state_free(match_state *st)
{
    free(st->pc_group);
    free(st->group_first);
    free(st->group_pcs);
    free(st->group_sass);
    free(st->group_sass_tail);
    free(st->group_jumps);
    free(st->twins);
    free(st->state);
    free(st->removed);
    free(st->is_target);
    free(st->refs);
}

/* Matches one PTX function, replacing its facts. Returns 0, or -1 out of
 * memory. */
static int match_function(cured_model_sass_facts *facts, int function,
                          const sass_module *s, cured_model_sass_summary *out)
{
    const cured_model_module *m = cured_model_sass_facts_module(facts);
    match_state st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.function = function;
    st.fn = &m->functions[function];
    st.s = s;
    st.facts = facts;
    st.out = out;
    st.mode = out->mode;
    cured_model_sass_facts_clear(facts, function);
    size_t n = (size_t)(st.fn->ncode ? st.fn->ncode : 1);
    st.pc_group = malloc(n * sizeof(int));
    st.twins = malloc(n * sizeof(int));
    st.state = calloc(n, 1);
    st.removed = calloc(n, 1);
    st.is_target = calloc(n, 1);
    int rc = -1;
    if (st.pc_group && st.twins && st.state && st.removed && st.is_target) {
        for (int pc = 0; pc < st.fn->ncode; pc++)
            st.twins[pc] = -1;
        int found = build_groups(&st);
        if (found == 0 && st.fn->is_entry)
            match_note(&st, -1, "the SASS has no instruction on %s of %s",
                       cured_model_sass_mode_name(st.mode), st.fn->name);
        if (found > 0) {
            out->functions++;
            for (int g = 0; g < st.ngroups; g++)
                distribute(&st, g);
            set_facts(&st);
            if (!st.failed && match_skip_lists(&st) != 0)
                st.failed = 1;
        }
        rc = found < 0 || st.failed ? -1 : 0;
    }
    state_free(&st);
    return rc;
}

int cured_model_sass_match(cured_model_sass_facts *facts, int entry, const sass_module *sass,
                           cured_model_sass_summary *out)
{
    const cured_model_module *module = cured_model_sass_facts_module(facts);
    memset(out, 0, sizeof *out);
    if (entry < 0 || entry >= module->nfunctions)
        return -1;
    out->mode = sass->ptx_file ? CURED_MODEL_SASS_BY_PTX_LINE
              : sass->has_lines ? CURED_MODEL_SASS_BY_SOURCE_LINE : CURED_MODEL_SASS_NONE;
    if (out->mode == CURED_MODEL_SASS_NONE) {
        match_state st;
        memset(&st, 0, sizeof st);
        st.function = entry;
        st.fn = &module->functions[entry];
        st.out = out;
        match_note(&st, -1, "the SASS has no line annotations (use nvdisasm "
                   "-gp on a cubin built with -lineinfo)");
        return 0;
    }
    for (int f = 0; f < module->nfunctions; f++) {
        const ptx_function *fn = &module->functions[f];
        if (f != entry && (fn->is_entry || !fn->has_body))
            continue;
        if (match_function(facts, f, sass, out) != 0)
            return -1;
    }
    return 0;
}
