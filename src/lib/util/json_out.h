/* json_out.h - writing JSON string literals, shared by every part of cured
 * that prints JSON (the CLI, the bench report, the model's reports).
 *
 * defines: cured_json_string
 *
 * Internal to the project (not part of the public API in include/cured.h).
 */
#ifndef CURED_JSON_OUT_H
#define CURED_JSON_OUT_H

#include <stdio.h>

/* Writes s to out as a JSON string literal: quotes, backslash escapes for
 * '"' and '\\', \n and \t, \u00XX for other control characters; bytes from
 * 0x80 up pass through (UTF-8 stays UTF-8). NULL writes "". Write errors
 * are left in ferror(out). */
void cured_json_string(FILE *out, const char *s);

#endif /* CURED_JSON_OUT_H */
