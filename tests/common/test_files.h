/* test_files.h - reading fixture files in the unit tests: a whole file as a
 * NUL-terminated string, a .ptx file parsed into a module, the line of a
 * text that a pointer falls on.
 *
 * defines: test_read_file, test_parse_ptx, test_parse_ptx_file,
 *          test_line_number
 *
 * Built as the static library cured_test_files (tests/CMakeLists.txt).
 * Failures fail the running cmocka test (fail_msg), naming the path, or
 * the parser's line and message.
 */
#ifndef CURED_TEST_FILES_H
#define CURED_TEST_FILES_H

#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

/* The whole of dir/name as a NUL-terminated string (caller frees); *len
 * receives its length when len is not NULL. Fails the test when the file
 * cannot be opened or read. */
char *test_read_file(const char *dir, const char *name, size_t *len);

/* text[0..len) parsed as PTX (caller frees with cured_model_module_free). Fails
 * the test with "<name>: line N: <message>" when the parser rejects it. */
cured_model_module *test_parse_ptx(const char *text, size_t len, const char *name);

/* dir/name read and parsed as PTX (test_read_file, then test_parse_ptx). */
cured_model_module *test_parse_ptx_file(const char *dir, const char *name);

/* The 1-based line of `text` on which `at` (a pointer into it) stands. */
uint32_t test_line_number(const char *text, const char *at);

#endif /* CURED_TEST_FILES_H */
