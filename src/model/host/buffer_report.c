/* buffer_report.c - a buffer argument's values after a run, as text and
 * as JSON: the first and last values of a long one, or all of them.
 *
 * defines: cured_model_buffer_print, cured_model_buffer_write_json
 */
#include "cured_model_host.h"
#include "ptx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Values shown of a long buffer: the first HEAD and the last TAIL. */
#define HEAD 8
#define TAIL 4

/* Element i of a buffer of `type`, printed. */
static void print_value(FILE *out, ptx_type type, const uint8_t *p, int json)
{
    uint64_t u = 0;
    unsigned size = cured_model_arg_elem_size(type);
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
static uint64_t element_count(const cured_model_arg *spec, const cured_model_buffer *b)
{
    return b->bytes / cured_model_arg_elem_size(spec->type);
}

void cured_model_buffer_print(FILE *out, const cured_model_arg *spec,
                              const cured_model_buffer *buffer, int all)
{
    uint64_t n = element_count(spec, buffer);
    unsigned size = cured_model_arg_elem_size(spec->type);
    fprintf(out, "%s %s[%llu] =", spec->name, cured_model_arg_type_name(spec->type),
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

/* Writes elements [from, to) as a JSON array. */
static void json_values(FILE *out, const cured_model_arg *spec,
                        const cured_model_buffer *b, uint64_t from, uint64_t to)
{
    unsigned size = cured_model_arg_elem_size(spec->type);
    fputc('[', out);
    for (uint64_t i = from; i < to; i++) {
        if (i > from)
            fputs(", ", out);
        print_value(out, spec->type, b->data + i * size, 1);
    }
    fputc(']', out);
}

void cured_model_buffer_write_json(FILE *out, const cured_model_arg *spec,
                                   const cured_model_buffer *buffer, int all)
{
    uint64_t n = element_count(spec, buffer);
    fprintf(out, "{\"type\": \"%s\", \"count\": %llu, \"values\": ",
            cured_model_arg_type_name(spec->type), (unsigned long long)n);
    if (all || n <= HEAD + TAIL + 4) {
        json_values(out, spec, buffer, 0, n);
    } else {
        json_values(out, spec, buffer, 0, HEAD);
        fputs(", \"last_values\": ", out);
        json_values(out, spec, buffer, n - TAIL, n);
    }
    fputc('}', out);
}
