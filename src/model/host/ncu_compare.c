/* ncu_compare.c - the model's counts beside Nsight Compute's for the same
 * launch, metric by metric, each difference with the reason the model
 * knows for it, or none (cured_model_host.h; `cured model --compare-ncu`
 * and the fidelity test use it).
 *
 * defines: cured_model_ncu_compare, cured_model_ncu_verdict_name,
 *          cured_model_ncu_print, cured_model_ncu_metric_of
 */
#include "cured_model_host.h"
#include "counters.h"
#include "json_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The ncu metric nearest to a count of the model's own, shown beside it
 * (NULL: none). */
static const char *own_peer(cured_model_counter id)
{
    switch (id) {
    case CURED_MODEL_CTR_INST: return "smsp__inst_executed.sum";
    case CURED_MODEL_CTR_THREAD_INST: return "smsp__thread_inst_executed.sum";
    case CURED_MODEL_CTR_THREAD_INST_PRED_ON: return "smsp__thread_inst_executed_pred_on.sum";
    case CURED_MODEL_CTR_BRANCHES: return "smsp__inst_executed_op_branch.sum";
    default: return NULL;
    }
}

const char *cured_model_ncu_metric_of(cured_model_counter id)
{
    const cured_model_counter_info *info = cured_model_counter_describe(id);
    if (info == NULL)
        return NULL;
    return info->ncu ? info->metric : own_peer(id);
}

/* The CURED_MODEL_SASS_INEXACT_* class of a counter that follows the SASS. */
static unsigned class_of(cured_model_counter id)
{
    switch (id) {
    case CURED_MODEL_CTR_BRANCH_TARGETS:
    case CURED_MODEL_CTR_BRANCH_DIVERGENT:
    case CURED_MODEL_CTR_BRANCH_UNIFORM:
        return CURED_MODEL_SASS_INEXACT_BRANCHES;
    case CURED_MODEL_CTR_BARRIERS:
    case CURED_MODEL_CTR_SHUFFLES:
    case CURED_MODEL_CTR_VOTES:
        return CURED_MODEL_SASS_INEXACT_OPCODES;
    default:
        return CURED_MODEL_SASS_INEXACT_MEMORY;
    }
}

/* For shared wavefronts and conflicts: the other counter of the pair. */
static int shared_pair(cured_model_counter id, cured_model_counter *wf, cured_model_counter *cf)
{
    switch (id) {
    case CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS:
    case CURED_MODEL_CTR_SHARED_LD_CONFLICTS:
        *wf = CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS;
        *cf = CURED_MODEL_CTR_SHARED_LD_CONFLICTS;
        return 1;
    case CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS:
    case CURED_MODEL_CTR_SHARED_ST_CONFLICTS:
        *wf = CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS;
        *cf = CURED_MODEL_CTR_SHARED_ST_CONFLICTS;
        return 1;
    default:
        return 0;
    }
}

/* The arbitration difference (docs/model.md, "What stays unmatched"): in
 * a grid of several blocks ncu counts extra shared wavefronts and calls
 * each a bank conflict, where the addresses make none. 1 when the pair of
 * `id` differs exactly so in every run. */
static int arbitration(const cured_model_counters *c, cured_model_counter id, uint64_t blocks,
                       const cured_model_ncu_kernel *k)
{
    cured_model_counter wf, cf;
    if (blocks <= 1 || !shared_pair(id, &wf, &cf) ||
        cured_model_counters_total(c, cf) != 0)
        return 0;
    const char *mwf = cured_model_counter_describe(wf)->metric;
    const char *mcf = cured_model_counter_describe(cf)->metric;
    double model_wf = (double)cured_model_counters_total(c, wf);
    /* every run: wavefronts - model's = conflicts > 0; runs pair by order */
    int n = 0, ok = 1;
    const cured_model_ncu_value *w = NULL;
    for (int i = 0; i < k->nvalues && ok; i++) {
        if (strcmp(k->values[i].metric, mwf) != 0)
            continue;
        w = &k->values[i];
        int seen = 0;
        for (int j = 0; j < k->nvalues; j++)
            if (strcmp(k->values[j].metric, mcf) == 0 && seen++ == n) {
                double extra = w->value - model_wf;
                ok = extra == k->values[j].value && extra > 0;
                break;
            }
        n++;
    }
    return ok && n > 0;
}

/* An opcode-instanced metric ("NAME [BAR]") the CSV has instances of NAME
 * for but not this one: ncu lists only the opcodes that ran, so it is 0.
 * Returns the runs (the most values any instance of NAME has), 0 when
 * NAME has no instance at all. */
