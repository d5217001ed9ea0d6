/* launch_ptx.c - runs kernels of a PTX module on the GPU, with their
 * arguments given as `cured model` takes them, so the GPU and the model run
 * the same launch on the same inputs: Nsight Compute profiles this program
 * while the model counts the PTX (scripts/gpu-fidelity.sh), and the buffers
 * it prints can be compared with `cured model --print` bit for bit.
 *
 *   launch_ptx --ptx K.ptx --cubin K.cubin --entry NAME [--grid X[,Y,Z]]
 *              [--block X[,Y,Z]] [--shared BYTES] --arg SPEC...
 *              [--print NAME[:all]]...
 *   launch_ptx --catalogue KERNEL --n N --block B --cubin catalogue.cubin
 *              [--print NAME[:all]]...
 *   launch_ptx --cases FILE
 *
 * The PTX gives the entry's parameters and lays out the arguments (the
 * model's own binding, cured_model_args_bind: the same buffers, the same
 * values); the cubin, made from that PTX by the toolkit's ptxas, is what
 * runs, so the SASS ncu measures is the SASS the model matched. With
 * --catalogue the PTX is the catalogue's, embedded in the model, and the
 * launch the first one `cured model KERNEL --n N --block B` runs (f32, an
 * H200's shape, input random@1: cured_model_catalogue_launch_make); the
 * cubin is the build's src/model/catalogue/catalogue.cubin, whose SASS the
 * model counts by. --cases runs one launch per line of FILE, `NAME
 * OPTIONS...` with the options above, in order in one process (one ncu
 * run profiles them all, kernel i being line i), printing `== NAME` before
 * a line's buffers; a line that fails is reported and the rest still run.
 * The CUDA runtime loads the cubin (cudaLibraryLoadFromFile), so the
 * program needs no driver library to start and says "no GPU" where there
 * is none. Dynamic shared memory up to 48 KiB. Exit 0 when every kernel
 * ran, 1 when a CUDA call failed, 2 for bad usage, 77 when there is no GPU
 * (the ctest skip code).
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model.h"
#include "cured_model_host.h"

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32
#define MAX_PRINTS 8

typedef struct launch_options {
    const char *ptx, *cubin, *entry;
    const char *catalogue;      /* --catalogue KERNEL, else NULL */
    uint64_t n;                 /* its --n */
    int have_grid, have_block, have_shared;
    cured_model_dim3 grid, block;
    unsigned shared;
    cured_model_arg args[MAX_ARGS];
    int nargs;
    const char *prints[MAX_PRINTS];
    int nprints;
} launch_options;

/* Prints one line to stderr and returns `status`. */
static int fail(int status, const char *what, const char *detail)
{
    fprintf(stderr, "launch_ptx: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    return status;
}

/* The text of a CUDA runtime error. */
static const char *cu_text(cudaError_t r)
{
    return cudaGetErrorString(r);
}

/* Parses argv into *o. Returns 0, or 2 after a line on stderr. */
static int parse(int argc, char **argv, launch_options *o)
{
    char err[512];
    memset(o, 0, sizeof *o);
    o->grid = (cured_model_dim3){1, 1, 1};
    o->block = (cured_model_dim3){32, 1, 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL)
            return fail(2, "missing value after", a);
        i++;
        if (strcmp(a, "--ptx") == 0)
            o->ptx = v;
        else if (strcmp(a, "--cubin") == 0)
            o->cubin = v;
        else if (strcmp(a, "--entry") == 0)
            o->entry = v;
        else if (strcmp(a, "--catalogue") == 0)
            o->catalogue = v;
        else if (strcmp(a, "--n") == 0) {
            char *end;
            o->n = strtoull(v, &end, 0);
            if (*v == '\0' || *end != '\0' || o->n == 0)
                return fail(2, "bad --n", v);
        } else if (strcmp(a, "--grid") == 0 || strcmp(a, "--block") == 0) {
            cured_model_dim3 *d = a[2] == 'g' ? &o->grid : &o->block;
            if (cured_model_dim3_parse(v, a, d, err, sizeof err) != 0)
                return fail(2, err, NULL);
            *(a[2] == 'g' ? &o->have_grid : &o->have_block) = 1;
        } else if (strcmp(a, "--shared") == 0) {
            char *end;
            unsigned long s = strtoul(v, &end, 10);
            if (*v == '\0' || *end != '\0' || s > 48 * 1024)
                return fail(2, "bad --shared", v);
            o->shared = (unsigned)s;
            o->have_shared = 1;
        } else if (strcmp(a, "--arg") == 0) {
            if (o->nargs == MAX_ARGS)
                return fail(2, "too many --arg", NULL);
            if (cured_model_arg_parse(v, &o->args[o->nargs++], err, sizeof err) != 0)
                return fail(2, err, NULL);
        } else if (strcmp(a, "--print") == 0) {
            if (o->nprints == MAX_PRINTS)
                return fail(2, "too many --print", NULL);
            o->prints[o->nprints++] = v;
        } else {
            return fail(2, "unknown option", a);
        }
    }
    if (o->catalogue != NULL ? o->cubin == NULL || o->n == 0 || o->ptx || o->entry ||
                                   o->nargs
                             : o->ptx == NULL || o->cubin == NULL || o->entry == NULL)
        return fail(2, "usage: launch_ptx --ptx K.ptx --cubin K.cubin --entry NAME "
                    "[--grid G] [--block B] [--shared S] --arg SPEC... [--print NAME] | "
                    "--catalogue KERNEL --n N [--block B] --cubin catalogue.cubin | "
                    "--cases FILE", NULL);
    return 0;
}

