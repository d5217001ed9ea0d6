/* args.c - parses argument specs (`cured model --arg`) and launch shapes, and
 * fills the buffers they describe.
 *
 * defines: cured_model_arg_parse, cured_model_arg_elem_size, cured_model_buffer_bytes,
 *          cured_model_arg_type_parse,
 *          cured_model_arg_type_name, cured_model_arg_fill, cured_model_arg_read_file,
 *          cured_model_dim3_parse
 *
 * The grammar is in include/cured_model_host.h; its numbers are
 * numbers.h's (decimal or 0x hex, never octal). Every error is one line naming what was
 * wrong and quoting the spec, because it ends up on the user's terminal.
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model_host.h"
#include "numbers.h"
#include "ptx.h"

#include "ref_fill.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TYPE_LIST "f32 f64 s8 s16 s32 s64 u8 u16 u32 u64"

// ----------------------------------------------------------------------------
// Types

static const struct {
    const char *name;
    ptx_type type;
} elem_types[] = {
    {"f32", PTX_T_F32}, {"f64", PTX_T_F64},
    {"s8", PTX_T_S8},   {"s16", PTX_T_S16}, {"s32", PTX_T_S32}, {"s64", PTX_T_S64},
    {"i8", PTX_T_S8},   {"i16", PTX_T_S16}, {"i32", PTX_T_S32}, {"i64", PTX_T_S64},
    {"u8", PTX_T_U8},   {"u16", PTX_T_U16}, {"u32", PTX_T_U32}, {"u64", PTX_T_U64},
};
#define N_ELEM_TYPES (sizeof elem_types / sizeof elem_types[0])

int cured_model_arg_type_parse(const char *name, int *type)
{
    for (size_t i = 0; i < N_ELEM_TYPES; i++) {
        if (strcmp(elem_types[i].name, name) == 0) {
            *type = elem_types[i].type;
            return 0;
        }
    }
    return -1;
}

const char *cured_model_arg_type_name(int type)
{
    for (size_t i = 0; i < N_ELEM_TYPES; i++)
        if ((int)elem_types[i].type == type)
            return elem_types[i].name;
    return "?";
}

unsigned cured_model_arg_elem_size(int type)
{
    switch (type) {
    case PTX_T_S8: case PTX_T_U8: return 1;
    case PTX_T_S16: case PTX_T_U16: return 2;
    case PTX_T_S32: case PTX_T_U32: case PTX_T_F32: return 4;
    case PTX_T_S64: case PTX_T_U64: case PTX_T_F64: return 8;
    default: return 0;
    }
}

int cured_model_buffer_bytes(const char *name, const char *type, uint64_t count,
                             unsigned elem_size, uint64_t *bytes, char *err,
                             size_t cap)
{
    /* count <= MAX / size is the overflow-safe form of count * size <= MAX */
    if (elem_size == 0 || count > CURED_MODEL_MAX_BUFFER_BYTES / elem_size) {
        snprintf(err, cap, "%s%s%s[%llu] is %.4g GiB, over the model's 4 GiB per "
                 "buffer", name, name[0] ? "=" : "", type, (unsigned long long)count,
                 (double)count * elem_size / (double)(1u << 30));
        return -1;
    }
    *bytes = count * elem_size;
    return 0;
}

