/* sass.c - reads nvdisasm/cuobjdump text into functions of decoded
 * instructions with their line annotations (the format is in sass.h).
 *
 * defines: sass_parse, sass_module_free, sass_find_function
 *
 * The text is read line by line. A function starts at `.type NAME,@function`
 * (nvdisasm) or `Function : NAME` (cuobjdump); an instruction line is
 * an offset between comment marks, then the instruction up to its `;`; a
 * `//## File "PATH", line N` annotation applies to the instructions after
 * it; a label (`NAME:`) starts a new straight-line stretch.
 */
#include "sass.h"
#include "grow.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Caps, so that hostile input cannot exhaust memory. */
#define MAX_INSTRUCTIONS (1 << 22)
#define MAX_FUNCTIONS (1 << 16)
#define MAX_FILES 4096
#define MAX_LINE 8192

/* The reader's state. */
typedef struct reader {
    sass_module *m;
    sass_error *err;
    uint32_t line;          /* the current text line */
    int function;           /* the current function, -1 before the first */
    size_t capacity;        /* of the current function's code */
    size_t fcapacity;       /* of m->functions */
    uint16_t file;          /* the current annotation */
    uint32_t src_line;
    int new_block;          /* a label or jump since the last instruction */
    char label[64];         /* the last label, "" when an instruction came
                               after it (or it did not fit) */
    int collective;         /* inside WARPSYNC.COLLECTIVE .. ENDCOLLECTIVE */
    uint32_t block;
    long total;             /* instructions read */
} reader;

/* Records the first error as "line N: ...". Returns -1. */
static int fail(reader *r, const char *fmt, ...)
{
    if (r->err != NULL) {
        char msg[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        r->err->line = r->line;
        snprintf(r->err->message, sizeof r->err->message, "line %u: %s",
                 (unsigned)r->line, msg);
    }
    return -1;
}

/* A malloc'ed copy of s[0..n). */
static char *copy_of(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c != NULL) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* Starts function `name` (n bytes). Returns 0 or -1. */
static int start_function(reader *r, const char *name, size_t n)
{
    sass_module *m = r->m;
    if (n == 0)
        return fail(r, "a function without a name");
    if (m->nfunctions == MAX_FUNCTIONS)
        return fail(r, "more than %d functions", MAX_FUNCTIONS);
    if (cured_grow((void **)&m->functions, &r->fcapacity, (size_t)m->nfunctions + 1,
                   sizeof *m->functions) != 0)
        return fail(r, "out of memory");
    sass_function *f = &m->functions[m->nfunctions];
    memset(f, 0, sizeof *f);
    f->name = copy_of(name, n);
    if (f->name == NULL)
        return fail(r, "out of memory");
    r->function = m->nfunctions++;
    r->capacity = 0;
    r->file = 0;
    r->src_line = 0;
    r->block = 0;
    r->new_block = 0;
    r->label[0] = '\0';
    r->collective = 0;
    return 0;
}

/* The index of file `path` (n bytes), added when new; 0 on failure. */
static uint16_t file_index(reader *r, const char *path, size_t n)
{
    sass_module *m = r->m;
    for (int i = 1; i < m->nfiles; i++)
        if (strlen(m->files[i]) == n && memcmp(m->files[i], path, n) == 0)
            return (uint16_t)i;
    if (m->nfiles == MAX_FILES) {
        fail(r, "more than %d files in line annotations", MAX_FILES - 1);
        return 0;
    }
    int first = m->nfiles == 0;      /* index 0 means "no file" */
    char **grown = realloc(m->files, (size_t)(m->nfiles + 1 + first) * sizeof *grown);
    if (grown == NULL) {
        fail(r, "out of memory");
        return 0;
    }
    m->files = grown;
    if (first)
        m->files[m->nfiles++] = NULL;
    m->files[m->nfiles] = copy_of(path, n);
    if (m->files[m->nfiles] == NULL) {
        fail(r, "out of memory");
        return 0;
    }
    if (n == 17 && memcmp(path, ".nv_debug_ptx_txt", 17) == 0)
        m->ptx_file = m->nfiles;
    return (uint16_t)m->nfiles++;
}

/* `//## File "PATH", line N[ inlined at ...]`: the innermost location
 * applies from here on. s is past the "//##". Returns 0 or -1. */
static int read_annotation(reader *r, const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    if (end - s < 6 || memcmp(s, "File \"", 6) != 0)
        return 0;                    /* some other annotation: not ours */
    s += 6;
    const char *path = s;
    while (s < end && *s != '"')
        s++;
    if (s >= end)
        return fail(r, "line annotation without its closing quote");
    size_t n = (size_t)(s - path);
    s++;
    if (end - s < 7 || memcmp(s, ", line ", 7) != 0 ||
        !isdigit((unsigned char)s[7]))
        return fail(r, "line annotation without ', line N'");
    s += 7;
    unsigned long line = 0;
    while (s < end && isdigit((unsigned char)*s) && line < 100000000ul)
        line = line * 10 + (unsigned long)(*s++ - '0');
    uint16_t f = file_index(r, path, n);
    if (f == 0)
        return -1;
    r->file = f;
    r->src_line = (uint32_t)line;
    return 0;
}

/* 1 when s[0..n) contains the string want. */
static int contains(const char *s, size_t n, const char *want)
{
    size_t k = strlen(want);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, want, k) == 0)
            return 1;
    return 0;
}

