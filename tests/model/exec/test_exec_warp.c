/* test_exec_warp.c - the interpreter's warp-level operations and atomics
 * end to end: shuffles (up/down/bfly/idx, widths, the predicate output, a
 * partial warp with a ballot-computed mask), votes, match, redux, and
 * atomics on global and shared memory (f32 add, a compare-and-swap loop,
 * inc, min, and/or/xor, exch), each against values computed in C.
 *
 *   ctest --test-dir build -R test_exec_warp
 *
 * Kernels: fixtures/warp.cu and fixtures/atomics.cu.
 */
#include "exec_fixture.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define SHFL_COLS 8
#define VOTE_COLS 12

// ----------------------------------------------------------------------------
// Shuffles

/* A block of 48: warp 0 has 32 lanes, warp 1 has 16. The shuffles are
 * computed the way the CUDA documentation defines them (segments of
 * `width` lanes), independently of PTX's clamp/mask encoding. */
static void test_shuffles_partial_warp(void **state)
{
    (void)state;
    enum { N = 48 };
    int in[N], *out;
    for (int t = 0; t < N; t++)
        in[t] = t * t + 3;
    exec_fixture fx;
    xf_load(&fx, "warp.ptx");
    xf_kernel(&fx, "shuffles");
    xf_param(&fx, 0, xf_buffer(&fx, "in", sizeof in, in, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "out", N * SHFL_COLS * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, N, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    assert_true(fx.result.completed);
    for (int t = 0; t < N; t++) {
        int base = t & ~31, lanes = t < 32 ? 32 : 16, l = t & 31;
        const int *o = out + t * SHFL_COLS;
        int sum = 0;
        for (int k = 0; k < lanes; k++)
            sum += in[base + k];
        assert_int_equal(o[0], sum);
        assert_int_equal((unsigned)o[1], lanes == 32 ? 0xFFFFFFFFu : 0xFFFFu);
        /* up by 1 within segments of 8 */
        assert_int_equal(o[2], l % 8 >= 1 ? in[t - 1] : in[t]);
        /* down by 3 within segments of 16 */
        assert_int_equal(o[3], l % 16 + 3 < 16 ? in[t + 3] : in[t]);
        /* lane 5 of each segment of 8 */
        assert_int_equal(o[4], in[base + (l & ~7) + 5]);
        /* any lane of the warp's first 16 */
        assert_int_equal(o[5], in[base + ((t * 7) & 15)]);
        /* shfl.sync.up by 2, no segments: predicate says whether it moved */
        assert_int_equal(o[6], l >= 2 ? in[t - 2] : in[t]);
        assert_int_equal(o[7], l >= 2);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Votes, match, redux

static void check_votes(const int *in, const int *out)
{
    int all = 1, any = 0, uni_yes = 0, uni_no = 0, match_all = 1;
    unsigned ballot = 0, odd_ballot = 0, add = 0, umax = 0, xr = 0;
    int smin = INT_MAX;
    for (int l = 0; l < 32; l++) {
        all &= in[l] > 0;
        any |= in[l] > 100;
        ballot |= (unsigned)(in[l] & 1) << l;
        uni_yes += in[l] >= 0;
        uni_no += in[l] < 0;
        match_all &= in[l] < 1000;
        add += (unsigned)in[l];
        smin = in[l] - 50 < smin ? in[l] - 50 : smin;
        umax = (unsigned)in[l] > umax ? (unsigned)in[l] : umax;
        xr ^= (unsigned)in[l];
        if ((l & 1) && in[l] > 5)
            odd_ballot |= 1u << l;
    }
    for (int l = 0; l < 32; l++) {
        const int *o = out + l * VOTE_COLS;
        unsigned same = 0;
        for (int k = 0; k < 32; k++)
            if ((in[k] & 3) == (in[l] & 3))
                same |= 1u << k;
        assert_int_equal(o[0] != 0, all);
        assert_int_equal(o[1] != 0, any);
        assert_int_equal((unsigned)o[2], ballot);
        assert_int_equal(o[3] != 0, uni_yes == 32 || uni_no == 32);
        assert_int_equal((unsigned)o[4], same);
        assert_int_equal((unsigned)o[5], match_all ? 0xFFFFFFFFu : 0u);
        assert_int_equal(o[6], match_all);
        assert_int_equal((unsigned)o[7], add);
        assert_int_equal(o[8], smin);
        assert_int_equal((unsigned)o[9], umax);
        assert_int_equal((unsigned)o[10], xr);
        assert_int_equal((unsigned)o[11], (l & 1) ? odd_ballot : 0x55555555u);
    }
}

static void test_votes_match_redux(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "warp.ptx");
    xf_kernel(&fx, "votes");
    int in[32], *out;
    uint64_t in_addr = xf_buffer(&fx, "in", sizeof in, NULL, NULL);
    cured_model_buffer *inb = cured_model_memory_find(fx.memory, in_addr, 4);
    xf_param(&fx, 0, in_addr);
    xf_param(&fx, 1, xf_buffer(&fx, "out", 32 * VOTE_COLS * 4, NULL, (void **)&out));
    for (int run = 0; run < 3; run++) {
        for (int l = 0; l < 32; l++)
            in[l] = run == 0 ? l * 3 + 1 : run == 1 ? (l * 37) % 150 - 20 : 50 + l * 40;
        memcpy(inb->data, in, sizeof in);
        assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
        assert_int_equal(fx.result.findings.count, 0);
        check_votes(in, out);
    }
    xf_free(&fx);
}

/* __syncwarp() in each branch of an if/else: the halves meet across the
 * two calls, and the warp_sync observer sees the full mask once. */
static uint32_t synced_mask;
static int synced;

static void on_warp_sync(void *ctx, const cured_model_event *e, uint32_t mask)
{
    (void)ctx;
    (void)e;
    synced_mask = mask;
    synced++;
}

static void test_syncwarp_in_both_branches(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "warp.ptx");
    xf_kernel(&fx, "syncwarp_split");
    int *out;
    xf_param(&fx, 0, xf_buffer(&fx, "out", 32 * 4, NULL, (void **)&out));
    cured_model_observer o = {.warp_sync = on_warp_sync};
    fx.launch.observers = &o;
    fx.launch.nobservers = 1;
    synced = 0;
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    assert_true(fx.result.completed);
    for (int t = 0; t < 32; t++)
        assert_int_equal(out[t], t < 16 ? (t + 16) * 10 : t - 16);
    assert_int_equal(synced, 1);
    assert_int_equal(synced_mask, 0xFFFFFFFFu);
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Atomics

static void test_atomics_global_and_shared(void **state)
{
    (void)state;
    enum { BLOCK = 64, GRID = 2, N = BLOCK * GRID };
    float in[N], *g;
    int *out, *tickets;
    for (int i = 0; i < N; i++)
        in[i] = 0.5f * (float)(i % 7) - 1.0f + (i == 77 ? 9.0f : 0.0f);
    exec_fixture fx;
    xf_load(&fx, "atomics.ptx");
    xf_kernel(&fx, "atomics");
    xf_param(&fx, 0, xf_buffer(&fx, "in", sizeof in, in, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "g", 9 * 4, NULL, (void **)&g));
    xf_param(&fx, 2, xf_buffer(&fx, "out", GRID * 2 * 4, NULL, (void **)&out));
    xf_param(&fx, 3, xf_buffer(&fx, "tickets", N * 4, NULL, (void **)&tickets));
    int *gi = (int *)g;
    g[1] = -1e30f;
    gi[4] = INT_MAX;
    gi[5] = -1;
    gi[7] = 0x1234;
    assert_int_equal(xf_run(&fx, GRID, 1, 1, BLOCK, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    assert_true(fx.result.completed);
    float sum = 0, mx = -1e30f;
    int isum = 0, xr = 0x1234;
    for (int i = 0; i < N; i++) {
        sum += in[i];
        mx = in[i] > mx ? in[i] : mx;
        isum += i;
        xr ^= i;
    }
    assert_true(g[0] == sum);
    assert_true(g[1] == mx);
    assert_int_equal(gi[2], isum);
    assert_int_equal(gi[3], N);
    /* lane by lane, warp by warp, block by block */
    for (int i = 0; i < N; i++)
        assert_int_equal(tickets[i], i);
    assert_int_equal(gi[4], 1000 - (N - 1));
    assert_int_equal(gi[5], 0);
    assert_int_equal(gi[6], 0xFFFF);
    assert_int_equal(gi[7], xr);
    assert_int_equal(gi[8], N - 1);
    for (int b = 0; b < GRID; b++) {
        assert_int_equal(out[b * 2], BLOCK * (BLOCK + 1) / 2);
        assert_int_equal(out[b * 2 + 1], BLOCK);
    }
    xf_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shuffles_partial_warp),
        cmocka_unit_test(test_votes_match_redux),
        cmocka_unit_test(test_syncwarp_in_both_branches),
        cmocka_unit_test(test_atomics_global_and_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