static int is_float(ptx_type t) { return t == PTX_T_F32 || t == PTX_T_F64; }
static int is_signed(ptx_type t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

// ----------------------------------------------------------------------------
// Parsing

/* Writes "<message> in '<spec>'" into err; returns -1. */
static int spec_error(char *err, size_t cap, const char *spec, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int spec_error(char *err, size_t cap, const char *spec, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, cap, "%s in --arg '%s'", what, spec);
    return -1;
}

/* Parses a scalar VALUE of `type` into *bits. 0 on success, else -1 with a
 * reason in why (integers: numbers.h's line, "VALUE 'TEXT': reason"). */
static int parse_scalar(const char *s, ptx_type type, uint64_t *bits,
                        char *why, size_t cap)
{
    unsigned size = cured_model_arg_elem_size(type);
    if (is_float(type)) {
        char *end;
        if (*s == '\0') {
            snprintf(why, cap, "value '': no number");
            return -1;
        }
        double d = strtod(s, &end);
        if (isspace((unsigned char)*s) || *end != '\0') {
            snprintf(why, cap, "value '%s': not a number", s);
            return -1;
        }
        if (type == PTX_T_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            memcpy(bits, &d, 8);
        }
        return 0;
    }
    if (is_signed(type)) {
        int64_t lo = size == 8 ? INT64_MIN : -((int64_t)1 << (size * 8 - 1));
        int64_t hi = size == 8 ? INT64_MAX : ((int64_t)1 << (size * 8 - 1)) - 1;
        int64_t x;
        if (cured_number_signed("value", s, lo, hi, &x, why, cap) != 0)
            return -1;
        uint64_t u = (uint64_t)x;
        *bits = size == 8 ? u : u & (((uint64_t)1 << (size * 8)) - 1);
        return 0;
    }
    uint64_t hi = size == 8 ? UINT64_MAX : ((uint64_t)1 << (size * 8)) - 1;
    return cured_number_unsigned("value", s, 0, hi, bits, why, cap);
}

/* Parses the INIT part of a buffer spec. 0 on success. */
static int parse_init(const char *init, cured_model_arg *spec, const char *text,
                      char *err, size_t cap)
{
    if (strcmp(init, "ones") == 0)
        spec->init = CURED_MODEL_ARG_ONES;
    else if (strcmp(init, "iota") == 0)
        spec->init = CURED_MODEL_ARG_IOTA;
    else if (strcmp(init, "zeros") == 0)
        spec->init = CURED_MODEL_ARG_ZEROS;
    else if (strcmp(init, "uninit") == 0)
        spec->init = CURED_MODEL_ARG_UNINIT;
    else if (strcmp(init, "random") == 0)
        spec->init = CURED_MODEL_ARG_RANDOM;
    else if (strncmp(init, "random@", 7) == 0) {
        spec->init = CURED_MODEL_ARG_RANDOM;
        char why[200];
        if (cured_number_unsigned("SEED", init + 7, 0, UINT64_MAX, &spec->seed,
                                  why, sizeof why) != 0)
            return spec_error(err, cap, text, "%s", why);
    } else if (strncmp(init, "file:", 5) == 0) {
        spec->init = CURED_MODEL_ARG_FILE;
        if (init[5] == '\0')
            return spec_error(err, cap, text, "missing path after 'file:'");
        if (strlen(init + 5) >= sizeof spec->path)
            return spec_error(err, cap, text, "path too long");
        strcpy(spec->path, init + 5);
    } else {
        return spec_error(err, cap, text,
                          "unknown INIT '%s' (random[@SEED] ones iota zeros "
                          "uninit file:PATH)", init);
    }
    return 0;
}

int cured_model_arg_parse(const char *text, cured_model_arg *spec, char *err, size_t cap)
{
    memset(spec, 0, sizeof *spec);
    spec->seed = CURED_MODEL_ARG_DEFAULT_SEED;
    if (*text == '\0')
        return spec_error(err, cap, text, "empty spec");

    /* NAME= when an '=' comes before the first ':' (a path may hold '='). */
    const char *rest = text;
    const char *eq = strchr(text, '='), *colon = strchr(text, ':');
    if (eq != NULL && (colon == NULL || eq < colon)) {
        size_t n = (size_t)(eq - text);
        if (n == 0)
            return spec_error(err, cap, text, "empty name before '='");
        if (n >= sizeof spec->name)
            return spec_error(err, cap, text, "name longer than %d characters",
                              CURED_MODEL_ARG_NAME_MAX - 1);
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)text[i];
            if (!(isalnum(c) || c == '_') || (i == 0 && isdigit(c)))
                return spec_error(err, cap, text,
                                  "bad name '%.*s' (letters, digits, _)",
                                  (int)n, text);
        }
        memcpy(spec->name, text, n);
        rest = eq + 1;
    }

    /* TYPE */
    size_t tn = strcspn(rest, "[:");
    char tname[16];
    if (tn == 0)
        return spec_error(err, cap, text, "missing TYPE");
    if (tn < sizeof tname)
        snprintf(tname, sizeof tname, "%.*s", (int)tn, rest);
    if (tn >= sizeof tname || cured_model_arg_type_parse(tname, &spec->type) != 0)
        return spec_error(err, cap, text, "unknown type '%.*s' (" TYPE_LIST ")",
                          (int)tn, rest);
    const char *p = rest + tn;

    if (*p == '[') {                     /* a buffer: [COUNT]:INIT */
        const char *close = strchr(p, ']');
        if (close == NULL)
            return spec_error(err, cap, text, "missing ']'");
        char num[32];
        size_t cn = (size_t)(close - p - 1);
        if (cn >= sizeof num)
            return spec_error(err, cap, text, "bad COUNT '%.*s'", (int)cn, p + 1);
        memcpy(num, p + 1, cn);
        num[cn] = '\0';
        char why[200];
        if (cn > 0 && cured_number_unsigned("COUNT", num, 1, UINT64_MAX, &spec->count,
                                            why, sizeof why) != 0)
            return spec_error(err, cap, text, "%s", why);
        uint64_t bytes;
        if (cured_model_buffer_bytes(spec->name, cured_model_arg_type_name(spec->type),
                                     spec->count, cured_model_arg_elem_size(spec->type),
                                     &bytes, why, sizeof why) != 0)
            return spec_error(err, cap, text, "%s", why);
        if (close[1] != ':')
            return spec_error(err, cap, text, "missing ':INIT' after ']'");
        spec->is_buffer = 1;
        if (parse_init(close + 2, spec, text, err, cap) != 0)
            return -1;
        if (cn == 0 && spec->init != CURED_MODEL_ARG_FILE)
            return spec_error(err, cap, text,
                              "missing COUNT (only file: may omit it)");
    } else if (*p == ':' && strncmp(p + 1, "file:", 5) == 0) {
        spec->is_buffer = 1;             /* NAME=TYPE:file:PATH */
        if (parse_init(p + 1, spec, text, err, cap) != 0)
            return -1;
    } else if (*p == ':') {              /* a scalar */
        char why[200];
        if (parse_scalar(p + 1, spec->type, &spec->bits, why, sizeof why) != 0)
            return spec_error(err, cap, text, "bad %s %s",
                              cured_model_arg_type_name(spec->type), why);
        return 0;
    } else {
        return spec_error(err, cap, text,
                          "expected NAME=TYPE[COUNT]:INIT or TYPE:VALUE");
    }
    if (spec->name[0] == '\0')
        return spec_error(err, cap, text, "a buffer needs a NAME= (x=f32[64]:random)");
    return 0;
}

