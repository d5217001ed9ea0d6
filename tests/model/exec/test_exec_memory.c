/* test_exec_memory.c - the model's global memory (src/model/memory.c):
 * placement with gaps, lookups at and past buffer ends, the init shadow,
 * stable buffer pointers, and the per-module .global/.const image.
 *
 *   ctest --test-dir build -R test_exec_memory
 */
#include "cured_model.h"
#include "ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void test_alloc_and_find(void **state)
{
    (void)state;
    cured_model_memory *m = cured_model_memory_new();
    assert_non_null(m);
    cured_model_buffer *a = cured_model_memory_alloc(m, "a", 100, 1);
    assert_non_null(a);
    uint64_t a_addr = a->addr;
    cured_model_buffer *b = cured_model_memory_alloc(m, "b", 4096, 0);
    assert_non_null(b);
    assert_int_equal(a_addr % 256, 0);
    assert_int_equal(b->addr % 256, 0);
    /* a gap of unmapped addresses after each buffer */
    assert_true(b->addr >= a_addr + 100 + 64 * 1024);
    assert_ptr_equal(cured_model_memory_find(m, a_addr, 100), a);
    assert_ptr_equal(cured_model_memory_find(m, a_addr + 96, 4), a);
    assert_null(cured_model_memory_find(m, a_addr + 97, 4));     /* runs past the end */
    assert_null(cured_model_memory_find(m, a_addr + 100, 4));    /* one past the end */
    assert_null(cured_model_memory_find(m, a_addr - 4, 4));      /* below */
    assert_null(cured_model_memory_find(m, 0, 4));               /* null */
    assert_ptr_equal(cured_model_memory_find(m, b->addr + 4092, 4), b);
    assert_null(cured_model_memory_find(m, b->addr + 4096, 1));
    /* zero-filled; the init shadow only when asked for */
    assert_null(a->init);
    assert_non_null(b->init);
    for (int i = 0; i < 4096; i++)
        assert_int_equal(b->data[i] | b->init[i], 0);
    assert_string_equal(a->name, "a");
    /* the generic windows of shared and local memory stay clear */
    assert_true(b->addr + b->bytes < 0x7D0000000000ull);
    cured_model_memory_free(m);
    cured_model_memory_free(NULL);
}

static void test_pointers_stay_valid(void **state)
{
    (void)state;
    cured_model_memory *m = cured_model_memory_new();
    cured_model_buffer *first =
        cured_model_memory_alloc(m, "first, with a name much longer than the forty-seven bytes kept", 8, 1);
    assert_non_null(first);
    assert_int_equal(strlen(first->name), sizeof first->name - 1);
    uint64_t addr = first->addr;
    for (int i = 0; i < 1000; i++)
        assert_non_null(cured_model_memory_alloc(m, "more", (uint64_t)i, 1));
    assert_int_equal(first->addr, addr);
    assert_ptr_equal(cured_model_memory_find(m, addr, 8), first);
    cured_model_buffer *empty = cured_model_memory_alloc(m, "empty", 0, 1);
    assert_non_null(empty);
    assert_non_null(empty->data);
    cured_model_memory_free(m);
}

static void test_module_image(void **state)
{
    (void)state;
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".global .align 4 .u32 counter = 7;\n"
        ".const .align 4 .b32 table[2] = {11, 13};\n"
        ".visible .entry k()\n{\n\tret;\n}\n";
    cured_model_parse_error err;
    cured_model_module *mod = cured_model_parse(ptx, sizeof ptx - 1, &err);
    if (mod == NULL)
        fail_msg("line %u: %s", err.line, err.message);
    cured_model_memory *m = cured_model_memory_new();
    cured_model_buffer *img = cured_model_memory_module_image(m, mod);
    assert_non_null(img);
    assert_ptr_equal(img->module, mod);
    assert_int_equal(img->bytes, mod->global_bytes);
    uint32_t v;
    for (int i = 0; i < mod->nsymbols; i++) {
        const ptx_symbol *s = &mod->symbols[i];
        if (strcmp(s->name, "counter") == 0) {
            memcpy(&v, img->data + s->offset, 4);
            assert_int_equal(v, 7);
        } else if (strcmp(s->name, "table") == 0) {
            memcpy(&v, img->data + s->offset + 4, 4);
            assert_int_equal(v, 13);
        }
    }
    /* the same buffer on every call: __device__ variables persist */
    img->data[0] = 42;
    assert_ptr_equal(cured_model_memory_module_image(m, mod), img);
    assert_int_equal(cured_model_memory_module_image(m, mod)->data[0], 42);
    cured_model_memory_free(m);
    cured_model_module_free(mod);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_and_find),
        cmocka_unit_test(test_pointers_stay_valid),
        cmocka_unit_test(test_module_image),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