static int absent_instance(const cured_model_ncu_kernel *k, const char *metric, double *lo,
                           double *hi)
{
    const char *open = strstr(metric, " [");
    if (open == NULL)
        return 0;
    size_t n = (size_t)(open - metric) + 2;   /* "NAME [" */
    int runs = 0;
    for (int i = 0; i < k->nvalues; i++) {
        if (strncmp(k->values[i].metric, metric, n) != 0)
            continue;
        double l, h;
        int c = cured_model_ncu_values(k, k->values[i].metric, &l, &h);
        if (c > runs)
            runs = c;
    }
    if (runs > 0)
        *lo = *hi = 0.0;
    return runs;
}

int cured_model_ncu_compare(const cured_model_counters *c, unsigned inexact, uint64_t blocks,
                            const cured_model_ncu_kernel *k, cured_model_ncu_row *rows)
{
    int sass = cured_model_counters_sass_label(c) != NULL;
    for (int id = 0; id < CURED_MODEL_CTR_COUNT; id++) {
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)id);
        cured_model_ncu_row *r = &rows[id];
        memset(r, 0, sizeof *r);
        r->counter = (cured_model_counter)id;
        r->metric = info->metric;
        r->ncu_metric = cured_model_ncu_metric_of((cured_model_counter)id);
        r->model = cured_model_counters_total(c, (cured_model_counter)id);
        r->model_counted = !(info->needs_sass && !sass);
        if (r->ncu_metric != NULL)
            r->ncu_runs = cured_model_ncu_values(k, r->ncu_metric, &r->ncu_lo, &r->ncu_hi);
        if (r->ncu_runs == 0 && r->ncu_metric != NULL)
            r->ncu_runs = absent_instance(k, r->ncu_metric, &r->ncu_lo, &r->ncu_hi);
        if (!info->ncu) {
            r->verdict = CURED_MODEL_NCU_OWN;
            snprintf(r->reason, sizeof r->reason, "%s", r->ncu_metric
                     ? "PTX instructions the model ran; ncu counts the SASS ptxas made"
                     : "PTX instructions the model ran; ncu has no such count");
            continue;
        }
        if (r->ncu_runs == 0) {
            r->verdict = CURED_MODEL_NCU_NOT_MEASURED;
            continue;
        }
        double m = (double)r->model;
        if (r->model_counted && r->ncu_lo == m && r->ncu_hi == m) {
            r->verdict = CURED_MODEL_NCU_EQUAL;
            continue;
        }
        r->verdict = CURED_MODEL_NCU_KNOWN;
        if (!r->model_counted)
            snprintf(r->reason, sizeof r->reason,
                     "the model counts it from the SASS, and has none here");
        else if (!sass)
            snprintf(r->reason, sizeof r->reason,
                     "counted by the PTX (no SASS): ptxas's SASS differs there");
        else if (inexact & class_of((cured_model_counter)id))
            snprintf(r->reason, sizeof r->reason,
                     "the SASS is not the PTX's shape here (a loop ptxas unrolled, a "
                     "branch it made: the sass notes say where); the model counts "
                     "by the PTX");
        else if (r->ncu_runs > 1 && r->ncu_lo != r->ncu_hi && m >= r->ncu_lo &&
                 m <= r->ncu_hi)
            snprintf(r->reason, sizeof r->reason,
                     "ncu's own runs differ (%.0f to %.0f)", r->ncu_lo, r->ncu_hi);
        else if (arbitration(c, (cured_model_counter)id, blocks, k))
            snprintf(r->reason, sizeof r->reason,
                     "ncu's extra wavefronts are exactly its bank conflicts: "
                     "shared-memory arbitration among warps in flight, not in "
                     "the addresses (docs/model.md, \"What stays unmatched\")");
        else
            r->verdict = CURED_MODEL_NCU_DIFFERENT;
    }
    return CURED_MODEL_CTR_COUNT;
}

const char *cured_model_ncu_verdict_name(cured_model_ncu_verdict v)
{
    switch (v) {
    case CURED_MODEL_NCU_EQUAL: return "equal";
    case CURED_MODEL_NCU_KNOWN: return "known";
    case CURED_MODEL_NCU_DIFFERENT: return "DIFFERENT";
    case CURED_MODEL_NCU_NOT_MEASURED: return "not measured";
    default: return "model's own";
    }
}

/* ncu's value(s) as text: "3072", or "200..203" when the runs differ,
 * "-" when there is none. */
