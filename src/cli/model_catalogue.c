/* model_catalogue.c - a catalogue kernel's standard launch for n values.
 *
 * defines: cli_catalogue_plan_make
 *
 * The launch shapes are the "Launch:" lines of src/kernels/classic.cu and
 * grid.cu (docs/kernels.md), kept here as one small table. The kernels
 * that read two elements per thread before the tree have grids of
 * ceil(n/(2B)); the ones sized to the GPU are capped at the resident
 * blocks of an H200.
 */
#include "model_catalogue.h"

#include <stdio.h>
#include <string.h>

enum grid_rule { GRID_N_OVER_B, GRID_N_OVER_2B, GRID_N_OVER_2B_RESIDENT,
                 GRID_N_OVER_B_RESIDENT };
enum shared_rule { SHARED_NONE, SHARED_B, SHARED_MAX_B_64 };
enum out_rule { OUT_PER_BLOCK, OUT_ZEROED_ONE, OUT_SINGLE_PASS };

static const struct {
    const char *kernel;
    enum grid_rule grid;
    enum shared_rule shared;
    enum out_rule out;
    int n64;                 /* n is unsigned long long */
} plans[] = {
    {"divergent", GRID_N_OVER_B, SHARED_B, OUT_PER_BLOCK, 0},
    {"strided", GRID_N_OVER_B, SHARED_B, OUT_PER_BLOCK, 0},
    {"sequential", GRID_N_OVER_B, SHARED_B, OUT_PER_BLOCK, 0},
    {"first_add", GRID_N_OVER_2B, SHARED_B, OUT_PER_BLOCK, 0},
    {"unroll_warp", GRID_N_OVER_2B, SHARED_MAX_B_64, OUT_PER_BLOCK, 0},
    {"unroll_warp_sync", GRID_N_OVER_2B, SHARED_MAX_B_64, OUT_PER_BLOCK, 0},
    {"unrolled", GRID_N_OVER_2B, SHARED_MAX_B_64, OUT_PER_BLOCK, 0},
    {"multi_elem", GRID_N_OVER_2B_RESIDENT, SHARED_MAX_B_64, OUT_PER_BLOCK, 0},
    {"shuffle", GRID_N_OVER_B_RESIDENT, SHARED_NONE, OUT_PER_BLOCK, 0},
    {"two_pass", GRID_N_OVER_B_RESIDENT, SHARED_NONE, OUT_PER_BLOCK, 1},
    {"atomic", GRID_N_OVER_B_RESIDENT, SHARED_NONE, OUT_ZEROED_ONE, 1},
    {"single_pass", GRID_N_OVER_B_RESIDENT, SHARED_NONE, OUT_SINGLE_PASS, 1},
};

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
static cli_arg_spec buffer(const char *name, ptx_type type, uint64_t count,
                           cli_arg_init init, uint64_t seed)
{
    cli_arg_spec s;
    memset(&s, 0, sizeof s);
    s.is_buffer = 1;
    snprintf(s.name, sizeof s.name, "%s", name);
    s.type = type;
    s.count = count;
    s.init = init;
    s.seed = seed;
    return s;
}

int cli_catalogue_plan_make(int kernel, cured_dtype dtype, uint64_t n,
                            int block, uint64_t seed, cli_catalogue_plan *plan,
                            char *err, size_t cap)
{
    const cured_kernel_info *info = cured_catalogue_entry(kernel);
    ptx_type type = dtype_type(dtype);
    size_t i = 0;
    memset(plan, 0, sizeof *plan);
    if (info == NULL || type == PTX_T_NONE) {
        snprintf(err, cap, "no such catalogue kernel or dtype");
        return -1;
    }
    while (i < sizeof plans / sizeof plans[0] && strcmp(plans[i].kernel, info->name))
        i++;
    if (i == sizeof plans / sizeof plans[0]) {
        snprintf(err, cap, "no standard launch for kernel '%s'", info->name);
        return -1;
    }
    if (block < 32 || block > 1024 || (block & (block - 1)) != 0) {
        snprintf(err, cap, "--block %d: the catalogue's blocks are a power of "
                 "two from 32 to 1024", block);
        return -1;
    }
    if (n == 0 || n > info->max_n) {
        snprintf(err, cap, "--n %llu: %s takes 1 to %llu values",
                 (unsigned long long)n, info->name,
                 (unsigned long long)info->max_n);
        return -1;
    }

    uint64_t b = (uint64_t)block, grid = 0;
    uint64_t resident = CLI_MODEL_RESIDENT_SMS * (2048 / b < 32 ? 2048 / b : 32);
    switch (plans[i].grid) {
    case GRID_N_OVER_B: grid = (n + b - 1) / b; break;
    case GRID_N_OVER_2B: grid = (n + 2 * b - 1) / (2 * b); break;
    case GRID_N_OVER_2B_RESIDENT: grid = (n + 2 * b - 1) / (2 * b); break;
    case GRID_N_OVER_B_RESIDENT: grid = (n + b - 1) / b; break;
    }
    if ((plans[i].grid == GRID_N_OVER_2B_RESIDENT ||
         plans[i].grid == GRID_N_OVER_B_RESIDENT) && grid > resident)
        grid = resident;
    if (grid > UINT32_MAX) {
        snprintf(err, cap, "--n %llu needs more than 2^32 blocks of %d",
                 (unsigned long long)n, block);
        return -1;
    }
    plan->grid = (model_dim3){(uint32_t)grid, 1, 1};
    plan->block = (model_dim3){(uint32_t)block, 1, 1};
    size_t elem = cured_dtype_size(dtype);
    if (plans[i].shared == SHARED_B)
        plan->dynamic_shared = (uint32_t)(b * elem);
    else if (plans[i].shared == SHARED_MAX_B_64)
        plan->dynamic_shared = (uint32_t)((b > 64 ? b : 64) * elem);

    plan->args[0] = buffer("in", type, n, CLI_INIT_RANDOM, seed);
    if (plans[i].out == OUT_PER_BLOCK)
        plan->args[1] = buffer("out", type, grid, CLI_INIT_UNINIT, 0);
    else if (plans[i].out == OUT_ZEROED_ONE)
        plan->args[1] = buffer("out", type, 1, CLI_INIT_ZEROS, 0);
    else
        plan->args[1] = buffer("out", type, 1, CLI_INIT_UNINIT, 0);
    cli_arg_spec *ns = &plan->args[2];
    memset(ns, 0, sizeof *ns);
    snprintf(ns->name, sizeof ns->name, "n");
    ns->type = plans[i].n64 ? PTX_T_U64 : PTX_T_U32;
    ns->bits = n;
    plan->nargs = 3;
    if (plans[i].out == OUT_SINGLE_PASS) {
        plan->args[3] = buffer("partials", type, grid, CLI_INIT_UNINIT, 0);
        plan->args[4] = buffer("counter", PTX_T_U32, 1, CLI_INIT_ZEROS, 0);
        plan->nargs = 5;
    }
    return 0;
}
