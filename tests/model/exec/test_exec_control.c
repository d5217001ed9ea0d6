/* test_exec_control.c - the interpreter's control flow end to end:
 * divergence and min-PC reconvergence, barriers across warps with a
 * partial last warp, device-function calls, local arrays, generic
 * pointers to shared memory, a 3-D grid, the last-block pattern over a
 * __device__ counter, and the observers' view of it all.
 *
 *   ctest --test-dir build -R test_exec_control
 *
 * Kernels: fixtures/control.cu (control.ptx made by nvcc).
 */
#include "exec_fixture.h"
#include "ptx.h"
#include "ref_sum.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

// ----------------------------------------------------------------------------
// Divergence

static void test_diverge_reconverges(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "diverge");
    int trips[32];
    for (int t = 0; t < 32; t++)
        trips[t] = (t * 5) % 7;
    int *out;
    xf_param(&fx, 0, xf_buffer(&fx, "trips", sizeof trips, trips, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "out", 32 * 3 * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    assert_int_equal(fx.result.findings.errors, 0);
    assert_true(fx.result.completed);
    for (int t = 0; t < 32; t++) {
        int v = (t & 1) ? t * 3 : -t, s = 0;
        for (int k = 0; k < trips[t]; k++)
            s += k * v + 1;
        assert_int_equal(out[t * 3], s);
        /* in the branch: the odd or the even lanes */
        assert_int_equal((unsigned)out[t * 3 + 1], (t & 1) ? 0xAAAAAAAAu : 0x55555555u);
        /* after the loop every lane runs together again */
        assert_int_equal((unsigned)out[t * 3 + 2], 0xFFFFFFFFu);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Barriers

static void test_barrier_partial_warp(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "barrier80");
    enum { N = 80 };
    int in[N], *out;
    for (int t = 0; t < N; t++)
        in[t] = (t * 37) % 23 - 3;
    in[50] = 42;
    xf_param(&fx, 0, xf_buffer(&fx, "in", sizeof in, in, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "out", 4 * N * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, N, 1, 1), 0);
    assert_int_equal(fx.result.findings.errors, 0);
    assert_true(fx.result.completed);
    int count = 0, all = 1, any = 0;
    for (int t = 0; t < N; t++) {
        count += in[t] > 10;
        all &= in[t] >= 0;
        any |= in[t] == 42;
    }
    for (int t = 0; t < N; t++) {
        assert_int_equal(out[t], in[N - 1 - t]);
        assert_int_equal(out[N + t], count);
        assert_int_equal(out[2 * N + t] != 0, all);
        assert_int_equal(out[3 * N + t] != 0, any);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Calls, local and generic memory

static void test_calls_local_generic(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "calls");
    int in[32], *out;
    float *fout;
    for (int t = 0; t < 32; t++)
        in[t] = (t * 13) % 17 - 4;
    uint64_t in_addr = xf_buffer(&fx, "in", sizeof in, in, NULL);
    xf_param(&fx, 0, in_addr);
    xf_param(&fx, 1, xf_buffer(&fx, "out", 128 * 4, NULL, (void **)&out));
    xf_param(&fx, 2, xf_buffer(&fx, "fout", 32 * 4, NULL, (void **)&fout));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    assert_int_equal(fx.result.findings.errors, 0);
    assert_true(fx.result.completed);
    for (int t = 0; t < 32; t++) {
        int s = 0;
        for (int i = 0; i <= t; i++)
            s += in[i] * 2;
        assert_int_equal(out[t], s);
        s = 0;
        for (int i = 0; i < 32 - t; i++)
            s += in[i];
        assert_int_equal(out[32 + t], s);
        int k = (t + in[t]) & 7;
        assert_true(fout[t] == (float)t * (float)k + 0.5f);
        int arr[16];
        for (int i = 0; i < 16; i++)
            arr[i] = in[(i * 7 + t) & 31];
        assert_int_equal(out[64 + t], arr[in[t] & 15]);
        int want = (t & 1) ? in[1] * 2 + in[2] * 2 + in[3] * 2 : -(in[2] + in[3]);
        assert_int_equal(out[96 + t], want);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Grids

static void test_grid_3d(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "grid_ids");
    enum { GX = 3, GY = 2, GZ = 2, BX = 5, BY = 4, BZ = 3 };
    unsigned nthreads = GX * GY * GZ * BX * BY * BZ;
    unsigned *out;
    xf_param(&fx, 0, xf_buffer(&fx, "out", nthreads * 16, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, GX, GY, GZ, BX, BY, BZ), 0);
    assert_int_equal(fx.result.findings.errors, 0);
    for (unsigned bz = 0; bz < GZ; bz++)
        for (unsigned by = 0; by < GY; by++)
            for (unsigned bx = 0; bx < GX; bx++)
                for (unsigned tz = 0; tz < BZ; tz++)
                    for (unsigned ty = 0; ty < BY; ty++)
                        for (unsigned tx = 0; tx < BX; tx++) {
                            unsigned b = bx + GX * (by + GY * bz);
                            unsigned t = tx + BX * (ty + BY * tz);
                            unsigned g = b * (BX * BY * BZ) + t;
                            assert_int_equal(out[g * 4], bx | by << 8 | bz << 16);
                            assert_int_equal(out[g * 4 + 1], tx | ty << 8 | tz << 16);
                            assert_int_equal(out[g * 4 + 2],
                                             GX | GY << 8 | GZ << 16 | (unsigned)BZ << 24);
                            assert_int_equal(out[g * 4 + 3], (t % 32) | (t / 32) << 8);
                        }
    xf_free(&fx);
}

/* Blocks run in order, so the last block to take a ticket sees every
 * partial sum; the __device__ counter persists and is reset by the kernel,
 * so a second launch works the same. */
static void test_last_block_single_pass(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "last_block");
    enum { N = 1000, BLOCK = 64, GRID = (N + BLOCK - 1) / BLOCK };
    int in[N], *partial, *total;
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 201 - 100;
    cured_ref_sum want;
    cured_ref_sum_of(CURED_I32, in, N, &want);
    char why[160] = "";
    xf_param(&fx, 0, xf_buffer(&fx, "in", sizeof in, in, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "partial", GRID * 4, NULL, (void **)&partial));
    xf_param(&fx, 2, xf_buffer(&fx, "total", 4, NULL, (void **)&total));
    xf_param(&fx, 3, N);
    for (int run = 0; run < 2; run++) {
        *total = 0;
        assert_int_equal(xf_run(&fx, GRID, 1, 1, BLOCK, 1, 1), 0);
        assert_int_equal(fx.result.findings.errors, 0);
        if (!cured_ref_sum_check(&want, total, 0, why, sizeof why))
            fail_msg("run %d: %s", run, why);
        cured_model_buffer *image = cured_model_memory_module_image(fx.memory, fx.module);
        assert_non_null(image);
        assert_int_equal(image->data[0], 0);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// Observers

typedef struct seen {
    int launch_begin, launch_end, block_begin, block_end, barriers;
    uint64_t instrs, thread_instrs, branches, divergent, exits, loads, stores;
    uint32_t last_block;
} seen;

static void on_launch_begin(void *ctx, const cured_model_launch *l) { (void)l; ((seen *)ctx)->launch_begin++; }
static void on_launch_end(void *ctx, const cured_model_launch *l) { (void)l; ((seen *)ctx)->launch_end++; }
static void on_block_begin(void *ctx, uint32_t b, uint32_t threads)
{
    seen *s = ctx;
    assert_int_equal(threads, 80);
    s->block_begin++;
    s->last_block = b;
}
static void on_block_end(void *ctx, uint32_t b) { ((seen *)ctx)->block_end++; (void)b; }
static void on_instr(void *ctx, const cured_model_event *e)
{
    seen *s = ctx;
    s->instrs++;
    s->thread_instrs += (uint64_t)__builtin_popcount(e->active);
    assert_int_equal(e->active & ~e->present, 0);
    assert_int_equal(e->guard_true & ~e->active, 0);
    assert_int_equal(e->present, e->warp == 2 ? 0xFFFFu : 0xFFFFFFFFu);
    assert_non_null(e->shared);
    assert_int_equal(e->shared_bytes, 512);
}
static void on_access(void *ctx, const cured_model_access *a)
{
    seen *s = ctx;
    if (a->kind == CURED_MODEL_LOAD)
        s->loads++;
    else
        s->stores++;
    if (a->space == PTX_S_SHARED)
        for (int l = 0; l < 32; l++)
            if (a->mask >> l & 1)
                assert_true(a->addr[l] < 512);
}
static void on_branch(void *ctx, const cured_model_event *e, uint32_t taken)
{
    seen *s = ctx;
    s->branches++;
    if (taken != 0 && taken != e->active)
        s->divergent++;
}
static void on_barrier(void *ctx, const cured_model_event *e, uint32_t id)
{
    (void)e;
    assert_int_equal(id, 0);
    ((seen *)ctx)->barriers++;
}
static void on_exit(void *ctx, const cured_model_event *e, uint32_t lanes)
{
    (void)e;
    ((seen *)ctx)->exits += (uint64_t)__builtin_popcount(lanes);
}

static void test_observers(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "control.ptx");
    xf_kernel(&fx, "barrier80");
    int in[80] = {0};
    xf_param(&fx, 0, xf_buffer(&fx, "in", sizeof in, in, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "out", 4 * 80 * 4, NULL, NULL));
    seen s;
    memset(&s, 0, sizeof s);
    cured_model_observer o = {.ctx = &s, .launch_begin = on_launch_begin, .launch_end = on_launch_end,
                        .block_begin = on_block_begin, .block_end = on_block_end,
                        .instr = on_instr, .access = on_access, .branch = on_branch,
                        .barrier = on_barrier, .lanes_exit = on_exit};
    fx.launch.observers = &o;
    fx.launch.nobservers = 1;
    assert_int_equal(xf_run(&fx, 2, 1, 1, 80, 1, 1), 0);
    assert_int_equal(fx.result.findings.errors, 0);
    assert_int_equal(s.launch_begin, 1);
    assert_int_equal(s.launch_end, 1);
    assert_int_equal(s.block_begin, 2);
    assert_int_equal(s.block_end, 2);
    assert_int_equal(s.last_block, 1);
    /* __syncthreads, __syncthreads_count/and/or: 4 barriers per block */
    assert_int_equal(s.barriers, 8);
    assert_int_equal(s.exits, 160);
    assert_int_equal(s.instrs, fx.result.warp_instructions);
    assert_int_equal(s.thread_instrs, fx.result.thread_instructions);
    /* per warp: 1 load of in + 1 shared store + 1 shared load + 4 loads of
     * in (the bar.red operands) ... at least one load and store each */
    assert_true(s.loads >= 6 && s.stores >= 6);
    assert_int_equal(s.divergent, 0);
    xf_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diverge_reconverges),
        cmocka_unit_test(test_barrier_partial_warp),
        cmocka_unit_test(test_calls_local_generic),
        cmocka_unit_test(test_grid_3d),
        cmocka_unit_test(test_last_block_single_pass),
        cmocka_unit_test(test_observers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
