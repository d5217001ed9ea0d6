/* counters_report.c - the hardware view as text: an aligned table for people,
 * one JSON object for programs.
 *
 * defines: cured_model_counters_print_table, cured_model_counters_write_json
 */
#include "json_out.h"
#include "counters.h"

#include <stdlib.h>
#include <string.h>

static const char *ptx_note =
    "counts are per PTX instruction as the model runs it, not per SASS "
    "instruction: smsp__inst_executed and thread counts differ from ncu's; "
    "memory counts are PTX-level (no SASS was matched)";
static const char *sass_note =
    "smsp__inst_executed and thread counts are per PTX instruction as the "
    "model runs it; memory instructions, requests, wavefronts, conflicts and "
    "sectors follow the SASS (see \"sass\"): its widths, and warps that "
    "issue predicated SASS with no lane on";

/* The columns of the per-line table: a short heading and a counter. */
static const struct {
    const char *head;
    cured_model_counter id;
} columns[] = {
    {"inst", CURED_MODEL_CTR_INST},
    {"threads", CURED_MODEL_CTR_THREAD_INST},
    {"sh.ld", CURED_MODEL_CTR_SHARED_LD},
    {"sh.st", CURED_MODEL_CTR_SHARED_ST},
    {"ld.wf", CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS},
    {"st.wf", CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS},
    {"ld.cf", CURED_MODEL_CTR_SHARED_LD_CONFLICTS},
    {"st.cf", CURED_MODEL_CTR_SHARED_ST_CONFLICTS},
    {"g.ld", CURED_MODEL_CTR_GLOBAL_LD},
    {"g.ld.sec", CURED_MODEL_CTR_GLOBAL_LD_SECTORS},
    {"g.st", CURED_MODEL_CTR_GLOBAL_ST},
    {"g.st.sec", CURED_MODEL_CTR_GLOBAL_ST_SECTORS},
    {"atom+red", CURED_MODEL_CTR_GLOBAL_ATOM},
    {"bar", CURED_MODEL_CTR_BARRIERS},
    {"shfl", CURED_MODEL_CTR_SHUFFLES},
    {"div.br", CURED_MODEL_CTR_DIVERGENT_BRANCHES},
};
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

/* The value of a column: atomics and reductions share one. */
static uint64_t column_value(const uint64_t *v, cured_model_counter id)
{
    if (id == CURED_MODEL_CTR_GLOBAL_ATOM)
        return v[CURED_MODEL_CTR_GLOBAL_ATOM] + v[CURED_MODEL_CTR_GLOBAL_RED];
    return v[id];
}

/* The last path component of file index `file`, "?" when unknown. */
static const char *file_name(const cured_model_module *m, uint16_t file)
{
    if (file == 0 || file >= m->nfiles || m->files[file] == NULL)
        return "?";
    const char *slash = strrchr(m->files[file], '/');
    return slash ? slash + 1 : m->files[file];
}

/* Prints one function's rows keyed by `by`. Returns 0 or -1. */
static int print_rows(FILE *out, const cured_model_counters *c, int function,
                      cured_model_counters_by by)
{
    const cured_model_module *m = cured_model_counters_module(c);
    const ptx_function *fn = &m->functions[function];
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(c, function, by, &rows);
    if (n <= 0)
        return n;
    fprintf(out, "\n%s, by %s:\n", fn->name,
            by == CURED_MODEL_BY_PTX ? "PTX line" : by == CURED_MODEL_BY_SITE
                ? "source line (inlined code at its call site)" : "source line");
    fprintf(out, "%-24s", by == CURED_MODEL_BY_PTX ? "ptx line" : "line");
    for (int k = 0; k < NCOLUMNS; k++)
        fprintf(out, " %8s", columns[k].head);
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        char where[64];
        if (by == CURED_MODEL_BY_PTX)
            snprintf(where, sizeof where, "%u %s", (unsigned)rows[i].line,
                     ptx_opcode_name((ptx_opcode)fn->code[rows[i].first_pc].op));
        else if (rows[i].line == 0)
            snprintf(where, sizeof where, "(no line)");
        else
            snprintf(where, sizeof where, "%.40s:%u", file_name(m, rows[i].file),
                     (unsigned)rows[i].line);
        fprintf(out, "%-24s", where);
        for (int k = 0; k < NCOLUMNS; k++)
            fprintf(out, " %8llu",
                    (unsigned long long)column_value(rows[i].v, columns[k].id));
        fputc('\n', out);
    }
    free(rows);
    return 0;
}

