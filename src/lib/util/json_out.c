/* json_out.c - writing JSON string literals.
 *
 * defines: cured_json_string
 */
#include "json_out.h"

void cured_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s != NULL && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
