/* checks.h - the model's checks: what compute-sanitizer's racecheck and
 * initcheck catch, as a cured_model_observer.
 *
 * defines: cured_model_checks, cured_model_checks_new, cured_model_checks_observer,
 *          cured_model_checks_set_warp_ops_sync, cured_model_checks_free
 *
 * Attach the observer to a launch and it adds findings to the list given to
 * cured_model_checks_new:
 * - CURED_MODEL_FIND_RACE_SHARED: two accesses to the same shared byte by
 *   different threads of a block, at least one a write (atomics do not race
 *   with atomics), with no synchronisation ordering them. A block barrier
 *   orders everything before it against everything after it; a
 *   bar.warp.sync (__syncwarp) orders the lanes it names (and, by
 *   transitivity, what those lanes had been ordered against). The lanes of
 *   one warp instruction do not race with each other, but two instructions
 *   of one warp are not ordered for different lanes without a __syncwarp:
 *   since Volta, lanes of a warp are scheduled independently. One finding
 *   per pair of instructions, at the later one, naming the earlier.
 * - CURED_MODEL_FIND_UNINIT_SHARED: a shared byte read (or atomically updated)
 *   before any thread of the block wrote it.
 * - CURED_MODEL_FIND_UNINIT_GLOBAL (when cured_model_launch.check_uninit_global is
 *   set): a global byte read (or atomically updated) whose
 *   cured_model_buffer.init shadow is 0. The observer marks the bytes every
 *   store and atomic writes in that shadow, whether or not the check is on.
 * All are hazards (the run goes on). The interpreter reports the rest
 * (out of bounds, misaligned, masks, barrier divergence, step limit).
 *
 * Limits: each shared byte remembers its last write and up to four reads
 * since then (preferring reads from different warps), so a race against a
 * fifth reader can go unseen; named barriers with a thread count are taken
 * as block-wide.
 */
#ifndef CURED_MODEL_CHECKS_H
#define CURED_MODEL_CHECKS_H

#include "cured_model.h"


#endif /* CURED_MODEL_CHECKS_H */