static const char *ncu_text(const cured_model_ncu_row *r, char *buf, size_t cap)
{
    if (r->ncu_runs == 0)
        snprintf(buf, cap, "-");
    else if (r->ncu_lo == r->ncu_hi)
        snprintf(buf, cap, "%.0f", r->ncu_lo);
    else
        snprintf(buf, cap, "%.0f..%.0f", r->ncu_lo, r->ncu_hi);
    return buf;
}

/* The model's value minus ncu's (the nearest of its runs), as text. */
static const char *diff_text(const cured_model_ncu_row *r, char *buf, size_t cap)
{
    if (r->ncu_runs == 0 || !r->model_counted) {
        snprintf(buf, cap, "-");
        return buf;
    }
    double m = (double)r->model;
    double near = fabs(m - r->ncu_lo) <= fabs(m - r->ncu_hi) ? r->ncu_lo : r->ncu_hi;
    snprintf(buf, cap, "%+.0f", m - near);
    return buf;
}

int cured_model_ncu_print(FILE *out, const cured_model_ncu_row *rows, int n, int json)
{
    int count[CURED_MODEL_NCU_OWN + 1] = {0};
    for (int i = 0; i < n; i++)
        count[rows[i].verdict]++;
    if (json) {
        fprintf(out, "{\"rows\": [");
        for (int i = 0; i < n; i++) {
            const cured_model_ncu_row *r = &rows[i];
            fprintf(out, "%s\n    {\"metric\": ", i ? "," : "");
            cured_json_string(out, r->metric);
            fprintf(out, ", \"ncu_metric\": ");
            cured_json_string(out, r->ncu_metric);
            if (r->model_counted)
                fprintf(out, ", \"model\": %llu", (unsigned long long)r->model);
            else
                fprintf(out, ", \"model\": null");
            if (r->ncu_runs)
                fprintf(out, ", \"ncu\": [%.17g, %.17g], \"ncu_runs\": %d", r->ncu_lo,
                        r->ncu_hi, r->ncu_runs);
            else
                fprintf(out, ", \"ncu\": null, \"ncu_runs\": 0");
            fprintf(out, ", \"verdict\": ");
            cured_json_string(out, cured_model_ncu_verdict_name(r->verdict));
            fprintf(out, ", \"reason\": ");
            cured_json_string(out, r->reason[0] ? r->reason : NULL);
            fputc('}', out);
        }
        fprintf(out, "\n  ], \"equal\": %d, \"known\": %d, \"different\": %d, "
                "\"not_measured\": %d, \"model_own\": %d}",
                count[CURED_MODEL_NCU_EQUAL], count[CURED_MODEL_NCU_KNOWN],
                count[CURED_MODEL_NCU_DIFFERENT], count[CURED_MODEL_NCU_NOT_MEASURED],
                count[CURED_MODEL_NCU_OWN]);
        return count[CURED_MODEL_NCU_DIFFERENT];
    }
    fprintf(out, "  %-58s %12s %12s %9s  %s\n", "metric", "model", "ncu", "model-ncu",
            "verdict");
    for (int i = 0; i < n; i++) {
        const cured_model_ncu_row *r = &rows[i];
        char model[32], ncu[64], diff[32];
        if (r->model_counted)
            snprintf(model, sizeof model, "%llu", (unsigned long long)r->model);
        else
            snprintf(model, sizeof model, "-");
        if (r->verdict == CURED_MODEL_NCU_OWN) {
            fprintf(out, "  %-58s %12s %12s %9s  model's own%s%s%s: %s\n", r->metric, model,
                    ncu_text(r, ncu, sizeof ncu), "", r->ncu_metric ? " (ncu: " : "",
                    r->ncu_metric ? r->ncu_metric : "", r->ncu_metric ? ")" : "", r->reason);
            continue;
        }
        fprintf(out, "  %-58s %12s %12s %9s  %s%s%s\n", r->metric, model,
                ncu_text(r, ncu, sizeof ncu), diff_text(r, diff, sizeof diff),
                cured_model_ncu_verdict_name(r->verdict), r->reason[0] ? ": " : "",
                r->reason);
    }
    fprintf(out, "compared with ncu: %d equal, %d known, %d different, %d not measured "
            "(%d of the model's own beside)\n", count[CURED_MODEL_NCU_EQUAL],
            count[CURED_MODEL_NCU_KNOWN], count[CURED_MODEL_NCU_DIFFERENT],
            count[CURED_MODEL_NCU_NOT_MEASURED], count[CURED_MODEL_NCU_OWN]);
    return count[CURED_MODEL_NCU_DIFFERENT];
}
