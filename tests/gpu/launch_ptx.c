/* launch_ptx.c - runs one kernel of a PTX module on the GPU, with its
 * arguments given as `cured model` takes them, so the GPU and the model run
 * the same launch on the same inputs: Nsight Compute profiles this program
 * while the model counts the PTX (scripts/gpu-fidelity.sh), and the buffers
 * it prints can be compared with `cured model --print` bit for bit.
 *
 *   launch_ptx --ptx K.ptx --cubin K.cubin --entry NAME [--grid X[,Y,Z]]
 *              [--block X[,Y,Z]] [--shared BYTES] --arg SPEC...
 *              [--print NAME[:all]]...
 *
 * The PTX gives the entry's parameters and lays out the arguments (the
 * model's own binding, cured_model_args_bind: the same buffers, the same
 * values); the cubin, made from that PTX by the toolkit's ptxas, is what
 * runs, so the SASS ncu measures is the SASS the model matched. The CUDA
 * runtime loads the cubin (cudaLibraryLoadFromFile), so the program needs
 * no driver library to start and says "no GPU" where there is none.
 * Dynamic shared memory up to 48 KiB. Exit 0 when the kernel ran, 1 when a
 * CUDA call failed, 2 for bad usage, 77 when there is no GPU (the ctest
 * skip code).
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
        else if (strcmp(a, "--grid") == 0 || strcmp(a, "--block") == 0) {
            cured_model_dim3 *d = a[2] == 'g' ? &o->grid : &o->block;
            if (cured_model_dim3_parse(v, a, d, err, sizeof err) != 0)
                return fail(2, err, NULL);
        } else if (strcmp(a, "--shared") == 0) {
            char *end;
            unsigned long s = strtoul(v, &end, 10);
            if (*v == '\0' || *end != '\0' || s > 48 * 1024)
                return fail(2, "bad --shared", v);
            o->shared = (unsigned)s;
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
    if (o->ptx == NULL || o->cubin == NULL || o->entry == NULL)
        return fail(2, "usage: launch_ptx --ptx K.ptx --cubin K.cubin --entry NAME "
                    "[--grid G] [--block B] [--shared S] --arg SPEC... [--print NAME]",
                    NULL);
    return 0;
}

/* Runs the launch the options describe. Returns the exit status. */
static int run(const launch_options *o)
{
    char err[1024];
    cured_model_source src;
    memset(&src, 0, sizeof src);
    if (cured_model_source_ptx_file(&src, o->ptx, err, sizeof err) != 0 ||
        cured_model_source_parse(&src, err, sizeof err) != 0)
        return fail(2, err, NULL);
    int entry = cured_model_find_entry(src.module, o->entry, src.label, err, sizeof err);
    if (entry < 0)
        return fail(2, err, NULL);

    /* The model's binding: buffers filled as `cured model` fills them. */
    cured_model_memory *memory = cured_model_memory_new();
    cured_model_arg args[MAX_ARGS];
    memcpy(args, o->args, sizeof args);
    uint8_t *params = NULL;
    size_t params_size = 0;
    if (memory == NULL ||
        cured_model_args_bind(src.module, entry, args, o->nargs, memory, &params,
                              &params_size, err, sizeof err) != 0)
        return fail(2, memory ? err : "out of memory", NULL);
    cured_model_param layout[MAX_ARGS];
    int nparams = cured_model_entry_params(src.module, entry, layout, MAX_ARGS, NULL);

    int count = 0;
    cudaError_t r = cudaGetDeviceCount(&count);
    if (r != cudaSuccess || count == 0)
        return fail(77, "no GPU", r != cudaSuccess ? cu_text(r) : NULL);
    cudaLibrary_t lib;
    cudaKernel_t fn;
    if ((r = cudaLibraryLoadFromFile(&lib, o->cubin, NULL, NULL, 0, NULL, NULL, 0))
        != cudaSuccess)
        return fail(1, "loading the cubin", cu_text(r));
    if ((r = cudaLibraryGetKernel(&fn, lib, cured_model_entry_name(src.module, entry)))
        != cudaSuccess)
        return fail(1, "no such kernel in the cubin", cu_text(r));

    /* Device buffers beside the model's, their addresses in the params. */
    void *dptr[MAX_ARGS] = {0};
    void *kernel_args[MAX_ARGS];
    for (int i = 0; i < nparams && i < MAX_ARGS; i++)
        kernel_args[i] = params + layout[i].offset;
    cured_model_buffer *host[MAX_ARGS] = {0};
    for (int i = 0; i < o->nargs && i < nparams; i++) {
        if (!args[i].is_buffer)
            continue;
        host[i] = cured_model_memory_find_named(memory, args[i].name);
        if (host[i] == NULL)
            return fail(2, "no buffer named", args[i].name);
        size_t bytes = host[i]->bytes ? (size_t)host[i]->bytes : 1;
        if ((r = cudaMalloc(&dptr[i], bytes)) != cudaSuccess ||
            (host[i]->bytes &&
             (r = cudaMemcpy(dptr[i], host[i]->data, bytes, cudaMemcpyHostToDevice))
             != cudaSuccess))
            return fail(1, "device buffer", cu_text(r));
        uint64_t addr = (uint64_t)(uintptr_t)dptr[i];
        memcpy(params + layout[i].offset, &addr, sizeof addr);
    }
    dim3 grid = {o->grid.x, o->grid.y, o->grid.z};
    dim3 block = {o->block.x, o->block.y, o->block.z};
    r = cudaLaunchKernel((const void *)fn, grid, block, kernel_args, o->shared, NULL);
    if (r == cudaSuccess)
        r = cudaDeviceSynchronize();
    if (r != cudaSuccess)
        return fail(1, "the kernel", cu_text(r));

    for (int i = 0; i < o->nargs; i++)
        if (host[i] != NULL && host[i]->bytes &&
            (r = cudaMemcpy(host[i]->data, dptr[i], (size_t)host[i]->bytes,
                            cudaMemcpyDeviceToHost)) != cudaSuccess)
            return fail(1, "copying back", cu_text(r));
    for (int p = 0; p < o->nprints; p++) {
        char name[CURED_MODEL_ARG_NAME_MAX];
        snprintf(name, sizeof name, "%s", o->prints[p]);
        char *colon = strchr(name, ':');
        int all = colon != NULL && strcmp(colon, ":all") == 0;
        if (colon)
            *colon = '\0';
        const cured_model_arg *a = cured_model_arg_find(args, o->nargs, name);
        const cured_model_buffer *b = cured_model_memory_find_named(memory, name);
        if (a == NULL || b == NULL)
            return fail(2, "--print: no buffer named", name);
        cured_model_buffer_print(stdout, a, b, all);
    }
    for (int i = 0; i < o->nargs; i++)
        if (dptr[i])
            cudaFree(dptr[i]);
    cudaLibraryUnload(lib);
    free(params);
    cured_model_memory_free(memory);
    cured_model_source_free(&src);
    return 0;
}

int main(int argc, char **argv)
{
    launch_options o;
    int rc = parse(argc, argv, &o);
    return rc != 0 ? rc : run(&o);
}
