/* plan_reference.c - the sum a catalogue plan should leave in *out,
 * computed on the host by src/reference, and whether a run's value is it.
 *
 * defines: cured_model_plan_reference_of, cured_model_plan_matches
 *
 * Integers exactly, modulo 2^bits as the kernels' wrapping adds give them;
 * floats exactly, with the plan's bound: h additions in the element type,
 * h the plan's longest addition chain (cured_dispatch_chain_length), give
 * |computed - exact| <= gamma_h sum|x|, gamma_h = h u / (1 - h u)
 * (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
 */
#include "cured_model_host.h"
#include "dispatch.h"

#include <string.h>

void cured_model_plan_reference_of(int kernel, cured_dtype d, const cured_plan *plan,
                                   const void *input, uint64_t n,
                                   cured_model_plan_reference *ref)
{
    memset(ref, 0, sizeof *ref);
    cured_ref_sum_of(d, input, n, &ref->exact);
    cured_ref_sum_element(&ref->exact, ref->bits); /* little-endian, as the model's memory */
    if (d == CURED_F32 || d == CURED_F64) {
        ref->value = cured_ref_sum_double(&ref->exact);
        ref->sum_abs = cured_ref_sum_abs(&ref->exact);
        ref->additions = cured_dispatch_chain_length(kernel, plan);
        ref->bound = cured_ref_sum_bound(&ref->exact, ref->additions);
    }
}

int cured_model_plan_matches(const cured_model_plan_reference *ref, cured_dtype d,
                             const cured_model_plan_result *r)
{
    (void)d; /* the reference knows its dtype */
    return cured_ref_sum_check(&ref->exact, r->value, ref->additions, NULL, 0);
}
