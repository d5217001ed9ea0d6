/* counters_report.c - the hardware view as text: an aligned table for people,
 * one JSON object for programs.
 *
 * defines: cured_model_counters_print_table, cured_model_counters_print_legend,
 *          cured_model_counters_write_json
 *
 * Each row of the per-line table ends with the line it counts: the source
 * line's text from the file the PTX's .file names, or, when that file
 * cannot be read here (or the row has no source line), the PTX line of
 * the row's first instruction, marked "ptx:".
 */
#include "json_out.h"
#include "counters.h"
#include "source_text.h"

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

/* The columns of the per-line table: a short heading, a counter and what
 * the heading stands for (the legend). */
static const struct {
    const char *head;
    cured_model_counter id;
    const char *what;
} columns[] = {
    {"inst", CURED_MODEL_CTR_INST, "warp instructions issued (PTX)"},
    {"threads", CURED_MODEL_CTR_THREAD_INST, "thread instructions (active lanes summed)"},
    {"sh.ld", CURED_MODEL_CTR_SHARED_LD, "shared-memory load instructions"},
    {"sh.st", CURED_MODEL_CTR_SHARED_ST, "shared-memory store instructions"},
    {"ld.wf", CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS, "shared-load wavefronts"},
    {"st.wf", CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS, "shared-store wavefronts"},
    {"ld.cf", CURED_MODEL_CTR_SHARED_LD_CONFLICTS,
     "shared-load bank conflicts (wavefronts beyond the ideal)"},
    {"st.cf", CURED_MODEL_CTR_SHARED_ST_CONFLICTS, "shared-store bank conflicts"},
    {"g.ld", CURED_MODEL_CTR_GLOBAL_LD, "global load instructions"},
    {"g.ld.sec", CURED_MODEL_CTR_GLOBAL_LD_SECTORS, "32-byte sectors the global loads touch"},
    {"g.st", CURED_MODEL_CTR_GLOBAL_ST, "global store instructions"},
    {"g.st.sec", CURED_MODEL_CTR_GLOBAL_ST_SECTORS, "32-byte sectors the global stores touch"},
    {"atom+red", CURED_MODEL_CTR_GLOBAL_ATOM, "global atomics and reductions (atomicAdd ...)"},
    {"bar", CURED_MODEL_CTR_BARRIERS, "barriers (__syncthreads), per warp"},
    {"shfl", CURED_MODEL_CTR_SHUFFLES, "warp shuffles (__shfl_*_sync)"},
    {"div.br", CURED_MODEL_CTR_DIVERGENT_BRANCHES,
     "divergent branches: a warp's active lanes went both ways"},
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
    const char *name = ptx_source_file_name(m, file);
    return name ? name : "?";
}

/* What a row is called in its first column: "k.cu:12", "(no line)", or
 * for rows by PTX line "42 ld". */
static void row_where(const cured_model_module *m, const ptx_function *fn,
                      const cured_model_counters_line *row, cured_model_counters_by by,
                      char *where, size_t cap)
{
    if (by == CURED_MODEL_BY_PTX)
        snprintf(where, cap, "%u %s", (unsigned)row->line,
                 ptx_opcode_name((ptx_opcode)fn->code[row->first_pc].op));
    else if (row->line == 0)
        snprintf(where, cap, "(no line)");
    else
        snprintf(where, cap, "%.60s:%u", file_name(m, row->file), (unsigned)row->line);
}

/* The text shown at the end of a row: the source line, else "ptx: " and
 * the PTX line of the row's first instruction, else "". Cut to `width`
 * characters with "..." (never inside a UTF-8 character). */
static void row_text(source_text *src, const ptx_function *fn,
                     const cured_model_counters_line *row, cured_model_counters_by by,
                     const char *ptx_text, size_t ptx_len, char *out, size_t cap,
                     size_t width)
{
    out[0] = '\0';
    if (by == CURED_MODEL_BY_PTX || row->line == 0 ||
        !source_text_line(src, row->file, row->line, out, cap)) {
        char ptx[200];
        ptx[0] = '\0';
        if (ptx_text != NULL)
            ptx_line_text(ptx_text, ptx_len, fn->code[row->first_pc].ptx_line, ptx,
                          sizeof ptx);
        snprintf(out, cap, "%s%s", ptx[0] && by != CURED_MODEL_BY_PTX ? "ptx: " : "",
                 ptx);
    }
    size_t chars = 0, cut = 0;   /* cut: where character width - 3 ends */
    for (size_t n = 0; out[n]; n++) {
        if (((unsigned char)out[n] & 0xC0) == 0x80)
            continue;            /* a UTF-8 continuation byte */
        if (chars == width - 3)
            cut = n;
        chars++;
    }
    if (chars > width)
        snprintf(out + cut, cap - cut, "...");
}

