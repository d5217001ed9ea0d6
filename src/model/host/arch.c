/* arch.c - the one GPU architecture the model works for: the one its
 * embedded catalogue PTX and SASS were made for, and the default for a
 * user's .cu (nvcc and ptxas -arch).
 *
 * defines: cured_model_default_arch
 *
 * CURED_MODEL_ARCH ("sm_90") comes from the build: src/model/CMakeLists.txt
 * sets it from CMAKE_CUDA_ARCHITECTURES by cmake/arch.cmake's rule.
 */
#include "cured_model_host.h"

#ifndef CURED_MODEL_ARCH
#error "CURED_MODEL_ARCH (\"sm_90\" ...) comes from the build (src/model/CMakeLists.txt)"
#endif

const char *cured_model_default_arch(void)
{
    return CURED_MODEL_ARCH;
}
