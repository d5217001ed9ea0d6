/* reduce_nocuda.c - cured_reduce's GPU entry points in a build without
 * CUDA: arguments are still checked, valid calls answer CURED_ERROR_NO_CUDA.
 *
 * defines: cured_reducer_create, cured_reducer_destroy, cured_reduce,
 *          cured_reduce_shaped, cured_reducer_shape,
 *          cured_reducer_dependent_launch
 */
#include "cured.h"
#include "reduce.h"

cured_status cured_reducer_create(void *d_workspace, size_t workspace_bytes,
                                  cured_reducer **out)
{
    (void)d_workspace;
    (void)workspace_bytes;
    if (out == NULL)
        return CURED_ERROR_NULL_POINTER;
    *out = NULL;
    return CURED_ERROR_NO_CUDA;
}

cured_status cured_reducer_destroy(cured_reducer *r)
{
    (void)r;
    return CURED_SUCCESS;
}

cured_status cured_reducer_shape(const cured_reducer *r, cured_op op,
                                 cured_dtype dtype, uint64_t n,
                                 cured_reduce_shape *shape)
{
    (void)op;
    (void)dtype;
    (void)n;
    if (r == NULL || shape == NULL)
        return CURED_ERROR_NULL_POINTER;
    return CURED_ERROR_NO_CUDA;
}

int cured_reducer_dependent_launch(const cured_reducer *r)
{
    (void)r;
    return 0;
}

cured_status cured_reduce_shaped(cured_reducer *r, cured_op op,
                                 cured_dtype dtype, const void *d_in,
                                 uint64_t n, void *d_out, unsigned flags,
                                 const cured_reduce_shape *shape,
                                 cured_stream stream)
{
    (void)shape;
    (void)stream;
    cured_status status = cured_reduce_check_args(op, dtype, d_in, n, d_out, flags);
    if (status != CURED_SUCCESS)
        return status;
    return r == NULL ? CURED_ERROR_INVALID_VALUE : CURED_ERROR_NO_CUDA;
}

cured_status cured_reduce(cured_reducer *r, cured_op op, cured_dtype dtype,
                          const void *d_in, uint64_t n, void *d_out,
                          unsigned flags, cured_stream stream)
{
    return cured_reduce_shaped(r, op, dtype, d_in, n, d_out, flags, NULL, stream);
}
