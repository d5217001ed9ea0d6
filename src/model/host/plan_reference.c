/* plan_reference.c - the sum a catalogue plan should leave in *out,
 * computed on the host, and whether a run's value is it.
 *
 * defines: cured_model_plan_reference_of, cured_model_plan_matches
 *
 * Integers exactly, modulo 2^bits as the kernels' wrapping adds give them;
 * floats in float64 with Neumaier's compensation, which leaves an error far
 * below the plan's bound: h additions in the element type, h the plan's
 * longest addition chain (cured_dispatch_chain_length), give
 * |computed - exact| <= gamma_h sum|x|, gamma_h = h u / (1 - h u)
 * (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
 */
#include "cured_model_host.h"
#include "dispatch.h"

#include <math.h>
#include <string.h>

static int is_float(cured_dtype d)
{
    return d == CURED_F32 || d == CURED_F64;
}

/* The element of dtype d at p, as a double (floats only). */
static double float_at(cured_dtype d, const uint8_t *p)
{
    if (d == CURED_F32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double x;
    memcpy(&x, p, 8);
    return x;
}

/* The sum of in[0, n): integers exactly modulo 2^64 (signed ones sign
 * extended), then cut to the element's width, as the kernels' wrapping
 * adds give it; floats in float64 with Neumaier's compensation, which
 * leaves an error far below the plan's bound (h additions in the element
 * type: gamma_h sum|x|, gamma_h = h u / (1 - h u), Higham 4.2). */
void cured_model_plan_reference_of(int kernel, cured_dtype d, const cured_plan *plan,
                                   const void *input, uint64_t n,
                                   cured_model_plan_reference *ref)
{
    const uint8_t *in = input;
    size_t es = cured_dtype_size(d);
    memset(ref, 0, sizeof *ref);
    if (is_float(d)) {
        double s = 0, c = 0, a = 0;
        for (uint64_t i = 0; i < n; i++) {
            double x = float_at(d, in + i * es), t = s + x;
            c += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
            s = t;
            a += fabs(x);
        }
        ref->value = s + c;
        ref->sum_abs = a;
        ref->additions = cured_dispatch_chain_length(kernel, plan);
        double hu = ldexp((double)ref->additions, d == CURED_F32 ? -24 : -53);
        ref->bound = hu < 1 ? hu / (1 - hu) * a : INFINITY;
        return;
    }
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *p = in + i * es;
        if (d == CURED_I32) {
            int32_t v;
            memcpy(&v, p, 4);
            sum += (uint64_t)(int64_t)v;
        } else if (d == CURED_U32) {
            uint32_t v;
            memcpy(&v, p, 4);
            sum += v;
        } else {
            uint64_t v;
            memcpy(&v, p, 8);
            sum += v;
        }
    }
    for (size_t b = 0; b < es; b++) /* little-endian, as the model's memory */
        ref->bits[b] = (uint8_t)(sum >> (8 * b));
}


/* Whether the value r left in *out is the reference's: integers bit for
 * bit, floats within the bound (a NaN never is). */
int cured_model_plan_matches(const cured_model_plan_reference *ref, cured_dtype d,
                             const cured_model_plan_result *r)
{
    if (!is_float(d))
        return memcmp(r->value, ref->bits, cured_dtype_size(d)) == 0;
    double got = float_at(d, r->value);
    return isfinite(got) && fabs(got - ref->value) <= ref->bound;
}
