/* ptx_util.c - small helpers shared by the PTX parser's files.
 *
 * defines: ptx_error_setf, ptx_grow, ptx_strndup
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

int ptx_grow(void **array, size_t *capacity, size_t need, size_t elem)
{
    if (need <= *capacity)
        return 0;
    size_t cap = *capacity ? *capacity : 8;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    if (elem != 0 && cap > SIZE_MAX / elem)
        return -1;
    void *grown = realloc(*array, cap * elem);
    if (grown == NULL)
        return -1;
    *array = grown;
    *capacity = cap;
    return 0;
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
