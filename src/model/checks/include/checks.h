/* checks.h - the model's checks: what compute-sanitizer's racecheck and
 * initcheck catch, as a cured_model_observer.
 *
 * defines: cured_model_checks, cured_model_checks_new, cured_model_checks_observer,
 *          cured_model_checks_set_warp_ops_sync, cured_model_checks_free
 *
 * Attached to a launch, the observer adds hazard findings (the run goes on)
 * to the list given to cured_model_checks_new: shared-memory races
 * (CURED_MODEL_FIND_RACE_SHARED), reads of unwritten shared memory
 * (CURED_MODEL_FIND_UNINIT_SHARED) and, when
 * cured_model_launch.check_uninit_global is set, of unwritten global memory
 * (CURED_MODEL_FIND_UNINIT_GLOBAL). What orders two accesses, and the
 * checks' limits: docs/counting.md, "The checks".
 */
#ifndef CURED_MODEL_CHECKS_H
#define CURED_MODEL_CHECKS_H

#include "cured_model.h"


#endif /* CURED_MODEL_CHECKS_H */
