/* bench_report.c - the bench's rows: the list, derived columns, and the
 * three ways to print them (a table for people, CSV, JSON).
 *
 * defines: bench_results_add, bench_results_free, bench_derive,
 *          bench_print_table, bench_print_csv, bench_print_json
 *
 * Pure C, unit-tested on the CPU with fixed rows.
 */
#include "bench.h"
#include "csv_out.h"
#include "grow.h"
#include "json_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_results_add(bench_results *results, const bench_result *row)
{
    if (cured_grow((void **)&results->items, &results->capacity, results->count + 1,
                   sizeof *results->items) != 0)
        return -1;
    results->items[results->count++] = *row;
    return 0;
}

void bench_results_free(bench_results *results)
{
    free(results->items);
    results->items = NULL;
    results->count = results->capacity = 0;
}

/* The row of `kernel` at log2n, or NULL. */
static const bench_result *find_row(const bench_results *results,
                                    const char *kernel, int log2n)
{
    for (int i = 0; i < results->count; i++) {
        const bench_result *r = &results->items[i];
        if (r->log2n == log2n && strcmp(r->kernel, kernel) == 0)
            return r;
    }
    return NULL;
}

/* A row's median when it was timed, else NAN. */
static double timed_median(const bench_result *r)
{
    if (r == NULL || r->us.runs < 1 || !(r->us.median > 0))
        return NAN;
    return r->us.median;
}

void bench_derive(bench_results *results)
{
    for (int i = 0; i < results->count; i++) {
        bench_result *r = &results->items[i];
        double us = timed_median(r);
        double cub = timed_median(find_row(results, BENCH_CUB, r->log2n));
        double read = timed_median(find_row(results, BENCH_READ, r->log2n));
        /* bytes / (us * 1e-6 s) / 1e9 = bytes / (us * 1e3) */
        r->gbps = (double)r->n * (double)r->elem_bytes / (us * 1e3);
        r->pct_read = 100.0 * read / us;
        r->x_cub = us / cub;
    }
}

/* The check column's word for a row. */
static const char *check_name(const bench_result *r)
{
    switch (r->check) {
    case BENCH_CHECK_NONE: return "n/a";
    case BENCH_CHECK_OK: return "ok";
    case BENCH_CHECK_MISMATCH: return "MISMATCH";
    case BENCH_CHECK_SKIPPED: return "skipped";
    case BENCH_CHECK_FAILED: return "FAILED";
    }
    return "?";
}

/* Prints v with printf format fmt in a field of width, or "-" when v is
 * NAN or infinite. */
static void print_number(FILE *out, int width, const char *fmt, double v)
{
    char buf[64];
    if (isfinite(v))
        snprintf(buf, sizeof buf, fmt, v);
    else
        snprintf(buf, sizeof buf, "-");
    fprintf(out, "%*s", width, buf);
}

void bench_print_table(FILE *out, const bench_results *results)
{
    fprintf(out, "# cured bench: %s, %s, block %d, L2 %.0f MiB flushed before each run\n",
            results->device[0] ? results->device : "(no device)",
            results->dtype ? results->dtype : "?", results->block_size,
            (double)results->l2_bytes / (1 << 20));
    fprintf(out, "%-17s %6s %10s %7s %9s %7s %7s  %s\n", "kernel", "log2n",
            "us", "noise%", "GB/s", "%read", "xCUB", "check");
    for (int i = 0; i < results->count; i++) {
        const bench_result *r = &results->items[i];
        if (i > 0 && r->log2n != results->items[i - 1].log2n)
            fputc('\n', out);
        fprintf(out, "%-17s %6d ", r->kernel, r->log2n);
        print_number(out, 10, "%.2f", timed_median(r));
        fputc(' ', out);
        print_number(out, 7, "%.1f", bench_noise_pct(&r->us));
        fputc(' ', out);
        print_number(out, 9, "%.1f", r->gbps);
        fputc(' ', out);
        print_number(out, 7, "%.1f", r->pct_read);
        fputc(' ', out);
        print_number(out, 7, "%.2f", r->x_cub);
        fprintf(out, "  %s", check_name(r));
        if (r->note[0])
            fprintf(out, " (%s)", r->note);
        fputc('\n', out);
    }
}

