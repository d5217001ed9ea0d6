/* findings_report.c - a run's findings as text, one line each, and as JSON.
 *
 * defines: cured_model_findings_print, cured_model_findings_write_json,
 *          cured_model_findings_result_hazards
 *
 * Each finding names its kind, block and thread, the PTX instruction's
 * text and line, and the source line (with the kernel's own line when the
 * code was inlined from elsewhere, such as a CUDA header's intrinsic).
 */
#include "cured_model.h"
#include "ptx.h"
#include "json_out.h"

#include <stdio.h>
#include <string.h>

/* Prints ", file:line" of a finding and, when the code was inlined there
 * from elsewhere, ", inlined in file:line" (the kernel's own line). */
static void print_source(FILE *out, const cured_model_module *m, const cured_model_finding *f)
{
    const char *src = ptx_source_file_name(m, f->src_file);
    if (src == NULL || f->src_line == 0)
        return;
    fprintf(out, ", %s:%u", src, f->src_line);
    if (f->function < 0 || f->function >= m->nfunctions || f->pc < 0 ||
        f->pc >= m->functions[f->function].ncode)
        return;
    const ptx_instr *ins = &m->functions[f->function].code[f->pc];
    const char *site = ptx_source_file_name(m, ins->site_file);
    if (site != NULL && ins->site_line &&
        (ins->site_file != f->src_file || ins->site_line != f->src_line))
        fprintf(out, ", inlined in %s:%u", site, ins->site_line);
}

void cured_model_findings_print(FILE *out, const cured_model_findings *list,
                                 const cured_model_module *module,
                                 const char *ptx_text, size_t ptx_len)
{
    for (int i = 0; i < list->count; i++) {
        const cured_model_finding *f = &list->items[i];
        char ins[160];
        ptx_line_text(ptx_text, ptx_len, f->ptx_line, ins, sizeof ins);
        fprintf(out, "%s: %s, block (%u,%u,%u) thread (%u,%u,%u)",
                f->severity == CURED_MODEL_ERROR ? "error" : "hazard",
                cured_model_finding_kind_name(f->kind), f->block[0], f->block[1],
                f->block[2], f->thread[0], f->thread[1], f->thread[2]);
        if (ins[0])
            fprintf(out, ": `%s`", ins);
        if (f->ptx_line)
            fprintf(out, " at PTX line %u", f->ptx_line);
        print_source(out, module, f);
        if (list->repeats[i])
            fprintf(out, " (%u more like it)", list->repeats[i]);
        if (f->message[0])
            fprintf(out, ": %s", f->message);
        fputc('\n', out);
    }
}

void cured_model_findings_write_json(FILE *out, const cured_model_findings *list,
                                      const cured_model_module *module,
                                      const char *ptx_text, size_t ptx_len)
{
    fputc('[', out);
    for (int i = 0; i < list->count; i++) {
        const cured_model_finding *f = &list->items[i];
        char ins[160];
        ptx_line_text(ptx_text, ptx_len, f->ptx_line, ins, sizeof ins);
        fprintf(out, "%s\n    {\"severity\": \"%s\", \"kind\": ", i ? "," : "",
                f->severity == CURED_MODEL_ERROR ? "error" : "hazard");
        cured_json_string(out, cured_model_finding_kind_name(f->kind));
        fprintf(out, ", \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], "
                "\"instruction\": ", f->block[0], f->block[1], f->block[2],
                f->thread[0], f->thread[1], f->thread[2]);
        cured_json_string(out, ins);
        fprintf(out, ", \"ptx_line\": %u, \"source_file\": ", f->ptx_line);
        if (f->src_file && f->src_file < module->nfiles && module->files[f->src_file])
            cured_json_string(out, module->files[f->src_file]);
        else
            fputs("null", out);
        fprintf(out, ", \"source_line\": %u, \"address\": %llu, \"repeats\": %u, "
                "\"message\": ", f->src_line, (unsigned long long)f->address,
                list->repeats[i]);
        cured_json_string(out, f->message);
        fputc('}', out);
    }
    fputs(list->count ? "\n  ]" : "]", out);
}

/* 1 for the hazard kinds whose outcome depends on what the hardware does
 * (the order warps run in, what memory held before): a result computed
 * through them may differ on a GPU, or from run to run. */
static int changes_results(const cured_model_finding *f)
{
    return f->severity == CURED_MODEL_HAZARD &&
           (f->kind == CURED_MODEL_FIND_RACE_SHARED || f->kind == CURED_MODEL_FIND_UNINIT_SHARED ||
            f->kind == CURED_MODEL_FIND_UNINIT_GLOBAL);
}

int cured_model_findings_result_hazards(const cured_model_findings *list, char *kinds,
                                        size_t cap)
{
    int count = 0;
    size_t used = 0;
    if (kinds != NULL && cap > 0)
        kinds[0] = '\0';
    for (int i = 0; i < list->count; i++) {
        const cured_model_finding *f = &list->items[i];
        if (!changes_results(f))
            continue;
        count++;
        int named = 0;       /* each kind once, in the order first found */
        for (int j = 0; j < i; j++)
            named |= changes_results(&list->items[j]) && list->items[j].kind == f->kind;
        if (named || kinds == NULL || cap == 0)
            continue;
        int w = snprintf(kinds + used, cap - used, "%s%s", used ? ", " : "",
                         cured_model_finding_kind_name(f->kind));
        used = w < 0 || (size_t)w >= cap - used ? cap - 1 : used + (size_t)w;
    }
    return count;
}
