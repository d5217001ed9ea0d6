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
 * It counts as the lesson's table does (docs/lesson.md), by one rule set
 * for every kernel: docs/counting.md, "The step view", rules 1 to 6.
 */
#ifndef CURED_MODEL_STEP_VIEW_H
#define CURED_MODEL_STEP_VIEW_H

#include "cured_model.h"

#endif /* CURED_MODEL_STEP_VIEW_H */
