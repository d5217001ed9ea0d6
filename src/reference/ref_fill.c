/* ref_fill.c - the seeded fill on the CPU: ref_fill.h's per-element
 * functions, looped and stored as each element type.
 *
 * defines: cured_ref_fill_element, cured_ref_fill_buffer
 */
#include "ref_fill.h"

#include <string.h>

/* The bytes of element i as dtype d into out; the integers keep the low
 * bytes of their value (memcpy of the unsigned pattern: no conversion of
 * an out-of-range value to a signed type). */
int cured_ref_fill_element(const cured_ref_fill *f, cured_dtype d, uint64_t i,
                           void *out)
{
    switch (d) {
    case CURED_F32: {
        float v = cured_ref_fill_f32(f, i);
        memcpy(out, &v, 4);
        return 0;
    }
    case CURED_F64: {
        double v = cured_ref_fill_f64(f, i);
        memcpy(out, &v, 8);
        return 0;
    }
    case CURED_I32: {
        uint32_t v = (uint32_t)(uint64_t)cured_ref_fill_signed(f, i);
        memcpy(out, &v, 4);
        return 0;
    }
    case CURED_I64: {
        uint64_t v = (uint64_t)cured_ref_fill_signed(f, i);
        memcpy(out, &v, 8);
        return 0;
    }
    case CURED_U32: {
        uint32_t v = (uint32_t)cured_ref_fill_unsigned(f, i);
        memcpy(out, &v, 4);
        return 0;
    }
    case CURED_U64: {
        uint64_t v = cured_ref_fill_unsigned(f, i);
        memcpy(out, &v, 8);
        return 0;
    }
    default:
        return -1;
    }
}

int cured_ref_fill_buffer(const cured_ref_fill *f, cured_dtype d, void *out,
                          uint64_t n)
{
    size_t size = d == CURED_F64 || d == CURED_I64 || d == CURED_U64 ? 8 : 4;
    uint8_t *p = out;
    if ((unsigned)d >= CURED_DTYPE_COUNT)
        return -1;
    for (uint64_t i = 0; i < n; i++)
        cured_ref_fill_element(f, d, i, p + i * size);
    return 0;
}
