/* cmd_model.c - `cured model`: one kernel launch in the model, on the CPU.
 *
 *   cured model KERNEL [--dtype T] [--n N] [options]
 *   cured model KERNEL [--dtype T] [--n N] --whole-plan [options]
 *   cured model --ptx FILE | --cu FILE [--entry NAME] --arg SPEC... [options]
 *   cured model --lesson-table
 *
 * Loads the PTX (embedded catalogue, file, or nvcc), picks the entry, lays
 * out its arguments, runs it with the counters and the checks watching,
 * and prints the hardware view, the findings and the buffers asked for
 * (or all of it as one JSON object); --whole-plan hands the catalogue
 * kernel's whole launch plan to model_whole_plan.c. Exit 0: ran with no
 * error findings; 1: error findings (any finding with --strict); 2: bad
 * usage or input (with --json, also as a JSON object on stdout).
 */
#include "cli.h"
#include "cured.h"
#include "cured_model.h"
#include "cured_model_host.h"
#include "json_out.h"
#include "model_compare.h"
#include "model_memory.h"
#include "model_options.h"
#include "model_notes.h"
#include "model_progress.h"
#include "lesson_table.h"
#include "model_whole_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "model"

/* Everything one run holds, freed by run_free. */
typedef struct model_run_state {
    cured_model_source src;
    cured_model_sass_source sass;                   /* the SASS the counts follow, if any */
    int function;
    char entry[512];
    cured_model_launch launch;
    cured_model_memory *memory;
    uint8_t *params;
    cured_model_counters *counters;
    cured_model_step_view *steps;          /* --steps only */
    cured_model_checks *checks;
    cured_model_findings check_findings;
    cured_model_result result;
    cured_model_ncu_report ncu;            /* --compare-ncu only */
    int ncu_kernel;                        /* its kernel of this launch */
} model_run_state;

static void run_free(model_run_state *r)
{
    cured_model_checks_free(r->checks);
    cured_model_step_view_free(r->steps);
    cured_model_counters_free(r->counters);
    cured_model_findings_clear(&r->check_findings);
    cured_model_findings_clear(&r->result.findings);
    free(r->params);
    cured_model_memory_free(r->memory);
    cured_model_sass_source_free(&r->sass);
    cured_model_source_free(&r->src);
    cured_model_ncu_report_free(&r->ncu);
}

/* The index of the entry to run: --entry NAME, else the module's only
 * entry. Returns -1 after a line on stderr. */
static int pick_entry(const cured_model_module *m, const char *name, const char *label)
{
    char err[1024];
    int f = cured_model_find_entry(m, name, label, err, sizeof err);
    if (f < 0)
        cli_fail(CMD, "%s%s", err, name == NULL && cured_model_entry_count(m) > 1
                                   ? "; pick one with --entry NAME" : "");
    return f;
}

/* Loads the catalogue kernel o->kernel: its PTX, entry, arguments and
 * shape into r (the user's --grid/--block/--shared/--arg override).
 * Returns 0 or 2 after a line on stderr. */
