/* sum_reference.c - random inputs, exact sums and the float bound of the
 * catalogue's plans (see sum_reference.h).
 *
 * defines: sum_data_fill, sum_reference_of, sum_float_bound, sum_check
 */
#include "sum_reference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* splitmix64, as tests/gpu/test_catalogue.cu draws its inputs. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void sum_data_fill(cured_dtype dtype, sum_data_kind kind, uint64_t seed,
                   void *out, uint64_t n)
{
    uint64_t state = seed;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t h = mix64(++state);
        switch (dtype) {
        case CURED_F32: {
            float v;
            if (kind == SUM_DATA_EXACT)
                v = (float)(1 + (h >> 32) % 4) * ((h >> 40) & 1 ? -1.0f : 1.0f);
            else /* 24 random bits: [0, 2) in steps of 2^-23, minus 1 */
                v = (float)(ldexp((double)(h >> 40), -23) - 1.0);
            ((float *)out)[i] = v;
            break;
        }
        case CURED_I32:
        case CURED_U32: ((uint32_t *)out)[i] = (uint32_t)h; break;
        default: ((uint64_t *)out)[i] = h; break;
        }
    }
}

int sum_reference_of(cured_dtype dtype, const void *in, uint64_t n,
                     sum_reference *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->dtype = dtype;
    switch (dtype) {
    case CURED_F32: {
        if (n >= (1ull << 29))
            return -1;
        double s = 0, a = 0;
        int integral = 1;
        for (uint64_t i = 0; i < n; i++) {
            double x = ((const float *)in)[i];
            s += x;
            a += fabs(x);
            integral &= x == floor(x);
        }
        ref->value = s;
        ref->sum_abs = a;
        ref->exact = integral && a <= 0x1p24;
        return 0;
    }
    case CURED_I32:
        for (uint64_t i = 0; i < n; i++)
            ref->bits += (uint64_t)(int64_t)((const int32_t *)in)[i];
        return 0;
    case CURED_U32:
        for (uint64_t i = 0; i < n; i++)
            ref->bits += ((const uint32_t *)in)[i];
        return 0;
    case CURED_I64:
    case CURED_U64:
        for (uint64_t i = 0; i < n; i++)
            ref->bits += ((const uint64_t *)in)[i];
        return 0;
    default:
        return -1;
    }
}

double sum_float_bound(const sum_reference *ref, uint64_t h)
{
    if (ref->exact)
        return 0;
    double hu = (double)h * 0x1p-24;
    return hu < 1 ? hu / (1 - hu) * ref->sum_abs : INFINITY;
}

int sum_check(const sum_reference *ref, const uint8_t *got, uint64_t h,
              char *msg, size_t cap)
{
    if (ref->dtype == CURED_F32) {
        float g;
        memcpy(&g, got, 4);
        double diff = fabs((double)g - ref->value), bound = sum_float_bound(ref, h);
        if (diff <= bound) /* false for a NaN */
            return 1;
        snprintf(msg, cap, "got %.9g want %.17g |diff| %.3g bound %.3g (h=%llu%s, "
                 "sum|x| %.6g)", g, ref->value, diff, bound, (unsigned long long)h,
                 ref->exact ? ", exact data" : "", ref->sum_abs);
        return 0;
    }
    size_t es = cured_dtype_size(ref->dtype);
    uint64_t bits = 0, mask = es == 4 ? 0xffffffffull : ~0ull;
    memcpy(&bits, got, es);
    if ((bits & mask) == (ref->bits & mask))
        return 1;
    snprintf(msg, cap, "got 0x%0*llx want 0x%0*llx (exact, modulo 2^%zu)",
             (int)(2 * es), (unsigned long long)bits, (int)(2 * es),
             (unsigned long long)(ref->bits & mask), 8 * es);
    return 0;
}
