/* model_whole_plan.c - `cured model KERNEL --whole-plan`: the catalogue
 * kernel's whole launch plan in the model, and the sum it leaves in *out.
 *
 * defines: cli_model_whole_plan
 *
 *   cured model two_pass --n 5000 --dtype i32 --whole-plan
 *
 * The launches are the dispatch's (cured_dispatch_plan on an H200's shape),
 * run by src/cli/model_plan.c as src/lib/run.cu launches them; the input is
 * the one `cured model KERNEL --n N` builds (random@SEED). The counters are
 * one set summed over every launch (they count every function of the
 * module, so a last pass run by another instance adds its own rows); the
 * warp instructions and findings are also given per launch.
 */
#include "model_whole_plan.h"

#include "cli.h"
#include "cured.h"
#include "cured_model.h"
#include "cured_model_host.h"
#include "json_out.h"
#include "model_memory.h"
#include "model_notes.h"
#include "model_progress.h"
#include "ref_sum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "model"

// ----------------------------------------------------------------------------
// Values

static int is_float(cured_dtype d)
{
    return d == CURED_F32 || d == CURED_F64;
}

/* The element of dtype d at p, as a double (floats only). */
static double float_at(cured_dtype d, const uint8_t *p)
{
    if (d == CURED_F32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double x;
    memcpy(&x, p, 8);
    return x;
}

// ----------------------------------------------------------------------------
// The reference (src/reference)

/* What the plan should leave in *out. */
typedef struct plan_reference {
    cured_ref_sum exact; /* the exact sum, which the check compares with */
    uint8_t bits[8];     /* the exact sum as an element (integers wrapped) */
    double value;        /* floats: the exact sum rounded to float64 */
    uint64_t additions;  /* floats: h, the plan's longest addition chain */
    double bound;        /* floats: gamma_h * sum |x| (0: every sum exact) */
} plan_reference;

/* The reference of kernel's plan over input[0, n) of dtype d: the exact
 * sum and, for floats, the bound h additions put on the kernels' rounding
 * (cured_catalogue_chain_length). */
static void reference_of(int kernel, cured_dtype d, const cured_plan *plan,
                         const void *input, uint64_t n, plan_reference *ref)
{
    memset(ref, 0, sizeof *ref);
    cured_ref_sum_of(d, input, n, &ref->exact);
    cured_ref_sum_element(&ref->exact, ref->bits); /* little-endian */
    if (is_float(d)) {
        ref->value = cured_ref_sum_double(&ref->exact);
        ref->additions = cured_catalogue_chain_length(kernel, plan);
        ref->bound = cured_ref_sum_bound(&ref->exact, ref->additions);
    }
}

/* 1 when the run left the reference's value in *out: integers bit for bit,
 * floats within the bound of the exact sum, compared exactly. */
static int reference_matches(const plan_reference *ref,
                             const cured_model_plan_result *r)
{
    return cured_ref_sum_check(&ref->exact, r->value, ref->additions, NULL, 0);
}

// ----------------------------------------------------------------------------
// The run

/* Everything one --whole-plan run holds, freed by whole_free. */
typedef struct whole_run {
    int kernel;
    cured_dtype dtype;
    int block;
    cured_model_source src;
    cured_model_sass_source sass;
    cured_model_counters *counters;
    int applied[CURED_MAX_LAUNCHES]; /* functions the SASS facts were given for */
    int napplied;
    uint8_t *input;
    cured_model_arg input_spec;
    cured_model_plan_result run;
    plan_reference ref;
} whole_run;

static void whole_free(whole_run *w)
{
    cured_model_plan_result_clear(&w->run);
    free(w->input);
    cured_model_counters_free(w->counters);
    cured_model_sass_source_free(&w->sass);
    cured_model_source_free(&w->src);
}

/* The watch's before_launch: gives the counters the SASS facts of each
 * entry the first time a launch runs it. */
static int before_launch(void *ctx, int k, int function, char *err, size_t cap)
{
    whole_run *w = ctx;
    (void)k;
    for (int i = 0; i < w->napplied; i++)
        if (w->applied[i] == function)
            return 0;
    if (cured_model_sass_source_apply(&w->sass, w->src.module, function, w->counters, err, cap) != 0)
        return -1;
    if (w->napplied < CURED_MAX_LAUNCHES)
        w->applied[w->napplied++] = function;
    return 0;
}

/* The entry of launch l (its block picks unrolled's and multi_elem's
 * instance), or "?" when the PTX has none. */
static void launch_entry(const whole_run *w, const cured_launch *l, char *out,
                         size_t cap)
{
    const char *name = cured_catalogue_entry(w->kernel)->name;
    if (cured_model_catalogue_entry_name(w->src.module, name, cured_dtype_name(w->dtype),
                                   l->block, out, cap) != CURED_MODEL_CATALOGUE_OK)
        snprintf(out, cap, "?");
}

/* Loads the PTX, the SASS and the input, makes the counters for the first
 * launch's entry, and runs the plan. Returns 0, or 2 after a line on
 * stderr. */
static int run_whole_plan(const cli_model_options *o, whole_run *w)
{
    char err[1400];
    if (cured_catalogue_find(o->kernel, &w->kernel) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown kernel '%s' (see cured list)", o->kernel);
    if (cured_dtype_from_name(o->dtype, &w->dtype) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown --dtype '%s' (f32 f64 i32 i64 u32 u64)",
                        o->dtype);
    w->block = o->have_block ? (int)o->block.x : 256;
    if (o->have_block && (o->block.y != 1 || o->block.z != 1))
        return cli_fail(CMD, "the catalogue's blocks are one-dimensional");
    cured_model_catalogue_launch first;
    if (cured_model_catalogue_launch_make(w->kernel, w->dtype, o->n, w->block, o->seed,
                                          &o->device->shape, &first, err,
                                          sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    if (cured_model_source_catalogue(&w->src, err, sizeof err) != 0 ||
        cured_model_source_parse(&w->src, err, sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    char entry[512];
    if (cured_model_catalogue_entry_name(w->src.module, o->kernel, o->dtype, w->block,
                                   entry, sizeof entry) != CURED_MODEL_CATALOGUE_OK)
        return cli_fail(CMD, "the embedded PTX has no entry for %s %s block %d",
                        o->kernel, o->dtype, w->block);
    if (o->no_sass)
        cured_model_sass_source_none(&w->sass, "--no-sass");
    else if (o->sass_path) {
        if (cured_model_sass_source_file(&w->sass, o->sass_path, err, sizeof err) != 0)
            return cli_fail(CMD, "%s", err);
    } else
        cured_model_sass_source_catalogue(&w->sass);

    /* The input `cured model KERNEL --n N` builds: in=T[N]:random@SEED
     * (its size checked by cured_model_catalogue_launch_make). */
    w->input_spec = first.args[0];
    uint64_t in_bytes = 0;
    if (cured_model_buffer_bytes("in", o->dtype, o->n, (unsigned)cured_dtype_size(w->dtype),
                                 &in_bytes, err, sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    int rc = cli_model_check_memory(in_bytes + cured_model_plan_bytes(w->src.module, w->kernel,
                                                                      w->dtype, o->n, w->block),
                                    o->force);
    if (rc != 0)
        return rc;
    w->input = malloc((size_t)in_bytes);
    w->counters = cured_model_counters_new(w->src.module,
                                     cured_model_find_function(w->src.module, entry));
    if (w->input == NULL || w->counters == NULL)
        return cli_fail(CMD, "out of memory");
    cured_model_arg_fill(&w->input_spec, w->input);

    cured_plan plan;
    cli_progress progress;
    cli_progress_init(&progress, stderr,
                      cured_catalogue_plan_on(w->kernel, w->dtype, o->n, w->block,
                                              &o->device->shape, &plan) == CURED_SUCCESS
                          ? plan.launches : 1, NULL);
    cured_model_observer observers[2] = {cured_model_counters_observer(w->counters),
                                         cli_progress_observer(&progress)};
    cured_model_plan_watch watch = {.observers = observers, .nobservers = 2,
                            .step_limit = o->step_limit,
                            .before_launch = before_launch, .ctx = w};
    int ran = cured_model_plan_run_watched(w->src.module, w->kernel, w->dtype, w->input, o->n,
                                           0, w->block, &o->device->shape, &watch, &w->run);
    cli_progress_end(&progress);
    if (ran != 0)
        return cli_fail(CMD, "--whole-plan: %s", w->run.error);
    reference_of(w->kernel, w->dtype, &w->run.plan, w->input, o->n, &w->ref);
    return 0;
}

// ----------------------------------------------------------------------------
// Reports

/* "sum: V (reference R)" and how they compare, or why there is no sum. */
static void print_sum(const whole_run *w)
{
    const cured_model_plan_result *r = &w->run;
    char value[64], reference[64];
    if (!r->completed) {
        printf("sum: none (the plan stopped in launch %d of %d)\n",
               r->launches_run + 1, r->plan.launches);
        return;
    }
    cured_ref_format_element(w->dtype, r->value, value, sizeof value);
    int matches = reference_matches(&w->ref, r);
    if (!is_float(w->dtype)) {
        cured_ref_format_element(w->dtype, w->ref.bits, reference, sizeof reference);
        printf("sum: %s (reference %s): %s\n", value, reference,
               matches ? "equal" : "DIFFERENT");
        return;
    }
    printf("sum: %s (reference %.17g): off by %.3g, %s the bound %.3g "
           "(%llu additions deep)\n", value, w->ref.value,
           fabs(float_at(w->dtype, r->value) - w->ref.value),
           matches ? "within" : "OUTSIDE", w->ref.bound,
           (unsigned long long)w->ref.additions);
}

/* The text report: the plan, each launch with its findings, the SASS
 * line, the counters over all launches, the findings' total, the sum. */
static void print_text(const cli_model_options *o, const whole_run *w)
{
    const cured_model_plan_result *r = &w->run;
    printf("kernel: %s (%s), whole plan: %d launch%s as libcured's dispatch "
           "makes them on an H200, n %llu, block %d, input random@%llu\n",
           o->kernel, o->dtype, r->plan.launches, r->plan.launches == 1 ? "" : "es",
           (unsigned long long)o->n, w->block, (unsigned long long)w->input_spec.seed);
    if (r->plan.zero_output)
        printf("out: zeroed before launch 1 (cudaMemsetAsync)\n");
    for (int k = 0; k < r->plan.launches; k++) {
        const cured_launch *l = &r->plan.launch[k];
        char entry[512];
        launch_entry(w, l, entry, sizeof entry);
        printf("launch %d of %d: %s, grid (%llu,1,1), block (%d,1,1), dynamic "
               "shared %zu bytes, n %llu: ", k + 1, r->plan.launches, entry,
               (unsigned long long)l->grid, l->block, l->shared_bytes,
               (unsigned long long)l->n);
        if (k >= r->launches_started) {
            printf("not run (the plan stopped)\n");
            continue;
        }
        const cured_model_plan_launch *rec = &r->launch[k];
        printf("%llu warp instructions, %s, ",
               (unsigned long long)rec->warp_instructions,
               rec->completed ? "completed" : "did not complete");
        if (rec->findings.count == 0)
            printf("findings: none\n");
        else
            printf("findings: %d (%d errors)\n", rec->findings.count,
                   rec->findings.errors);
        cured_model_findings_print(stdout, &rec->findings, w->src.module, w->src.text,
                           w->src.len);
    }
    cured_model_sass_source_print(stdout, &w->sass, w->src.module);
    printf("\ncounters: summed over the %d launch%s that ran\n",
           r->launches_started, r->launches_started == 1 ? "" : "es");
    cured_model_counters_print_table(stdout, w->counters, CURED_MODEL_BY_SOURCE, w->src.text,
                                     w->src.len);
    int count = 0, errors = 0;
    for (int k = 0; k < r->launches_started; k++) {
        count += r->launch[k].findings.count;
        errors += r->launch[k].findings.errors;
    }
    if (count == 0)
        printf("\nfindings: none\n");
    else
        printf("\nfindings: %d (%d errors), listed under their launches\n",
               count, errors);
    if (r->wrote_past_out)
        printf("note: the element after *out lost its poison: a launch wrote past "
               "*out\n");
    if (r->state_dirty)
        printf("note: the scratch's state area is not zero after the plan\n");
    print_sum(w);
    cli_model_print_notes(stdout, &r->findings, o->step_limit == 0);
}

/* Writes the element at p as a JSON value: a number, or "nan"/"inf". */
static void json_element(cured_dtype d, const uint8_t *p)
{
    char text[64];
    if (is_float(d) && !isfinite(float_at(d, p))) {
        double x = float_at(d, p);
        printf("\"%s\"", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return;
    }
    cured_ref_format_element(d, p, text, sizeof text);
    fputs(text, stdout);
}

/* The JSON report: one object. */
static void print_json(const cli_model_options *o, const whole_run *w, int status)
{
    const cured_model_plan_result *r = &w->run;
    printf("{\n  \"kernel\": ");
    cured_json_string(stdout, o->kernel);
    printf(",\n  \"dtype\": ");
    cured_json_string(stdout, o->dtype);
    printf(",\n  \"ptx\": ");
    cured_json_string(stdout, w->src.label);
    printf(",\n  \"whole_plan\": true,\n  \"n\": %llu,\n  \"block_size\": %d,\n"
           "  \"seed\": %llu,\n  \"zero_output\": %s,\n  \"launches\": [",
           (unsigned long long)o->n, w->block, (unsigned long long)w->input_spec.seed,
           r->plan.zero_output ? "true" : "false");
    for (int k = 0; k < r->plan.launches; k++) {
        const cured_launch *l = &r->plan.launch[k];
        const cured_model_plan_launch *rec = &r->launch[k];
        int ran = k < r->launches_started;
        char entry[512];
        launch_entry(w, l, entry, sizeof entry);
        printf("%s\n    {\"entry\": ", k ? "," : "");
        cured_json_string(stdout, entry);
        printf(", \"grid\": [%llu, 1, 1], \"block\": [%d, 1, 1], "
               "\"dynamic_shared_bytes\": %zu, \"n\": %llu, \"ran\": %s, "
               "\"completed\": %s, \"warp_instructions\": %llu, "
               "\"thread_instructions\": %llu, \"findings\": ",
               (unsigned long long)l->grid, l->block, l->shared_bytes,
               (unsigned long long)l->n, ran ? "true" : "false",
               ran && rec->completed ? "true" : "false",
               (unsigned long long)(ran ? rec->warp_instructions : 0),
               (unsigned long long)(ran ? rec->thread_instructions : 0));
        if (ran)
            cured_model_findings_write_json(stdout, &rec->findings, w->src.module, w->src.text,
                              w->src.len);
        else
            printf("[]");
        putchar('}');
    }
    printf("\n  ],\n  \"completed\": %s,\n  \"counters\": ",
           r->completed ? "true" : "false");
    cured_model_counters_write_json(stdout, w->counters);
    printf(",\n  \"sass\": ");
    cured_model_sass_source_json(stdout, &w->sass, w->src.module);
    printf(",\n  \"sum\": {\"value\": ");
    if (r->completed)
        json_element(w->dtype, r->value);
    else
        printf("null");
    printf(", \"reference\": ");
    if (is_float(w->dtype))
        printf("%.17g", w->ref.value);
    else
        json_element(w->dtype, w->ref.bits);
    printf(", \"matches\": %s", r->completed && reference_matches(&w->ref, r)
                                    ? "true" : "false");
    if (is_float(w->dtype))
        printf(", \"bound\": %.17g, \"additions\": %llu", w->ref.bound,
               (unsigned long long)w->ref.additions);
    printf("},\n  \"wrote_past_out\": %s,\n  \"state_area_zero\": %s,\n  ",
           r->wrote_past_out ? "true" : "false", r->state_dirty ? "false" : "true");
    cli_model_json_trust(stdout, &r->findings);
    printf(",\n  \"exit_status\": %d\n}\n", status);
}

int cli_model_whole_plan(const cli_model_options *o)
{
    whole_run w;
    memset(&w, 0, sizeof w);
    int status = run_whole_plan(o, &w);
    if (status == 0) {
        const cured_model_plan_result *r = &w.run;
        /* 1: the work ran and found a failure, a wrong sum included. */
        if (!r->completed || r->findings.errors > 0 ||
            (o->strict && r->findings.count > 0) ||
            !reference_matches(&w.ref, r))
            status = 1;
        if (o->json)
            print_json(o, &w, status);
        else
            print_text(o, &w);
    }
    whole_free(&w);
    return status;
}
