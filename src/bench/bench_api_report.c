/* bench_api_report.c - the rows of `cured bench --api`, their derived
 * columns, and the ways to print them: a table, CSV, JSON and the short
 * summary (the plot is bench_svg.c's).
 *
 * defines: bench_api_add, bench_api_free, bench_api_derive,
 *          bench_api_print_table, bench_api_print_csv,
 *          bench_api_print_json, bench_api_print_summary
 *
 * Pure C, unit-tested on the CPU with fixed rows (tests/bench).
 */
#include "bench_api.h"
#include "csv_out.h"
#include "grow.h"
#include "json_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_api_add(bench_api_results *r, const bench_api_row *row)
{
    if (cured_grow((void **)&r->items, &r->capacity, r->count + 1,
                   sizeof *r->items) != 0)
        return -1;
    r->items[r->count++] = *row;
    return 0;
}

void bench_api_free(bench_api_results *r)
{
    free(r->items);
    r->items = NULL;
    r->count = r->capacity = 0;
}

/* A row's median when it was timed, else NAN. */
static double median_of(const bench_api_row *row)
{
    if (row == NULL || row->us.runs < 1 || !(row->us.median > 0))
        return NAN;
    return row->us.median;
}

/* The row of `job` with row's dtype, n and mode, or NULL. */
static const bench_api_row *partner(const bench_api_results *r,
                                    const bench_api_row *row, const char *job)
{
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *o = &r->items[i];
        if (o->dtype == row->dtype && o->log2n == row->log2n &&
            strcmp(o->mode, row->mode) == 0 && strcmp(o->job, job) == 0)
            return o;
    }
    return NULL;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_api_derive(bench_api_results *r)
{
    double *floors = malloc((size_t)(r->count > 0 ? r->count : 1) * sizeof *floors);
    int nf = 0;
    for (int i = 0; i < r->count; i++) {
        bench_api_row *row = &r->items[i];
        double us = median_of(row);
        row->gbps = (double)row->n * (double)cured_dtype_size(row->dtype) / (us * 1e3);
        row->pct_read = 100.0 * median_of(partner(r, row, BENCH_API_READ)) / us;
        row->cub_over = strcmp(row->job, BENCH_API_CURED) == 0
                            ? median_of(partner(r, row, BENCH_API_CUB)) / us
                            : NAN;
        if (floors != NULL && strcmp(row->job, BENCH_API_LAUNCH) == 0 &&
            strcmp(row->mode, BENCH_API_WARM) == 0 && isfinite(us))
            floors[nf++] = us;
    }
    r->floor_us = NAN;
    if (nf > 0) {
        qsort(floors, (size_t)nf, sizeof *floors, compare_doubles);
        r->floor_us = nf % 2 ? floors[nf / 2] : (floors[nf / 2 - 1] + floors[nf / 2]) / 2;
    }
    free(floors);
}

/* v with fmt into buf, or "-" when v is not finite. Returns buf. */
static const char *num(char *buf, size_t cap, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(buf, cap, fmt, v);
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* The ulps as text: "-" when not checked, "nan" when one side is NaN. */
static const char *ulps_text(char *buf, size_t cap, double u)
{
    if (isnan(u))
        return strcpy(buf, "-");
    if (isinf(u))
        return strcpy(buf, "nan");
    snprintf(buf, cap, "%.0f", u);
    return buf;
}

void bench_api_print_table(FILE *out, const bench_api_results *r)
{
    fprintf(out, "# cured bench --api: %s, L2 %.0f MiB; warm: calls back to back (batch "
                 "time / calls), cold: one call after an L2 flush; us per call, medians\n",
            r->device[0] ? r->device : "(no device)", (double)r->l2_bytes / (1 << 20));
    fprintf(out, "%-5s %-4s %5s %-6s %10s %7s %9s %7s %9s %-4s %6s  %s\n", "dtype", "mode",
            "log2n", "job", "us", "noise%", "GB/s", "%read", "CUB/cured", "out", "ulps",
            "note");
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *row = &r->items[i];
        char a[32], b[32], c[32], d[32], e[32], u[32];
        if (i > 0 && (row->log2n != r->items[i - 1].log2n ||
                      row->dtype != r->items[i - 1].dtype))
            fputc('\n', out);
        fprintf(out, "%-5s %-4s %5d %-6s %10s %7s %9s %7s %9s %-4s %6s  %s\n",
                cured_dtype_name(row->dtype), row->mode, row->log2n, row->job,
                num(a, sizeof a, "%.2f", median_of(row)),
                num(b, sizeof b, "%.1f", bench_noise_pct(&row->us)),
                num(c, sizeof c, "%.1f", row->gbps), num(d, sizeof d, "%.1f", row->pct_read),
                num(e, sizeof e, "%.2f", row->cub_over), cured_dtype_name(row->out),
                ulps_text(u, sizeof u, row->ulps), row->note);
    }
    if (isfinite(r->floor_us))
        fprintf(out, "# launch floor (an empty kernel, back to back): %.2f us\n", r->floor_us);
}

