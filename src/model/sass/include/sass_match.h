/* sass_match.h - pairs a kernel's SASS with the PTX the model runs, and
 * records what ptxas made of each memory instruction and branch in a facts
 * table (sass_facts.h), which the counters then follow.
 *
 * defines: cured_model_sass_mode, cured_model_sass_note, cured_model_sass_summary,
 *          cured_model_sass_match (sass_match.c), cured_model_sass_summary_free,
 *          cured_model_sass_mode_name (sass_summary.c);
 *          cured_model_sass_facts_new, cured_model_sass_facts_free,
 *          cured_model_sass_facts_set, cured_model_sass_facts_set_skips,
 *          cured_model_sass_facts_set_width, cured_model_sass_facts_clear
 *          (sass_facts.c)
 *
 * Usage: f = cured_model_sass_facts_new(module, label); for each entry to
 * be launched, cured_model_sass_match(f, entry, sass, &summary); give f to
 * the counters (cured_model_counters_use_sass); free f after them. One
 * table serves every entry of its module, so counters that count several
 * kernels of it (a whole launch plan) follow the SASS of each.
 *
 * How lines are paired, what a fact says and how a removed branch's skip
 * list is built: docs/counting.md, "Matching SASS to PTX".
 */
#ifndef CURED_MODEL_SASS_MATCH_H
#define CURED_MODEL_SASS_MATCH_H

#include "sass.h"
#include "sass_facts.h"


/* ------------------------------------------------------------ the table */

/* A new, empty facts table for the functions of `module` (which must
 * outlive it); `label` names where the SASS comes from in the reports
 * (copied, truncated to 200 bytes; NULL or "": none). Returns NULL when
 * out of host memory. */
cured_model_sass_facts *cured_model_sass_facts_new(const cured_model_module *module,
                                                   const char *label);

/* Frees the table. NULL is fine. */
void cured_model_sass_facts_free(cured_model_sass_facts *f);

/* ---------------------------------------------------------- the matcher */

/* Matches `sass` with the PTX of the table's module: its function `entry`
 * and every non-entry function with a body (what the entry may call), and
 * records in f what ptxas made of their memory instructions and branches,
 * replacing what f said of those functions (facts of other entries stay).
 * Functions the SASS does not have are left without facts (PTX-level),
 * with a note; SASS without line annotations changes nothing (a note).
 * Fills *out (free it with cured_model_sass_summary_free). Returns 0, or
 * -1 when entry is not a function of the module (*out is then empty) or
 * out of host memory (f may then hold part of the facts). */
int cured_model_sass_match(cured_model_sass_facts *f, int entry, const sass_module *sass,
                           cured_model_sass_summary *out);


/* ------------------------------------------------------ facts by hand */

/* For tests and tools that know what ptxas made without the matcher. */

/* Says what ptxas made of the memory instruction at (function, pc); a NULL
 * fact removes it (the instruction counts as the PTX says). Returns 0, or
 * -1 for a bad function/pc, a fact with more than CURED_MODEL_SASS_MAX_PIECES
 * pieces or a width of 0 or over 32, or out of host memory. */
int cured_model_sass_facts_set(cured_model_sass_facts *f, int function, int pc,
                               const cured_model_sass_fact *fact);

/* Gives the branch at (function, pc) its skip list: the pcs of memory
 * instructions that count one instruction per piece for every warp that
 * jumps over them with all its active lanes (docs/counting.md, "Predicated
 * SASS", rule (2)); n == 0
 * removes it. The pcs must be in the function. Returns 0, or -1 for a bad
 * function, pc or list, or out of host memory. */
int cured_model_sass_facts_set_skips(cured_model_sass_facts *f, int function, int pc,
                                     const int32_t *pcs, int n);

/* The simple form of a fact: ptxas turned the memory instruction at
 * (function, pc) into SASS accesses of `width` bytes per lane.
 *   width 0          the access is folded into another instruction's (the
 *                    other pc carries the merged width): counts nothing;
 *   width >= size    one access of `width` bytes from each lane's address
 *                    (a merge: two adjacent 4-byte loads become one 8-byte);
 *   width <  size    ceil(size / width) accesses of `width` bytes at the
 *                    lane's address + k * width (a split);
 * where size is the PTX access's bytes per lane. CURED_MODEL_SASS_WIDTH_PTX
 * removes the fact. Returns 0, or -1 for a bad function/pc, a width over
 * 32, more pieces than CURED_MODEL_SASS_MAX_PIECES, or out of host
 * memory. */
int cured_model_sass_facts_set_width(cured_model_sass_facts *f, int function, int pc,
                                     int width);

/* Removes every fact and skip list of `function` (the matcher does before
 * it matches a function again). Returns 0, or -1 for a bad function. */
int cured_model_sass_facts_clear(cured_model_sass_facts *f, int function);

#endif /* CURED_MODEL_SASS_MATCH_H */
