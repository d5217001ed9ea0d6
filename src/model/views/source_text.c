/* source_text.c - the text of a module's source lines (source_text.h).
 *
 * defines: source_text_new, source_text_line, source_text_free
 *
 * nvcc writes each .file as the absolute path it compiled, so a report run
 * where the kernel was built finds its .cu and headers; elsewhere the
 * files are missing and callers fall back to the PTX.
 */
#define _POSIX_C_SOURCE 200809L
#include "source_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SOURCE_MAX_BYTES ((long)64 << 20)

/* One file: its bytes and where each line starts. */
typedef struct source_file {
    int state;              /* 0 not read yet, 1 read, -1 unreadable */
    char *bytes;
    size_t len;
    size_t *starts;         /* starts[k]: offset of line k + 1 */
    uint32_t nlines;
} source_file;

struct source_text {
    const cured_model_module *module;
    source_file *files;     /* module->nfiles */
};

source_text *source_text_new(const cured_model_module *module)
{
    source_text *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->module = module;
    if (module->nfiles > 0) {
        s->files = calloc((size_t)module->nfiles, sizeof *s->files);
        if (s->files == NULL) {
            free(s);
            return NULL;
        }
    }
    return s;
}

/* Reads path whole into f and indexes its lines. Returns 0 or -1. */
static int read_file(source_file *f, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SOURCE_MAX_BYTES)
        return -1;
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return -1;
    size_t cap = (size_t)st.st_size + 1;
    f->bytes = malloc(cap);
    f->len = f->bytes ? fread(f->bytes, 1, cap - 1, in) : 0;
    int failed = f->bytes == NULL || ferror(in);
    fclose(in);
    if (failed)
        return -1;
    uint32_t n = 1;
    for (size_t i = 0; i < f->len; i++)
        n += f->bytes[i] == '\n';
    f->starts = malloc((size_t)n * sizeof *f->starts);
    if (f->starts == NULL)
        return -1;
    f->starts[0] = 0;
    f->nlines = 1;
    for (size_t i = 0; i < f->len; i++)
        if (f->bytes[i] == '\n')
            f->starts[f->nlines++] = i + 1;
    return 0;
}

int source_text_line(source_text *s, uint16_t file, uint32_t line, char *out,
                     size_t cap)
{
    if (cap == 0)
        return 0;
    out[0] = '\0';
    if (s == NULL || file == 0 || file >= s->module->nfiles || line == 0 ||
        s->module->files[file] == NULL)
        return 0;
    source_file *f = &s->files[file];
    if (f->state == 0) {
        f->state = read_file(f, s->module->files[file]) == 0 ? 1 : -1;
        if (f->state < 0) {
            free(f->bytes);
            free(f->starts);
            f->bytes = NULL;
            f->starts = NULL;
        }
    }
    if (f->state < 0 || line > f->nlines)
        return 0;
    size_t i = f->starts[line - 1], end = i;
    while (end < f->len && f->bytes[end] != '\n' && f->bytes[end] != '\r')
        end++;
    while (i < end && (f->bytes[i] == ' ' || f->bytes[i] == '\t'))
        i++;
    while (end > i && (f->bytes[end - 1] == ' ' || f->bytes[end - 1] == '\t'))
        end--;
    size_t n = 0;
    for (; i < end && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)f->bytes[i];
        out[n++] = c == '\t' || c < 0x20 ? ' ' : (char)c;
    }
    out[n] = '\0';
    return 1;
}

void source_text_free(source_text *s)
{
    if (s == NULL)
        return;
    for (int i = 0; s->files != NULL && i < s->module->nfiles; i++) {
        free(s->files[i].bytes);
        free(s->files[i].starts);
    }
    free(s->files);
    free(s);
}
