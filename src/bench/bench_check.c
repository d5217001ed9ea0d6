/* bench_check.c - is a kernel's sum right? Against the exact sum of the
 * bench's input (src/reference), within the proven bound of the kernel's
 * order of summation.
 *
 * defines: bench_chain_length, bench_check_sum
 *
 * The bench checks every job once per n, as a sanity check beside the
 * timings (the GPU tests check far more). Integer sums must be exact
 * (modulo 2^bits, as the kernels' adds wrap); float sums within gamma_h *
 * sum|x_i| of the exact sum, h being the longest chain of roundings an
 * element goes through: known for the catalogue from its plan, unknown for
 * CUB, which gets the bound of the worst order.
 */
#include "bench.h"


#include <inttypes.h>
#include <stdio.h>

uint64_t bench_chain_length(int kernel, cured_dtype dtype, uint64_t n, int block,
                            const cured_device_shape *dev)
{
    if (kernel < 0)
        return n > 0 ? n - 1 : 0;
    cured_plan plan; /* the launches cured_catalogue_run makes on dev */
    if (n == 0 || cured_catalogue_plan_on(kernel, dtype, n, block, dev, &plan) != CURED_SUCCESS)
        return 0;
    return cured_catalogue_chain_length(kernel, &plan);
}

int bench_check_sum(const cured_ref_sum *ref, const void *got, uint64_t h,
                    double *abs_diff, char *note, size_t cap)
{
    if (abs_diff != NULL)
        *abs_diff = cured_ref_sum_error(ref, got);
    if (cured_ref_sum_check(ref, got, h, NULL, 0))
        return 1;
    if (note != NULL) {
        char a[48], b[48];
        uint8_t want[8];
        cured_ref_sum_element(ref, want);
        cured_ref_format_element(ref->dtype, got, a, sizeof a);
        cured_ref_format_element(ref->dtype, want, b, sizeof b);
        if (ref->dtype == CURED_F32 || ref->dtype == CURED_F64)
            snprintf(note, cap, "%s, exact %s, bound %.3g (h %" PRIu64 ")", a, b,
                     cured_ref_sum_bound(ref, h), h);
        else
            snprintf(note, cap, "%s, exact %s", a, b);
    }
    return 0;
}
