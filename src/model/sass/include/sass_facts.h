/* sass_facts.h - what ptxas made of a module's PTX, per function and pc:
 * the facts table the matcher builds (sass_match.h) and the counters read
 * (counters.h). This header is the reading side: the one a consumer of the
 * facts needs.
 *
 * defines: CURED_MODEL_SASS_MAX_PIECES, CURED_MODEL_SASS_WIDTH_PTX,
 *          cured_model_sass_fact, cured_model_sass_facts,
 *          cured_model_sass_facts_at, cured_model_sass_facts_skips,
 *          cured_model_sass_facts_width, cured_model_sass_facts_label,
 *          cured_model_sass_facts_module (all in sass_facts.c)
 *
 * A table holds, for the functions of one module:
 *  - per PTX memory instruction, a fact: the SASS memory instructions
 *    ("pieces") it became, their widths and offsets, whether they carry a
 *    guard predicate, whether an atom became a RED;
 *  - per PTX branch ptxas removed (if-conversion), its skip list: the
 *    predicated accesses a warp that jumps over the branch still issues;
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

/* Where the SASS came from, as given to cured_model_sass_facts_new, or
 * NULL when it was given none. */
const char *cured_model_sass_facts_label(const cured_model_sass_facts *f);

/* The module whose functions the facts describe. */
const cured_model_module *cured_model_sass_facts_module(const cured_model_sass_facts *f);

#endif /* CURED_MODEL_SASS_FACTS_H */
