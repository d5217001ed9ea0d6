/* test_step_budget.c - the default step limit (cured_model_step_budget):
 * its rule, and that no catalogue kernel comes near it at large n, where
 * the old fixed default of 2^32 let an endless loop run a quarter of an
 * hour.
 *
 *   ctest --test-dir build -R test_step_budget --output-on-failure
 *
 * The catalogue part runs whole plans (cured_model_plan_run_catalogue,
 * which gives each launch its budget) from the embedded PTX: every launch
 * must complete and use at most a quarter of its budget. Block-level
 * kernels do the same work per warp at any n, and the grid-stride ones the
 * same per element, so a quarter at these sizes is a quarter at every size
 * the 4 GiB buffer limit allows. Skipped without embedded PTX. About 10 s
 * on one core.
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model_host.h"
#include "catalogue_ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* A launch may use at most 1 / MARGIN of its budget. */
#define MARGIN 4

static void test_rule(void **state)
{
    (void)state;
    const cured_model_dim3 one = {1, 1, 1};
    /* a small launch gets the floor */
    assert_int_equal(cured_model_step_budget(one, (cured_model_dim3){32, 1, 1}, 64),
                     CURED_MODEL_STEP_BUDGET_FLOOR);
    assert_int_equal(cured_model_step_budget(one, one, 0), CURED_MODEL_STEP_BUDGET_FLOOR);
    /* divergent at n = 2^22: 16384 blocks of 8 warps, 2^22 + 16384 elements */
    uint64_t units = 16384ull * 8 + (4194304ull + 16384) / 32;
    assert_int_equal(cured_model_step_budget((cured_model_dim3){16384, 1, 1},
                                             (cured_model_dim3){256, 1, 1},
                                             4194304ull + 16384),
                     units * CURED_MODEL_STEP_BUDGET_PER_UNIT);
    /* partial warps and elements round up; y and z count */
    assert_int_equal(cured_model_step_budget((cured_model_dim3){1000, 2, 3},
                                             (cured_model_dim3){33, 2, 1}, 100000),
                     (6000ull * 3 + 3125) * CURED_MODEL_STEP_BUDGET_PER_UNIT);
    assert_int_equal(cured_model_step_budget((cured_model_dim3){20000, 1, 1}, one, 33),
                     (20000ull + 2) * CURED_MODEL_STEP_BUDGET_PER_UNIT);
    /* the largest launch saturates instead of wrapping to something small */
    assert_true(cured_model_step_budget((cured_model_dim3){0x7fffffff, 65535, 65535},
                                        (cured_model_dim3){1024, 1, 1}, UINT64_MAX) ==
                UINT64_MAX);

    cured_model_arg args[3];
    char err[200];
    assert_int_equal(cured_model_arg_parse("a=f32[100]:ones", &args[0], err, sizeof err), 0);
    assert_int_equal(cured_model_arg_parse("u32:7", &args[1], err, sizeof err), 0);
    assert_int_equal(cured_model_arg_parse("b=u8[0x20]:zeros", &args[2], err, sizeof err), 0);
    assert_int_equal(cured_model_args_elements(args, 3), 132);
}

// ----------------------------------------------------------------------------
// The catalogue at large n

static int parse_catalogue(void **state)
{
    size_t len;
    const char *text = cured_model_catalogue_ptx(&len);
    *state = NULL;
    if (text == NULL)
        return 0;                     /* the tests skip */
    cured_model_parse_error err;
    *state = cured_model_parse(text, len, &err);
    if (*state == NULL)
        print_message("catalogue.ptx: line %u: %s\n", err.line, err.message);
    return *state == NULL ? -1 : 0;
}

static int free_catalogue(void **state)
{
    cured_model_module_free(*state);
    return 0;
}

/* Runs kernel's whole plan over n random f32 values with blocks of
 * `block`, each launch under its default budget, and checks that every
 * launch completed within 1 / MARGIN of it. */
static void check_plan(const cured_model_module *m, const char *name, uint64_t n,
                       int block)
{
    int kernel;
    assert_int_equal(cured_catalogue_find(name, &kernel), CURED_SUCCESS);
    float *in = malloc((size_t)n * sizeof *in);
    assert_non_null(in);
    uint64_t x = n;
    for (uint64_t i = 0; i < n; i++) {    /* any values: the work does not depend on them */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        in[i] = (float)(x >> 40) * 0x1p-24f - 0.5f;
    }
    static cured_model_plan_result r;
    const cured_device_shape *h200 = &cured_device_preset_find("h200")->shape;
    if (cured_model_plan_run_catalogue(m, kernel, CURED_F32, in, n, block, h200, &r) != 0)
        fail_msg("%s n %llu block %d: %s", name, (unsigned long long)n, block, r.error);
    free(in);
    for (int k = 0; k < r.launches_started; k++) {
        const cured_launch *l = &r.plan.launch[k];
        uint64_t budget = cured_model_step_budget((cured_model_dim3){(uint32_t)l->grid, 1, 1},
                                                  (cured_model_dim3){(uint32_t)l->block, 1, 1},
                                                  l->n + l->grid);
        uint64_t used = r.launch[k].warp_instructions;
        print_message("%-16s n %-9llu block %-4d launch %d: %10llu warp instructions, "
                      "%5.1f%% of its budget\n", name, (unsigned long long)n, block, k + 1,
                      (unsigned long long)used, 100.0 * (double)used / (double)budget);
        if (!r.launch[k].completed)
            fail_msg("%s n %llu block %d: launch %d did not complete", name,
                     (unsigned long long)n, block, k + 1);
        if (used > budget / MARGIN)
            fail_msg("%s n %llu block %d: launch %d used %llu of its budget %llu",
                     name, (unsigned long long)n, block, k + 1,
                     (unsigned long long)used, (unsigned long long)budget);
    }
    assert_true(r.completed);
    assert_int_equal(r.launches_run, r.plan.launches);
    cured_model_plan_result_clear(&r);
}

/* The kernel that issues the most instructions per warp, at the size the
 * first report of this limit named, and at its worst block size. */
static void test_divergent(void **state)
{
    if (*state == NULL)
        skip();
    check_plan(*state, "divergent", (uint64_t)1 << 22, 256);
    check_plan(*state, "divergent", (uint64_t)1 << 20, 1024);
    check_plan(*state, "divergent", (uint64_t)1 << 18, 32);
}

/* The rest of the block-level kernels: the same work per warp at any n. */
static void test_block_level(void **state)
{
    if (*state == NULL)
        skip();
    static const char *names[] = {"strided", "sequential", "first_add", "unroll_warp",
                                  "unroll_warp_sync", "unrolled"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        check_plan(*state, names[i], (uint64_t)1 << 18, 1024);
        check_plan(*state, names[i], (uint64_t)1 << 18, 32);
    }
}

/* The kernels whose warps loop over the data (a grid sized to the GPU)
 * and those that take several elements per thread, at n = 2^24. */
static void test_grid_sized(void **state)
{
    if (*state == NULL)
        skip();
    static const char *names[] = {"multi_elem", "shuffle", "shuffle_wide", "two_pass",
                                  "atomic", "single_pass"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        check_plan(*state, names[i], (uint64_t)1 << 24, 256);
    check_plan(*state, "multi_elem", (uint64_t)1 << 24, 32);
    check_plan(*state, "single_pass", (uint64_t)1 << 24, 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_block_level),
        cmocka_unit_test(test_grid_sized),
    };
    return cmocka_run_group_tests(tests, parse_catalogue, free_catalogue);
}
