/* counters_report.c - the hardware view as text: an aligned table for people,
 * one JSON object for programs.
 *
 * defines: model_counters_print_table, model_counters_write_json
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
    model_counter id;
} columns[] = {
    {"inst", MODEL_CTR_INST},
    {"threads", MODEL_CTR_THREAD_INST},
    {"sh.ld", MODEL_CTR_SHARED_LD},
    {"sh.st", MODEL_CTR_SHARED_ST},
    {"ld.wf", MODEL_CTR_SHARED_LD_WAVEFRONTS},
    {"st.wf", MODEL_CTR_SHARED_ST_WAVEFRONTS},
    {"ld.cf", MODEL_CTR_SHARED_LD_CONFLICTS},
    {"st.cf", MODEL_CTR_SHARED_ST_CONFLICTS},
    {"g.ld", MODEL_CTR_GLOBAL_LD},
    {"g.ld.sec", MODEL_CTR_GLOBAL_LD_SECTORS},
    {"g.st", MODEL_CTR_GLOBAL_ST},
    {"g.st.sec", MODEL_CTR_GLOBAL_ST_SECTORS},
    {"atom+red", MODEL_CTR_GLOBAL_ATOM},
    {"bar", MODEL_CTR_BARRIERS},
    {"shfl", MODEL_CTR_SHUFFLES},
    {"div.br", MODEL_CTR_DIVERGENT_BRANCHES},
};
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

/* The value of a column: atomics and reductions share one. */
static uint64_t column_value(const uint64_t *v, model_counter id)
{
    if (id == MODEL_CTR_GLOBAL_ATOM)
        return v[MODEL_CTR_GLOBAL_ATOM] + v[MODEL_CTR_GLOBAL_RED];
    return v[id];
}

/* The last path component of file index `file`, "?" when unknown. */
static const char *file_name(const ptx_module *m, uint16_t file)
{
    if (file == 0 || file >= m->nfiles || m->files[file] == NULL)
        return "?";
    const char *slash = strrchr(m->files[file], '/');
    return slash ? slash + 1 : m->files[file];
}

/* Prints one function's rows keyed by `by`. Returns 0 or -1. */
static int print_rows(FILE *out, const model_counters *c, int function,
                      model_counters_by by)
{
    const ptx_module *m = model_counters_module(c);
    const ptx_function *fn = &m->functions[function];
    model_counters_line *rows;
    int n = model_counters_lines(c, function, by, &rows);
    if (n <= 0)
        return n;
    fprintf(out, "\n%s, by %s:\n", fn->name,
            by == MODEL_BY_PTX ? "PTX line" : by == MODEL_BY_SITE
                ? "source line (inlined code at its call site)" : "source line");
    fprintf(out, "%-24s", by == MODEL_BY_PTX ? "ptx line" : "line");
    for (int k = 0; k < NCOLUMNS; k++)
        fprintf(out, " %8s", columns[k].head);
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        char where[64];
        if (by == MODEL_BY_PTX)
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

int model_counters_print_table(FILE *out, const model_counters *c,
                               model_counters_by by)
{
    const ptx_module *m = model_counters_module(c);
    const uint64_t *t = model_counters_totals(c);
    const char *sass = model_counters_sass_label(c);
    fprintf(out, "kernel %s: model counts (PTX instructions; memory %s)\n",
            m->functions[model_counters_function(c)].name,
            sass ? "instructions as the SASS issues them" : "counts PTX-level");
    for (int k = 0; k < MODEL_CTR_COUNT; k++) {
        const model_counter_info *info = model_counter_describe((model_counter)k);
        fprintf(out, "  %-58s %12llu  %s\n", info->metric,
                (unsigned long long)t[k], info->what);
    }
    fprintf(out, "  %-58s %12.4f  %s\n",
            "smsp__thread_inst_executed_per_inst_executed.ratio / 32",
            model_counters_active_share(c), "active-lane share");
    if (!model_counters_complete(c))
        fprintf(out, "  (out of memory: some per-line rows are missing)\n");
    if (by != MODEL_BY_TOTAL) {
        /* The entry first, then any function it called. */
        if (print_rows(out, c, model_counters_function(c), by) < 0)
            return -1;
        for (int f = 0; f < m->nfunctions; f++)
            if (f != model_counters_function(c) && print_rows(out, c, f, by) < 0)
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
    for (int k = 0; k < MODEL_CTR_COUNT; k++) {
        if (v[k] == 0)
            continue;
        fprintf(out, "%s\"%s\": %llu", first ? "" : ", ",
                model_counter_describe((model_counter)k)->key,
                (unsigned long long)v[k]);
        first = 0;
    }
    fputc('}', out);
}

/* Writes one function's rows keyed by `by` as a JSON array. */
static int json_rows(FILE *out, const model_counters *c, int function,
                     model_counters_by by)
{
    const ptx_module *m = model_counters_module(c);
    model_counters_line *rows;
    int n = model_counters_lines(c, function, by, &rows);
    if (n < 0)
        return -1;
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s\n      {", i ? "," : "");
        if (by == MODEL_BY_PTX) {
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

int model_counters_write_json(FILE *out, const model_counters *c)
{
    const ptx_module *m = model_counters_module(c);
    const uint64_t *t = model_counters_totals(c);
    fprintf(out, "{\n  \"kernel\": ");
    cured_json_string(out, m->functions[model_counters_function(c)].name);
    fprintf(out, ",\n  \"note\": ");
    cured_json_string(out, model_counters_sass_label(c) ? sass_note : ptx_note);
    fprintf(out, ",\n  \"sass\": ");
    if (model_counters_sass_label(c))
        cured_json_string(out, model_counters_sass_label(c));
    else
        fputs("null", out);
    fprintf(out, ",\n  \"complete\": %s", model_counters_complete(c) ? "true" : "false");
    fprintf(out, ",\n  \"totals\": {");
    for (int k = 0; k < MODEL_CTR_COUNT; k++) {
        fprintf(out, "%s\n    ", k ? "," : "");
        cured_json_string(out, model_counter_describe((model_counter)k)->metric);
        fprintf(out, ": %llu", (unsigned long long)t[k]);
    }
    fprintf(out, "\n  },\n  \"derived\": {\"active_lane_share\": %.6f, "
                 "\"metric\": \"smsp__thread_inst_executed_per_inst_executed"
                 ".ratio / 32\"},\n  \"counters\": [",
            model_counters_active_share(c));
    for (int k = 0; k < MODEL_CTR_COUNT; k++) {
        const model_counter_info *info = model_counter_describe((model_counter)k);
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
        if (model_counters_at(c, f, 0) == NULL)
            continue; /* never ran */
        fprintf(out, "%s\n    {\"name\": ", first ? "" : ",");
        cured_json_string(out, m->functions[f].name);
        fprintf(out, ",\n     \"lines\": ");
        if (json_rows(out, c, f, MODEL_BY_SOURCE) < 0)
            return -1;
        fprintf(out, ",\n     \"ptx\": ");
        if (json_rows(out, c, f, MODEL_BY_PTX) < 0)
            return -1;
        fputc('}', out);
        first = 0;
    }
    fprintf(out, "%s]\n}\n", first ? "" : "\n  ");
    return ferror(out) ? -1 : 0;
}
