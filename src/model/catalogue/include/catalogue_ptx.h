/* catalogue_ptx.h - the catalogue's PTX, embedded in the binary at build
 * time, and the way from a catalogue name to an entry of that module.
 *
 * defines: cured_model_catalogue_ptx, cured_model_catalogue_entry_name,
 *          CURED_MODEL_CATALOGUE_* status codes
 *
 * The build compiles src/kernels/ with `nvcc -arch=sm_90 -ptx -lineinfo`
 * into catalogue.ptx and embeds it (cmake/embed.cmake); without a CUDA
 * compiler there is no embedded PTX and the model runs only a user's own
 * .ptx or .cu. Entry names are found by reading the module's mangled names
 * (kernel name, element type, compile-time block size), not from a table,
 * so the kernels can be renamed or added to without touching this file.
 */
#ifndef CURED_MODEL_CATALOGUE_PTX_H
#define CURED_MODEL_CATALOGUE_PTX_H

#include "ptx.h"

#include <stddef.h>

/* The embedded catalogue PTX (NUL-terminated) and its length in *len, or
 * NULL (and *len = 0) when this build has none (no CUDA compiler). */
const char *cured_model_catalogue_ptx(size_t *len);

/* What cured_model_catalogue_entry_name found. */
enum {
    CURED_MODEL_CATALOGUE_OK = 0,
    CURED_MODEL_CATALOGUE_NO_KERNEL = -1,  /* no entry for that kernel name */
    CURED_MODEL_CATALOGUE_NO_DTYPE = -2,   /* the kernel, but not for that dtype */
    CURED_MODEL_CATALOGUE_NO_BLOCK = -3,   /* the kernel and dtype, but no instance
                                        for that compile-time block size */
    CURED_MODEL_CATALOGUE_TOO_LONG = -4    /* the name does not fit in cap */
};

/* Finds the entry of `module` that is catalogue kernel `kernel` ("divergent",
 * "unrolled" ...) for element type `dtype` ("f32", "i32", "u64" ...) and,
 * for kernels with a compile-time block size, `block` (ignored by kernels
 * without one; a kernel with one and block == 0 takes the smallest
 * instance). Writes the entry's (mangled) name into out and returns
 * CURED_MODEL_CATALOGUE_OK, or one of the negative codes above.
 *
 * A kernel's entries are recognised by their demangled form: the function
 * name is the catalogue name, optionally with a `reduce_`/`cured_` prefix or
 * a `_kernel` suffix, in any namespace; the template arguments give the
 * element type and the block size. An extern "C" entry named
 * `<kernel>_<dtype>` or `<kernel>_<dtype>_<block>` matches too. When a
 * kernel has several entries (a grid kernel's passes), the first in the
 * module wins. */
int cured_model_catalogue_entry_name(const cured_model_module *module, const char *kernel,
                               const char *dtype, int block, char *out,
                               size_t cap);

#endif /* CURED_MODEL_CATALOGUE_PTX_H */
