/* animate_run.c - one launch of a kernel in the model with a trace
 * watching, made into a story for the renderers.
 *
 * defines: cli_animate_lesson, cli_animate_load_catalogue,
 *          cli_animate_catalogue, cli_animate_file
 *
 * The lesson's versions are the catalogue's kernels under the lesson's
 * names. A catalogue kernel runs the first launch of its plan (the one
 * `cured model KERNEL` runs) for --n values in one block of --n threads
 * rounded up to a power of two; a user's kernel runs as `cured model
 * --ptx/--cu` runs it. The run is the model's, unchanged: the trace only
 * watches.
 */
#include "animate.h"

#include "cli.h"
#include "cured.h"

#include <stdlib.h>
#include <string.h>

#define CMD "animate"

/* The lesson's four versions. */
static const struct {
    const char *names[3];
    const char *kernel, *label, *code;
} lesson[] = {
    {{"divergent", NULL, NULL}, "divergent", "divergent",
     "if (tid % (2*s) == 0) x[tid] += x[tid + s]"},
    {{"strided-index", "strided index", "strided"}, "strided", "strided index",
     "i = 2*s*tid; if (i < n) x[i] += x[i + s]"},
    {{"sequential", NULL, NULL}, "sequential", "sequential",
     "if (tid < s) x[tid] += x[tid + s]"},
    {{"warp-shuffle", "warp shuffle", "shuffle"}, "shuffle", "warp shuffle",
     "v += __shfl_down_sync(mask, v, offset)"},
};

const char *cli_animate_lesson(const char *name, const char **label, const char **code,
                               const char **group)
{
    for (size_t i = 0; i < sizeof lesson / sizeof lesson[0]; i++)
        for (int k = 0; k < 3; k++)
            if (lesson[i].names[k] && strcmp(lesson[i].names[k], name) == 0) {
                *label = lesson[i].label;
                *code = lesson[i].code;
                *group = "lesson";
                return lesson[i].kernel;
            }
    int index;
    if (cured_catalogue_find(name, &index) != CURED_SUCCESS)
        return NULL;
    const cured_kernel_info *info = cured_catalogue_entry(index);
    *label = info->name;
    *code = info->description;
    *group = "catalogue";
    return info->name;
}

int cli_animate_load_catalogue(cured_model_source *src)
{
    char err[512];
    memset(src, 0, sizeof *src);
    if (cured_model_source_catalogue(src, err, sizeof err) != 0 ||
        cured_model_source_parse(src, err, sizeof err) != 0) {
        cured_model_source_free(src);
        return cli_fail(CMD, "%s", err);
    }
    return 0;
}

/* The first error finding's message with its place. */
static void first_error(const cured_model_findings *f, char *out, size_t cap)
{
    snprintf(out, cap, "it did not run to its end");
    for (int i = 0; i < f->count; i++)
        if (f->items[i].severity == CURED_MODEL_ERROR) {
            snprintf(out, cap, "%s: %s (PTX line %u)",
                     cured_model_finding_kind_name(f->items[i].kind), f->items[i].message,
                     (unsigned)f->items[i].ptx_line);
            return;
        }
}

/* Runs launch l (module, function, shape set) with specs bound and a trace
 * watching, and builds the story. Returns 0, 1 or 2 as the callers do. */
static int run_traced(const cli_animate_options *o, cured_model_launch *l,
                      cured_model_arg *specs, int nspecs, const viz_story_info *info,
                      viz_story **out)
{
    char err[1400];
    int rc = 2;
    uint8_t *params = NULL;
    size_t params_size = 0;
    cured_model_result result;
    memset(&result, 0, sizeof result);
    cured_model_memory *memory = cured_model_memory_new();
    cured_model_trace *trace = cured_model_trace_new(l->module, l->function);
    if (memory == NULL || trace == NULL) {
        cli_fail(CMD, "out of memory");
        goto done;
    }
    if (cured_model_args_bind(l->module, l->function, specs, nspecs, memory, &params,
                              &params_size, err, sizeof err) != 0) {
        cli_fail(CMD, "%s", err);
        goto done;
    }
    cured_model_observer obs = cured_model_trace_observer(trace);
    l->params = params;
    l->params_size = params_size;
    l->memory = memory;
    l->step_limit = o->step_limit;
    l->observers = &obs;
    l->nobservers = 1;
    if (cured_model_run(l, &result) != 0) {
        cli_fail(CMD, "bad launch: %s", result.findings.count
                                            ? result.findings.items[0].message
                                            : "the model refused it");
        goto done;
    }
    if (result.findings.errors > 0 || !result.completed) {
        first_error(&result.findings, err, sizeof err);
        fprintf(stderr, "cured %s: the model stopped %s: %s\n", CMD, info->label, err);
        rc = 1;
        goto done;
    }
    if (viz_story_build(trace, memory, info, out, err, sizeof err) != 0) {
        cli_fail(CMD, "%s: %s", info->label, err);
        goto done;
    }
    rc = 0;
done:
    cured_model_findings_clear(&result.findings);
    cured_model_trace_free(trace);
    free(params);
    cured_model_memory_free(memory);
    return rc;
}