/* What one run holds, released by release_state whatever happened. */
typedef struct launch_state {
    cured_model_source src;
    cured_model_memory *memory;
    cured_model_arg args[MAX_ARGS];
    uint8_t *params;
    size_t params_size;
    void *dptr[MAX_ARGS];
    cured_model_buffer *host[MAX_ARGS];
    cudaLibrary_t lib;
    int have_lib;
    char entry[512];            /* --catalogue: the instance's name */
} launch_state;

static void release_state(launch_state *st)
{
    for (int i = 0; i < MAX_ARGS; i++)
        if (st->dptr[i])
            cudaFree(st->dptr[i]);
    if (st->have_lib)
        cudaLibraryUnload(st->lib);
    free(st->params);
    cured_model_memory_free(st->memory);
    cured_model_source_free(&st->src);
}

/* Binds the arguments as the model does (the same buffers, the same
 * values). Returns the entry's index, or -1 after a line on stderr. */
/* A --catalogue launch's PTX, entry, shape and arguments, as `cured model
 * KERNEL --n N --block B` makes them, into *o. Returns 0, or -1 after a
 * line on stderr. */
static int catalogue_launch(launch_options *o, launch_state *st)
{
    char err[1024];
    int kernel;
    if (cured_catalogue_find(o->catalogue, &kernel) != CURED_SUCCESS) {
        fail(2, "no catalogue kernel named", o->catalogue);
        return -1;
    }
    int block = o->have_block ? (int)o->block.x : 256;
    cured_model_catalogue_launch plan;
    if (cured_model_catalogue_launch_make(kernel, CURED_F32, o->n, block,
                                          CURED_MODEL_ARG_DEFAULT_SEED,
                                          &cured_device_presets(NULL)->shape, &plan, err,
                                          sizeof err) != 0 ||
        cured_model_source_catalogue(&st->src, err, sizeof err) != 0 ||
        cured_model_source_parse(&st->src, err, sizeof err) != 0) {
        fail(2, err, NULL);
        return -1;
    }
    if (cured_model_catalogue_entry_name(st->src.module, o->catalogue, "f32", block,
                                         st->entry, sizeof st->entry) != 0) {
        fail(2, "no f32 instance for that block size of", o->catalogue);
        return -1;
    }
    o->entry = st->entry;
    o->grid = plan.grid;
    o->block = plan.block;
    o->shared = plan.dynamic_shared;
    memcpy(o->args, plan.args, (size_t)plan.nargs * sizeof plan.args[0]);
    o->nargs = plan.nargs;
    return 0;
}

static int bind(launch_options *o, launch_state *st)
{
    char err[1024];
    if (o->catalogue != NULL) {
        if (catalogue_launch(o, st) != 0)
            return -1;
    } else if (cured_model_source_ptx_file(&st->src, o->ptx, err, sizeof err) != 0 ||
               cured_model_source_parse(&st->src, err, sizeof err) != 0) {
        fail(2, err, NULL);
        return -1;
    }
    int entry = cured_model_find_entry(st->src.module, o->entry, st->src.label, err,
                                       sizeof err);
    if (entry < 0) {
        fail(2, err, NULL);
        return -1;
    }
    st->memory = cured_model_memory_new();
    memcpy(st->args, o->args, sizeof st->args);
    if (st->memory == NULL ||
        cured_model_args_bind(st->src.module, entry, st->args, o->nargs, st->memory,
                              &st->params, &st->params_size, err, sizeof err) != 0) {
        fail(2, st->memory ? err : "out of memory", NULL);
        return -1;
    }
    return entry;
}

/* Runs the bound launch on the GPU and copies the buffers back into the
 * model's memory. Returns the exit status. */