int cured_model_dim3_parse(const char *text, const char *what, cured_model_dim3 *d,
                   char *err, size_t cap)
{
    uint32_t v[3] = {1, 1, 1};
    const char *p = text;
    for (int i = 0; i < 3; i++) {
        size_t len = strcspn(p, ",");
        char part[32], why[160];  /* why: unused, the line after bad: says it all */
        uint64_t x;
        if (len >= sizeof part)
            goto bad;
        memcpy(part, p, len);
        part[len] = '\0';
        if (cured_number_unsigned(what, part, 1, UINT32_MAX, &x, why, sizeof why) != 0)
            goto bad;
        v[i] = (uint32_t)x;
        if (p[len] == '\0') {
            d->x = v[0];
            d->y = v[1];
            d->z = v[2];
            return 0;
        }
        p += len + 1;
    }
bad:
    snprintf(err, cap, "bad %s '%s' (X[,Y,Z], each a whole number >= 1)", what, text);
    return -1;
}

// ----------------------------------------------------------------------------
// Filling

/* Stores the integer or float value of element i into data. */
static void store(void *data, uint64_t i, ptx_type type, int64_t ival, double fval)
{
    unsigned size = cured_model_arg_elem_size(type);
    uint8_t *dst = (uint8_t *)data + i * size;
    if (type == PTX_T_F32) {
        float f = (float)fval;
        memcpy(dst, &f, 4);
    } else if (type == PTX_T_F64) {
        memcpy(dst, &fval, 8);
    } else {
        uint64_t u = (uint64_t)ival;   /* little-endian low bytes */
        for (unsigned b = 0; b < size; b++)
            dst[b] = (uint8_t)(u >> (8 * b));
    }
}