void bench_api_print_csv(FILE *out, const bench_api_results *r)
{
    fprintf(out, "job,mode,dtype,out,log2n,n,bytes,calls,runs,median_us,q1_us,q3_us,"
                 "min_us,max_us,noise_pct,gbps,pct_read,cub_over,ulps,note\n");
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *row = &r->items[i];
        int timed = row->us.runs > 0;
        fprintf(out, "%s,%s,%s,%s,%d,%llu,%llu,%d,%d", row->job, row->mode,
                cured_dtype_name(row->dtype), cured_dtype_name(row->out), row->log2n,
                (unsigned long long)row->n,
                (unsigned long long)(row->n * cured_dtype_size(row->dtype)), row->calls,
                row->us.runs);
        cured_csv_number(out, "%.3f", median_of(row));
        cured_csv_number(out, "%.3f", timed ? row->us.q1 : NAN);
        cured_csv_number(out, "%.3f", timed ? row->us.q3 : NAN);
        cured_csv_number(out, "%.3f", timed ? row->us.min : NAN);
        cured_csv_number(out, "%.3f", timed ? row->us.max : NAN);
        cured_csv_number(out, "%.2f", bench_noise_pct(&row->us));
        cured_csv_number(out, "%.2f", row->gbps);
        cured_csv_number(out, "%.2f", row->pct_read);
        cured_csv_number(out, "%.4f", row->cub_over);
        fputc(',', out);
        if (isinf(row->ulps))
            fputs("nan", out);
        else if (!isnan(row->ulps))
            fprintf(out, "%.0f", row->ulps);
        fputc(',', out);
        cured_csv_string(out, row->note);
        fputc('\n', out);
    }
}

/* `, "key": v` with fmt, or null for NAN. */
static void json_number(FILE *out, const char *key, const char *fmt, double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v))
        fprintf(out, fmt, v);
    else
        fputs("null", out);
}

void bench_api_print_json(FILE *out, const bench_api_results *r)
{
    fputs("{\n  \"bench\": \"api\",\n  \"device\": ", out);
    cured_json_string(out, r->device);
    fprintf(out, ",\n  \"l2_bytes\": %llu", (unsigned long long)r->l2_bytes);
    json_number(out, "launch_floor_us", "%.3f", r->floor_us);
    fputs(",\n  \"results\": [", out);
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *row = &r->items[i];
        int timed = row->us.runs > 0;
        fputs(i ? ",\n    {\"job\": " : "\n    {\"job\": ", out);
        cured_json_string(out, row->job);
        fputs(", \"mode\": ", out);
        cured_json_string(out, row->mode);
        fputs(", \"dtype\": ", out);
        cured_json_string(out, cured_dtype_name(row->dtype));
        fputs(", \"out\": ", out);
        cured_json_string(out, cured_dtype_name(row->out));
        fprintf(out, ", \"log2n\": %d, \"n\": %llu, \"calls\": %d, \"runs\": %d", row->log2n,
                (unsigned long long)row->n, row->calls, row->us.runs);
        json_number(out, "median_us", "%.3f", median_of(row));
        json_number(out, "q1_us", "%.3f", timed ? row->us.q1 : NAN);
        json_number(out, "q3_us", "%.3f", timed ? row->us.q3 : NAN);
        json_number(out, "noise_pct", "%.2f", bench_noise_pct(&row->us));
        json_number(out, "gbps", "%.2f", row->gbps);
        json_number(out, "pct_read", "%.2f", row->pct_read);
        json_number(out, "cub_over", "%.4f", row->cub_over);
        if (isinf(row->ulps))
            fputs(", \"ulps\": \"nan\"", out);
        else
            json_number(out, "ulps", "%.0f", row->ulps);
        fputs(", \"note\": ", out);
        cured_json_string(out, row->note);
        fputc('}', out);
    }
    fputs(r->count ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* The row of (dtype, log2n, mode, job), or NULL. */
static const bench_api_row *find(const bench_api_results *r, cured_dtype d, int log2n,
                                 const char *mode, const char *job)
{
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *o = &r->items[i];
        if (o->dtype == d && o->log2n == log2n && strcmp(o->mode, mode) == 0 &&
            strcmp(o->job, job) == 0)
            return o;
    }
    return NULL;
}

void bench_api_print_summary(FILE *out, const bench_api_results *r)
{
    char fl[32];
    fprintf(out, "cured_reduce against CUB (us per call; x floor = cured / the empty "
                 "kernel launched the same way at the same n; its run median %s us)\n",
            num(fl, sizeof fl, "%.2f", r->floor_us));
    fprintf(out, "%-5s %5s | %8s %8s %9s %7s | %8s %8s %9s | %5s %9s\n", "dtype", "log2n",
            "warm", "CUB", "CUB/cured", "x floor", "cold", "CUB", "CUB/cured", "ulps",
            "CUB ulps");
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *c = &r->items[i];
        if (strcmp(c->job, BENCH_API_CURED) != 0 || strcmp(c->mode, BENCH_API_WARM) != 0)
            continue;
        const bench_api_row *cub = find(r, c->dtype, c->log2n, BENCH_API_WARM, BENCH_API_CUB);
        const bench_api_row *cc = find(r, c->dtype, c->log2n, BENCH_API_COLD, BENCH_API_CURED);
        const bench_api_row *cubc = find(r, c->dtype, c->log2n, BENCH_API_COLD, BENCH_API_CUB);
        const bench_api_row *fl0 = find(r, c->dtype, c->log2n, BENCH_API_WARM, BENCH_API_LAUNCH);
        char a[32], b[32], d[32], e[32], f[32], g[32], h[32], u[32], v[32];
        fprintf(out, "%-5s %5d | %8s %8s %9s %7s | %8s %8s %9s | %5s %9s\n",
                cured_dtype_name(c->dtype), c->log2n, num(a, sizeof a, "%.2f", median_of(c)),
                num(b, sizeof b, "%.2f", median_of(cub)), num(d, sizeof d, "%.2f", c->cub_over),
                num(e, sizeof e, "%.2f", median_of(c) / median_of(fl0)),
                num(f, sizeof f, "%.2f", median_of(cc)), num(g, sizeof g, "%.2f", median_of(cubc)),
                num(h, sizeof h, "%.2f", cc ? cc->cub_over : NAN),
                ulps_text(u, sizeof u, c->ulps), ulps_text(v, sizeof v, cub ? cub->ulps : NAN));
    }
}