void bench_print_csv(FILE *out, const bench_results *results)
{
    fprintf(out, "kernel,log2n,n,dtype,bytes,runs,median_us,q1_us,q3_us,min_us,"
                 "max_us,noise_pct,gbps,pct_read,x_cub,check,exhibit,abs_diff,note\n");
    for (int i = 0; i < results->count; i++) {
        const bench_result *r = &results->items[i];
        cured_csv_string(out, r->kernel);
        fprintf(out, ",%d,%llu,%s,%llu,%d", r->log2n, (unsigned long long)r->n,
                results->dtype ? results->dtype : "",
                (unsigned long long)(r->n * r->elem_bytes), r->us.runs);
        cured_csv_number(out, "%.3f", timed_median(r));
        cured_csv_number(out, "%.3f", r->us.runs > 0 ? r->us.q1 : NAN);
        cured_csv_number(out, "%.3f", r->us.runs > 0 ? r->us.q3 : NAN);
        cured_csv_number(out, "%.3f", r->us.runs > 0 ? r->us.min : NAN);
        cured_csv_number(out, "%.3f", r->us.runs > 0 ? r->us.max : NAN);
        cured_csv_number(out, "%.2f", bench_noise_pct(&r->us));
        cured_csv_number(out, "%.2f", r->gbps);
        cured_csv_number(out, "%.2f", r->pct_read);
        cured_csv_number(out, "%.4f", r->x_cub);
        fprintf(out, ",%s,%d", check_name(r), r->is_exhibit);
        cured_csv_number(out, "%.6g", r->abs_diff);
        fputc(',', out);
        cured_csv_string(out, r->note);
        fputc('\n', out);
    }
}

/* Prints `"key": v` with fmt, or `"key": null` for NAN, after a ", ". */
static void print_json_number(FILE *out, const char *key, const char *fmt,
                              double v)
{
    fprintf(out, ", \"%s\": ", key);
    if (isfinite(v))
        fprintf(out, fmt, v);
    else
        fputs("null", out);
}

void bench_print_json(FILE *out, const bench_results *results)
{
    fputs("{\n  \"device\": ", out);
    cured_json_string(out, results->device);
    fputs(",\n  \"dtype\": ", out);
    cured_json_string(out, results->dtype ? results->dtype : "");
    fprintf(out, ",\n  \"block_size\": %d,\n  \"l2_bytes\": %llu,\n  \"results\": [",
            results->block_size, (unsigned long long)results->l2_bytes);
    for (int i = 0; i < results->count; i++) {
        const bench_result *r = &results->items[i];
        fputs(i ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ", out);
        cured_json_string(out, r->kernel);
        fprintf(out, ", \"log2n\": %d, \"n\": %llu, \"bytes\": %llu, \"runs\": %d",
                r->log2n, (unsigned long long)r->n,
                (unsigned long long)(r->n * r->elem_bytes), r->us.runs);
        print_json_number(out, "median_us", "%.3f", timed_median(r));
        print_json_number(out, "q1_us", "%.3f", r->us.runs > 0 ? r->us.q1 : NAN);
        print_json_number(out, "q3_us", "%.3f", r->us.runs > 0 ? r->us.q3 : NAN);
        print_json_number(out, "min_us", "%.3f", r->us.runs > 0 ? r->us.min : NAN);
        print_json_number(out, "max_us", "%.3f", r->us.runs > 0 ? r->us.max : NAN);
        print_json_number(out, "noise_pct", "%.2f", bench_noise_pct(&r->us));
        print_json_number(out, "gbps", "%.2f", r->gbps);
        print_json_number(out, "pct_read", "%.2f", r->pct_read);
        print_json_number(out, "x_cub", "%.4f", r->x_cub);
        fputs(", \"check\": ", out);
        cured_json_string(out, check_name(r));
        fprintf(out, ", \"exhibit\": %s", r->is_exhibit ? "true" : "false");
        print_json_number(out, "abs_diff", "%.6g", r->abs_diff);
        fputs(", \"note\": ", out);
        cured_json_string(out, r->note);
        fputc('}', out);
    }
    fputs(results->count ? "\n  ]\n}\n" : "]\n}\n", out);
}
