/* model_notes.c - the lines that close a `cured model` report.
 *
 * defines: cli_model_print_notes, cli_model_json_trust
 *
 * A race or a read of unwritten memory is a hazard, not an error: the
 * kernel ran to its end (exit 0 without --strict). But the value it left
 * may be one the GPU would not compute, so the report says so where a
 * reader looks last, instead of leaving it in a list of findings.
 */
#include "model_notes.h"

#include "cured_model_host.h"

void cli_model_print_notes(FILE *out, const cured_model_findings *f, int default_limit)
{
    int stopped = 0;
    for (int i = 0; i < f->count; i++)
        stopped |= f->items[i].kind == CURED_MODEL_FIND_STEP_LIMIT;
    if (stopped && default_limit)
        fprintf(out, "\nnote: the step limit that stopped it is the default for the launch's size "
                "(%d warp instructions per warp and per 32 buffer elements, at least "
                "%llu); --step-limit N sets another\n", CURED_MODEL_STEP_BUDGET_PER_UNIT,
                (unsigned long long)CURED_MODEL_STEP_BUDGET_FLOOR);
    char kinds[256];
    int hazards = cured_model_findings_result_hazards(f, kinds, sizeof kinds);
    if (hazards > 0)
        fprintf(out, "\nresult not trustworthy: %d hazard%s (%s) can change what the "
                "kernel computes; --strict makes them fail the run\n", hazards,
                hazards == 1 ? "" : "s", kinds);
}

void cli_model_json_trust(FILE *out, const cured_model_findings *f)
{
    int hazards = cured_model_findings_result_hazards(f, NULL, 0);
    fprintf(out, "\"result_trustworthy\": %s,\n  \"result_hazards\": %d",
            hazards ? "false" : "true", hazards);
}
