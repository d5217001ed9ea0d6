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
    "no SASS was matched: memory counts are PTX-level (ncu counts SASS "
    "instructions); the SASS branch targets are not counted (null); "
    "model__ptx_* counts are PTX instructions, which ncu does not see";
static const char *sass_note =
    "counts under Nsight Compute names follow the SASS (see \"sass\"): "
    "memory instructions, requests, wavefronts, conflicts and sectors, "
    "branch targets, BAR/SHFL/VOTE; model__ptx_* counts are PTX "
    "instructions, which ncu does not see";

/* The columns of the per-line table: a short heading, a counter, what the
 * heading stands for (the legend), and when it is shown. */
enum { SHOW_ALWAYS = 0, SHOW_ATOMICS, SHOW_SASS, SHOW_PTX };
static const struct {
    const char *head;
    cured_model_counter id;
    const char *what;
    int show;
} columns[] = {
    {"inst", CURED_MODEL_CTR_INST, "PTX warp instructions (model__ptx_inst_executed)",
     SHOW_ALWAYS},
    {"threads", CURED_MODEL_CTR_THREAD_INST, "PTX thread instructions (active lanes summed)",
     SHOW_ALWAYS},
    {"sh.ld", CURED_MODEL_CTR_SHARED_LD, "shared-memory load instructions", SHOW_ALWAYS},
    {"sh.st", CURED_MODEL_CTR_SHARED_ST, "shared-memory store instructions", SHOW_ALWAYS},
    {"ld.wf", CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS, "shared-load wavefronts", SHOW_ALWAYS},
    {"st.wf", CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS, "shared-store wavefronts", SHOW_ALWAYS},
    {"ld.cf", CURED_MODEL_CTR_SHARED_LD_CONFLICTS,
     "shared-load bank conflicts (wavefronts beyond the ideal)", SHOW_ALWAYS},
    {"st.cf", CURED_MODEL_CTR_SHARED_ST_CONFLICTS, "shared-store bank conflicts", SHOW_ALWAYS},
    {"sh.atom", CURED_MODEL_CTR_SHARED_ATOM,
     "shared atomic instructions (shown when the kernel has atomics)", SHOW_ATOMICS},
    {"at.wf", CURED_MODEL_CTR_SHARED_ATOM_WAVEFRONTS, "shared-atomic wavefronts",
     SHOW_ATOMICS},
    {"at.cf", CURED_MODEL_CTR_SHARED_ATOM_CONFLICTS, "shared-atomic bank conflicts",
     SHOW_ATOMICS},
    {"g.ld", CURED_MODEL_CTR_GLOBAL_LD, "global load instructions", SHOW_ALWAYS},
    {"g.ld.sec", CURED_MODEL_CTR_GLOBAL_LD_SECTORS, "32-byte sectors the global loads touch",
     SHOW_ALWAYS},
    {"g.st", CURED_MODEL_CTR_GLOBAL_ST, "global store instructions", SHOW_ALWAYS},
    {"g.st.sec", CURED_MODEL_CTR_GLOBAL_ST_SECTORS, "32-byte sectors the global stores touch",
     SHOW_ALWAYS},
    {"g.atom", CURED_MODEL_CTR_GLOBAL_ATOM,
     "global atomics whose value returns (ATOMG; shown when the kernel has atomics)",
     SHOW_ATOMICS},
    {"atom.sec", CURED_MODEL_CTR_GLOBAL_ATOM_SECTORS, "their sector accesses", SHOW_ATOMICS},
    {"g.red", CURED_MODEL_CTR_GLOBAL_RED,
     "global reductions (RED: atomics whose value is unused)", SHOW_ATOMICS},
    {"red.sec", CURED_MODEL_CTR_GLOBAL_RED_SECTORS, "their sector accesses", SHOW_ATOMICS},
    {"bar", CURED_MODEL_CTR_BARRIERS, "barriers (__syncthreads), per warp", SHOW_ALWAYS},
    {"shfl", CURED_MODEL_CTR_SHUFFLES, "warp shuffles (__shfl_*_sync)", SHOW_ALWAYS},
    {"div.br", CURED_MODEL_CTR_BRANCH_DIVERGENT,
     "divergent branches in the SASS: a warp's active lanes went both ways "
     "(with SASS)", SHOW_SASS},
    {"div.ptx", CURED_MODEL_CTR_DIVERGENT_BRANCHES,
     "divergent PTX branches (without SASS: some are gone from the SASS)", SHOW_PTX},
};
#define NCOLUMNS ((int)(sizeof columns / sizeof columns[0]))

