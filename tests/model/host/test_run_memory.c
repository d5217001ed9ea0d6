/* test_run_memory.c - the host memory a run takes in the model
 * (src/model/host/run_memory.c): the estimate's parts, the free memory, and
 * the verdict `cured model` refuses a run by.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured_model_host.h"

/* A kernel with 256 bytes of static shared memory and three parameters. */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 k_a, .param .u64 k_b, .param .u64 k_c)\n"
    "{\n"
    "    .shared .align 4 .b8 k_s[256];\n"
    "    .reg .b32 %r<4>;\n"
    "    ret;\n"
    "}\n";

static cured_model_arg arg(const char *spec)
{
    cured_model_arg a;
    char err[256];
    if (cured_model_arg_parse(spec, &a, err, sizeof err) != 0)
        fail_msg("%s", err);
    return a;
}

/* The buffers count once, an unwritten one twice (its shadow), a file
 * twice (read, then copied) and sized from the file when it has no COUNT;
 * scalars count nothing. */
static const cured_model_dim3 ONE = {1, 1, 1};

static void test_buffers(void **state)
{
    (void)state;
    cured_model_parse_error perr;
    cured_model_module *m = cured_model_parse(ptx, sizeof ptx - 1, &perr);
    assert_non_null(m);
    int k = cured_model_find_function(m, "k");
    const cured_model_dim3 block = {128, 1, 1};
    uint64_t none = cured_model_launch_bytes(m, k, NULL, 0, block, ONE, 0);

    char path[] = "/tmp/cured-test-run-memory-XXXXXX";
    FILE *f = fdopen(mkstemp(path), "wb");
    assert_non_null(f);
    static const float values[300];
    assert_int_equal(fwrite(values, sizeof values, 1, f), 1);
    fclose(f);
    char spec[128];
    snprintf(spec, sizeof spec, "c=f32[]:file:%s", path);
    cured_model_arg args[4] = {arg("a=f32[1000]:ones"), arg("b=f64[1000]:uninit"), arg(spec),
                               arg("u32:5")};
    uint64_t all = cured_model_launch_bytes(m, k, args, 4, block, ONE, 0);
    remove(path);
    assert_int_equal(all - none, 4000 + 2 * 8000 + 2 * sizeof values);

    /* 4 GiB of f32 as the input: the estimate says over 4 GiB */
    cured_model_arg big = arg("in=f32[1073741824]:random");
    assert_true(cured_model_launch_bytes(m, k, &big, 1, block, ONE, 0) - none ==
                CURED_MODEL_MAX_BUFFER_BYTES);
    cured_model_module_free(m);
}

/* One block's state: per thread (more threads, more bytes) and per byte of
 * shared memory (the byte and the checks' state for it). */
static void test_block_state(void **state)
{
    (void)state;
    cured_model_parse_error perr;
    cured_model_module *m = cured_model_parse(ptx, sizeof ptx - 1, &perr);
    assert_non_null(m);
    int k = cured_model_find_function(m, "k");
    const cured_model_dim3 b32d = {32, 1, 1}, b64d = {64, 1, 1};
    uint64_t b32 = cured_model_launch_bytes(m, k, NULL, 0, b32d, ONE, 0);
    uint64_t b64 = cured_model_launch_bytes(m, k, NULL, 0, b64d, ONE, 0);
    uint64_t dyn = cured_model_launch_bytes(m, k, NULL, 0, b32d, ONE, 1000);
    assert_true(b64 - b32 >= 32 * (64 + 4 * 8));     /* ids + 4 registers a thread */
    assert_true(b32 >= 256 * 2);                      /* the static shared memory */
    /* a shared byte and the checks' cell for it: at least the last write
     * and four reads of 24 bytes or more each */
    size_t cell = cured_model_checks_bytes_per_shared_byte();
    assert_true(cell >= 5 * 24);
    assert_int_equal(dyn - b32, 1000 * (1 + cell));
    /* a cluster of four runs four blocks at once, the launch's default
     * (all 0) one (the module has no .global data) */
    uint64_t four = cured_model_launch_bytes(m, k, NULL, 0, b32d, (cured_model_dim3){4, 1, 1}, 0);
    uint64_t dflt = cured_model_launch_bytes(m, k, NULL, 0, b32d, (cured_model_dim3){0, 0, 0}, 0);
    assert_int_equal(dflt, b32);
    assert_int_equal(four, 4 * b32);
    cured_model_module_free(m);
}

static void test_fits(void **state)
{
    (void)state;
    char err[300] = "";
    assert_int_equal(cured_model_memory_fits(100, 200, err, sizeof err), 0);
    assert_int_equal(cured_model_memory_fits(200, 200, err, sizeof err), 0);
    assert_int_equal(cured_model_memory_fits(3ull << 30, 3ull << 29, err, sizeof err), -1);
    assert_string_equal(err, "this run needs about 3 GiB of host memory (its buffers, "
                             "their unwritten-byte shadows, the running blocks' state) and 1.5 GiB "
                             "is free");
}

/* Some memory is free, and no more than the machine has. */
static void test_free_memory(void **state)
{
    (void)state;
    uint64_t free_bytes = 0, total = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        skip();
    unsigned long long kb;
    char line[256];
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            total = (uint64_t)kb * 1024;
    fclose(f);
    assert_int_equal(cured_model_host_memory_free(&free_bytes), 0);
    assert_true(free_bytes > 0);
    assert_true(free_bytes <= total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers),
        cmocka_unit_test(test_block_state),
        cmocka_unit_test(test_fits),
        cmocka_unit_test(test_free_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
