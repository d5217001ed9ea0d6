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


#endif /* CURED_MODEL_CATALOGUE_PTX_H */
