/* numbers.c - whole numbers from the command line: decimal or 0x hex, never
 * octal, with range checks and one clear line when they fail.
 *
 * defines: cured_number_unsigned, cured_number_signed
 *
 * Written by hand instead of over strtoull because strtoull takes leading
 * spaces, a '-' (which it wraps), base 0's octal and an empty string as 0:
 * each of them once let a mistyped option through as another number.
 */
#include "numbers.h"

#include <stdio.h>

typedef enum number_status {
    NUMBER_OK = 0,
    NUMBER_EMPTY,
    NUMBER_JUNK,
    NUMBER_RANGE
} number_status;

/* The value of hex digit c, or -1. */
static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads the digits of s (no sign) into *magnitude. NUMBER_RANGE when the
 * value does not fit in 64 bits. */
static number_status read_magnitude(const char *s, uint64_t *magnitude)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return NUMBER_JUNK;                 /* "0x" alone, or a lone sign */
    uint64_t v = 0;
    int overflow = 0;
    for (; *s; s++) {
        int d = hex_digit(*s);
        if (d < 0 || (unsigned)d >= base)
            return NUMBER_JUNK;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = 1;                   /* keep going: junk wins over range */
        else
            v = v * base + (uint64_t)d;
    }
    if (overflow)
        return NUMBER_RANGE;
    *magnitude = v;
    return NUMBER_OK;
}

/* Writes "WHAT 'TEXT': REASON" into err; the range is already in `range`. */
static int fail(const char *what, const char *text, number_status st,
                const char *range, char *err, size_t cap)
{
    const char *reason = st == NUMBER_EMPTY  ? "no number"
                         : st == NUMBER_JUNK ? "not a whole number (decimal, or hex after 0x)"
                                             : "out of range";
    if (err != NULL && cap > 0) {
        if (st == NUMBER_RANGE)
            snprintf(err, cap, "%s '%s': %s (%s)", what, text, reason, range);
        else
            snprintf(err, cap, "%s '%s': %s", what, text, reason);
    }
    return -1;
}

int cured_number_unsigned(const char *what, const char *text, uint64_t lo,
                          uint64_t hi, uint64_t *value, char *err, size_t cap)
{
    char range[64];
    snprintf(range, sizeof range, "%llu to %llu", (unsigned long long)lo,
             (unsigned long long)hi);
    if (text == NULL || *text == '\0')
        return fail(what, text ? text : "", NUMBER_EMPTY, range, err, cap);
    uint64_t v;
    if (*text == '-')      /* "-5" is out of range; "-x" is no number at all */
        return fail(what, text, read_magnitude(text + 1, &v) == NUMBER_JUNK
                                    ? NUMBER_JUNK : NUMBER_RANGE, range, err, cap);
    number_status st = read_magnitude(text, &v);
    if (st == NUMBER_OK && (v < lo || v > hi))
        st = NUMBER_RANGE;
    if (st != NUMBER_OK)
        return fail(what, text, st, range, err, cap);
    *value = v;
    return 0;
}

int cured_number_signed(const char *what, const char *text, int64_t lo,
                        int64_t hi, int64_t *value, char *err, size_t cap)
{
    char range[64];
    snprintf(range, sizeof range, "%lld to %lld", (long long)lo, (long long)hi);
    if (text == NULL || *text == '\0')
        return fail(what, text ? text : "", NUMBER_EMPTY, range, err, cap);
    int negative = *text == '-';
    uint64_t m;
    number_status st = read_magnitude(text + negative, &m);
    int64_t v = 0;
    if (st == NUMBER_OK) {
        /* |INT64_MIN| = INT64_MAX + 1 fits in m; anything larger does not. */
        if (negative && m <= (uint64_t)INT64_MAX + 1)
            v = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
        else if (!negative && m <= (uint64_t)INT64_MAX)
            v = (int64_t)m;
        else
            st = NUMBER_RANGE;
    }
    if (st == NUMBER_OK && (v < lo || v > hi))
        st = NUMBER_RANGE;
    if (st != NUMBER_OK)
        return fail(what, text, st, range, err, cap);
    *value = v;
    return 0;
}
