/* chain.c - the longest chain of additions in a catalogue plan: what bounds
 * a float sum's rounding error.
 *
 * defines: cured_catalogue_chain_length
 *
 * Pure C. The GPU tests and the model's catalogue test both bound a float
 * result by it, so the knowledge of each kernel's summation order lives
 * here, beside the plan that fixes it, and nowhere else.
 */
#include "dispatch.h"

#include "kernels.h"

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

/* The tree of the kernels whose last warp runs six steps even at B = 32. */
static uint64_t warp_tail_tree(uint64_t block)
{
    uint64_t t = log2_u64(block);
    return t < 6 ? 6 : t;
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
 *                                   of its grid-stride loop
 *                                   (multi_elem_load), then unrolled's tree;
 *   shuffle                         2 ceil(m / 2R) + t: the same loop, then
 *                                   block_sum's tree of depth t (below);
 *   shuffle_wide, two_pass,         ceil(m / R) + 5 + t: thread_sum
 *   atomic, single_pass             (src/kernels/load.cuh) bounds its path
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
uint64_t cured_catalogue_chain_length(int kernel, const cured_plan *plan)
{
    uint64_t h = 0;
    if (plan->launches == 0)
        return 0;
    for (int k = 0; k < plan->launches; k++) {
        const cured_launch *l = &plan->launch[k];
        uint64_t b = (uint64_t)l->block, threads = b * l->grid;
        switch (kernel) {
        case CURED_K_DIVERGENT:
        case CURED_K_STRIDED:
        case CURED_K_SEQUENTIAL: h += log2_u64(b); break;
        case CURED_K_FIRST_ADD: h += 1 + log2_u64(b); break;
        case CURED_K_UNROLL_WARP:
        case CURED_K_UNROLL_WARP_SYNC:
        case CURED_K_UNROLLED: h += 1 + warp_tail_tree(b); break;
        case CURED_K_MULTI_ELEM:
            h += 2 * ceil_div(l->n, 2 * threads) + warp_tail_tree(b);
            break;
        case CURED_K_SHUFFLE: /* multi_elem_load, then block_sum */
            h += 2 * ceil_div(l->n, 2 * threads) + log2_u64(b);
            break;
        default: /* shuffle_wide, grid level: thread_sum, then block_sum */
            h += ceil_div(l->n, threads) + 5 + log2_u64(b);
            break;
        }
    }
    const cured_launch *first = &plan->launch[0];
    if (kernel == CURED_K_ATOMIC)
        h += first->grid;
    if (kernel == CURED_K_SINGLE_PASS)
        h += ceil_div(first->grid, (uint64_t)first->block) + 5 +
             log2_u64((uint64_t)first->block);
    return h;
}
