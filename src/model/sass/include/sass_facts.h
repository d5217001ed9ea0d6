/* sass_facts.h - what ptxas made of a module's PTX, per function and pc:
 * the facts table the matcher builds (sass_match.h) and the counters read
 * (counters.h). This header is the reading side: the one a consumer of the
 * facts needs.
 *
 * defines: CURED_MODEL_SASS_MAX_PIECES, CURED_MODEL_SASS_WIDTH_PTX,
 *          cured_model_sass_fact, cured_model_sass_facts,
 *          cured_model_sass_facts_at, cured_model_sass_facts_skips,
 *          cured_model_sass_facts_width, cured_model_sass_facts_label,
 *          cured_model_sass_facts_module, CURED_MODEL_SASS_CTRL_*,
 *          cured_model_sass_facts_control, cured_model_sass_facts_opcodes,
 *          cured_model_sass_facts_inexact
 *          (all in sass_facts.c)
 *
 * A table holds, for the functions of one module:
 *  - per PTX memory instruction, a fact: the SASS memory instructions
 *    ("pieces") it became, their widths and offsets, whether they carry a
 *    guard predicate, whether an atom became a RED;
 *  - per PTX branch ptxas removed (if-conversion), its skip list: the
 *    predicated accesses a warp that jumps over the branch still issues;
 *  - per PTX bra, call and ret, what SASS control it became; per bar,
 *    shfl, vote and activemask, how many SASS BAR, SHFL or VOTE;
 *  - per function, which counts the SASS does not let the model derive
 *    exactly (ptxas restructured a loop, duplicated an access ...);
 *  - the label of where the SASS came from ("catalogue.sass, nvdisasm
 *    -gp"), for the reports.
 * What the counters do with them is in docs/counting.md ("Predicated SASS").
 * Every lookup checks its function and pc; none allocates or fails.
 */
#ifndef CURED_MODEL_SASS_FACTS_H
#define CURED_MODEL_SASS_FACTS_H

#include "cured_model.h"

#include <stdint.h>

#define CURED_MODEL_SASS_MAX_PIECES 8

/* The SASS form of an atomic (cured_model_sass_fact.atomic): how its lanes
 * meet the shared-memory banks (bank.h, bank_shared_atomic_cost). */
enum {
    CURED_MODEL_SASS_ATOM_PLAIN = 0, /* every lane an operation of its own */
    CURED_MODEL_SASS_ATOM_CAS,       /* compare-and-swap: two operands a lane */
    CURED_MODEL_SASS_ATOM_MERGE      /* POPC.INC: lanes on one word are one */
};

/* What ptxas made of one PTX memory instruction. A piece is one SASS
 * memory instruction: each lane accesses width bytes at its PTX address +
 * offset (an offset may be negative: the carrier of a merge whose other
 * half came first). */
typedef struct cured_model_sass_fact {
    uint8_t npieces;     /* SASS instructions it became; 0: folded into
                            another PTX instruction's piece (counts nothing) */
    uint8_t space;       /* ptx_space of the SASS instruction: SHARED, GLOBAL,
                            LOCAL, or GENERIC for LD/ST/ATOM/RED */
    uint8_t predicated;  /* the SASS carries a guard predicate */
    uint8_t reduction;   /* a RED (nothing returned): counted as global_red
                            even where the PTX says atom */
    uint8_t atomic;      /* an atomic's SASS form: CURED_MODEL_SASS_ATOM_* */
    uint8_t leader;      /* warp-aggregated (ptxas's VOTEU/REDUX idiom): one
                            lane, the first whose guard holds, accesses
                            memory for the warp */
    int16_t offset[CURED_MODEL_SASS_MAX_PIECES];
    uint8_t width[CURED_MODEL_SASS_MAX_PIECES];
} cured_model_sass_fact;

/* The facts of one module's functions (opaque; made and filled through
 * sass_match.h). */
typedef struct cured_model_sass_facts cured_model_sass_facts;

/* The fact of the instruction at (function, pc), or NULL when there is
 * none (also for a function or pc out of range). */
const cured_model_sass_fact *cured_model_sass_facts_at(const cured_model_sass_facts *f,
                                                       int function, int pc);

/* The skip list of the branch at (function, pc): its length, and its pcs
 * in *pcs (NULL, and 0, when it has none or function/pc are out of
 * range). */
int cured_model_sass_facts_skips(const cured_model_sass_facts *f, int function, int pc,
                                 const int32_t **pcs);

/* The width of the fact at (function, pc): 0 when folded, its first
 * piece's width otherwise, CURED_MODEL_SASS_WIDTH_PTX when there is none
 * (or function/pc are out of range). */
#define CURED_MODEL_SASS_WIDTH_PTX (-1)
int cured_model_sass_facts_width(const cured_model_sass_facts *f, int function, int pc);

/* What the SASS of a PTX bra, call or ret is (cured_model_sass_facts_control). */
enum {
    CURED_MODEL_SASS_CTRL_NONE = 0, /* no SASS control on its line: the branch
                                       was removed (if-conversion) */
    CURED_MODEL_SASS_CTRL_JUMP,     /* BRA, BRX, JMP, JMX: a branch target ncu
                                       counts */
    CURED_MODEL_SASS_CTRL_EXIT,     /* EXIT (a branch to the kernel's ret) */
    CURED_MODEL_SASS_CTRL_CALL,     /* CALL: a branch target, always uniform */
    CURED_MODEL_SASS_CTRL_RET       /* RET: a branch target, always uniform */
};

/* The SASS control of the PTX bra/call/ret at (function, pc): a
 * CURED_MODEL_SASS_CTRL_* value, or -1 when the matcher recorded none
 * (PTX-level, or out of range). */
int cured_model_sass_facts_control(const cured_model_sass_facts *f, int function, int pc);

/* How many SASS BAR, SHFL or VOTE instructions the PTX bar, shfl, vote or
 * activemask at (function, pc) became (0: ptxas removed it), or -1 when
 * the matcher recorded none (PTX-level: count 1 each). */
int cured_model_sass_facts_opcodes(const cured_model_sass_facts *f, int function, int pc);

/* The CURED_MODEL_SASS_INEXACT_* bits (cured_model.h) of function: which
 * of its SASS-level counts the matcher could not prove exact (0: every one
 * is derived exactly, or nothing was matched). */
unsigned cured_model_sass_facts_inexact(const cured_model_sass_facts *f, int function);

/* Where the SASS came from, as given to cured_model_sass_facts_new, or
 * NULL when it was given none. */
const char *cured_model_sass_facts_label(const cured_model_sass_facts *f);

/* The module whose functions the facts describe. */
const cured_model_module *cured_model_sass_facts_module(const cured_model_sass_facts *f);

#endif /* CURED_MODEL_SASS_FACTS_H */
