/* test_catalogue.c - the catalogue's table, names and status strings.
 *
 * CPU only: these functions are pure C and must work without a GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cured.h"

/* The teaching order is the contract the docs, the bench and the model
 * follow; a reordering must be deliberate. */
static void test_teaching_order(void **state)
{
    (void)state;
    static const char *expected[] = {
        "divergent", "strided", "sequential", "first_add", "unroll_warp",
        "unroll_warp_sync", "unrolled", "multi_elem", "shuffle", "shuffle_wide",
        "two_pass", "atomic", "single_pass",
    };
    int count = (int)(sizeof expected / sizeof expected[0]);
    assert_int_equal(cured_catalogue_count(), count);
    for (int i = 0; i < count; i++) {
        const cured_kernel_info *k = cured_catalogue_entry(i);
        assert_non_null(k);
        assert_string_equal(k->name, expected[i]);
        assert_true(strlen(k->description) > 10);
        int found = -1;
        assert_int_equal(cured_catalogue_find(expected[i], &found), CURED_SUCCESS);
        assert_int_equal(found, i);
    }
    assert_null(cured_catalogue_entry(-1));
    assert_null(cured_catalogue_entry(count));
}

static void test_only_unroll_warp_is_an_exhibit(void **state)
{
    (void)state;
    for (int i = 0; i < cured_catalogue_count(); i++) {
        const cured_kernel_info *k = cured_catalogue_entry(i);
        assert_int_equal(k->is_exhibit, strcmp(k->name, "unroll_warp") == 0);
    }
}

static void test_find_rejects_bad_names(void **state)
{
    (void)state;
    int index = 1234;
    assert_int_equal(cured_catalogue_find("no_such_kernel", &index),
                     CURED_ERROR_UNKNOWN_KERNEL);
    assert_int_equal(cured_catalogue_find("", &index), CURED_ERROR_UNKNOWN_KERNEL);
    assert_int_equal(cured_catalogue_find("Divergent", &index),
                     CURED_ERROR_UNKNOWN_KERNEL);
    assert_int_equal(index, 1234); /* untouched on failure */
    assert_int_equal(cured_catalogue_find(NULL, &index), CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_catalogue_find("shuffle", NULL), CURED_ERROR_NULL_POINTER);
}

static void test_dtypes_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < CURED_DTYPE_COUNT; i++) {
        const char *name = cured_dtype_name((cured_dtype)i);
        assert_non_null(name);
        cured_dtype back = CURED_DTYPE_COUNT;
        assert_int_equal(cured_dtype_from_name(name, &back), CURED_SUCCESS);
        assert_int_equal(back, i);
        size_t size = cured_dtype_size((cured_dtype)i);
        assert_true(size == 2 || size == 4 || size == 8);
        /* "f32" holds 32 bits, "bf16" 16 */
        assert_int_equal(size * 8, (size_t)atoi(name + strcspn(name, "0123456789")));
    }
    cured_dtype d = CURED_F32;
    assert_int_equal(cured_dtype_from_name("f16x", &d), CURED_ERROR_UNSUPPORTED_TYPE);
    assert_null(cured_dtype_name(CURED_DTYPE_COUNT));
    assert_int_equal(cured_dtype_size((cured_dtype)-1), 0);
}

static void test_every_status_has_a_message(void **state)
{
    (void)state;
    for (int s = CURED_SUCCESS; s <= CURED_ERROR_CUDA; s++) {
        const char *msg = cured_status_string((cured_status)s);
        assert_non_null(msg);
        assert_string_not_equal(msg, "unknown status");
    }
    assert_string_equal(cured_status_string((cured_status)999), "unknown status");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teaching_order),
        cmocka_unit_test(test_only_unroll_warp_is_an_exhibit),
        cmocka_unit_test(test_find_rejects_bad_names),
        cmocka_unit_test(test_dtypes_round_trip),
        cmocka_unit_test(test_every_status_has_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