void cured_model_arg_fill(const cured_model_arg *spec, void *data)
{
    /* random: src/reference's standard fill, the values the catalogue's
     * input, the bench and the tests use for the same seed */
    cured_ref_fill fill = cured_ref_fill_standard(spec->seed);
    ptx_type t = spec->type;
    for (uint64_t i = 0; i < spec->count; i++) {
        switch (spec->init) {
        case CURED_MODEL_ARG_RANDOM:
            if (t == PTX_T_F32)
                store(data, i, t, 0, cured_ref_fill_f32(&fill, i));
            else if (t == PTX_T_F64)
                store(data, i, t, 0, cured_ref_fill_f64(&fill, i));
            else if (is_signed(t))
                store(data, i, t, cured_ref_fill_signed(&fill, i), 0);
            else
                store(data, i, t, (int64_t)cured_ref_fill_unsigned(&fill, i), 0);
            break;
        case CURED_MODEL_ARG_ONES: store(data, i, t, 1, 1.0); break;
        case CURED_MODEL_ARG_IOTA: store(data, i, t, (int64_t)i, (double)i); break;
        case CURED_MODEL_ARG_ZEROS:
        case CURED_MODEL_ARG_UNINIT: store(data, i, t, 0, 0.0); break;
        case CURED_MODEL_ARG_FILE: return;
        }
    }
}

void *cured_model_arg_read_file(const cured_model_arg *spec, uint64_t *bytes,
                        char *err, size_t cap)
{
    unsigned size = cured_model_arg_elem_size(spec->type);
    struct stat st;
    if (stat(spec->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "'%s' for --arg %s is a directory, not a file of values",
                 spec->path, spec->name);
        return NULL;
    }
    FILE *f = fopen(spec->path, "rb");
    if (f == NULL) {
        snprintf(err, cap, "cannot read '%s' for --arg %s: %s", spec->path,
                 spec->name, strerror(errno));
        return NULL;
    }
    uint8_t *data = NULL;
    size_t len = 0, capacity = 0;
    for (;;) {
        if (len == capacity) {
            capacity = capacity ? capacity * 2 : 65536;
            if (capacity > CURED_MODEL_MAX_BUFFER_BYTES) {
                snprintf(err, cap, "'%s' is over the model's 4 GiB per buffer",
                         spec->path);
                goto fail;
            }
            uint8_t *grown = realloc(data, capacity);
            if (grown == NULL) {
                snprintf(err, cap, "out of memory reading '%s'", spec->path);
                goto fail;
            }
            data = grown;
        }
        size_t got = fread(data + len, 1, capacity - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, cap, "error reading '%s'", spec->path);
        goto fail;
    }
    fclose(f);
    f = NULL;
    if (len == 0 || len % size != 0) {
        snprintf(err, cap, "'%s' has %zu bytes, not a whole number (>= 1) of "
                 "%s elements of %u bytes", spec->path, len,
                 cured_model_arg_type_name(spec->type), size);
        goto fail;
    }
    if (spec->count != 0 && len / size != spec->count) { /* no count * size: it may wrap */
        snprintf(err, cap, "'%s' has %zu bytes but %s=%s[%llu] needs %.0f",
                 spec->path, len, spec->name, cured_model_arg_type_name(spec->type),
                 (unsigned long long)spec->count, (double)spec->count * size);
        goto fail;
    }
    *bytes = len;
    return data;
fail:
    if (f != NULL)
        fclose(f);
    free(data);
    return NULL;
}
