/* step_view_report.c - the lesson's table and its JSON from step views, and
 * one view's tree steps as a table.
 *
 * defines: cured_model_step_table_header, cured_model_step_view_format_row,
 *          cured_model_step_view_print_table, cured_model_step_view_write_json,
 *          cured_model_step_view_print_steps
 */
#include "json_out.h"
#include "step_view.h"

#include <string.h>

/* The header of the lesson's table (docs/lesson.md); one place to change it. */
const char cured_model_step_table_header[] =
    "| version | shared-memory accesses | `__syncthreads()` | "
    "worst bank conflict | divergent warps (first step) |\n"
    "|---|---|---|---|---|\n";

int cured_model_step_view_format_row(char *buf, size_t size, const char *label,
                               const cured_model_step_summary *s)
{
    char worst[24], first[40];
    if (s->worst_bank_degree == 0)
        snprintf(worst, sizeof worst, "-");
    else
        snprintf(worst, sizeof worst, "%u-way", (unsigned)s->worst_bank_degree);
    if (!s->has_first_step)
        snprintf(first, sizeof first, "none");
    else
        snprintf(first, sizeof first, "%u of %u",
                 (unsigned)s->first_step_divergent, (unsigned)s->first_step_warps);
    return snprintf(buf, size, "| %s | %llu | %llu | %s | %s |", label,
                    (unsigned long long)s->accesses,
                    (unsigned long long)s->barriers, worst, first);
}

int cured_model_step_view_print_table(FILE *out, const char *const names[],
                                const cured_model_step_view *const views[], int count)
{
    fputs(cured_model_step_table_header, out);
    for (int i = 0; i < count; i++) {
        char row[256];
        cured_model_step_summary s = cured_model_step_view_summary(views[i]);
        cured_model_step_view_format_row(row, sizeof row, names[i], &s);
        fprintf(out, "%s\n", row);
    }
    return ferror(out) ? -1 : 0;
}

int cured_model_step_view_write_json(FILE *out, const char *const names[],
                               const cured_model_step_view *const views[], int count)
{
    fputc('[', out);
    for (int i = 0; i < count; i++) {
        cured_model_step_summary s = cured_model_step_view_summary(views[i]);
        fprintf(out, "%s\n  {\"version\": ", i ? "," : "");
        cured_json_string(out, names[i]);
        fprintf(out,
                ", \"shared_accesses\": %llu, \"barriers\": %llu, "
                "\"worst_bank_degree\": %u, \"tree_steps\": %d, ",
                (unsigned long long)s.accesses, (unsigned long long)s.barriers,
                (unsigned)s.worst_bank_degree, s.tree_steps);
        if (s.has_first_step)
            fprintf(out, "\"first_step\": {\"divergent_warps\": %u, \"warps\": %u}, ",
                    (unsigned)s.first_step_divergent, (unsigned)s.first_step_warps);
        else
            fprintf(out, "\"first_step\": null, ");
        fprintf(out,
                "\"shuffle_rounds_per_warp\": %u, \"shuffles\": %llu, "
                "\"excluded\": {\"initial_stores\": %llu, \"initial_barriers\": %llu, "
                "\"final_reads\": %llu}, \"blocks\": %u, \"complete\": %s,\n   \"steps\": [",
                (unsigned)s.shuffle_rounds, (unsigned long long)s.shuffles,
                (unsigned long long)s.initial_stores,
                (unsigned long long)s.initial_barriers,
                (unsigned long long)s.final_reads, (unsigned)s.blocks,
                cured_model_step_view_complete(views[i]) ? "true" : "false");
        const cured_model_step *steps;
        int n = cured_model_step_view_steps(views[i], &steps);
        for (int k = 0; k < n; k++)
            fprintf(out,
                    "%s\n     {\"block\": %u, \"interval\": %u, \"accesses\": %llu, "
                    "\"adding_threads\": %u, \"bank_degree\": %u, \"warps\": %u, "
                    "\"divergent_warps\": %u}",
                    k ? "," : "", (unsigned)steps[k].block,
                    (unsigned)steps[k].interval,
                    (unsigned long long)steps[k].accesses,
                    (unsigned)steps[k].adding_threads,
                    (unsigned)steps[k].bank_degree, (unsigned)steps[k].warps,
                    (unsigned)steps[k].divergent_warps);
        fprintf(out, "%s]}", n ? "\n   " : "");
    }
    fprintf(out, "%s]\n", count ? "\n" : "");
    return ferror(out) ? -1 : 0;
}

int cured_model_step_view_print_steps(FILE *out, const cured_model_step_view *view)
{
    const cured_model_step *steps;
    int n = cured_model_step_view_steps(view, &steps);
    if (n == 0) {
        fprintf(out, "\nno tree steps (no interval where a thread reads and "
                "writes one shared word)\n");
        return ferror(out) ? -1 : 0;
    }
    fprintf(out, "\n| step | block | interval | accesses | adding threads | "
            "bank conflict | divergent warps |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        const cured_model_step *s = &steps[i];
        char degree[16];
        if (s->bank_degree)
            snprintf(degree, sizeof degree, "%u-way", s->bank_degree);
        else
            snprintf(degree, sizeof degree, "-");
        fprintf(out, "| %d | %u | %u | %llu | %u | %s | %u of %u |\n", i + 1,
                s->block, s->interval, (unsigned long long)s->accesses,
                s->adding_threads, degree, s->divergent_warps, s->warps);
    }
    return ferror(out) ? -1 : 0;
}
