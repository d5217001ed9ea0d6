/* ptx_mangle.c - reading the names nvcc's Itanium C++ mangling gives
 * kernels: `_Z1kPfj` is `k`, `_ZN2ns6reduceIfLi256EEvPKT_` is
 * `ns::reduce` with template arguments <float, 256>.
 *
 * defines: ptx_mangled_name
 *
 * Enough of the grammar for kernels: a plain or nested name of source
 * names, optionally followed by template arguments; operators, special
 * names and substitutions are "not a plain function".
 */
#include "ptx.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Reads <decimal length><identifier> at *p and appends it to out (after
 * "::" when out is not empty); advances *p. Returns 0, or -1 when *p is
 * not a source name or out is too small. */
static int read_source_name(const char **p, char *out, size_t cap, size_t *start)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    char *end;
    long n = strtol(*p, &end, 10);
    if (n <= 0 || memchr(end, '\0', (size_t)n) != NULL)
        return -1;
    size_t used = strlen(out);
    size_t sep = used ? 2 : 0;
    if (used + sep + (size_t)n >= cap)
        return -1;
    if (sep)
        memcpy(out + used, "::", 2);
    memcpy(out + used + sep, end, (size_t)n);
    out[used + sep + (size_t)n] = '\0';
    *start = used + sep;
    *p = end + n;
    return 0;
}

int ptx_mangled_name(const char *mangled, char *qualified, size_t cap,
                     size_t *innermost, const char **rest)
{
    if (cap == 0 || strncmp(mangled, "_Z", 2) != 0)
        return -1;
    qualified[0] = '\0';
    size_t start = 0;
    const char *p = mangled + 2;
    int nested = *p == 'N';
    if (nested) {
        p++;
        while (*p && *p != 'E' && *p != 'I')
            if (read_source_name(&p, qualified, cap, &start) != 0)
                return -1;
        if (qualified[0] == '\0')
            return -1;
    } else if (read_source_name(&p, qualified, cap, &start) != 0) {
        return -1;
    }
    if (innermost != NULL)
        *innermost = start;
    if (rest != NULL)
        *rest = p;
    return nested;
}
