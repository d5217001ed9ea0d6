/* model_output.c - findings and buffers as `cured model` prints them, as
 * text and as JSON.
 *
 * defines: cli_print_findings,
 *          cli_print_buffer, cli_json_findings,
 *          cli_json_buffer
 */
#include "model_output.h"

#include <math.h>
#include <string.h>

/* Values shown of a long buffer: the first HEAD and the last TAIL. */
#define HEAD 8
#define TAIL 4

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

void cli_print_findings(FILE *out, const cured_model_findings *list,
                        const cured_model_module *module, const char *ptx_text,
                        size_t ptx_len)
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

/* Element i of a buffer of `type`, printed. */
static void print_value(FILE *out, ptx_type type, const uint8_t *p, int json)
{
    uint64_t u = 0;
    unsigned size = cli_arg_elem_size(type);
    for (unsigned b = 0; b < size; b++)
        u |= (uint64_t)p[b] << (8 * b);
    double d;
    if (type == PTX_T_F32 || type == PTX_T_F64) {
        if (type == PTX_T_F32) {
            float f;
            memcpy(&f, p, 4);
            d = f;
        } else {
            memcpy(&d, p, 8);
        }
        if (json && !isfinite(d))
            fprintf(out, "\"%s\"", isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
        else
            fprintf(out, type == PTX_T_F32 ? "%.9g" : "%.17g", d);
        return;
    }
    if (type == PTX_T_S8 || type == PTX_T_S16 || type == PTX_T_S32 ||
        type == PTX_T_S64) {
        int64_t s = size == 8 ? (int64_t)u
                              : (int64_t)(u << (64 - 8 * size)) >> (64 - 8 * size);
        fprintf(out, "%lld", (long long)s);
        return;
    }
    fprintf(out, "%llu", (unsigned long long)u);
}

/* Number of whole elements in the buffer. */
static uint64_t element_count(const cli_arg_spec *spec, const cured_model_buffer *b)
{
    return b->bytes / cli_arg_elem_size(spec->type);
}

void cli_print_buffer(FILE *out, const cli_arg_spec *spec,
                      const cured_model_buffer *buffer, int all)
{
    uint64_t n = element_count(spec, buffer);
    unsigned size = cli_arg_elem_size(spec->type);
    fprintf(out, "%s %s[%llu] =", spec->name, cli_elem_type_name(spec->type),
            (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        if (!all && n > HEAD + TAIL + 4 && i == HEAD) {
            fprintf(out, " ...");
            i = n - TAIL;
        }
        fputc(' ', out);
        print_value(out, spec->type, buffer->data + i * size, 0);
    }
    fputc('\n', out);
}

void cli_print_steps(FILE *out, const cured_model_step_view *view)
{
    const cured_model_step *steps;
    int n = cured_model_step_view_steps(view, &steps);
    if (n == 0) {
        fprintf(out, "\nno tree steps (no interval where a thread reads and "
                "writes one shared word)\n");
        return;
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
}

void cli_json_findings(FILE *out, const cured_model_findings *list,
                       const cured_model_module *module, const char *ptx_text,
                       size_t ptx_len)
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

/* Writes elements [from, to) as a JSON array. */
static void json_values(FILE *out, const cli_arg_spec *spec,
                        const cured_model_buffer *b, uint64_t from, uint64_t to)
{
    unsigned size = cli_arg_elem_size(spec->type);
    fputc('[', out);
    for (uint64_t i = from; i < to; i++) {
        if (i > from)
            fputs(", ", out);
        print_value(out, spec->type, b->data + i * size, 1);
    }
    fputc(']', out);
}

void cli_json_buffer(FILE *out, const cli_arg_spec *spec,
                     const cured_model_buffer *buffer, int all)
{
    uint64_t n = element_count(spec, buffer);
    fprintf(out, "{\"type\": \"%s\", \"count\": %llu, \"values\": ",
            cli_elem_type_name(spec->type), (unsigned long long)n);
    if (all || n <= HEAD + TAIL + 4) {
        json_values(out, spec, buffer, 0, n);
    } else {
        json_values(out, spec, buffer, 0, HEAD);
        fputs(", \"last_values\": ", out);
        json_values(out, spec, buffer, n - TAIL, n);
    }
    fputc('}', out);
}