int cured_model_counters_print_table(FILE *out, const cured_model_counters *c,
                               cured_model_counters_by by)
{
    const cured_model_module *m = cured_model_counters_module(c);
    const uint64_t *t = cured_model_counters_totals(c);
    const char *sass = cured_model_counters_sass_label(c);
    fprintf(out, "kernel %s: model counts (PTX instructions; memory %s)\n",
            m->functions[cured_model_counters_function(c)].name,
            sass ? "instructions as the SASS issues them" : "counts PTX-level");
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)k);
        fprintf(out, "  %-58s %12llu  %s\n", info->metric,
                (unsigned long long)t[k], info->what);
    }
    fprintf(out, "  %-58s %12.4f  %s\n",
            "smsp__thread_inst_executed_per_inst_executed.ratio / 32",
            cured_model_counters_active_share(c), "active-lane share");
    if (!cured_model_counters_complete(c))
        fprintf(out, "  (out of memory: some per-line rows are missing)\n");
    if (by != CURED_MODEL_BY_TOTAL) {
        /* The entry first, then any function it called. */
        if (print_rows(out, c, cured_model_counters_function(c), by) < 0)
            return -1;
        for (int f = 0; f < m->nfunctions; f++)
            if (f != cured_model_counters_function(c) && print_rows(out, c, f, by) < 0)
                return -1;
    }
    return ferror(out) ? -1 : 0;
}

/* ----------------------------------------------------------------- JSON */

/* Writes {"key": n, ...} for the non-zero counts of v. */
static void json_counts(FILE *out, const uint64_t *v)
{
    int first = 1;
    fputc('{', out);
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        if (v[k] == 0)
            continue;
        fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
                cured_model_counter_describe((cured_model_counter)k)->key,
                (unsigned long long)v[k]);
        first = 0;
    }
    fputc('}', out);
}

/* Writes one function's rows keyed by `by` as a JSON array. */
static int json_rows(FILE *out, const cured_model_counters *c, int function,
                     cured_model_counters_by by)
{
    const cured_model_module *m = cured_model_counters_module(c);
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(c, function, by, &rows);
    if (n < 0)
        return -1;
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s\n      {", i ? "," : "");
        if (by == CURED_MODEL_BY_PTX) {
            fprintf(out, "\"ptx_line\": %u, \"pc\": %d, \"op\": ",
                    (unsigned)rows[i].line, rows[i].first_pc);
            cured_json_string(out, ptx_opcode_name(
                (ptx_opcode)m->functions[function].code[rows[i].first_pc].op));
        } else {
            fprintf(out, "\"file\": ");
            cured_json_string(out, rows[i].file > 0 && rows[i].file < m->nfiles
                                 ? m->files[rows[i].file] : NULL);
            fprintf(out, ", \"line\": %u", (unsigned)rows[i].line);
        }
        fprintf(out, ", \"counts\": ");
        json_counts(out, rows[i].v);
        fputc('}', out);
    }
    fprintf(out, "%s]", n ? "\n    " : "");
    free(rows);
    return 0;
}

int cured_model_counters_write_json(FILE *out, const cured_model_counters *c)
{
    const cured_model_module *m = cured_model_counters_module(c);
    const uint64_t *t = cured_model_counters_totals(c);
    fprintf(out, "{\n  \"kernel\": ");
    cured_json_string(out, m->functions[cured_model_counters_function(c)].name);
    fprintf(out, ",\n  \"note\": ");
    cured_json_string(out, cured_model_counters_sass_label(c) ? sass_note : ptx_note);
    fprintf(out, ",\n  \"sass\": ");
    if (cured_model_counters_sass_label(c))
        cured_json_string(out, cured_model_counters_sass_label(c));
    else
        fputs("null", out);
    fprintf(out, ",\n  \"complete\": %s", cured_model_counters_complete(c) ? "true" : "false");
    fprintf(out, ",\n  \"totals\": {");
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        fprintf(out, "%s\n    ", k ? "," : "");
        cured_json_string(out, cured_model_counter_describe((cured_model_counter)k)->metric);
        fprintf(out, ": %llu", (unsigned long long)t[k]);
    }
    fprintf(out, "\n  },\n  \"derived\": {\"active_lane_share\": %.6f, "
                 "\"metric\": \"smsp__thread_inst_executed_per_inst_executed"
                 ".ratio / 32\"},\n  \"counters\": [",
            cured_model_counters_active_share(c));
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)k);
        fprintf(out, "%s\n    {\"key\": ", k ? "," : "");
        cured_json_string(out, info->key);
        fprintf(out, ", \"metric\": ");
        cured_json_string(out, info->metric);
        fprintf(out, ", \"meaning\": ");
        cured_json_string(out, info->what);
        fputc('}', out);
    }
    fprintf(out, "\n  ],\n  \"functions\": [");
    int first = 1;
    for (int f = 0; f < m->nfunctions; f++) {
        if (cured_model_counters_at(c, f, 0) == NULL)
            continue; /* never ran */
        fprintf(out, "%s\n    {\"name\": ", first ? "" : ",");
        cured_json_string(out, m->functions[f].name);
        fprintf(out, ",\n     \"lines\": ");
        if (json_rows(out, c, f, CURED_MODEL_BY_SOURCE) < 0)
            return -1;
        fprintf(out, ",\n     \"ptx\": ");
        if (json_rows(out, c, f, CURED_MODEL_BY_PTX) < 0)
            return -1;
        fputc('}', out);
        first = 0;
    }
    fprintf(out, "%s]\n}\n", first ? "" : "\n  ");
    return ferror(out) ? -1 : 0;
}
