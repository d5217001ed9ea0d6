/* catalogue.cu - the whole catalogue as one translation unit, for the PTX.
 *
 * defines: nothing of its own; includes classic.cu and grid.cu
 *
 * `nvcc -ptx` writes one file per translation unit, and the model wants one
 * PTX file with every kernel in it, so this file is what the build's target
 * cured_catalogue_ptx compiles:
 *     nvcc -arch=sm_90 -ptx -lineinfo -I include -I src/kernels \
 *          src/kernels/catalogue.cu -o catalogue.ptx
 * libcured compiles classic.cu and grid.cu separately, with the same code.
 */
#include "classic.cu"
#include "grid.cu"
