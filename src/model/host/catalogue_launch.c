/* catalogue_launch.c - a catalogue kernel's standard launch for n values.
 *
 * defines: cured_model_catalogue_launch_make
 *
 * The launch shape is the dispatch's own (cured_dispatch_plan in
 * src/lib/plan.c, docs/kernels.md): its first launch, on the caller's
 * device shape, so the model runs what libcured's first pass would there.
 * What is the model's alone is the arguments: which buffers, how they
 * start.
 */
#include "cured_model_host.h"
#include "ptx.h"
#include "dispatch.h"

#include <stdio.h>
#include <string.h>

static ptx_type dtype_type(cured_dtype d)
{
    switch (d) {
    case CURED_F32: return PTX_T_F32;
    case CURED_F64: return PTX_T_F64;
    case CURED_I32: return PTX_T_S32;
    case CURED_I64: return PTX_T_S64;
    case CURED_U32: return PTX_T_U32;
    case CURED_U64: return PTX_T_U64;
    default: return PTX_T_NONE;
    }
}

/* A buffer spec NAME=TYPE[COUNT]:INIT. */
static cured_model_arg buffer(const char *name, ptx_type type, uint64_t count,
                           cured_model_arg_init init, uint64_t seed)
{
    cured_model_arg s;
    memset(&s, 0, sizeof s);
    s.is_buffer = 1;
    snprintf(s.name, sizeof s.name, "%s", name);
    s.type = type;
    s.count = count;
    s.init = init;
    s.seed = seed;
    return s;
}

int cured_model_catalogue_launch_make(int kernel, cured_dtype dtype, uint64_t n,
                                      int block, uint64_t seed,
                                      const cured_device_shape *device,
                                      cured_model_catalogue_launch *plan,
                                      char *err, size_t cap)
{
    const cured_kernel_info *info = cured_catalogue_entry(kernel);
    ptx_type type = dtype_type(dtype);
    memset(plan, 0, sizeof *plan);
    cured_status st = cured_dispatch_check_shape(kernel, dtype, n, block);
    if (st == CURED_ERROR_INVALID_BLOCK_SIZE) {
        snprintf(err, cap, "--block %d: the catalogue's blocks are a power of "
                 "two from 32 to 1024", block);
        return -1;
    }
    if (st == CURED_SUCCESS && n == 0)
        st = CURED_ERROR_SIZE_TOO_LARGE;
    if (st == CURED_ERROR_SIZE_TOO_LARGE) {
        snprintf(err, cap, "--n %llu: %s takes 1 to %llu values",
                 (unsigned long long)n, info->name,
                 (unsigned long long)info->max_n);
        return -1;
    }
    if (st == CURED_ERROR_UNSUPPORTED_TYPE || type == PTX_T_NONE) {
        snprintf(err, cap, "--dtype %s: the catalogue's kernels are built for "
                 "f32 f64 i32 i64 u32 u64 (cured_reduce and `cured sum` take "
                 "f16 and bf16 too)", cured_dtype_name(dtype) ? cured_dtype_name(dtype)
                 : "?");
        return -1;
    }
    if (st != CURED_SUCCESS) {
        snprintf(err, cap, "%s", cured_status_string(st));
        return -1;
    }
    cured_plan launches;
    cured_dispatch_plan(kernel, dtype, n, block, device, &launches);
    const cured_launch *first = &launches.launch[0];
    if (launches.launches < 1 || first->grid > UINT32_MAX) {
        snprintf(err, cap, "no launch for --n %llu", (unsigned long long)n);
        return -1;
    }
    plan->grid = (cured_model_dim3){(uint32_t)first->grid, 1, 1};
    plan->block = (cured_model_dim3){(uint32_t)first->block, 1, 1};
    plan->dynamic_shared = (uint32_t)first->shared_bytes;

    int grid_level = info->level == CURED_LEVEL_GRID;
    int single_pass = strcmp(info->name, "single_pass") == 0;
    plan->args[0] = buffer("in", type, n, CURED_MODEL_ARG_RANDOM, seed);
    if (launches.zero_output)                 /* atomic adds into *out */
        plan->args[1] = buffer("out", type, 1, CURED_MODEL_ARG_ZEROS, 0);
    else if (single_pass)
        plan->args[1] = buffer("out", type, 1, CURED_MODEL_ARG_UNINIT, 0);
    else                                      /* one value per block */
        plan->args[1] = buffer("out", type, first->grid, CURED_MODEL_ARG_UNINIT, 0);
    cured_model_arg *ns = &plan->args[2];
    memset(ns, 0, sizeof *ns);
    snprintf(ns->name, sizeof ns->name, "n");
    ns->type = grid_level ? PTX_T_U64 : PTX_T_U32;
    ns->bits = n;
    plan->nargs = 3;
    if (single_pass) {
        plan->args[3] = buffer("partials", type, first->grid, CURED_MODEL_ARG_UNINIT, 0);
        plan->args[4] = buffer("counter", PTX_T_U32, 1, CURED_MODEL_ARG_ZEROS, 0);
        plan->nargs = 5;
    }
    /* The buffers --n builds keep the size rule --arg buffers keep. */
    for (int i = 0; i < plan->nargs; i++) {
        const cured_model_arg *a = &plan->args[i];
        uint64_t bytes;
        char why[200];
        if (a->is_buffer &&
            cured_model_buffer_bytes(a->name, cured_model_arg_type_name(a->type), a->count,
                                     cured_model_arg_elem_size(a->type), &bytes, why,
                                     sizeof why) != 0) {
            snprintf(err, cap, "--n %llu: %s", (unsigned long long)n, why);
            return -1;
        }
    }
    return 0;
}
