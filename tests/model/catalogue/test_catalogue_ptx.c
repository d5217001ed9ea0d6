/* test_catalogue_ptx.c - the embedded catalogue PTX and the way from a
 * catalogue name, dtype and block size to the module's entry name.
 *
 * CPU only. The name lookup is tested on hand-made modules (mangled and
 * extern "C" names); with CURED_HAVE_CATALOGUE_PTX also on the real
 * embedded text, whose .entry lines are read without the parser.
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

#include "catalogue_ptx.h"
#include "cured.h"

/* A module holding only functions with these names (entries unless the
 * name starts with '.', which marks a .func). */
static cured_model_module *fake_module(const char *const *names, int n)
{
    cured_model_module *m = calloc(1, sizeof *m);
    m->functions = calloc((size_t)n, sizeof *m->functions);
    m->nfunctions = n;
    for (int i = 0; i < n; i++) {
        int is_func = names[i][0] == '.';
        m->functions[i].name = strdup(names[i] + is_func);
        m->functions[i].is_entry = !is_func;
    }
    return m;
}

static void free_fake(cured_model_module *m)
{
    for (int i = 0; i < m->nfunctions; i++)
        free(m->functions[i].name);
    free(m->functions);
    free(m);
}

/* Asserts that (kernel, dtype, block) finds `expect`. */
static void finds(const cured_model_module *m, const char *kernel, const char *dtype,
                  int block, const char *expect)
{
    char out[256] = "";
    int rc = cured_model_catalogue_entry_name(m, kernel, dtype, block, out, sizeof out);
    if (rc != CURED_MODEL_CATALOGUE_OK)
        fail_msg("%s %s %d: status %d", kernel, dtype, block, rc);
    assert_string_equal(out, expect);
}

static int status(const cured_model_module *m, const char *kernel, const char *dtype,
                  int block)
{
    char out[256];
    return cured_model_catalogue_entry_name(m, kernel, dtype, block, out, sizeof out);
}

static void test_mangled_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "._Z16divergent_kernelIfEvPKT_PS0_j",       /* a .func: never */
        "_Z16divergent_kernelIdEvPKT_PS0_j",
        "_Z16divergent_kernelIfEvPKT_PS0_j",
        "_Z18unroll_warp_kernelIfEvPKT_PS0_j",
        "_Z23unroll_warp_sync_kernelIfEvPKT_PS0_j",
        "_Z15unrolled_kernelIfLj64EEvPKT_PS0_j",
        "_Z15unrolled_kernelIfLj32EEvPKT_PS0_j",
        "_Z15unrolled_kernelIiLj128EEvPKT_PS0_j",
        "_ZN5cured14shuffle_kernelIyEEvPKT_PT_j",
        "_Z13atomic_kernelIxEvPKT_PS0_y",
        "two_pass_f32",
        "multi_elem_u32_256",
    };
    cured_model_module *m = fake_module(names, (int)(sizeof names / sizeof names[0]));
    finds(m, "divergent", "f32", 0, "_Z16divergent_kernelIfEvPKT_PS0_j");
    finds(m, "divergent", "f64", 256, "_Z16divergent_kernelIdEvPKT_PS0_j");
    finds(m, "unroll_warp", "f32", 0, "_Z18unroll_warp_kernelIfEvPKT_PS0_j");
    finds(m, "unroll_warp_sync", "f32", 0, "_Z23unroll_warp_sync_kernelIfEvPKT_PS0_j");
    finds(m, "unrolled", "f32", 64, "_Z15unrolled_kernelIfLj64EEvPKT_PS0_j");
    finds(m, "unrolled", "f32", 32, "_Z15unrolled_kernelIfLj32EEvPKT_PS0_j");
    finds(m, "unrolled", "f32", 0, "_Z15unrolled_kernelIfLj32EEvPKT_PS0_j");
    finds(m, "unrolled", "i32", 128, "_Z15unrolled_kernelIiLj128EEvPKT_PS0_j");
    finds(m, "shuffle", "u64", 0, "_ZN5cured14shuffle_kernelIyEEvPKT_PT_j");
    finds(m, "atomic", "i64", 0, "_Z13atomic_kernelIxEvPKT_PS0_y");
    finds(m, "two_pass", "f32", 0, "two_pass_f32");
    finds(m, "multi_elem", "u32", 256, "multi_elem_u32_256");

    assert_int_equal(status(m, "sequential", "f32", 0), CURED_MODEL_CATALOGUE_NO_KERNEL);
    assert_int_equal(status(m, "unroll", "f32", 0), CURED_MODEL_CATALOGUE_NO_KERNEL);
    assert_int_equal(status(m, "divergent", "i32", 0), CURED_MODEL_CATALOGUE_NO_DTYPE);
    assert_int_equal(status(m, "unrolled", "f32", 256), CURED_MODEL_CATALOGUE_NO_BLOCK);
    assert_int_equal(status(m, "multi_elem", "u32", 128), CURED_MODEL_CATALOGUE_NO_BLOCK);
    char small[8];
    assert_int_equal(cured_model_catalogue_entry_name(m, "divergent", "f32", 0, small,
                                                sizeof small),
                     CURED_MODEL_CATALOGUE_TOO_LONG);
    free_fake(m);
}