static int load_catalogue(const cli_model_options *o, model_run_state *r,
                          cured_model_arg *specs, int *nspecs)
{
    char err[512];
    int kernel;
    cured_dtype dtype;
    if (cured_catalogue_find(o->kernel, &kernel) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown kernel '%s' (see cured list)", o->kernel);
    if (cured_dtype_from_name(o->dtype, &dtype) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown --dtype '%s' (f32 f64 i32 i64 u32 u64)",
                        o->dtype);
    int block = o->have_block ? (int)o->block.x : 256;
    if (o->have_block && (o->block.y != 1 || o->block.z != 1))
        return cli_fail(CMD, "the catalogue's blocks are one-dimensional");
    cured_model_catalogue_launch plan;
    if (cured_model_catalogue_launch_make(kernel, dtype, o->n, block, o->seed,
                                          &o->device->shape, &plan, err,
                                sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    if (cured_model_source_catalogue(&r->src, err, sizeof err) != 0 ||
        cured_model_source_parse(&r->src, err, sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    int rc = cured_model_catalogue_entry_name(r->src.module, o->kernel, o->dtype, block,
                                        r->entry, sizeof r->entry);
    if (rc == CURED_MODEL_CATALOGUE_NO_BLOCK)
        return cli_fail(CMD, "%s has no instance for --block %d (32 64 128 256 "
                        "512 1024)", o->kernel, block);
    if (rc != CURED_MODEL_CATALOGUE_OK)
        return cli_fail(CMD, "the embedded PTX has no entry for %s %s", o->kernel,
                        o->dtype);
    r->function = cured_model_find_function(r->src.module, r->entry);
    if (r->function < 0)
        return cli_fail(CMD, "the embedded PTX has no entry %s", r->entry);
    r->launch.grid = plan.grid;
    r->launch.block = plan.block;
    r->launch.dynamic_shared_bytes = plan.dynamic_shared;
    if (o->nargs == 0) {
        memcpy(specs, plan.args, (size_t)plan.nargs * sizeof *specs);
        *nspecs = plan.nargs;
    }
    return 0;
}

/* Loads the --ptx/--cu module and its entry into r. A tool that failed
 * has its messages shown above the error line. Returns 0 or 2. */
static int load_file(const cli_model_options *o, model_run_state *r)
{
    char err[1400];
    cured_model_sass_source *sass = o->no_sass || o->sass_path ? NULL : &r->sass;
    cured_model_cu_options cu = {o->keep_ptx, o->verbose ? stderr : NULL, o->arch};
    int rc = o->ptx_path ? cured_model_source_ptx_file(&r->src, o->ptx_path, err, sizeof err)
                         : cured_model_source_cu_file(&r->src, o->cu_path, sass, &cu, err,
                                                      sizeof err);
    if (rc != 0 && r->src.tool_messages != NULL && !o->verbose)
        fputs(r->src.tool_messages, stderr);
    if (rc == 0 && r->src.kept[0])
        fprintf(stderr, "cured model: kept %s\n", r->src.kept);
    if (rc != 0)
        return cli_fail(CMD, "%s", err);
    if (cured_model_source_parse(&r->src, err, sizeof err) != 0)
        return cli_fail(CMD, "%s%s", err, o->cu_path && !o->keep_ptx
                        ? " (--keep-ptx DIR keeps the PTX nvcc made)" : "");
    r->function = pick_entry(r->src.module, o->entry, r->src.label);
    if (r->function < 0)
        return 2;
    snprintf(r->entry, sizeof r->entry, "%s",
             cured_model_entry_name(r->src.module, r->function));
    r->launch.grid = (cured_model_dim3){1, 1, 1};
    r->launch.block = cured_model_entry_block(r->src.module, r->function);
    return 0;
}

/* The SASS the counts follow: --sass FILE, the catalogue's embedded SASS,
 * a --cu kernel's (load_file made it), or none (--no-sass, or --ptx
 * without --sass). Returns 0 or 2 after a line on stderr. */
static int load_sass(const cli_model_options *o, model_run_state *r)
{
    char err[1200];
    if (o->no_sass)
        cured_model_sass_source_none(&r->sass, "--no-sass");
    else if (o->sass_path) {
        if (cured_model_sass_source_file(&r->sass, o->sass_path, err, sizeof err) != 0)
            return cli_fail(CMD, "%s", err);
    } else if (o->kernel)
        cured_model_sass_source_catalogue(&r->sass);
    else if (o->ptx_path)
        cured_model_sass_source_none(&r->sass, "--ptx without --sass FILE");
    return 0;
}

/* Checks that every --print/--out names a buffer. Returns 0 or 2. */
static int check_outputs(const cli_model_options *o, const cured_model_arg *specs,
                         int nspecs)
{
    for (int i = 0; i < o->nprints + o->nouts; i++) {
        const cli_model_output *out =
            i < o->nprints ? &o->prints[i] : &o->outs[i - o->nprints];
        if (cured_model_arg_find(specs, nspecs, out->name) == NULL)
            return cli_fail(CMD, "%s %s: no buffer of that name among the "
                            "arguments", i < o->nprints ? "--print" : "--out",
                            out->name);
    }
    return 0;
}

/* Writes the --out files. Returns 0 or 2 after a line on stderr. */
static int write_outputs(const cli_model_options *o, const model_run_state *r)
{
    for (int i = 0; i < o->nouts; i++) {
        const cured_model_buffer *b = cured_model_memory_find_named(r->memory, o->outs[i].name);
        FILE *f = fopen(o->outs[i].path, "wb");
        if (f == NULL)
            return cli_fail(CMD, "cannot write '%s': %s", o->outs[i].path,
                            strerror(errno));
        size_t wrote = b->bytes ? fwrite(b->data, 1, (size_t)b->bytes, f) : 0;
        if (fclose(f) != 0 || wrote != b->bytes)
            return cli_fail(CMD, "writing '%s' failed", o->outs[i].path);
    }
    return 0;
}

/* The comparison with ncu's CSV (--compare-ncu), as text or JSON.
 * Returns the values that differ without a known reason, or -1 after a
 * line on stderr (the CSV has none of the model's metrics). */
static int print_compare(const cli_model_options *o, const model_run_state *r, int json)
{
    int different = 0;
    if (cli_model_compare_report(stdout, o->compare_ncu, &r->ncu, r->ncu_kernel, &r->launch,
                                 r->counters, r->sass.applied ? r->sass.summary.inexact : 0,
                                 json, &different) != 0)
        return -1;
    return different;
}

/* The text report: launch line, counters, findings, buffers. */
static void print_text(const cli_model_options *o, const model_run_state *r,
                       const cured_model_arg *specs, int nspecs)
{
    const cured_model_launch *l = &r->launch;
    if (o->kernel)
        printf("kernel: %s (%s), entry %s\n", o->kernel, o->dtype, r->entry);
    else
        printf("kernel: %s in %s\n", r->entry, r->src.label);
    char cluster[48] = "";
    if (l->cluster.x != 0)
        snprintf(cluster, sizeof cluster, ", cluster (%u,%u,%u)", l->cluster.x, l->cluster.y,
                 l->cluster.z);
    printf("launch: grid (%u,%u,%u), block (%u,%u,%u)%s, dynamic shared %u bytes: "
           "%llu warp instructions, %s\n", l->grid.x, l->grid.y, l->grid.z,
           l->block.x, l->block.y, l->block.z, cluster, l->dynamic_shared_bytes,
           (unsigned long long)r->result.warp_instructions,
           r->result.completed ? "completed" : "did not complete");
    cured_model_sass_source_print(stdout, &r->sass, r->src.module);
    putchar('\n');
    cured_model_counters_print_table(stdout, r->counters, CURED_MODEL_BY_SOURCE, r->src.text,
                                     r->src.len);
    if (o->compare_ncu)
        print_compare(o, r, 0);
    if (r->steps) {
        const char *name = o->kernel ? o->kernel : r->entry;
        const cured_model_step_view *views[1] = {r->steps};
        printf("\nThe step view (docs/lesson.md's counting rules):\n\n");
        if (!cured_model_step_view_complete(r->steps))
            printf("(incomplete: host memory ran out, or blocks ran together in a "
                   "thread-block cluster, where the view follows one block at a time)\n\n");
        cured_model_step_view_print_table(stdout, &name, views, 1);
        cured_model_step_view_print_steps(stdout, r->steps);
        cured_model_step_view_print_maths(stdout, r->steps,
                                          l->block.x * l->block.y * l->block.z);
    }
    const cured_model_findings *f = &r->result.findings;
    if (f->count == 0)
        printf("\nfindings: none\n");
    else
        printf("\nfindings: %d (%d errors)\n", f->count, f->errors);
    cured_model_findings_print(stdout, f, r->src.module, r->src.text, r->src.len);
    if (o->nprints)
        putchar('\n');
    for (int i = 0; i < o->nprints; i++)
        cured_model_buffer_print(stdout, cured_model_arg_find(specs, nspecs, o->prints[i].name),
                         cured_model_memory_find_named(r->memory, o->prints[i].name),
                         o->prints[i].all);
    cli_model_print_notes(stdout, f, o->step_limit == 0);
}

/* The JSON report: one object. */
static void print_json(const cli_model_options *o, const model_run_state *r,
                       const cured_model_arg *specs, int nspecs, int status)
{
    const cured_model_launch *l = &r->launch;
    printf("{\n  \"kernel\": ");
    if (o->kernel)
        cured_json_string(stdout, o->kernel);
    else
        fputs("null", stdout);
    printf(",\n  \"dtype\": ");
    if (o->kernel)
        cured_json_string(stdout, o->dtype);
    else
        fputs("null", stdout);
    printf(",\n  \"ptx\": ");
    cured_json_string(stdout, r->src.label);
    printf(",\n  \"entry\": ");
    cured_json_string(stdout, r->entry);
    if (l->cluster.x != 0)
        printf(",\n  \"cluster\": [%u, %u, %u]", l->cluster.x, l->cluster.y, l->cluster.z);
    printf(",\n  \"grid\": [%u, %u, %u],\n  \"block\": [%u, %u, %u],\n"
           "  \"dynamic_shared_bytes\": %u,\n  \"completed\": %s,\n"
           "  \"warp_instructions\": %llu,\n  \"thread_instructions\": %llu,\n"
           "  \"counters\": ", l->grid.x, l->grid.y, l->grid.z, l->block.x,
           l->block.y, l->block.z, l->dynamic_shared_bytes,
           r->result.completed ? "true" : "false",
           (unsigned long long)r->result.warp_instructions,
           (unsigned long long)r->result.thread_instructions);
    cured_model_counters_write_json(stdout, r->counters);
    printf(",\n  \"sass\": ");
    cured_model_sass_source_json(stdout, &r->sass, r->src.module);
    if (o->compare_ncu) {
        printf(",\n  \"ncu_compare\": ");
        print_compare(o, r, 1);
    }
    if (r->steps) {
        const char *name = o->kernel ? o->kernel : r->entry;
        const cured_model_step_view *views[1] = {r->steps};
        printf(",\n  \"step_view\": ");
        cured_model_step_view_write_json(stdout, &name, views, 1);
        printf(",\n  \"step_maths\": ");
        cured_model_step_view_write_maths_json(stdout, r->steps,
                                               l->block.x * l->block.y * l->block.z);
    }
    printf(",\n  \"findings\": ");
    cured_model_findings_write_json(stdout, &r->result.findings, r->src.module, r->src.text,
                      r->src.len);
    printf(",\n  \"buffers\": {");
    for (int i = 0; i < o->nprints; i++) {
        printf("%s\n    ", i ? "," : "");
        cured_json_string(stdout, o->prints[i].name);
        printf(": ");
        cured_model_buffer_write_json(stdout, cured_model_arg_find(specs, nspecs, o->prints[i].name),
                        cured_model_memory_find_named(r->memory, o->prints[i].name),
                        o->prints[i].all);
    }
    printf("%s},\n  ", o->nprints ? "\n  " : "");
    cli_model_json_trust(stdout, &r->result.findings);
    printf(",\n  \"exit_status\": %d\n}\n", status);
}

/* The exit status of a finished run: 1 for error findings, an incomplete
 * run, or (strict) any finding; else 0. */
static int run_status(const cli_model_options *o, const model_run_state *r)
{
    if (r->result.findings.errors > 0 || !r->result.completed)
        return 1;
    if (o->strict && r->result.findings.count > 0)
        return 1;
    return 0;
}

/* Runs the launch the options describe. Returns the exit status. */
static int run_model(const cli_model_options *o, model_run_state *r)
{
    char err[1400];
    cured_model_arg specs[CLI_MODEL_MAX_ARGS];
    int nspecs = o->nargs;
    memcpy(specs, o->args, (size_t)o->nargs * sizeof *specs);

    int rc = o->kernel ? load_catalogue(o, r, specs, &nspecs) : load_file(o, r);
    if (rc != 0)
        return rc;
    if ((rc = load_sass(o, r)) != 0)
        return rc;
    if (o->have_grid)
        r->launch.grid = o->grid;
    if (o->have_block)
        r->launch.block = o->block;
    if (o->have_cluster)
        r->launch.cluster = o->cluster;
    if (o->have_shared)
        r->launch.dynamic_shared_bytes = o->shared;
    if ((rc = check_outputs(o, specs, nspecs)) != 0)
        return rc;
    if (o->compare_ncu &&
        ((rc = cli_model_compare_load(o->compare_ncu, &r->ncu)) != 0 ||
         (rc = cli_model_compare_find(o->compare_ncu, &r->ncu, r->entry, &r->launch,
                                      &r->ncu_kernel)) != 0))
        return rc;
    if ((rc = cli_model_check_memory(cured_model_launch_bytes(r->src.module, r->function,
                                                              specs, nspecs, r->launch.block,
                                                              r->launch.cluster,
                                                              r->launch.dynamic_shared_bytes),
                                     o->force)) != 0)
        return rc;

    r->memory = cured_model_memory_new();
    if (r->memory == NULL)
        return cli_fail(CMD, "out of memory");
    size_t params_size = 0;
    if (cured_model_args_bind(r->src.module, r->function, specs, nspecs, r->memory,
                      &r->params, &params_size, err, sizeof err) != 0)
        return cli_fail(CMD, "%s", err);

    r->counters = cured_model_counters_new(r->src.module, r->function);
    r->checks = cured_model_checks_new(&r->check_findings);
    if (r->counters == NULL || r->checks == NULL)
        return cli_fail(CMD, "out of memory");
    if (cured_model_sass_source_apply(&r->sass, r->src.module, r->function, r->counters, err,
                       sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    cli_progress progress;
    cli_progress_init(&progress, stderr, 1, NULL);
    cured_model_observer observers[4] = {cured_model_counters_observer(r->counters),
                                   cured_model_checks_observer(r->checks),
                                   cli_progress_observer(&progress)};
    int nobservers = 3;
    if (o->steps) {
        r->steps = cured_model_step_view_new(r->src.module, r->function);
        if (r->steps == NULL)
            return cli_fail(CMD, "out of memory");
        observers[nobservers++] = cured_model_step_view_observer(r->steps);
    }
    cured_model_launch *l = &r->launch;
    l->module = r->src.module;
    l->function = r->function;
    l->params = r->params;
    l->params_size = params_size;
    l->memory = r->memory;
    l->step_limit = o->step_limit ? o->step_limit
                                  : cured_model_step_budget(l->grid, l->block,
                                                            cured_model_args_elements(specs, nspecs));
    l->observers = observers;
    l->nobservers = nobservers;
    l->check_uninit_global = 1;

    int ran = cured_model_run(l, &r->result);
    cli_progress_end(&progress);
    if (ran != 0) {
        const cured_model_findings *f = &r->result.findings;
        return cli_fail(CMD, "bad launch: %s",
                        f->count ? f->items[0].message : "the model refused it");
    }
    if (cured_model_findings_merge(&r->result.findings, &r->check_findings) != 0)
        return cli_fail(CMD, "out of memory");
    if ((rc = write_outputs(o, r)) != 0)
        return rc;
    int status = run_status(o, r);
    if (o->compare_ncu) {
        /* the comparison's verdict, counted once before printing: a CSV
           with none of the model's metrics is bad input */
        cured_model_ncu_row rows[CURED_MODEL_CTR_COUNT];
        int n = cured_model_ncu_compare(r->counters,
                                        r->sass.applied ? r->sass.summary.inexact : 0,
                                        (uint64_t)l->grid.x * l->grid.y * l->grid.z,
                                        &r->ncu.kernels[r->ncu_kernel], rows);
        int measured = 0, differ = 0;
        for (int i = 0; i < n; i++) {
            measured += rows[i].verdict != CURED_MODEL_NCU_NOT_MEASURED &&
                        rows[i].verdict != CURED_MODEL_NCU_OWN;
            differ += rows[i].verdict == CURED_MODEL_NCU_DIFFERENT;
        }
        if (measured == 0) {
            print_compare(o, r, o->json);   /* says why, prints nothing else */
            return 2;
        }
        if (differ > 0 && status == 0)
            status = 1;
    }
    if (o->json)
        print_json(o, r, specs, nspecs, status);
    else
        print_text(o, r, specs, nspecs);
    return status;
}

int cmd_model(int argc, char **argv)
{
    cli_model_options o;
    char err[512];
    if (argc == 2 && strcmp(argv[1], "--ncu-metrics") == 0) {
        cli_model_ncu_metrics(stdout);      /* for ncu --metrics */
        return 0;
    }
    int parsed = cli_model_parse_options(argc, argv, &o, err, sizeof err);
    if (parsed == CLI_MODEL_PARSE_HELP) {
        cli_model_usage(stdout);
        return 0;
    }
    int status, kernel;
    if (parsed != CLI_MODEL_PARSE_OK)
        status = cli_fail(CMD, "%s", err);
    else if (o.kernel != NULL && cli_catalogue_find(o.kernel, &kernel, err,
                                                    sizeof err) != 0)
        status = cli_fail(CMD, "%s", err);
    else if (o.lesson_table)
        status = cli_lesson_table(o.json);
    else {
        if (o.kernel != NULL)
            o.kernel = cured_catalogue_entry(kernel)->name;   /* a number names it */
        if (o.whole_plan) {
            status = cli_model_whole_plan(&o);
        } else {
            model_run_state r;
            memset(&r, 0, sizeof r);
            status = run_model(&o, &r);
            run_free(&r);
        }
    }
    if (status == 2 && o.json)       /* bad usage or input, as JSON too */
        cli_fail_json();
    return status;
}
