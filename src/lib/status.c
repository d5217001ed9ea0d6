/* status.c - status strings and element types of the public API.
 *
 * defines: cured_status_string, cured_dtype_name, cured_dtype_size,
 *          cured_dtype_from_name
 */
#include "cured.h"

#include <string.h>

const char *cured_status_string(cured_status status)
{
    switch (status) {
    case CURED_SUCCESS: return "success";
    case CURED_ERROR_NULL_POINTER: return "a required pointer is NULL";
    case CURED_ERROR_UNKNOWN_KERNEL: return "no catalogue kernel has that name";
    case CURED_ERROR_INVALID_BLOCK_SIZE:
        return "block size must be a power of two from 32 to 1024";
    case CURED_ERROR_SIZE_TOO_LARGE:
        return "n is beyond what this kernel's indexing supports";
    case CURED_ERROR_UNSUPPORTED_TYPE: return "element type not supported here";
    case CURED_ERROR_TEMP_TOO_SMALL: return "scratch space is too small";
    case CURED_ERROR_NO_CUDA: return "libcured was built without CUDA";
    case CURED_ERROR_CUDA: return "a CUDA call or kernel launch failed";
    case CURED_ERROR_UNSUPPORTED_OP:
        return "no such operation, or not for this element type";
    case CURED_ERROR_NOT_DEVICE_POINTER:
        return "a pointer is not device memory of this device";
    case CURED_ERROR_MISALIGNED:
        return "a pointer is not aligned to its element type";
    case CURED_ERROR_INVALID_VALUE:
        return "invalid flags, handle or launch shape";
    case CURED_ERROR_OUT_OF_MEMORY: return "out of memory";
    case CURED_ERROR_NO_NCCL:
        return "libcured was built without NCCL (sharded reductions need it)";
    case CURED_ERROR_NCCL: return "an NCCL call failed";
    case CURED_ERROR_RANK_MISMATCH:
        return "the ranks disagreed on op, dtype or flags, or one refused its arguments";
    }
    return "unknown status";
}

static const struct {
    const char *name;
    size_t size;
} dtypes[CURED_DTYPE_COUNT] = {
    [CURED_F32] = {"f32", 4}, [CURED_F64] = {"f64", 8},
    [CURED_I32] = {"i32", 4}, [CURED_I64] = {"i64", 8},
    [CURED_U32] = {"u32", 4}, [CURED_U64] = {"u64", 8},
    [CURED_F16] = {"f16", 2}, [CURED_BF16] = {"bf16", 2},
};

const char *cured_dtype_name(cured_dtype dtype)
{
    if ((unsigned)dtype >= CURED_DTYPE_COUNT)
        return NULL;
    return dtypes[dtype].name;
}

size_t cured_dtype_size(cured_dtype dtype)
{
    if ((unsigned)dtype >= CURED_DTYPE_COUNT)
        return 0;
    return dtypes[dtype].size;
}

cured_status cured_dtype_from_name(const char *name, cured_dtype *dtype)
{
    if (name == NULL || dtype == NULL)
        return CURED_ERROR_NULL_POINTER;
    for (int i = 0; i < CURED_DTYPE_COUNT; i++) {
        if (strcmp(dtypes[i].name, name) == 0) {
            *dtype = (cured_dtype)i;
            return CURED_SUCCESS;
        }
    }
    return CURED_ERROR_UNSUPPORTED_TYPE;
}