#ifdef CURED_HAVE_CATALOGUE_PTX
/* Every block-level kernel of the catalogue, every dtype and (for the two
 * with a compile-time block size) every block size has an entry in the
 * embedded PTX, and the names found are distinct. */
static void test_embedded_catalogue(void **state)
{
    (void)state;
    size_t len = 0;
    const char *text = cured_model_catalogue_ptx(&len);
    assert_non_null(text);
    assert_true(len > 1000);
    assert_int_equal(strlen(text), len);
    assert_non_null(strstr(text, ".target sm_90"));

    /* The .entry names, read off the text. */
    const char *names[1024];
    int n = 0;
    for (const char *p = strstr(text, ".entry "); p && n < 1024;
         p = strstr(p + 1, ".entry ")) {
        const char *start = p + 7, *end = strchr(start, '(');
        names[n++] = strndup(start, (size_t)(end - start));
    }
    assert_true(n >= 12);
    cured_model_module *m = fake_module(names, n);
    static const char *dtypes[] = {"f32", "f64", "i32", "i64", "u32", "u64"};
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const char *kernel = cured_catalogue_entry(k)->name;
        for (int d = 0; d < 6; d++) {
            int blocks = 1;
            int fixed = strcmp(kernel, "unrolled") == 0 ||
                        strcmp(kernel, "multi_elem") == 0;
            if (fixed)
                blocks = 6;
            for (int b = 0; b < blocks; b++) {
                int block = fixed ? 32 << b : 0;
                char out[256];
                int rc = cured_model_catalogue_entry_name(m, kernel, dtypes[d], block,
                                                    out, sizeof out);
                if (rc != CURED_MODEL_CATALOGUE_OK)
                    fail_msg("no entry for %s %s %d (%d)", kernel, dtypes[d],
                             block, rc);
                assert_non_null(strstr(out, kernel));
                if (fixed) {
                    char lit[16];
                    snprintf(lit, sizeof lit, "Lj%dE", block);
                    assert_non_null(strstr(out, lit));
                }
            }
        }
    }
    for (int i = 0; i < n; i++)
        free((char *)names[i]);
    free_fake(m);
}
#else
static void test_no_embedded_catalogue(void **state)
{
    (void)state;
    size_t len = 7;
    assert_null(cured_model_catalogue_ptx(&len));
    assert_int_equal(len, 0);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mangled_names),
#ifdef CURED_HAVE_CATALOGUE_PTX
        cmocka_unit_test(test_embedded_catalogue),
#else
        cmocka_unit_test(test_no_embedded_catalogue),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
