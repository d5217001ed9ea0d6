/* csv_out.h - writing CSV fields, shared by every part of cured that
 * prints CSV (the bench's reports).
 *
 * defines: cured_csv_string, cured_csv_number
 *
 * Internal to the project (not part of the public API in include/cured.h).
 */
#ifndef CURED_CSV_OUT_H
#define CURED_CSV_OUT_H

#include <stdio.h>

/* Writes s to out as one CSV field: bare when it needs no quoting, else in
 * double quotes with inner quotes doubled (RFC 4180). Write errors are left
 * in ferror(out). */
void cured_csv_string(FILE *out, const char *s);

/* Writes ",v" with the printf format fmt, or a bare "," (an empty field)
 * when v is NAN or infinite. */
void cured_csv_number(FILE *out, const char *fmt, double v);

#endif /* CURED_CSV_OUT_H */