/* An instruction line: s points at its offset comment. Returns 0 or -1. */
static int read_instruction(reader *r, const char *s, const char *end)
{
    const char *p = s + 2;
    uint32_t offset = 0;
    int digits = 0;
    while (p < end && isxdigit((unsigned char)*p) && digits < 9) {
        int c = tolower((unsigned char)*p++);
        offset = offset * 16 + (uint32_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
        digits++;
    }
    if (digits == 0 || digits > 8 || end - p < 2 || p[0] != '*' || p[1] != '/')
        return fail(r, "malformed instruction offset");
    p += 2;
    const char *semi = memchr(p, ';', (size_t)(end - p));
    if (semi == NULL)
        return fail(r, "instruction without its ';'");
    if (r->function < 0)
        return fail(r, "an instruction outside any function");
    if (r->total == MAX_INSTRUCTIONS)
        return fail(r, "more than %d instructions", MAX_INSTRUCTIONS);
    sass_function *f = &r->m->functions[r->function];
    if (cured_grow((void **)&f->code, &r->capacity, (size_t)f->ncode + 1,
                   sizeof *f->code) != 0)
        return fail(r, "out of memory");
    sass_instr *ins = &f->code[f->ncode];
    memset(ins, 0, sizeof *ins);
    char why[160];
    if (sass_decode(p, (size_t)(semi - p), ins, why, sizeof why) != 0)
        return fail(r, "%s", why);
    if (r->new_block) {
        r->block++;
        r->new_block = 0;
    }
    ins->offset = offset;
    ins->text_line = r->line;
    ins->file = r->file;
    ins->line = r->src_line;
    ins->block = r->block;
    if (ins->line)
        r->m->has_lines = 1;
    if (ins->kind == SASS_K_CONTROL)
        r->new_block = 1;
    if (r->label[0] && strncmp(ins->opcode, "BRA", 3) == 0 &&
        (ins->opcode[3] == '\0' || ins->opcode[3] == '.')) {
        char want[80];
        snprintf(want, sizeof want, "(%s)", r->label);
        ins->self_loop = contains(p, (size_t)(semi - p), want);
    }
    r->label[0] = '\0';
    if (strncmp(ins->opcode, "ENDCOLLECTIVE", 13) == 0)
        r->collective = 0;
    ins->fallback = (uint8_t)r->collective;
    if (strncmp(ins->opcode, "WARPSYNC.COLLECTIVE", 19) == 0)
        r->collective = 1;
    f->ncode++;
    r->total++;
    return 0;
}

/* 1 when s[0..n) is a label: an identifier (letters, digits, _ . $) then ':'. */
static int is_label(const char *s, size_t n)
{
    if (n < 2 || s[n - 1] != ':')
        return 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' && s[i] != '$')
            return 0;
    return 1;
}

/* A label s[0..n) (with its ':'): a new straight-line stretch starts,
 * and a BRA right after it to it is the function's closing loop. */
static void remember_label(reader *r, const char *s, size_t n)
{
    r->new_block = 1;
    n--;                             /* the ':' */
    if (n < sizeof r->label) {
        memcpy(r->label, s, n);
        r->label[n] = '\0';
    } else {
        r->label[0] = '\0';
    }
}

/* `.type NAME,@function`: NAME, or NULL when the directive is another. */
static const char *type_function(const char *s, const char *end, size_t *n)
{
    if (end - s < 5 || memcmp(s, ".type", 5) != 0 || !isspace((unsigned char)s[5]))
        return NULL;
    s += 5;
    while (s < end && isspace((unsigned char)*s))
        s++;
    const char *name = s;
    while (s < end && *s != ',' && !isspace((unsigned char)*s))
        s++;
    *n = (size_t)(s - name);
    if (end - s < 10 || memcmp(s, ",@function", 10) != 0)
        return NULL;
    return name;
}

/* One line, without its newline. Returns 0 or -1. */
static int read_line(reader *r, const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    size_t n = (size_t)(end - s);
    if (n == 0)
        return 0;
    if (n > MAX_LINE)
        return fail(r, "a line of more than %d characters", MAX_LINE);
    if (n >= 2 && s[0] == '/' && s[1] == '*') {
        if (n >= 3 && isxdigit((unsigned char)s[2]))
            return read_instruction(r, s, end);
        return 0;                    /* cuobjdump's encoding comment */
    }
    if (n >= 4 && memcmp(s, "//##", 4) == 0)
        return read_annotation(r, s + 4, end);
    if (n >= 2 && s[0] == '/' && s[1] == '/')
        return 0;
    if (s[0] == '.') {
        size_t nn;
        const char *name = type_function(s, end, &nn);
        if (name != NULL)
            return start_function(r, name, nn);
        if (strspn(s, ".") == n) {   /* cuobjdump's end of function */
            r->function = -1;
            return 0;
        }
        if (is_label(s, n))
            remember_label(r, s, n);
        return 0;                    /* another directive */
    }
    if (n >= 10 && memcmp(s, "Function :", 10) == 0) {
        const char *name = s + 10;
        while (name < end && isspace((unsigned char)*name))
            name++;
        return start_function(r, name, (size_t)(end - name));
    }
    if (is_label(s, n)) {
        remember_label(r, s, n);
        return 0;
    }
    if (r->function < 0)
        return 0;                    /* headers between functions */
    return fail(r, "unexpected text '%.40s'", s);
}

sass_module *sass_parse(const char *text, size_t len, sass_error *err)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.function = -1;
    r.err = err;
    if (err != NULL)
        memset(err, 0, sizeof *err);
    r.m = calloc(1, sizeof *r.m);
    if (r.m == NULL) {
        fail(&r, "out of memory");
        return NULL;
    }
    if (text == NULL)
        len = 0;
    size_t at = 0;
    while (at < len) {
        r.line++;
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (memchr(text + at, '\0', end - at) != NULL ||
            read_line(&r, text + at, text + end) != 0) {
            if (memchr(text + at, '\0', end - at) != NULL)
                fail(&r, "a NUL byte in the text");
            sass_module_free(r.m);
            return NULL;
        }
        at = end + 1;
    }
    if (r.m->nfunctions == 0) {
        r.line = 0;
        fail(&r, "no function (expected nvdisasm or cuobjdump -sass output)");
        sass_module_free(r.m);
        return NULL;
    }
    return r.m;
}

void sass_module_free(sass_module *module)
{
    if (module == NULL)
        return;
    for (int i = 0; i < module->nfunctions; i++) {
        free(module->functions[i].name);
        free(module->functions[i].code);
    }
    free(module->functions);
    for (int i = 1; i < module->nfiles; i++)
        free(module->files[i]);
    free(module->files);
    free(module);
}

int sass_find_function(const sass_module *module, const char *name)
{
    for (int i = 0; i < module->nfunctions; i++)
        if (strcmp(module->functions[i].name, name) == 0)
            return i;
    return -1;
}
