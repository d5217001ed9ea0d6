/* bench_check.c - does a kernel's sum agree with CUB's?
 *
 * defines: bench_tolerance, bench_values_match, bench_format_value
 *
 * The bench checks every kernel once per n against CUB on the same input,
 * as a sanity check beside the timings (the GPU tests check exactly).
 * Integer sums must agree bit for bit; float sums within a tolerance, since
 * every reduction order rounds differently.
 */
#include "bench.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

double bench_tolerance(cured_dtype dtype, uint64_t n)
{
    double unit; /* unit roundoff of the element type */
    if (dtype == CURED_F32)
        unit = ldexp(1.0, -24);
    else if (dtype == CURED_F64)
        unit = ldexp(1.0, -53);
    else
        return 0;
    /* Inputs are uniform in [-0.5, 0.5). A tree of rounded adds errs like a
     * random walk, about unit * sqrt(n log2 n) / sqrt(12); per-thread serial
     * loops (Brent) err more, growing with n. The first term allows some
     * 16 standard deviations of the tree's error, the second the serial
     * loops' drift. Dropping or doubling a tile of a few hundred elements
     * still shows. */
    double dn = (double)n;
    double lg = n > 1 ? log2(dn) : 1;
    return unit * (16 * sqrt(dn * lg) + dn / 64);
}

/* Reads one host element of dtype as a double (integers may round, which
 * only matters for the printed difference: equality is tested exactly). */
static double as_double(cured_dtype dtype, const void *p)
{
    switch (dtype) {
    case CURED_F32: { float v; memcpy(&v, p, 4); return v; }
    case CURED_F64: { double v; memcpy(&v, p, 8); return v; }
    case CURED_I32: { int32_t v; memcpy(&v, p, 4); return (double)v; }
    case CURED_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case CURED_U32: { uint32_t v; memcpy(&v, p, 4); return (double)v; }
    case CURED_U64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    default: return NAN;
    }
}

int bench_values_match(cured_dtype dtype, const void *got, const void *want,
                       uint64_t n, double *abs_diff)
{
    double g = as_double(dtype, got), w = as_double(dtype, want);
    double diff = fabs(g - w);
    if (abs_diff != NULL)
        *abs_diff = diff;
    if (dtype == CURED_F32 || dtype == CURED_F64)
        return !isnan(diff) && diff <= bench_tolerance(dtype, n);
    size_t size = cured_dtype_size(dtype);
    return size > 0 && memcmp(got, want, size) == 0;
}

char *bench_format_value(cured_dtype dtype, const void *value, char *buf,
                         size_t size)
{
    switch (dtype) {
    case CURED_F32: snprintf(buf, size, "%.9g", as_double(dtype, value)); break;
    case CURED_F64: snprintf(buf, size, "%.17g", as_double(dtype, value)); break;
    case CURED_I32: { int32_t v; memcpy(&v, value, 4);
        snprintf(buf, size, "%" PRId32, v); break; }
    case CURED_I64: { int64_t v; memcpy(&v, value, 8);
        snprintf(buf, size, "%" PRId64, v); break; }
    case CURED_U32: { uint32_t v; memcpy(&v, value, 4);
        snprintf(buf, size, "%" PRIu32, v); break; }
    case CURED_U64: { uint64_t v; memcpy(&v, value, 8);
        snprintf(buf, size, "%" PRIu64, v); break; }
    default:
        snprintf(buf, size, "?");
    }
    return buf;
}
