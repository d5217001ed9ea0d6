/* sass_match.h - pairs a kernel's SASS with the PTX the model runs, and
 * tells the counters what ptxas made of each memory instruction and branch.
 *
 * defines: cured_model_sass_mode, cured_model_sass_note, cured_model_sass_summary,
 *          cured_model_sass_apply, cured_model_sass_summary_free, cured_model_sass_mode_name
 *
 * Matching. Each SASS instruction carries a line (sass.h). With
 * `nvdisasm -gp` it is the PTX line it came from: the match is exact, one
 * PTX instruction per line. With `-g`/`-gi` it is a source line, shared by
 * several PTX instructions: on each line, loads, stores and atomics of each
 * state space are paired in order when the counts agree, and a line whose
 * SASS accesses all look alike (one width, all or none predicated) gives
 * that to each of its PTX accesses; anything else is a note, not a guess.
 * What a PTX memory instruction becomes (cured_model_sass_fact, counters.h):
 *  - its SASS twins are the loads/stores/atomics on its line; copies of one
 *    width equal to the PTX access (ptxas duplicates code for converged and
 *    divergent warps) are one piece;
 *  - twins wider than the PTX access: a merge, this instruction carries it;
 *  - no twin, and a neighbour of the same kind on the same address register
 *    carries a piece that covers this one's bytes: folded (counts nothing);
 *  - twins narrower than the access: a split, or a vector load with unused
 *    components (ld.global.v4.f32 of which two are used: two LDG.E); the
 *    pieces' offsets come from the SASS address immediates;
 *  - predicated when every twin carries a guard predicate; a RED twin makes
 *    an atom a reduction.
 * A PTX branch with no SASS jump on its line (BRA, EXIT, ...) was removed:
 * if-conversion. Its skip list (counters.h, rule (2)) is built by walking
 * the PTX from the branch to its target: predicated accesses whose SASS
 * lies in the same SASS straight-line stretch as the SASS of the branch's
 * own basic block (the instructions just before it), through nested
 * removed branches, up to the first thing a warp would not reach without a
 * jump.
 */
#ifndef CURED_MODEL_SASS_MATCH_H
#define CURED_MODEL_SASS_MATCH_H

#include "counters.h"
#include "sass.h"


/* Matches `sass` with the PTX of `module`'s function `entry` and of every
 * non-entry function of the module (what the entry may call), and sets
 * the facts and skip lists in c (which must count that module). Functions
 * the SASS does not have are left PTX-level, with a note. Fills *out (free
 * it with cured_model_sass_summary_free). Returns 0, or -1 when out of host
 * memory (c may then hold part of the facts). */
int cured_model_sass_apply(const cured_model_module *module, int entry,
                     const sass_module *sass, cured_model_counters *c,
                     cured_model_sass_summary *out);


#endif /* CURED_MODEL_SASS_MATCH_H */
