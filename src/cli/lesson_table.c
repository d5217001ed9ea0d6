/* lesson_table.c - `cured model --lesson-table`: the lesson's four
 * versions, run in the model, their table from the step view and the
 * hardware view beside it.
 *
 * defines: cli_lesson_table
 *
 * Nothing is special-cased: each row is the catalogue kernel's own PTX run
 * on 64 values by one block of 64 threads (two warps), counted by the
 * observers every `cured model` run has, the hardware view following the
 * catalogue's SASS where the build embeds it.
 */
#include "lesson_table.h"
#include "lesson_legend.h"

#include "cli.h"
#include "cured.h"
#include "cured_model.h"
#include "cured_model_host.h"
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "model"
#define VERSIONS 4
#define LESSON_N 64
#define LESSON_BLOCK 64

static const char *const kernels[VERSIONS] = {"divergent", "strided", "sequential",
                                              "shuffle"};
/* The page's names for them. */
static const char *const labels[VERSIONS] = {"divergent", "strided index",
                                             "sequential", "warp shuffle"};

/* The hardware view's columns. */
static const struct {
    const char *head;
    cured_model_counter id;
} hw_columns[] = {
    {"shared ld", CURED_MODEL_CTR_SHARED_LD},
    {"shared st", CURED_MODEL_CTR_SHARED_ST},
    {"ld wavefronts", CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS},
    {"st wavefronts", CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS},
    {"ld conflicts", CURED_MODEL_CTR_SHARED_LD_CONFLICTS},
    {"st conflicts", CURED_MODEL_CTR_SHARED_ST_CONFLICTS},
    {"barriers", CURED_MODEL_CTR_BARRIERS},
    {"shuffles", CURED_MODEL_CTR_SHUFFLES},
    {"divergent branches", CURED_MODEL_CTR_DIVERGENT_BRANCHES},
};
#define HW_COLUMNS ((int)(sizeof hw_columns / sizeof hw_columns[0]))

/* One version's run and what watched it. */
typedef struct lesson_run {
    char entry[256];
    cured_model_step_view *view;
    cured_model_counters *counters;
    cured_model_findings findings;      /* the interpreter's, then the checks' */
    cured_model_findings checks;        /* the checks' (races, unwritten reads) */
    int completed;
} lesson_run;

/* Runs kernel k of the table on module m into *run, its counters following
 * sass when there is one. Returns 0, or 2 after a line on stderr. */
static int run_version(const cured_model_module *m, int k, cured_model_sass_source *sass, lesson_run *run)
{
    char err[512];
    int kernel, rc = 2;
    cured_model_catalogue_launch plan;
    if (cured_catalogue_find(kernels[k], &kernel) != CURED_SUCCESS ||
        cured_model_catalogue_launch_make(kernel, CURED_F32, LESSON_N, LESSON_BLOCK,
                                          CURED_MODEL_ARG_DEFAULT_SEED,
                                          &cured_device_presets(NULL)->shape,
                                          &plan, err, sizeof err) != 0)
        return cli_fail(CMD, "--lesson-table: no plan for %s", kernels[k]);
    if (cured_model_catalogue_entry_name(m, kernels[k], "f32", LESSON_BLOCK, run->entry,
                                   sizeof run->entry) != CURED_MODEL_CATALOGUE_OK)
        return cli_fail(CMD, "--lesson-table: the embedded PTX has no f32 %s",
                        kernels[k]);
    int function = cured_model_find_function(m, run->entry);
    cured_model_memory *memory = cured_model_memory_new();
    uint8_t *params = NULL;
    size_t params_size = 0;
    run->view = cured_model_step_view_new(m, function);
    run->counters = cured_model_counters_new(m, function);
    cured_model_checks *checks = cured_model_checks_new(&run->checks);
    if (memory == NULL || run->view == NULL || run->counters == NULL ||
        checks == NULL) {
        cli_fail(CMD, "out of memory");
        goto done;
    }
    if (cured_model_args_bind(m, function, plan.args, plan.nargs, memory, &params,
                      &params_size, err, sizeof err) != 0) {
        cli_fail(CMD, "--lesson-table, %s: %s", kernels[k], err);
        goto done;
    }
    if (cured_model_sass_source_apply(sass, m, function, run->counters, err, sizeof err) != 0) {
        cli_fail(CMD, "--lesson-table, %s: %s", kernels[k], err);
        goto done;
    }
    cured_model_observer observers[3] = {cured_model_step_view_observer(run->view),
                                   cured_model_counters_observer(run->counters),
                                   cured_model_checks_observer(checks)};
    cured_model_launch launch = {
        .module = m, .function = function, .grid = plan.grid, .block = plan.block,
        .dynamic_shared_bytes = plan.dynamic_shared, .params = params,
        .params_size = params_size, .memory = memory, .observers = observers,
        .nobservers = 3, .check_uninit_global = 1,
    };
    cured_model_result result;
    memset(&result, 0, sizeof result);
    if (cured_model_run(&launch, &result) != 0) {
        cli_fail(CMD, "--lesson-table, %s: bad launch: %s", kernels[k],
                 result.findings.count ? result.findings.items[0].message : "?");
        cured_model_findings_clear(&result.findings);
        goto done;
    }
    run->findings = result.findings;
    run->completed = result.completed;
    rc = 0;
    if (cured_model_findings_merge(&run->findings, &run->checks) != 0)
        rc = cli_fail(CMD, "out of memory");
done:
    cured_model_checks_free(checks);
    free(params);
    cured_model_memory_free(memory);
    return rc;
}

