/* sum_reference.c - random inputs, exact sums and the float bound of the
 * catalogue's plans (see sum_reference.h).
 *
 * defines: sum_data_fill, sum_reference_of, sum_chain_length,
 *          sum_float_bound, sum_check
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

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0);
}

static uint64_t log2_u64(uint64_t x)
{
    uint64_t k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The derivation. A computed sum is sum x_i (1 + theta_i) with |theta_i| <=
 * gamma_{h_i}, h_i the additions on x_i's path to the result (Higham 4.2),
 * so h = max h_i bounds every element. Per launch of the plan, over m
 * elements with G blocks of B threads (R = G B threads, t = log2 B), a path
 * holds at most (src/kernels/ gives the code):
 *   divergent, strided, sequential  t: one element per thread into shared
 *                                   memory, then a tree of t levels;
 *   first_add                       1 + t: the load adds two elements;
 *   unroll_warp, unroll_warp_sync,  1 + max(t, 6): the load's addition, the
 *   unrolled                        tree down to 64 values, then the last
 *                                   warp's 6 steps (6 even at B = 32: the
 *                                   upper 32 of its 64 slots hold zeros);
 *   multi_elem                      2 ceil(m / 2R) + max(t, 6): a thread's
 *                                   running sum gets two elements per trip
 *                                   of its grid-stride loop, then unrolled's
 *                                   tree;
 *   shuffle, two_pass, atomic,      ceil(m / R) + 5 + t: thread_sum
 *   single_pass                     (src/kernels/load.cuh) bounds its path
 *                                   by ceil(m / R) + 5 (trips of 16 or 8
 *                                   values summed as a tree of depth 4 or
 *                                   3, one addition per trip into the
 *                                   running sum, one for the tail), then
 *                                   block_sum's tree of depth t (5 shuffle
 *                                   rounds, log2(B / 32) more in warp 0).
 * Launches chain: a pass's inputs are the previous pass's outputs, so the
 * h of the launches add (each launch at its own B: the dispatch may run a
 * block-level kernel's last pass with a larger block). Then
 *   atomic       + G: the G block sums enter *out one after another, in
 *                whatever order the blocks finish;
 *   single_pass  + ceil(G / B) + 5 + t: its last block sums the G partials
 *                with thread_sum over its own B threads and block_sum.
 * Additions of the identity (0) are exact but counted anyway: h is an
 * upper bound, not the exact depth. */
uint64_t sum_chain_length(int kernel, const cured_plan *plan)
{
    const char *name = cured_catalogue_entry(kernel)->name;
    uint64_t h = 0;
    for (int k = 0; k < plan->launches; k++) {
        const cured_launch *l = &plan->launch[k];
        uint64_t b = (uint64_t)l->block, threads = b * l->grid;
        uint64_t t = log2_u64(b);
        if (!strcmp(name, "divergent") || !strcmp(name, "strided") ||
            !strcmp(name, "sequential"))
            h += t;
        else if (!strcmp(name, "first_add"))
            h += 1 + t;
        else if (!strcmp(name, "unroll_warp") || !strcmp(name, "unroll_warp_sync") ||
                 !strcmp(name, "unrolled"))
            h += 1 + max_u64(t, 6);
        else if (!strcmp(name, "multi_elem"))
            h += 2 * ceil_div(l->n, 2 * threads) + max_u64(t, 6);
        else /* shuffle and the grid level: thread_sum, then block_sum */
            h += ceil_div(l->n, threads) + 5 + t;
    }
    if (plan->launches == 0)
        return 0;
    const cured_launch *first = &plan->launch[0];
    if (!strcmp(name, "atomic"))
        h += first->grid;
    if (!strcmp(name, "single_pass"))
        h += ceil_div(first->grid, (uint64_t)first->block) + 5 +
             log2_u64((uint64_t)first->block);
    return h;
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