static int launch(const launch_options *o, launch_state *st, int entry)
{
    cured_model_param layout[MAX_ARGS];
    int nparams = cured_model_entry_params(st->src.module, entry, layout, MAX_ARGS, NULL);
    int count = 0;
    cudaError_t r = cudaGetDeviceCount(&count);
    if (r != cudaSuccess || count == 0)
        return fail(77, "no GPU", r != cudaSuccess ? cu_text(r) : NULL);
    cudaKernel_t fn;
    if ((r = cudaLibraryLoadFromFile(&st->lib, o->cubin, NULL, NULL, 0, NULL, NULL, 0))
        != cudaSuccess)
        return fail(1, "loading the cubin", cu_text(r));
    st->have_lib = 1;
    if ((r = cudaLibraryGetKernel(&fn, st->lib, cured_model_entry_name(st->src.module,
                                                                       entry)))
        != cudaSuccess)
        return fail(1, "no such kernel in the cubin", cu_text(r));

    /* Device buffers beside the model's, their addresses in the params. */
    void *kernel_args[MAX_ARGS];
    for (int i = 0; i < nparams && i < MAX_ARGS; i++)
        kernel_args[i] = st->params + layout[i].offset;
    for (int i = 0; i < o->nargs && i < nparams; i++) {
        if (!st->args[i].is_buffer)
            continue;
        st->host[i] = cured_model_memory_find_named(st->memory, st->args[i].name);
        if (st->host[i] == NULL)
            return fail(2, "no buffer named", st->args[i].name);
        size_t bytes = st->host[i]->bytes ? (size_t)st->host[i]->bytes : 1;
        if ((r = cudaMalloc(&st->dptr[i], bytes)) != cudaSuccess ||
            (st->host[i]->bytes &&
             (r = cudaMemcpy(st->dptr[i], st->host[i]->data, bytes,
                             cudaMemcpyHostToDevice)) != cudaSuccess))
            return fail(1, "device buffer", cu_text(r));
        uint64_t addr = (uint64_t)(uintptr_t)st->dptr[i];
        memcpy(st->params + layout[i].offset, &addr, sizeof addr);
    }
    dim3 grid = {o->grid.x, o->grid.y, o->grid.z};
    dim3 block = {o->block.x, o->block.y, o->block.z};
    r = cudaLaunchKernel((const void *)fn, grid, block, kernel_args, o->shared, NULL);
    if (r == cudaSuccess)
        r = cudaDeviceSynchronize();
    if (r != cudaSuccess)
        return fail(1, "the kernel", cu_text(r));
    for (int i = 0; i < o->nargs; i++)
        if (st->host[i] != NULL && st->host[i]->bytes &&
            (r = cudaMemcpy(st->host[i]->data, st->dptr[i], (size_t)st->host[i]->bytes,
                            cudaMemcpyDeviceToHost)) != cudaSuccess)
            return fail(1, "copying back", cu_text(r));
    return 0;
}

/* Prints the --print buffers. Returns 0, or 2 for an unknown name. */
static int print_buffers(const launch_options *o, const launch_state *st)
{
    for (int p = 0; p < o->nprints; p++) {
        char name[CURED_MODEL_ARG_NAME_MAX];
        snprintf(name, sizeof name, "%s", o->prints[p]);
        char *colon = strchr(name, ':');
        int all = colon != NULL && strcmp(colon, ":all") == 0;
        if (colon)
            *colon = '\0';
        const cured_model_arg *a = cured_model_arg_find(st->args, o->nargs, name);
        const cured_model_buffer *b = cured_model_memory_find_named(st->memory, name);
        if (a == NULL || b == NULL)
            return fail(2, "--print: no buffer named", name);
        cured_model_buffer_print(stdout, a, b, all);
    }
    return 0;
}

/* Runs the launch the options describe. Returns the exit status. */
static int run(launch_options *o)
{
    launch_state st;
    memset(&st, 0, sizeof st);
    int entry = bind(o, &st);
    int status = entry < 0 ? 2 : launch(o, &st, entry);
    if (status == 0)
        status = print_buffers(o, &st);
    release_state(&st);
    return status;
}

/* --cases FILE: one launch per line, `NAME OPTIONS...`, in order. Returns
 * the worst exit status of the lines (77 at once when there is no GPU). */
static int run_cases(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return fail(2, "cannot read", path);
    char line[8192];
    int status = 0, lines = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *argv[256];
        int argc = 0;
        for (char *t = strtok(line, " \t\r\n"); t != NULL && argc < 256;
             t = strtok(NULL, " \t\r\n"))
            argv[argc++] = t;
        if (argc == 0 || argv[0][0] == '#')
            continue;
        lines++;
        printf("== %s\n", argv[0]);
        fflush(stdout);
        launch_options o;
        int rc = parse(argc, argv, &o);      /* argv[0], the name, as a program name */
        if (rc == 0)
            rc = run(&o);
        if (rc == 77) {
            fclose(f);
            return 77;
        }
        if (rc != 0) {
            fprintf(stderr, "launch_ptx: case %s failed (exit %d)\n", argv[0], rc);
            if (rc > status)
                status = rc;
        }
    }
    fclose(f);
    return lines ? status : fail(2, "no case in", path);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--cases") == 0)
        return run_cases(argv[2]);
    launch_options o;
    int rc = parse(argc, argv, &o);
    return rc != 0 ? rc : run(&o);
}