/* Prints one function's rows keyed by `by`. Returns 1 when it printed a
 * table, 0 when the function has no rows, -1 when out of memory. */
static int print_rows(FILE *out, const cured_model_counters *c, int function,
                      cured_model_counters_by by, source_text *src,
                      const char *ptx_text, size_t ptx_len)
{
    const cured_model_module *m = cured_model_counters_module(c);
    const ptx_function *fn = &m->functions[function];
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(c, function, by, &rows);
    if (n <= 0)
        return n;
    int width = 10;
    for (int i = 0; i < n; i++) {
        char where[96];
        row_where(m, fn, &rows[i], by, where, sizeof where);
        int len = (int)strlen(where);
        width = len > width ? len : width;
    }
    fprintf(out, "\n%s, by %s:\n", fn->name,
            by == CURED_MODEL_BY_PTX ? "PTX line" : by == CURED_MODEL_BY_SITE
                ? "source line (inlined code at its call site)"
                : "source line (CUDA's own headers at the line that calls them)");
    fprintf(out, "%-*s", width, by == CURED_MODEL_BY_PTX ? "ptx line" : "line");
    for (int k = 0; k < NCOLUMNS; k++)
        fprintf(out, " %8s", columns[k].head);
    fprintf(out, "  %s\n", by == CURED_MODEL_BY_PTX ? "instruction" : "source");
    for (int i = 0; i < n; i++) {
        char where[96], text[320];
        row_where(m, fn, &rows[i], by, where, sizeof where);
        row_text(src, fn, &rows[i], by, ptx_text, ptx_len, text, sizeof text, 72);
        fprintf(out, "%-*s", width, where);
        for (int k = 0; k < NCOLUMNS; k++)
            fprintf(out, " %8llu",
                    (unsigned long long)column_value(rows[i].v, columns[k].id));
        fprintf(out, "%s%s\n", text[0] ? "  " : "", text);
    }
    free(rows);
    return 1;
}

void cured_model_counters_print_legend(FILE *out)
{
    fprintf(out, "columns of the per-line table:\n");
    for (int k = 0; k < NCOLUMNS; k++)
        fprintf(out, "  %-9s %s\n", columns[k].head, columns[k].what);
}

int cured_model_counters_print_table(FILE *out, const cured_model_counters *c,
                                     cured_model_counters_by by, const char *ptx_text,
                                     size_t ptx_len)
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
    if (by == CURED_MODEL_BY_TOTAL)
        return ferror(out) ? -1 : 0;
    source_text *src = source_text_new(m);
    if (src == NULL)
        return -1;
    /* The entry first, then any function it called. */
    int tables = 0, rc = 0, entry = cured_model_counters_function(c);
    for (int i = -1; i < m->nfunctions && rc >= 0; i++) {
        int f = i < 0 ? entry : i;
        if (i >= 0 && f == entry)
            continue;
        rc = print_rows(out, c, f, by, src, ptx_text, ptx_len);
        tables += rc > 0;
    }
    source_text_free(src);
    if (rc < 0)
        return -1;
    if (tables > 0) {
        fputc('\n', out);
        cured_model_counters_print_legend(out);
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

/* Writes one function's rows keyed by `by` as a JSON array; rows by
 * source line carry their line's text (null when the file cannot be read
 * here). */
static int json_rows(FILE *out, const cured_model_counters *c, int function,
                     cured_model_counters_by by, source_text *src)
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
            fprintf(out, ", \"line\": %u, \"source_text\": ", (unsigned)rows[i].line);
            char text[1024];
            if (source_text_line(src, rows[i].file, rows[i].line, text, sizeof text))
                cured_json_string(out, text);
            else
                fputs("null", out);
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
    source_text *src = source_text_new(m);
    if (src == NULL)
        return -1;
    int first = 1, rc = 0;
    for (int f = 0; f < m->nfunctions; f++) {
        if (cured_model_counters_at(c, f, 0) == NULL)
            continue; /* never ran */
        fprintf(out, "%s\n    {\"name\": ", first ? "" : ",");
        cured_json_string(out, m->functions[f].name);
        fprintf(out, ",\n     \"lines\": ");
        if (json_rows(out, c, f, CURED_MODEL_BY_SOURCE, src) < 0) {
            rc = -1;
            break;
        }
        fprintf(out, ",\n     \"ptx\": ");
        if (json_rows(out, c, f, CURED_MODEL_BY_PTX, src) < 0) {
            rc = -1;
            break;
        }
        fputc('}', out);
        first = 0;
    }
    source_text_free(src);
    if (rc < 0)
        return -1;
    fprintf(out, "%s]\n}\n", first ? "" : "\n  ");
    return ferror(out) ? -1 : 0;
}
