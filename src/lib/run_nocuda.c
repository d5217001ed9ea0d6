/* run_nocuda.c - the run functions of a libcured built without CUDA.
 *
 * defines: cured_catalogue_temp_bytes, cured_catalogue_run
 *
 * Arguments are still validated (so callers see the same errors for bad
 * input); valid calls answer CURED_ERROR_NO_CUDA.
 */
#include "cured.h"

cured_status cured_catalogue_temp_bytes(int kernel, cured_dtype dtype,
                                        uint64_t n, int block_size,
                                        size_t *bytes)
{
    (void)n;
    (void)block_size;
    (void)dtype;
    if (bytes == NULL)
        return CURED_ERROR_NULL_POINTER;
    if (cured_catalogue_entry(kernel) == NULL)
        return CURED_ERROR_UNKNOWN_KERNEL;
    return CURED_ERROR_NO_CUDA;
}

cured_status cured_catalogue_run(int kernel, cured_dtype dtype,
                                 const void *d_in, uint64_t n, void *d_out,
                                 int block_size, void *d_temp,
                                 size_t temp_bytes, cured_stream stream)
{
    (void)dtype;
    (void)n;
    (void)block_size;
    (void)d_temp;
    (void)temp_bytes;
    (void)stream;
    if (d_out == NULL || (d_in == NULL && n > 0))
        return CURED_ERROR_NULL_POINTER;
    if (cured_catalogue_entry(kernel) == NULL)
        return CURED_ERROR_UNKNOWN_KERNEL;
    return CURED_ERROR_NO_CUDA;
}
