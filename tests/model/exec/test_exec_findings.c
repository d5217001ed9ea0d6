/* test_exec_findings.c - what the interpreter reports, end to end: an
 * out-of-bounds global store (with its source line and thread), shared
 * memory past the window, a misaligned load, a barrier in a divergent
 * branch, barriers that can never complete, a shuffle whose mask names
 * lanes that exited, an endless loop against a small step limit,
 * recursion, trap, and launches that cannot start (also a kernel the
 * model cannot decode).
 *
 *   ctest --test-dir build -R test_exec_findings
 *
 * Kernels: fixtures/findings.cu.
 */
#include "exec_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The single finding of `kind`, which must be an error on the .cu line
 * holding `snippet`; returns it. */
static const cured_model_finding *expect_error(const exec_fixture *fx, cured_model_finding_kind kind,
                                         const char *snippet)
{
    const cured_model_finding *f = xf_has_finding(fx, kind);
    if (f == NULL) {
        for (int i = 0; i < fx->result.findings.count; i++)
            print_message("  finding: %s\n", fx->result.findings.items[i].message);
        fail_msg("no '%s' finding", cured_model_finding_kind_name(kind));
    }
    assert_int_equal(f->severity, CURED_MODEL_ERROR);
    assert_int_equal(fx->result.findings.errors, 1);
    assert_int_equal(f->src_line, xf_line_of("findings.cu", snippet));
    assert_true(f->ptx_line > 0);
    assert_true(f->function >= 0 && f->pc >= 0);
    assert_false(fx->result.completed);
    return f;
}

static void test_oob_global_store(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "oob_store");
    int *out;
    uint64_t addr = xf_buffer(&fx, "out", 40 * 4, NULL, (void **)&out);
    xf_param(&fx, 0, addr);
    assert_int_equal(xf_run(&fx, 1, 1, 1, 64, 1, 1), 0);
    const cured_model_finding *f = expect_error(&fx, CURED_MODEL_FIND_OOB_GLOBAL, "out[t] = t;");
    assert_int_equal(f->thread[0], 40);
    assert_int_equal(f->block[0], 0);
    assert_int_equal(f->address, addr + 160);
    assert_non_null(strstr(f->message, "st.global.u32"));
    assert_non_null(strstr(f->message, "0 bytes past the end of 'out'"));
    /* the lanes in bounds stored; the others did not */
    for (int t = 0; t < 40; t++)
        assert_int_equal(out[t], t);
    xf_free(&fx);
}

static void test_oob_shared_and_misaligned(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "shared_oob");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 64 * 4, NULL, NULL));
    fx.launch.dynamic_shared_bytes = 64 * 4;
    assert_int_equal(xf_run(&fx, 1, 1, 1, 64, 1, 1), 0);
    const cured_model_finding *f = expect_error(&fx, CURED_MODEL_FIND_OOB_SHARED, "dyn[t + 1] = t;");
    assert_int_equal(f->thread[0], 63);
    assert_non_null(strstr(f->message, "offset 256 is past the block's 256-byte shared window"));

    xf_kernel(&fx, "misaligned");
    xf_param(&fx, 0, xf_buffer(&fx, "in", 256, NULL, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "out2", 32 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    f = expect_error(&fx, CURED_MODEL_FIND_MISALIGNED, "out[threadIdx.x] = *(const int *)");
    assert_int_equal(f->thread[0], 0);
    assert_int_equal(f->address % 4, 2);
    xf_free(&fx);
}

static void test_barrier_in_divergent_branch(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "divergent_barrier");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 64 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 64, 1, 1), 0);
    const cured_model_finding *f =
        expect_error(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE, "        __syncthreads();\n    __syncthreads();");
    (void)f;
    xf_free(&fx);
}

static void test_barriers_that_never_complete(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "stuck_barrier");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 64 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 64, 1, 1), 0);
    const cured_model_finding *f = xf_has_finding(&fx, CURED_MODEL_FIND_BARRIER_DIVERGENCE);
    assert_non_null(f);
    assert_int_equal(f->severity, CURED_MODEL_ERROR);
    assert_non_null(strstr(f->message, "can never complete"));
    assert_false(fx.result.completed);
    xf_free(&fx);
}

static void test_shfl_mask_names_exited_lanes(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "shfl_exited");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 32 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    const cured_model_finding *f =
        expect_error(&fx, CURED_MODEL_FIND_BAD_MASK, "out[t] = __shfl_down_sync(0xffffffffu, t, 1);");
    assert_non_null(strstr(f->message, "lanes 16-31"));
    assert_non_null(strstr(f->message, "exited"));
    xf_free(&fx);
}