/* The block for n values: n rounded up to a power of two, 32 at least. */
static int block_for(uint64_t n)
{
    int b = 32;
    while ((uint64_t)b < n && b < CLI_ANIMATE_MAX_N)
        b *= 2;
    return b;
}

int cli_animate_catalogue(const cli_animate_options *o, const cured_model_source *src,
                          const char *kernel, viz_story **out)
{
    char err[512], entry[512];
    const char *label, *code, *group;
    const char *name = cli_animate_lesson(kernel, &label, &code, &group);
    int index;
    cured_dtype dtype;
    if (name == NULL || cured_catalogue_find(name, &index) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown kernel '%s' (the lesson's versions: divergent, "
                        "strided-index, sequential, warp-shuffle; the catalogue: "
                        "cured list)", kernel);
    if (cured_dtype_from_name(o->dtype, &dtype) != CURED_SUCCESS)
        return cli_fail(CMD, "unknown --dtype '%s' (f32 f64 i32 i64 u32 u64)", o->dtype);
    int block = o->have_block ? (int)o->block.x : block_for(o->n);
    cured_model_catalogue_launch plan;
    if (cured_model_catalogue_launch_make(index, dtype, o->n, block, o->seed,
                                          &cured_device_presets(NULL)->shape, &plan, err,
                                          sizeof err) != 0)
        return cli_fail(CMD, "%s", err);
    int rc = cured_model_catalogue_entry_name(src->module, name, o->dtype, block, entry,
                                              sizeof entry);
    if (rc == CURED_MODEL_CATALOGUE_NO_BLOCK)
        return cli_fail(CMD, "%s has no instance for --block %d (32 64 128 256 512 1024)",
                        name, block);
    if (rc != CURED_MODEL_CATALOGUE_OK)
        return cli_fail(CMD, "the embedded PTX has no entry for %s %s", name, o->dtype);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = src->module;
    l.function = cured_model_find_function(src->module, entry);
    l.grid = plan.grid;
    l.block = plan.block;
    l.dynamic_shared_bytes = plan.dynamic_shared;
    viz_story_info info = {.id = name, .label = label, .code = code, .group = group,
                           .dtype = o->dtype};
    return run_traced(o, &l, plan.args, plan.nargs, &info, out);
}

int cli_animate_file(const cli_animate_options *o, viz_story **out)
{
    char err[1400];
    cured_model_source src;
    memset(&src, 0, sizeof src);
    int rc = o->ptx_path
                 ? cured_model_source_ptx_file(&src, o->ptx_path, err, sizeof err)
                 : cured_model_source_cu_file(&src, o->cu_path, NULL, NULL, err, sizeof err);
    if (rc != 0 || cured_model_source_parse(&src, err, sizeof err) != 0) {
        cured_model_source_free(&src);
        return cli_fail(CMD, "%s", err);
    }
    int function = cured_model_find_entry(src.module, o->entry, src.label, err, sizeof err);
    if (function < 0) {
        cured_model_source_free(&src);
        return cli_fail(CMD, "%s%s", err, o->entry ? "" : "; pick one with --entry NAME");
    }
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = src.module;
    l.function = function;
    l.grid = o->have_grid ? o->grid : (cured_model_dim3){1, 1, 1};
    l.block = o->have_block ? o->block : cured_model_entry_block(src.module, function);
    l.dynamic_shared_bytes = o->shared;
    cured_model_arg specs[CLI_ANIMATE_MAX_ARGS];
    memcpy(specs, o->args, (size_t)o->nargs * sizeof *specs);
    const char *name = cured_model_entry_name(src.module, function);
    char label[96];
    snprintf(label, sizeof label, "%s", o->entry ? o->entry : name);
    viz_story_info info = {.id = "yours", .label = label, .code = NULL, .group = "yours",
                           .dtype = NULL};
    rc = run_traced(o, &l, specs, o->nargs, &info, out);
    cured_model_source_free(&src);
    return rc;
}
