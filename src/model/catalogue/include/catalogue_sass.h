/* catalogue_sass.h - the catalogue's SASS, embedded in the binary at build
 * time beside its PTX, so that `cured model KERNEL` counts memory
 * instructions as the SASS issues them (sass_match.h).
 *
 * defines: cured_model_catalogue_sass, cured_model_catalogue_sass_missing,
 *          cured_model_build_nvdisasm
 *
 * The build compiles the embedded catalogue.ptx with
 * `ptxas -arch=CURED_MODEL_ARCH -lineinfo` (sm_90 by default:
 * cmake/arch.cmake) and prints it with `nvdisasm -gp -c`
 * (cmake/sass.cmake): every instruction carries the line of catalogue.ptx
 * it came from. A build without ptxas or nvdisasm embeds none, and the
 * model's counts for the catalogue stay PTX-level.
 */
#ifndef CURED_MODEL_CATALOGUE_SASS_H
#define CURED_MODEL_CATALOGUE_SASS_H

#include <stddef.h>

/* The embedded SASS text (NUL-terminated) and its length in *len, or NULL
 * (and *len = 0) when this build has none. */
const char *cured_model_catalogue_sass(size_t *len);

/* Why this build has no embedded SASS ("no nvdisasm at build time" ...),
 * or NULL when it has it. */
const char *cured_model_catalogue_sass_missing(void);

/* The nvdisasm the build found (a path), or NULL: `cured model --cu`
 * falls back on it when none is on PATH. */
const char *cured_model_build_nvdisasm(void);

#endif /* CURED_MODEL_CATALOGUE_SASS_H */