static void test_endless_loop_step_limit(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "endless");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 2 * 4, NULL, NULL));
    fx.launch.step_limit = 5000;
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    const cured_model_finding *f = xf_has_finding(&fx, CURED_MODEL_FIND_STEP_LIMIT);
    assert_non_null(f);
    assert_int_equal(f->severity, CURED_MODEL_ERROR);
    assert_int_equal(f->src_line, xf_line_of("findings.cu", "while (((volatile int *)out)[0] == 0)\n        i++;"));
    assert_int_equal(fx.result.warp_instructions, 5000);
    assert_false(fx.result.completed);
    xf_free(&fx);
}

static void test_recursion_and_trap(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "recursive");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 32 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    const cured_model_finding *f = xf_has_finding(&fx, CURED_MODEL_FIND_UNSUPPORTED);
    assert_non_null(f);
    assert_non_null(strstr(f->message, "recursion"));
    assert_int_equal(fx.result.warp_instructions, 0);
    assert_false(fx.result.completed);

    xf_kernel(&fx, "trapper");
    int *out;
    xf_param(&fx, 0, xf_buffer(&fx, "out2", 32 * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    f = expect_error(&fx, CURED_MODEL_FIND_TRAP, "__trap();");
    assert_int_equal(f->thread[0], 3);
    xf_free(&fx);
}

static void test_bad_launches(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "findings.ptx");
    xf_kernel(&fx, "oob_store");
    xf_param(&fx, 0, xf_buffer(&fx, "out", 64, NULL, NULL));
    /* too many threads */
    assert_int_equal(xf_run(&fx, 1, 1, 1, 2048, 1, 1), -1);
    assert_non_null(xf_has_finding(&fx, CURED_MODEL_FIND_BAD_LAUNCH));
    /* an empty grid */
    assert_int_equal(xf_run(&fx, 0, 1, 1, 32, 1, 1), -1);
    /* too much shared memory */
    fx.launch.dynamic_shared_bytes = 300000;
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), -1);
    fx.launch.dynamic_shared_bytes = 0;
    /* a parameter block too small */
    fx.launch.params_size = 4;
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), -1);
    const cured_model_finding *f = xf_has_finding(&fx, CURED_MODEL_FIND_BAD_LAUNCH);
    assert_non_null(strstr(f->message, "8 bytes of parameters"));
    /* not a kernel */
    xf_kernel(&fx, "oob_store");
    fx.launch.function = cured_model_find_function(fx.module, "_Z3fibi");
    assert_true(fx.launch.function >= 0);
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), -1);
    /* and a good one still runs */
    xf_kernel(&fx, "oob_store");
    xf_param(&fx, 0, xf_buffer(&fx, "out3", 64 * 4, NULL, NULL));
    assert_int_equal(xf_run(&fx, 2, 1, 1, 32, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    assert_true(fx.result.completed);
    assert_int_equal(cured_model_run(NULL, &fx.result), -1);
    xf_free(&fx);
}

/* A kernel whose body has an instruction the model cannot decode does not
 * start: an error naming the instruction and its PTX line; the module's
 * other kernel runs. */
static void test_unusable_kernel_does_not_start(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry good(.param .u64 out)\n{\n"
        "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n"
        "\tst.global.u32 [%rd1], 7;\n\tret;\n}\n"
        ".visible .entry bad(.param .u64 out)\n{\n"
        "\tcp.async.wait_all;\n\tret;\n}\n";         /* line 13 */
    cured_model_module *m = cured_model_parse(text, sizeof text - 1, NULL);
    assert_non_null(m);
    cured_model_memory *mem = cured_model_memory_new();
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", 4, 1);
    assert_non_null(out);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = m;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){32, 1, 1};
    l.params = &out->addr;
    l.params_size = 8;
    l.memory = mem;
    cured_model_result r;
    l.function = cured_model_find_function(m, "bad");
    assert_int_equal(cured_model_run(&l, &r), -1);
    assert_int_equal(r.findings.count, 1);
    assert_int_equal(r.findings.items[0].kind, CURED_MODEL_FIND_UNSUPPORTED);
    assert_int_equal(r.findings.items[0].severity, CURED_MODEL_ERROR);
    assert_string_equal(r.findings.items[0].message,
                        "kernel bad cannot run in the model: unknown instruction "
                        "'cp.async.wait_all' (PTX line 13)");
    cured_model_findings_clear(&r.findings);
    l.function = cured_model_find_function(m, "good");
    assert_int_equal(cured_model_run(&l, &r), 0);
    assert_true(r.completed);
    assert_int_equal(out->data[0], 7);
    cured_model_findings_clear(&r.findings);
    cured_model_memory_free(mem);
    cured_model_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_global_store),
        cmocka_unit_test(test_oob_shared_and_misaligned),
        cmocka_unit_test(test_barrier_in_divergent_branch),
        cmocka_unit_test(test_barriers_that_never_complete),
        cmocka_unit_test(test_shfl_mask_names_exited_lanes),
        cmocka_unit_test(test_endless_loop_step_limit),
        cmocka_unit_test(test_recursion_and_trap),
        cmocka_unit_test(test_bad_launches),
        cmocka_unit_test(test_unusable_kernel_does_not_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
