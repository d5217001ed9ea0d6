/* sass_match_impl.h - the matcher's state for one PTX function, shared by
 * sass_match.c (lines, twins, facts), sass_skip.c (removed branches, skip
 * lists) and sass_summary.c (notes). Not an API: only sass_*.c include it.
 *
 * defines: match_ref, match_state, match_note (sass_summary.c),
 *          match_ptx_memory, match_skip_lists (sass_skip.c),
 *          match_family, match_control (sass_control.c)
 */
#ifndef CURED_MODEL_SASS_MATCH_IMPL_H
#define CURED_MODEL_SASS_MATCH_IMPL_H

#include "sass_match.h"

#include <stdint.h>

/* A SASS instruction in a list: function and index in the SASS module. */
typedef struct match_ref {
    int sf;
    int si;
    int next;               /* the next ref of the same list, -1 at the end */
} match_ref;

/* One PTX function being matched. Lists are heads into refs[]. */
typedef struct match_state {
    const cured_model_module *m;
    int function;
    const ptx_function *fn;
    const sass_module *s;
    cured_model_sass_facts *facts;  /* where the facts go */
    cured_model_sass_summary *out;
    cured_model_sass_mode mode;
    /* the line groups: PTX instructions that share a line (one per PTX
       line with -gp) and the SASS instructions annotated with it */
    int *pc_group;          /* ncode: the pc's group, -1 without a line */
    int ngroups;
    int *group_first;       /* ngroups + 1: the group's pcs are
                               group_pcs[group_first[g] .. group_first[g+1]) */
    int *group_pcs;         /* in pc order within a group */
    int *group_sass;        /* ngroups: every SASS instruction of the group */
    int *group_sass_tail;
    int *group_jumps;       /* ngroups: how many are SASS_K_CONTROL */
    /* per pc */
    int *twins;             /* ncode: the SASS memory twins given to it */
    uint8_t *state;         /* ncode: MATCH_* below */
    uint8_t *removed;       /* ncode: a bra ptxas removed */
    uint8_t *is_target;     /* ncode: some branch jumps here */
    uint8_t *copies;        /* ncode: SASS copies of an access beyond its
                               pieces (0: none) */
    match_ref *refs;
    int nrefs;
    int crefs;
    int failed;             /* out of host memory */
    unsigned inexact;       /* CURED_MODEL_SASS_INEXACT_* found so far */
    int unfiled;            /* SASS branches, calls, returns, BAR, SHFL or
                               VOTE on no line of the function's PTX */
    uint32_t unfiled_at;    /* the offset of the first */
} match_state;

enum {
    MATCH_NONE = 0,         /* no twin (yet) */
    MATCH_TWINS,            /* twins given, fact set */
    MATCH_FOLDED,           /* folded into a neighbour's piece */
    MATCH_UNDECIDED         /* ambiguous or inconsistent: PTX-level, noted */
};

/* Adds a note about pc (-1: the function) to the summary, or counts it
 * as left out past the cap. */
void match_note(match_state *st, int pc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 when ins is a load, store or atomic the counters count (shared,
 * global, local or generic space). */
static inline int match_ptx_memory(const ptx_instr *ins)
{
    if (ins->op != PTX_OP_LD && ins->op != PTX_OP_LDU && ins->op != PTX_OP_ST &&
        ins->op != PTX_OP_ATOM && ins->op != PTX_OP_RED)
        return 0;
    return ins->space == PTX_S_SHARED || ins->space == PTX_S_GLOBAL ||
           ins->space == PTX_S_LOCAL || ins->space == PTX_S_GENERIC;
}

/* What a SASS instruction is to the control and opcode counts. */
typedef enum match_fam {
    FAM_NONE = 0,
    FAM_JUMP,               /* BRA BRX JMP JMX (not a closing self-loop) */
    FAM_EXIT,
    FAM_CALL,
    FAM_RET,
    FAM_BAR,
    FAM_SHFL,
    FAM_VOTE                /* VOTE, not VOTEU */
} match_fam;

/* The family of si (sass_control.c). */
match_fam match_family(const sass_instr *si);

/* Records, per PTX bra/call/ret, the SASS control it became, per bar/
 * shfl/vote/activemask its SASS BAR/SHFL/VOTE, and the branch and opcode
 * counts that are not exact (st->inexact, with notes) (sass_control.c).
 * Returns 0, or -1 when out of host memory. */
int match_control(match_state *st);

/* Decides which branches ptxas removed (st->removed) and sets the skip
 * lists of those with predicated accesses to skip (sass_skip.c). Returns
 * 0, or -1 when out of host memory. */
int match_skip_lists(match_state *st);

#endif /* CURED_MODEL_SASS_MATCH_IMPL_H */
