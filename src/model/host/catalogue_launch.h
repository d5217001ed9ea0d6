/* model_catalogue.h - the standard launch of a catalogue kernel in the
 * model: its arguments and launch shape for n values (`cured model KERNEL
 * --n N`), as src/kernels/ and docs/kernels.md document them.
 *
 * defines: cli_catalogue_plan, cli_catalogue_plan_make,
 *          CLI_MODEL_RESIDENT_SMS, cli_model_h200
 */
#ifndef CURED_CLI_MODEL_CATALOGUE_H
#define CURED_CLI_MODEL_CATALOGUE_H

#include "cured.h"
#include "dispatch.h"
#include "cured_model.h"
#include "args.h"

#include <stdint.h>

/* "Resident blocks" (the grid of kernels sized to fill the GPU) in the
 * model means what it means on an H200: 132 multiprocessors, each holding
 * 2048 threads (at most 32 blocks), as libcured's dispatch computes it. */
#define CLI_MODEL_RESIDENT_SMS 132

/* That device's shape, as cured_dispatch_plan takes it. */
extern const cured_device_shape cli_model_h200;

/* The standard launch of one catalogue kernel. */
typedef struct cli_catalogue_plan {
    cured_model_dim3 grid;
    cured_model_dim3 block;
    uint32_t dynamic_shared;     /* bytes */
    cli_arg_spec args[5];        /* in, out, n [, partials, counter] */
    int nargs;
} cli_catalogue_plan;

/* Plans catalogue kernel `kernel` (its index) for n values of `dtype` with
 * blocks of `block` threads (a power of two in [32, 1024]) and inputs
 * random@seed: the launch shape of the dispatch's first launch
 * (cured_dispatch_plan, H200 shape), the input buffer "in", the output
 * "out" (one value per block, or one for atomic and single_pass, zeroed
 * where the kernel adds into it), n as the kernel's u32 or u64, and
 * single_pass's "partials" and zeroed "counter". Returns 0, or -1 with one
 * line in err (n of 0 or over the kernel's max_n, a bad block size). */
int cli_catalogue_plan_make(int kernel, cured_dtype dtype, uint64_t n,
                            int block, uint64_t seed, cli_catalogue_plan *plan,
                            char *err, size_t cap);

#endif /* CURED_CLI_MODEL_CATALOGUE_H */
