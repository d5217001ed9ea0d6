/* test_files.c - reading fixture files in the unit tests (test_files.h).
 *
 * defines: test_read_file, test_parse_ptx, test_parse_ptx_file,
 *          test_line_number
 */
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

char *test_read_file(const char *dir, const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0)
        fail_msg("cannot read %s", path);
    char *text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (len != NULL)
        *len = (size_t)n;
    return text;
}

cured_model_module *test_parse_ptx(const char *text, size_t len, const char *name)
{
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, len, &err);
    if (m == NULL)
        fail_msg("%s: line %u: %s", name, err.line, err.message);
    return m;
}

cured_model_module *test_parse_ptx_file(const char *dir, const char *name)
{
    size_t len;
    char *text = test_read_file(dir, name, &len);
    cured_model_module *m = test_parse_ptx(text, len, name);
    free(text);
    return m;
}

uint32_t test_line_number(const char *text, const char *at)
{
    uint32_t line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}
