/* csv_out.c - writing CSV fields.
 *
 * defines: cured_csv_string, cured_csv_number
 */
#include "csv_out.h"

#include <math.h>
#include <string.h>

void cured_csv_string(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void cured_csv_number(FILE *out, const char *fmt, double v)
{
    fputc(',', out);
    if (isfinite(v))
        fprintf(out, fmt, v);
}