/* 1 when the kernel's counts have an atomic of any kind. */
static int has_atomics(const uint64_t *t)
{
    return t[CURED_MODEL_CTR_SHARED_ATOM] || t[CURED_MODEL_CTR_GLOBAL_ATOM] ||
           t[CURED_MODEL_CTR_GLOBAL_RED];
}

/* 1 when column k is in the table of counts c. */
static int column_shown(const cured_model_counters *c, int k)
{
    switch (columns[k].show) {
    case SHOW_ATOMICS: return has_atomics(cured_model_counters_totals(c));
    case SHOW_SASS: return cured_model_counters_sass_label(c) != NULL;
    case SHOW_PTX: return cured_model_counters_sass_label(c) == NULL;
    default: return 1;
    }
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
        if (column_shown(c, k))
            fprintf(out, " %8s", columns[k].head);
    fprintf(out, "  %s\n", by == CURED_MODEL_BY_PTX ? "instruction" : "source");
    for (int i = 0; i < n; i++) {
        char where[96], text[320];
        row_where(m, fn, &rows[i], by, where, sizeof where);
        row_text(src, fn, &rows[i], by, ptx_text, ptx_len, text, sizeof text, 72);
        fprintf(out, "%-*s", width, where);
        for (int k = 0; k < NCOLUMNS; k++)
            if (column_shown(c, k))
                fprintf(out, " %8llu", (unsigned long long)rows[i].v[columns[k].id]);
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
    fprintf(out, "kernel %s: model counts (under ncu's names: %s; model__ptx_*: "
            "the PTX the model runs)\n",
            m->functions[cured_model_counters_function(c)].name,
            sass ? "as the SASS issues them" : "PTX-level, no SASS");
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)k);
        if (info->needs_sass && sass == NULL)
            fprintf(out, "  %-58s %12s  %s (needs the SASS)\n", info->metric, "-",
                    info->what);
        else
            fprintf(out, "  %-58s %12llu  %s\n", info->metric,
                    (unsigned long long)t[k], info->what);
    }
    fprintf(out, "  %-58s %12.4f  %s\n", "model__ptx_active_lane_share",
            cured_model_counters_active_share(c),
            "active lanes per PTX warp instruction / 32");
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
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)k);
        cured_json_string(out, info->metric);
        if (info->needs_sass && cured_model_counters_sass_label(c) == NULL)
            fputs(": null", out);
        else
            fprintf(out, ": %llu", (unsigned long long)t[k]);
    }
    fprintf(out, "\n  },\n  \"derived\": {\"active_lane_share\": %.6f, "
                 "\"metric\": \"model__ptx_active_lane_share\"},\n  \"counters\": [",
            cured_model_counters_active_share(c));
    for (int k = 0; k < CURED_MODEL_CTR_COUNT; k++) {
        const cured_model_counter_info *info = cured_model_counter_describe((cured_model_counter)k);
        fprintf(out, "%s\n    {\"key\": ", k ? "," : "");
        cured_json_string(out, info->key);
        fprintf(out, ", \"metric\": ");
        cured_json_string(out, info->metric);
        fprintf(out, ", \"meaning\": ");
        cured_json_string(out, info->what);
        fprintf(out, ", \"ncu\": %s, \"needs_sass\": %s}", info->ncu ? "true" : "false",
                info->needs_sass ? "true" : "false");
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