/* The text report: the page's table, then the hardware view. */
static void print_text(const lesson_run runs[VERSIONS], const cured_model_module *m,
                       const cured_model_source *src, const cured_model_sass_source *sass)
{
    const cured_model_step_view *views[VERSIONS];
    for (int k = 0; k < VERSIONS; k++)
        views[k] = runs[k].view;
    printf("The lesson's table, from the model: %d values, one block of %d "
           "threads (two warps), f32.\n\n", LESSON_N, LESSON_BLOCK);
    cured_model_step_view_print_table(stdout, labels, views, VERSIONS);

    printf("\nThe hardware view of the same runs (warp-level instructions, as "
           "Nsight Compute counts them; barriers per warp):\n");
    if (sass->applied)
        printf("memory instruction counts follow the SASS (%s)\n", sass->label);
    else
        printf("memory instruction counts are PTX-level (no SASS: %s)\n",
               sass->missing);
    printf("\n| version |");
    for (int c = 0; c < HW_COLUMNS; c++)
        printf(" %s |", hw_columns[c].id == CURED_MODEL_CTR_DIVERGENT_BRANCHES && !sass->applied
                        ? "divergent PTX branches" : hw_columns[c].head);
    printf("\n|---|");
    for (int c = 0; c < HW_COLUMNS; c++)
        printf("---|");
    putchar('\n');
    for (int k = 0; k < VERSIONS; k++) {
        printf("| %s |", labels[k]);
        for (int c = 0; c < HW_COLUMNS; c++) {
            /* divergence as ncu counts it needs the SASS: which branches
               ptxas kept; without it, the PTX's */
            cured_model_counter id = hw_columns[c].id;
            if (id == CURED_MODEL_CTR_DIVERGENT_BRANCHES && sass->applied)
                id = CURED_MODEL_CTR_BRANCH_DIVERGENT;
            printf(" %llu |", (unsigned long long)cured_model_counters_total(
                                  runs[k].counters, id));
        }
        putchar('\n');
    }
    const cured_model_counters *counters[VERSIONS];
    for (int k = 0; k < VERSIONS; k++)
        counters[k] = runs[k].counters;
    cli_lesson_legend(stdout, views, counters, LESSON_BLOCK);
    for (int k = 0; k < VERSIONS; k++) {
        if (runs[k].findings.count == 0)
            continue;
        printf("\nfindings, %s:\n", kernels[k]);
        cured_model_findings_print(stdout, &runs[k].findings, m, src->text, src->len);
    }
}

/* The JSON report: {"n", "block", "step_view": [...], "hardware": [...]}. */
static void print_json(const lesson_run runs[VERSIONS], const cured_model_module *m,
                       const cured_model_source *src, const cured_model_sass_source *sass)
{
    const cured_model_step_view *views[VERSIONS];
    for (int k = 0; k < VERSIONS; k++)
        views[k] = runs[k].view;
    printf("{\n  \"n\": %d,\n  \"block\": %d,\n  \"dtype\": \"f32\",\n"
           "  \"step_view\": ", LESSON_N, LESSON_BLOCK);
    cured_model_step_view_write_json(stdout, labels, views, VERSIONS);
    printf(",\n  \"sass\": ");
    cured_model_sass_source_json(stdout, sass, m);
    printf(",\n  \"hardware\": [");
    for (int k = 0; k < VERSIONS; k++) {
        printf("%s\n    {\"version\": ", k ? "," : "");
        cured_json_string(stdout, labels[k]);
        printf(", \"kernel\": \"%s\", \"entry\": ", kernels[k]);
        cured_json_string(stdout, runs[k].entry);
        printf(", \"completed\": %s, \"totals\": {",
               runs[k].completed ? "true" : "false");
        for (int c = 0; c < CURED_MODEL_CTR_COUNT; c++)
            printf("%s\"%s\": %llu", c ? ", " : "",
                   cured_model_counter_describe((cured_model_counter)c)->key,
                   (unsigned long long)cured_model_counters_total(runs[k].counters,
                                                            (cured_model_counter)c));
        printf("}, \"findings\": ");
        cured_model_findings_write_json(stdout, &runs[k].findings, m, src->text, src->len);
        putchar('}');
    }
    printf("\n  ]\n}\n");
}

int cli_lesson_table(int json)
{
    char err[512];
    cured_model_source src;
    if (cured_model_source_catalogue(&src, err, sizeof err) != 0 ||
        cured_model_source_parse(&src, err, sizeof err) != 0) {
        cured_model_source_free(&src);
        return cli_fail(CMD, "%s", err);
    }
    lesson_run runs[VERSIONS];
    memset(runs, 0, sizeof runs);
    cured_model_sass_source sass;
    cured_model_sass_source_catalogue(&sass);
    int status = 0;
    for (int k = 0; k < VERSIONS && status == 0; k++)
        status = run_version(src.module, k, &sass, &runs[k]);
    if (status == 0) {
        for (int k = 0; k < VERSIONS; k++)
            if (runs[k].findings.errors > 0 || !runs[k].completed)
                status = 1;
        if (json)
            print_json(runs, src.module, &src, &sass);
        else
            print_text(runs, src.module, &src, &sass);
    }
    for (int k = 0; k < VERSIONS; k++) {
        cured_model_step_view_free(runs[k].view);
        cured_model_counters_free(runs[k].counters);
        cured_model_findings_clear(&runs[k].findings);
        cured_model_findings_clear(&runs[k].checks);
    }
    cured_model_sass_source_free(&sass);
    cured_model_source_free(&src);
    return status;
}
