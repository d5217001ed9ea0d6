/* numbers.h - the one parser of the whole numbers cured reads from a command
 * line (`cured model` options and --arg specs, `cured bench` options).
 *
 * defines: cured_number_unsigned, cured_number_signed
 *
 * One grammar everywhere: decimal digits, or hex digits after 0x (0X); a
 * leading zero is still decimal (010 is ten: never octal, as strtoul's base 0
 * would read it); no spaces, no trailing characters, no empty string; a sign
 * only where a signed number goes ('-' only). Internal to the project (not
 * part of the public API in include/).
 */
#ifndef CURED_NUMBERS_H
#define CURED_NUMBERS_H

#include <stddef.h>
#include <stdint.h>

/* Parses text as an unsigned whole number in [lo, hi] into *value. Returns
 * 0, or -1 with one line in err: "WHAT 'TEXT': REASON", REASON one of "no
 * number", "not a whole number (decimal, or hex after 0x)", "out of range
 * (LO to HI)" (a negative number too). `what` names the number for the
 * reader ("--n", "COUNT"). *value is untouched on failure. */
int cured_number_unsigned(const char *what, const char *text, uint64_t lo,
                          uint64_t hi, uint64_t *value, char *err, size_t cap);

/* The same for a signed number in [lo, hi]: an optional '-', then digits as
 * above (-0x10 is -16). */
int cured_number_signed(const char *what, const char *text, int64_t lo,
                        int64_t hi, int64_t *value, char *err, size_t cap);

#endif /* CURED_NUMBERS_H */
