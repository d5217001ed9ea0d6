/* ptx_util.h - small helpers shared by the PTX parser's files (internal).
 *
 * defines: ptx_error_setf, ptx_grow, ptx_strndup
 */
#ifndef CURED_PTX_UTIL_H
#define CURED_PTX_UTIL_H

#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

/* Fills *err (when err is not NULL) with line, column and the message
 * "line N: <formatted text>", truncated to fit. Can't fail. */
void ptx_error_setf(cured_model_parse_error *err, uint32_t line, uint32_t column,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Makes room for at least `need` elements of `elem` bytes in *array, whose
 * capacity is *capacity (both updated; growth is geometric). Returns 0, or
 * -1 when the size would overflow or memory runs out (*array unchanged). */
int ptx_grow(void **array, size_t *capacity, size_t need, size_t elem);

/* A NUL-terminated copy of s[0..n), or NULL when out of memory. */
char *ptx_strndup(const char *s, size_t n);

#endif /* CURED_PTX_UTIL_H */
