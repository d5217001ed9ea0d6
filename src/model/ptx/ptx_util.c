/* ptx_util.c - small helpers shared by the PTX parser's files.
 *
 * defines: ptx_error_setf, ptx_strndup
 */
#include "ptx_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ptx_error_setf(cured_model_parse_error *err, uint32_t line, uint32_t column,
                    const char *fmt, ...)
{
    if (err == NULL)
        return;
    err->line = line;
    err->column = column;
    int n = snprintf(err->message, sizeof err->message, "line %u: ", line);
    if (n < 0 || (size_t)n >= sizeof err->message)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
    va_end(ap);
}

char *ptx_strndup(const char *s, size_t n)
{
    char *copy = malloc(n + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}
