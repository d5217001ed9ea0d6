/* npy.c - the .npy and raw reader of `cured sum`.
 *
 * defines: npy_read, npy_free
 *
 * The .npy format: the magic "\x93NUMPY", a major and a minor version byte,
 * the header's length (2 bytes little-endian in version 1, 4 in 2 and 3),
 * then the header, a Python dict literal such as
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces to a multiple of 64 bytes, then the data. Only what a
 * reduction needs is read: the element type, the order, the element count.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */

#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* The text after 'key': in the header, spaces skipped, or NULL. */
static const char *value_of(const char *header, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *p = strstr(header, quoted);
    if (p == NULL)
        return NULL;
    p += strlen(quoted);
    while (*p == ' ')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

/* Parses the descr string, e.g. '<f4', into dtype and byte order. */
static int parse_descr(const char *v, cured_dtype *dtype, int *swap, char *err,
                       size_t size)
{
    char d[16];
    if (v == NULL || (*v != '\'' && *v != '"'))
        return fail(err, size, "the .npy header has no 'descr' string");
    const char *end = strchr(v + 1, *v);
    if (end == NULL || (size_t)(end - v - 1) >= sizeof d)
        return fail(err, size, "the .npy header's 'descr' is malformed");
    memcpy(d, v + 1, (size_t)(end - v - 1));
    d[end - v - 1] = '\0';
    static const struct {
        const char *code;
        cured_dtype dtype;
    } codes[] = {{"f2", CURED_F16}, {"f4", CURED_F32}, {"f8", CURED_F64},
                 {"i4", CURED_I32}, {"i8", CURED_I64}, {"u4", CURED_U32},
                 {"u8", CURED_U64}};
    if ((d[0] == '<' || d[0] == '>' || d[0] == '=') && strlen(d) == 3)
        for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
            if (strcmp(d + 1, codes[i].code) == 0) {
                *dtype = codes[i].dtype;
                *swap = d[0] == '>';
                return 0;
            }
    return fail(err, size,
                "unsupported .npy dtype '%s' (f2 f4 f8 i4 i8 u4 u8; bf16 as a raw file with --dtype bf16)",
                d);
}

/* The product of the shape tuple, e.g. "(3, 4)" -> 12, "()" -> 1. */
static int parse_shape(const char *v, uint64_t *n, char *err, size_t size)
{
    if (v == NULL || *v != '(')
        return fail(err, size, "the .npy header has no 'shape' tuple");
    uint64_t count = 1;
    const char *p = v + 1;
    for (;;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        errno = 0;
        unsigned long long dim = strtoull(p, &end, 10);
        if (end == p || errno != 0 || *p == '-')
            return fail(err, size, "the .npy header's 'shape' is malformed");
        if (dim != 0 && count > UINT64_MAX / dim)
            return fail(err, size, "the .npy shape overflows 64 bits");
        count *= dim;
        p = end;
        while (*p == 'L')
            p++;
    }
    *n = count;
    return 0;
}

static void byteswap(void *data, uint64_t n, size_t size)
{
    unsigned char *p = data;
    for (uint64_t i = 0; i < n; i++, p += size)
        for (size_t a = 0, b = size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

int npy_read(const char *path, int raw_dtype, npy_array *out, char *err,
             size_t err_size)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return fail(err, err_size, "cannot open '%s': %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return fail(err, err_size, "cannot seek in '%s'", path);
    }
    long long file_size = ftell(f);
    rewind(f);
    unsigned char magic[10] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    int is_npy = got >= 6 && memcmp(magic, "\x93NUMPY", 6) == 0;
    uint64_t offset = 0, n = 0;
    cured_dtype dtype = CURED_F32;
    int swap = 0;
    if (is_npy) {
        if (got < 10) {
            fclose(f);
            return fail(err, err_size, "'%s': truncated .npy header", path);
        }
        int major = magic[6];
        uint64_t hlen, hstart;
        if (major == 1) {
            hlen = magic[8] | (uint64_t)magic[9] << 8;
            hstart = 10;
        } else if (major == 2 || major == 3) {
            unsigned char more[2];
            if (fread(more, 1, 2, f) != 2) {
                fclose(f);
                return fail(err, err_size, "'%s': truncated .npy header", path);
            }
            hlen = magic[8] | (uint64_t)magic[9] << 8 | (uint64_t)more[0] << 16 |
                   (uint64_t)more[1] << 24;
            hstart = 12;
        } else {
            fclose(f);
            return fail(err, err_size, "'%s': unsupported .npy version %d", path, major);
        }
        if ((long long)(hstart + hlen) > file_size || hlen > (1u << 20)) {
            fclose(f);
            return fail(err, err_size, "'%s': truncated .npy header", path);
        }
        char *header = malloc(hlen + 1);
        if (header == NULL || fseek(f, (long)hstart, SEEK_SET) != 0 ||
            fread(header, 1, hlen, f) != hlen) {
            free(header);
            fclose(f);
            return fail(err, err_size, "'%s': cannot read the .npy header", path);
        }
        header[hlen] = '\0';
        const char *fo = value_of(header, "fortran_order");
        int rc = 0;
        char why[200];
        if (header[0] != '{')
            rc = fail(why, sizeof why, "the .npy header is not a dict");
        else if (parse_descr(value_of(header, "descr"), &dtype, &swap, why, sizeof why) != 0 ||
                 parse_shape(value_of(header, "shape"), &n, why, sizeof why) != 0)
            rc = -1;
        else if (fo == NULL || (strncmp(fo, "False", 5) != 0 && strncmp(fo, "True", 4) != 0))
            rc = fail(why, sizeof why, "the .npy header has no 'fortran_order'");
        else if (strncmp(fo, "True", 4) == 0)
            rc = fail(why, sizeof why, "Fortran-order arrays are not supported (save it in C order)");
        free(header);
        if (rc != 0) {
            fclose(f);
            return fail(err, err_size, "'%s': %s", path, why);
        }
        offset = hstart + hlen;
    } else {
        if (raw_dtype < 0) {
            fclose(f);
            return fail(err, err_size,
                        "'%s' is not a .npy file (no \\x93NUMPY magic): give --dtype for raw data",
                        path);
        }
        dtype = (cured_dtype)raw_dtype;
        size_t size = cured_dtype_size(dtype);
        if (file_size % (long long)size != 0) {
            fclose(f);
            return fail(err, err_size, "'%s': %lld bytes is not a whole number of %s elements",
                        path, file_size, cured_dtype_name(dtype));
        }
        n = (uint64_t)file_size / size;
    }
    size_t size = cured_dtype_size(dtype);
    if (n > (uint64_t)(file_size - (long long)offset) / size) {
        fclose(f);
        return fail(err, err_size, "'%s': truncated: the header says %llu elements (%llu bytes), the file holds %lld",
                    path, (unsigned long long)n, (unsigned long long)(n * size),
                    file_size - (long long)offset);
    }
    void *data = NULL;
    if (posix_memalign(&data, 16, n * size + 16) != 0) {
        fclose(f);
        return fail(err, err_size, "out of memory for %llu elements", (unsigned long long)n);
    }
    if (fseek(f, (long)offset, SEEK_SET) != 0 || fread(data, size, n, f) != n) {
        free(data);
        fclose(f);
        return fail(err, err_size, "'%s': read failed", path);
    }
    fclose(f);
    if (swap)
        byteswap(data, n, size);
    out->dtype = dtype;
    out->n = n;
    out->data = data;
    out->is_npy = is_npy;
    return 0;
}

void npy_free(npy_array *a)
{
    if (a != NULL) {
        free(a->data);
        a->data = NULL;
    }
}
