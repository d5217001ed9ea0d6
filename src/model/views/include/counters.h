/* counters.h - the model's hardware view: what Nsight Compute would count
 * for a kernel, per kernel, per PTX instruction and per source line.
 *
 * defines: cured_model_counter, cured_model_counter_info, cured_model_counter_describe,
 *          cured_model_counters, cured_model_counters_new, cured_model_counters_free,
 *          cured_model_counters_reset, cured_model_counters_observer,
 *          cured_model_counters_use_sass, cured_model_counters_sass_label
 *          (these in counters_sass.c),
 *          cured_model_counters_total, cured_model_counters_totals, cured_model_counters_at,
 *          cured_model_counters_active_share, cured_model_counters_by,
 *          cured_model_counters_line, cured_model_counters_lines,
 *          cured_model_counters_function, cured_model_counters_module,
 *          cured_model_counters_complete,
 *          cured_model_counters_print_table, cured_model_counters_print_legend,
 *          cured_model_counters_write_json
 *          (the last two are in counters_report.c)
 *
 * Usage: c = cured_model_counters_new(module, entry); put
 * cured_model_counters_observer(c) in the launch's observers; cured_model_run; read the
 * totals, the rows, or print them; cured_model_counters_free(c). Several launches
 * add up until cured_model_counters_reset.
 *
 * PTX, and SASS where it is known. The model runs the PTX nvcc emits, so
 * its instruction totals are "PTX warp instructions issued", printed as
 * model__ptx_inst_executed (docs/model.md), which differ from what ncu
 * reports for the SASS ptxas makes (ptxas adds
 * address arithmetic and control instructions, removes others, unrolls,
 * predicates short branches). The memory counters follow the SASS when
 * the matcher (sass_match.h) has said, per PTX memory instruction, what
 * ptxas made of it (a fact, sass_facts.h, that the counters read once
 * given the table: cured_model_counters_use_sass): how many SASS instructions
 * of which widths (a merge: two ld.shared.f32 into one LDS.64; a split;
 * an ld.global.v4 of which two components are used: two LDG.E), whether
 * they carry a guard predicate, and which branches ptxas removed. Without
 * that, counts are PTX-level: memory instructions mostly map one to one.
 *
 * Predicated SASS (the rule that makes instruction counts SASS-level).
 * ncu counts smsp__inst_executed_op_* per warp that ISSUES a SASS
 * instruction, also when its guard is false in every lane; requests,
 * wavefronts and sectors count only lanes that access memory. ptxas
 * if-converts short branches: `if (tid < s) sdata[tid] += sdata[tid + s];`
 * is a PTX branch around two ld.shared and a st.shared, and in SASS three
 * predicated instructions (@!P1 LDS, @!P1 LDS, @!P1 STS) that every warp
 * reaching the loop step issues. So, for a PTX memory instruction whose
 * SASS fact says `predicated`:
 *  (1) a warp that executes it with no lane whose guard holds (a guarded
 *      PTX instruction) counts one instruction per SASS piece, nothing else;
 *  (2) a warp that jumps over it by a branch ptxas removed counts one
 *      instruction per piece too: when a branch at pc b is taken by every
 *      active lane of a warp (a conditional one, as the branch observer
 *      reports it, or an unconditional one, always), each pc in b's skip
 *      list (sass_facts.h) counts once for that warp.
 * The matcher builds a removed branch's skip list by walking the PTX from
 * b + 1 to the target: predicated memory instructions whose SASS sits in
 * the straight-line stretch of the SASS that the branch's own block falls
 * into; through nested removed branches (their bodies are predicated too);
 * stopping at anything a warp would not reach without a jump (a branch
 * ptxas kept, a call, a return, a barrier, an unpredicated access). A
 * backward branch skips nothing, so loops need no special case: each trip
 * is one pass of the walk's region. Wavefronts, conflicts, requests and
 * sectors of such warps stay 0.
 *
 * The conventions (bank rules in bank.h):
 *  - a memory instruction counts once per access event (model.h: one per
 *    state space its lanes resolve to) that has a lane accessing memory
 *    (once per SASS piece when the SASS is known); a warp whose lanes are
 *    all predicated off counts in smsp__inst_executed, and in the op_*
 *    instruction counters only by the rules above;
 *  - one request per global warp instruction (per piece when split);
 *  - divergent branches: one per conditional branch a warp executes whose
 *    active lanes do not all go the same way (0 < taken < active); the
 *    SASS branch targets count so only at branches ptxas kept as jumps;
 *  - barriers, shuffles and votes are warp-level instruction counts, as
 *    ncu's instruction statistics list them by SASS opcode (BAR, SHFL, VOTE).
 */
#ifndef CURED_MODEL_COUNTERS_H
#define CURED_MODEL_COUNTERS_H

#include "cured_model.h"
#include "ptx.h"

#include <stdint.h>
#include <stdio.h>


/* ------------------------------------------------------------- SASS */

typedef struct cured_model_sass_facts cured_model_sass_facts;  /* sass_facts.h */

/* Makes c count memory instructions as the SASS issues them, by the facts
 * f (NULL: PTX-level counts again). c keeps the pointer: f must outlive
 * every run and report of c, and facts added to f later (the matcher, for
 * another entry) count from then on. Returns 0, or -1 when f describes
 * another module than c counts (c is left as it was). */
int cured_model_counters_use_sass(cured_model_counters *c, const cured_model_sass_facts *f);

/* Where the SASS the counts follow came from (the label of the facts in
 * use), or NULL when the counts are PTX-level (or the facts have no
 * label). */
const char *cured_model_counters_sass_label(const cured_model_counters *c);


#endif /* CURED_MODEL_COUNTERS_H */
