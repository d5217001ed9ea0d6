/* ptx_util.h - small helpers shared by the PTX parser's files (internal).
 *
 * defines: ptx_error_setf, ptx_strndup
 *
 * (Arrays grow with cured_grow, src/lib/util/grow.h.)
 */
#ifndef CURED_PTX_UTIL_H
#define CURED_PTX_UTIL_H

#include "grow.h"
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

/* A NUL-terminated copy of s[0..n), or NULL when out of memory. */
char *ptx_strndup(const char *s, size_t n);

#endif /* CURED_PTX_UTIL_H */
