/* ncu_csv.c - Nsight Compute's CSV (`ncu --csv`), read into kernels and
 * their metric values: the raw page and the details page
 * (cured_model_host.h says what each looks like).
 *
 * defines: cured_model_ncu_report_parse, cured_model_ncu_report_free,
 *          cured_model_ncu_values, cured_model_ncu_find
 */
#include "cured_model_host.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 4096         /* columns of one row */
#define MAX_FIELD 4096          /* bytes of one field */

/* One CSV row: fields[i] point into buf. */
typedef struct csv_row {
    char *buf;
    char **fields;
    int n;
} csv_row;

static void row_free(csv_row *r)
{
    free(r->buf);
    free(r->fields);
    memset(r, 0, sizeof *r);
}

static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* Splits line s[0..n) into quoted or plain comma-separated fields ("" in
 * a quoted field is one quote). Returns 0, or -1 with err for an
 * unterminated quote, too many fields or out of memory. */
static int split_row(const char *s, size_t n, unsigned line, csv_row *r, char *err,
                     size_t cap)
{
    memset(r, 0, sizeof *r);
    r->buf = malloc(n + 1);
    r->fields = malloc(MAX_FIELDS * sizeof *r->fields);
    if (r->buf == NULL || r->fields == NULL) {
        row_free(r);
        return fail(err, cap, "out of memory");
    }
    size_t i = 0, o = 0;
    for (;;) {
        if (r->n == MAX_FIELDS) {
            row_free(r);
            return fail(err, cap, "line %u: more than %d fields", line, MAX_FIELDS);
        }
        r->fields[r->n++] = r->buf + o;
        if (i < n && s[i] == '"') {
            i++;
            for (;;) {
                if (i >= n) {
                    row_free(r);
                    return fail(err, cap, "line %u: unterminated quote", line);
                }
                if (s[i] == '"') {
                    if (i + 1 < n && s[i + 1] == '"') {
                        r->buf[o++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                r->buf[o++] = s[i++];
            }
            while (i < n && s[i] != ',')
                i++;                         /* text after the closing quote */
        } else {
            while (i < n && s[i] != ',')
                r->buf[o++] = s[i++];
        }
        r->buf[o++] = '\0';
        if (i >= n)
            break;
        i++;                                 /* the comma */
    }
    return 0;
}

/* The index of the field named `name` in the header, or -1. */
static int column(const csv_row *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (strcmp(h->fields[i], name) == 0)
            return i;
    return -1;
}

/* Parses a number with thousands separators ("3,072", "0.84", "1e3").
 * Returns 1 with *v, 0 when the text is not one number. */
static int parse_number(const char *t, double *v)
{
    char buf[64];
    size_t o = 0;
    while (isspace((unsigned char)*t))
        t++;
    if (*t == '\0')
        return 0;
    for (; *t && o + 1 < sizeof buf; t++)
        if (*t != ',')
            buf[o++] = *t;
    while (o > 0 && isspace((unsigned char)buf[o - 1]))
        o--;
    buf[o] = '\0';
    char *end;
    *v = strtod(buf, &end);
    return end != buf && *end == '\0';
}

/* The factor of a unit's scale prefix: "Kinst" 1e3, "Msector" 1e6 ... 1
 * for a unit without one. */
static double unit_scale(const char *unit)
{
    if (unit == NULL || unit[0] == '\0' || unit[1] == '\0' || !islower((unsigned char)unit[1]))
        return 1.0;
    switch (unit[0]) {
    case 'K': return 1e3;
    case 'M': return 1e6;
    case 'G': return 1e9;
    case 'T': return 1e12;
    default: return 1.0;
    }
}

/* Parses "(4, 2, 1)" into *d (0s when it is not that). */
static void parse_dim3(const char *t, cured_model_dim3 *d)
{
    unsigned x = 0, y = 0, z = 0;
    if (t != NULL && sscanf(t, " ( %u , %u , %u )", &x, &y, &z) == 3) {
        d->x = x;
        d->y = y;
        d->z = z;
    }
}

/* Adds metric = v to k. Returns 0, or -1 out of memory. */
static int add_value(cured_model_ncu_kernel *k, const char *metric, double v)
{
    /* capacity: 32, then doubling (full at 32, 64, 128 ...) */
    if (k->nvalues == 0 || (k->nvalues >= 32 && (k->nvalues & (k->nvalues - 1)) == 0)) {
        int cap = k->nvalues ? 2 * k->nvalues : 32;
        cured_model_ncu_value *grown = realloc(k->values, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        k->values = grown;
    }
    cured_model_ncu_value *e = &k->values[k->nvalues++];
    snprintf(e->metric, sizeof e->metric, "%s", metric);
    e->value = v;
    return 0;
}

/* Adds a cell's value(s) for metric: one number, or an instanced list of
 * "OPCODE: number" pairs (any separators), each as "metric [OPCODE]".
 * Text that is neither (n/a, empty) adds nothing. Returns 0, or -1 out
 * of memory. */
static int add_cell(cured_model_ncu_kernel *k, const char *metric, const char *cell,
                    const char *unit)
{
    double v;
    if (parse_number(cell, &v))
        return add_value(k, metric, v * unit_scale(unit));
    const char *p = cell;
    const char *paren = strchr(cell, '(');
    if (paren != NULL && paren > cell) {
        /* "8 (8)", "1940 (BAR: 8; ...)": the total, then its instances */
        char head[64];
        size_t n = (size_t)(paren - cell) < sizeof head ? (size_t)(paren - cell)
                                                        : sizeof head - 1;
        memcpy(head, cell, n);
        head[n] = '\0';
        if (parse_number(head, &v)) {
            if (add_value(k, metric, v * unit_scale(unit)) != 0)
                return -1;
            p = paren;
        }
    }
    while (*p) {
        if (!isupper((unsigned char)*p) || (p > cell && isalnum((unsigned char)p[-1]))) {
            p++;
            continue;
        }
        const char *name = p;
        while (isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' ||
               *p == '.')
            p++;
        size_t nlen = (size_t)(p - name);
        const char *q = p;
        while (*q && !isdigit((unsigned char)*q) && !isalpha((unsigned char)*q))
            q++;                             /* ": ", ") ", " = " */
        if (!isdigit((unsigned char)*q) || nlen >= 40)
            continue;
        char num[48];
        size_t o = 0;
        while ((isdigit((unsigned char)*q) || *q == ',' || *q == '.') && o + 1 < sizeof num) {
            if (*q == ',' && !isdigit((unsigned char)q[1]))
                break;                       /* a list's comma, not thousands */
            num[o++] = *q++;
        }
        num[o] = '\0';
        char full[128];
        snprintf(full, sizeof full, "%s [%.*s]", metric, (int)nlen, name);
        if (parse_number(num, &v) && add_value(k, full, v) != 0)
            return -1;
        p = q;
    }
    return 0;
}

/* The kernel with ncu ID `id`, added at the end when new; NULL out of
 * memory. */
static cured_model_ncu_kernel *kernel_of(cured_model_ncu_report *r, const char *id)
{
    for (int i = 0; i < r->nkernels; i++)
        if (strcmp(r->kernels[i].id, id) == 0)
            return &r->kernels[i];
    cured_model_ncu_kernel *grown =
        realloc(r->kernels, (size_t)(r->nkernels + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    r->kernels = grown;
    cured_model_ncu_kernel *k = &r->kernels[r->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->id, sizeof k->id, "%s", id);
    return k;
}

/* 1 when t is a whole non-negative integer (ncu's ID). */
static int is_id(const char *t)
{
    if (*t == '\0')
        return 0;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t))
            return 0;
    return 1;
}

/* Fills a kernel's name and shape from row d (header h). */
static void kernel_info(cured_model_ncu_kernel *k, const csv_row *h, const csv_row *d)
{
    int c = column(h, "Kernel Name");
    if (c >= 0 && c < d->n)
        snprintf(k->name, sizeof k->name, "%s", d->fields[c]);
    if ((c = column(h, "Grid Size")) >= 0 && c < d->n)
        parse_dim3(d->fields[c], &k->grid);
    if ((c = column(h, "Block Size")) >= 0 && c < d->n)
        parse_dim3(d->fields[c], &k->block);
}

/* The columns before the metrics in the raw page (not metrics). */
static int info_column(const char *name)
{
    static const char *const info[] = {"ID", "Process ID", "Process Name", "Host Name",
        "Kernel Name", "Kernel Time", "Context", "Stream", "Block Size", "Grid Size",
        "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value",
        "Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type",
        "Estimated Speedup"};
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++)
        if (strcmp(name, info[i]) == 0)
            return 1;
    return name[0] == '\0';
}

int cured_model_ncu_report_parse(const char *text, size_t len, cured_model_ncu_report *r,
                                 char *err, size_t cap)
{
    memset(r, 0, sizeof *r);
    csv_row header, units;
    memset(&header, 0, sizeof header);
    memset(&units, 0, sizeof units);
    int have_header = 0, have_units = 0, details = 0, rows = 0;
    int c_name = -1, c_unit = -1, c_value = -1;
    unsigned line = 0;
    size_t at = 0;
    int rc = 0;
    while (at < len && rc == 0) {
        line++;
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t n = end - at;
        const char *s = text + at;
        at = end + 1;
        while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' '))
            n--;
        if (n == 0 || s[0] != '"')
            continue;                        /* ncu's log, blank lines */
        if (n > MAX_FIELDS * (size_t)MAX_FIELD) {
            rc = fail(err, cap, "line %u: too long", line);
            break;
        }
        csv_row row;
        if (split_row(s, n, line, &row, err, cap) != 0) {
            rc = -1;
            break;
        }
        if (!have_header) {
            header = row;
            have_header = 1;
            if (column(&header, "ID") < 0) {
                rc = fail(err, cap, "line %u: no ID column: not the CSV of ncu --csv", line);
                break;
            }
            c_name = column(&header, "Metric Name");
            c_unit = column(&header, "Metric Unit");
            c_value = column(&header, "Metric Value");
            details = c_name >= 0 && c_value >= 0;
            continue;
        }
        int c_id = column(&header, "ID");
        if (c_id >= row.n || !is_id(row.fields[c_id])) {
            if (!details && !have_units) {   /* the raw page's units row */
                units = row;
                have_units = 1;
            } else {
                row_free(&row);
            }
            continue;
        }
        if (row.n != header.n) {
            rc = fail(err, cap, "line %u: %d fields where the header has %d", line, row.n,
                      header.n);
            row_free(&row);
            break;
        }
        cured_model_ncu_kernel *k = kernel_of(r, row.fields[c_id]);
        if (k == NULL) {
            rc = fail(err, cap, "out of memory");
            row_free(&row);
            break;
        }
        kernel_info(k, &header, &row);
        rows++;
        if (details) {
            if (add_cell(k, row.fields[c_name], row.fields[c_value],
                         c_unit >= 0 ? row.fields[c_unit] : NULL) != 0)
                rc = fail(err, cap, "out of memory");
        } else {
            for (int i = 0; i < header.n && rc == 0; i++)
                if (!info_column(header.fields[i]) &&
                    add_cell(k, header.fields[i], row.fields[i],
                             have_units && i < units.n ? units.fields[i] : NULL) != 0)
                    rc = fail(err, cap, "out of memory");
        }
        row_free(&row);
    }
    row_free(&header);
    row_free(&units);
    if (rc == 0 && rows == 0)
        rc = fail(err, cap, have_header ? "no kernel rows: ncu profiled no kernel"
                                        : "no CSV rows: not the CSV of ncu --csv");
    if (rc != 0)
        cured_model_ncu_report_free(r);
    return rc;
}

void cured_model_ncu_report_free(cured_model_ncu_report *r)
{
    for (int i = 0; i < r->nkernels; i++)
        free(r->kernels[i].values);
    free(r->kernels);
    memset(r, 0, sizeof *r);
}

int cured_model_ncu_values(const cured_model_ncu_kernel *k, const char *metric, double *lo,
                           double *hi)
{
    int n = 0;
    for (int i = 0; i < k->nvalues; i++) {
        if (strcmp(k->values[i].metric, metric) != 0)
            continue;
        double v = k->values[i].value;
        if (n == 0 || v < *lo)
            *lo = v;
        if (n == 0 || v > *hi)
            *hi = v;
        n++;
    }
    return n;
}

/* The identifier of a mangled C++ name (_Z17sequential_kernelIf... ->
 * sequential_kernel, 17 bytes at *id), or the name itself when it is not
 * mangled. Returns its length. */
static size_t base_name(const char *entry, const char **id)
{
    if (entry[0] == '_' && entry[1] == 'Z') {
        const char *p = entry + 2;
        if (*p == 'N')
            p++;                             /* a nested name: its first part */
        size_t n = 0;
        while (isdigit((unsigned char)*p))
            n = n * 10 + (size_t)(*p++ - '0');
        if (n > 0 && strlen(p) >= n) {
            *id = p;
            return n;
        }
    }
    *id = entry;
    return strlen(entry);
}

/* 1 when ncu's Kernel Name `name` is entry: the same text, or a demangled
 * name whose function is entry's identifier ("void sequential_kernel<float>
 * (const float *, ...)": the identifier, then '<' or '('). */
static int same_kernel(const char *name, const char *entry)
{
    if (strcmp(name, entry) == 0)
        return 1;
    const char *id;
    size_t n = base_name(entry, &id);
    for (const char *p = name; *p; p++) {
        if (strncmp(p, id, n) != 0)
            continue;
        int starts = p == name || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (starts && (p[n] == '<' || p[n] == '(' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

int cured_model_ncu_find(const cured_model_ncu_report *r, const char *entry,
                         cured_model_dim3 grid, cured_model_dim3 block, int *named)
{
    int found = -1, count = 0;
    for (int i = 0; i < r->nkernels; i++) {
        const cured_model_ncu_kernel *k = &r->kernels[i];
        if (!same_kernel(k->name, entry))
            continue;
        count++;
        int shaped = k->grid.x != 0 && k->block.x != 0;
        if (found < 0 &&
            (!shaped || (k->grid.x == grid.x && k->grid.y == grid.y && k->grid.z == grid.z &&
                         k->block.x == block.x && k->block.y == block.y &&
                         k->block.z == block.z)))
            found = i;
    }
    if (named != NULL)
        *named = count;
    return found;
}
