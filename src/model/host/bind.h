/* model_params.h - turns `cured model`'s argument specs into a kernel's
 * parameter block and the buffers in the model's global memory.
 *
 * defines: cli_args_bind, cli_buffer_spec
 *
 * The specs are matched to the entry's parameters in order: a buffer goes
 * to a 64-bit parameter (its device address), a scalar to a parameter of
 * its own size. Every mismatch is a one-line error naming the parameter.
 */
#ifndef CURED_CLI_MODEL_PARAMS_H
#define CURED_CLI_MODEL_PARAMS_H

#include "cured_model.h"
#include "args.h"

#include <stddef.h>
#include <stdint.h>

/* Allocates and fills one buffer in `memory` per buffer spec (specs[i] with
 * a file and no COUNT gets its count from the file), and lays the kernel's
 * parameter block out in a new malloc'd block (*params, *params_size =
 * the function's param_bytes). Returns 0, or -1 with one line in err (the
 * block is then not allocated; buffers already made stay in memory).
 * Errors: a missing or extra --arg, a buffer for a parameter that is not
 * 8 bytes, a scalar whose size is not its parameter's, two buffers with one
 * name, a file that cannot be read, out of memory. */
int cli_args_bind(const cured_model_module *module, int function, cli_arg_spec *specs,
                  int nspecs, cured_model_memory *memory, uint8_t **params,
                  size_t *params_size, char *err, size_t cap);

/* The buffer spec named `name` among specs, or NULL. */
const cli_arg_spec *cli_buffer_spec(const cli_arg_spec *specs, int nspecs,
                                    const char *name);

#endif /* CURED_CLI_MODEL_PARAMS_H */
