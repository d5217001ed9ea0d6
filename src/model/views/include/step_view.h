/* step_view.h - the step view of a block reduction: shared-memory
 * accesses, __syncthreads(), worst bank conflict and divergent warps of the
 * first tree step, counted per thread from the kernel's real PTX.
 *
 * defines: cured_model_step_view, cured_model_step, cured_model_step_summary,
 *          cured_model_step_view_new, cured_model_step_view_free, cured_model_step_view_reset,
 *          cured_model_step_view_observer, cured_model_step_view_summary,
 *          cured_model_step_view_steps, cured_model_step_view_complete,
 *          cured_model_step_view_format_row, cured_model_step_view_print_table,
 *          cured_model_step_view_write_json (the last three: step_view_report.c)
 *
 * The page (ANCHORS.md) counts the three tree versions at 189 accesses and
 * 6 barriers, and the shuffle version at 4 and 1, with these conventions: a
 * tree step is 3 accesses per adding thread and one barrier; the initial
 * load into shared memory, the barrier after it and the final read are not
 * counted. This view derives all of that from execution with one rule set,
 * the same for every kernel:
 *
 * 1. Purity. Each thread's registers carry a flag "pure input": set by a
 *    load from global, const or kernel-param space, a special register, an
 *    immediate or a symbol address; kept by any instruction whose register
 *    sources are all pure; cleared by a shared or local load, an atomic, and
 *    the cross-lane operations (shfl, vote, match, redux). ld.param in a
 *    called .func is not pure (its params carry the caller's values).
 * 2. The initial load. A shared store (a lane of st.shared or of a generic
 *    st that lands in shared memory) whose stored registers are all pure is
 *    part of the initial load: not counted. The first barrier released
 *    after such stores is "the barrier after it": not counted. (Each later
 *    round of pure stores excludes the next barrier again.)
 * 3. The final read. A shared load's destination remembers which load it
 *    came from; mov and cvt carry that along, anything else forgets it. When
 *    a global store, atom or red stores a register that still remembers it,
 *    that load was the final read: it is taken back out of the counts (once).
 * 4. Everything else counts: one access per lane per shared load, store or
 *    atomic instruction (a .v2/.v4 access is one), and every other barrier
 *    release of the block (one per __syncthreads(), not one per warp).
 * 5. Steps. Barrier releases cut a block's run into intervals. An interval
 *    is a tree step when some thread both reads and writes (counted
 *    accesses, or a shared atomic) one same 32-bit word in it; such a thread
 *    is an adding thread. Per step: its counted accesses, adding threads,
 *    the worst bank degree over the step's counted warp stores (per warp
 *    instruction, over the counted lanes: the most distinct words written
 *    to one bank, bank_conflict_degree), the participating warps (those with
 *    at least one lane making a counted shared access in the step) and the
 *    divergent ones among them (fewer lanes than the warp has: 1 to 31 of a
 *    full warp). A final read taken out later stays in its step's lanes.
 * 6. Summary: total counted accesses and barriers (summed over blocks), the
 *    worst bank degree over all tree steps ("-" when none), the first tree
 *    step's divergent and participating warps ("D of P", "none" when there
 *    are no tree steps), and shuffle rounds per warp: the most shfl
 *    instructions any one warp executed.
 *
 * With one block of 64 threads over 64 floats this gives the page's table:
 * divergent 189 / 6 / 1-way / 2 of 2, strided 189 / 6 / 2-way / 0 of 1,
 * sequential 189 / 6 / 1-way / 0 of 1, shuffle 4 / 1 / - / none (5 rounds).
 */
#ifndef CURED_MODEL_STEP_VIEW_H
#define CURED_MODEL_STEP_VIEW_H

#include "cured_model.h"

#endif /* CURED_MODEL_STEP_VIEW_H */
