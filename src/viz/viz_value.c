/* viz_value.c - a cell's value: the bits the trace recorded as a number,
 * and that number as the short text a cell shows.
 *
 * defines: viz_value_of, viz_format_value
 */
#include "viz_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double viz_value_of(uint64_t bits, uint8_t kind, unsigned size)
{
    if (size == 0 || size > 8)
        size = 8;
    if (size < 8)
        bits &= (1ull << (8 * size)) - 1;
    if (kind == CURED_MODEL_TRACE_FLOAT) {
        if (size == 4) {
            float f;
            uint32_t b = (uint32_t)bits;
            memcpy(&f, &b, 4);
            return f;
        }
        if (size == 8) {
            double d;
            memcpy(&d, &bits, 8);
            return d;
        }
        return (double)bits;
    }
    if (kind == CURED_MODEL_TRACE_SIGNED && size < 8) {
        uint64_t m = 1ull << (8 * size - 1);
        return (double)(int64_t)((bits ^ m) - m);
    }
    if (kind == CURED_MODEL_TRACE_SIGNED)
        return (double)(int64_t)bits;
    return (double)bits;
}

const char *viz_format_value(double v, uint8_t kind, char *buf, size_t cap)
{
    if (kind != CURED_MODEL_TRACE_FLOAT || (v == floor(v) && fabs(v) < 1e9))
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.4g", v);
    return buf;
}
