/* viz_source.c - the CUDA source beside the animation: which lines the
 * block's steps run, and the text around them.
 *
 * defines: viz_sources_build, viz_source_line, viz_sources_free
 *
 * A file's text comes from the copy of the catalogue's kernels built into
 * cured (src/kernels/, embedded when cured was built: the same text nvcc
 * compiled) when the PTX names one of them, else from the disk, where a
 * user's --cu file and its headers are. Files inside a CUDA toolkit (an
 * intrinsic such as __shfl_down_sync inlined into the kernel) are not
 * shown: such an instruction shows the kernel's own line that called it.
 */
#include "viz_impl.h"
#include "viz_embedded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXCERPT_BEFORE 3
#define EXCERPT_AFTER 2
#define EXCERPT_MAX 200

/* 1 for a path inside a CUDA toolkit. */
static int toolkit_path(const char *p)
{
    return strstr(p, "/targets/") != NULL ||
           (strstr(p, "/cuda") != NULL && strstr(p, "/include/") != NULL);
}

static const char *base_name(const char *p)
{
    const char *slash = strrchr(p, '/');
    return slash ? slash + 1 : p;
}

/* The text of `path` (malloc'd, NUL ended) or NULL. */
static char *file_text(const char *path)
{
    const char *name = base_name(path);
    size_t dir = (size_t)(name - path);
    size_t size;
    const char *built_in = dir >= 13 && strncmp(name - 13, "/src/kernels/", 13) == 0
                               ? viz_embedded_source(name, &size)
                               : NULL;
    if (built_in != NULL) {
        char *t = malloc(size + 1);
        if (t != NULL)
            memcpy(t, built_in, size + 1);
        return t;
    }
    if (toolkit_path(path))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *t = malloc(cap);
    while (t != NULL) {
        size_t got = fread(t + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n + 1 == cap) {
            char *p = realloc(t, cap * 2);
            if (p == NULL) {
                free(t);
                t = NULL;
                break;
            }
            t = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (t != NULL)
        t[n] = '\0';
    return t;
}

/* The source of .file `file`, or -1 when it is not shown. */
static int source_of(const viz_story *s, uint16_t file)
{
    for (uint32_t i = 0; i < s->nsources; i++)
        if (s->sources[i].file == file)
            return (int)i;
    return -1;
}

viz_line viz_source_line(const viz_story *s, const cured_model_trace *t,
                         const cured_model_trace_op *op)
{
    (void)t;
    viz_line l = {(uint16_t)VIZ_NONE, 0};
    int i = op->line ? source_of(s, op->file) : -1;
    if (i >= 0) {
        l.source = (uint16_t)i;
        l.line = op->line;
        return l;
    }
    i = op->site_line ? source_of(s, op->site_file) : -1;
    if (i >= 0) {
        l.source = (uint16_t)i;
        l.line = op->site_line;
    }
    return l;
}

/* Keeps lines [lo, hi] of text as source `src`. */
static void keep_lines(viz_source *src, const char *text, uint32_t lo, uint32_t hi)
{
    uint32_t line = 1;
    const char *p = text;
    while (*p && line < lo) {
        if (*p++ == '\n')
            line++;
    }
    src->first = line;
    src->lines = calloc(hi - lo + 1, sizeof *src->lines);
    if (src->lines == NULL)
        return;
    while (*p && line <= hi) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *copy = malloc(n + 1);
        if (copy == NULL)
            break;
        memcpy(copy, p, n);
        copy[n] = '\0';
        /* tabs to spaces, so the columns hold in every renderer */
        for (char *c = copy; *c; c++)
            if (*c == '\t' || *c == '\r')
                *c = ' ';
        src->lines[src->count++] = copy;
        line++;
        p += n + (e != NULL);
        if (e == NULL)
            break;
    }
}

void viz_sources_build(viz_story *s, const cured_model_trace *t)
{
    const cured_model_trace_op *ops;
    uint32_t nops = cured_model_trace_ops(t, &ops);
    /* the files: each op's innermost, and its site */
    uint16_t files[64];
    char *texts[64];
    int nfiles = 0;
    for (uint32_t i = 0; i < nops; i++) {
        const cured_model_trace_op *op = &ops[i];
        if (op->block != s->block || op->kind == CURED_MODEL_TRACE_OTHER)
            continue;
        uint16_t cand[2] = {op->file, op->site_file};
        for (int c = 0; c < 2; c++) {
            int seen = cand[c] == 0;
            for (int k = 0; k < nfiles && !seen; k++)
                seen = files[k] == cand[c];
            if (seen || nfiles == 64)
                continue;
            const char *path = cured_model_trace_file(t, cand[c]);
            files[nfiles] = cand[c];
            texts[nfiles] = path ? file_text(path) : NULL;
            nfiles++;
        }
    }
    s->sources = calloc(nfiles ? (size_t)nfiles : 1, sizeof *s->sources);
    if (s->sources == NULL)
        goto done;
    for (int k = 0; k < nfiles; k++) {
        if (texts[k] == NULL)
            continue;
        viz_source *src = &s->sources[s->nsources++];
        src->file = files[k];
        snprintf(src->name, sizeof src->name, "%s",
                 base_name(cured_model_trace_file(t, files[k])));
    }
    /* the lines each shown file runs */
    for (uint32_t k = 0; k < s->nsources; k++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t i = 0; i < nops; i++) {
            if (ops[i].block != s->block || ops[i].kind == CURED_MODEL_TRACE_OTHER)
                continue;
            viz_line l = viz_source_line(s, t, &ops[i]);
            if (l.source != k)
                continue;
            lo = l.line < lo ? l.line : lo;
            hi = l.line > hi ? l.line : hi;
        }
        if (lo == UINT32_MAX)
            continue;
        lo = lo > EXCERPT_BEFORE ? lo - EXCERPT_BEFORE : 1;
        hi += EXCERPT_AFTER;
        if (hi - lo + 1 > EXCERPT_MAX)
            hi = lo + EXCERPT_MAX - 1;
        for (int f = 0; f < nfiles; f++)
            if (files[f] == s->sources[k].file)
                keep_lines(&s->sources[k], texts[f], lo, hi);
    }
done:
    for (int k = 0; k < nfiles; k++)
        free(texts[k]);
}

void viz_sources_free(viz_story *s)
{
    for (uint32_t i = 0; i < s->nsources; i++) {
        for (uint32_t j = 0; j < s->sources[i].count; j++)
            free(s->sources[i].lines[j]);
        free(s->sources[i].lines);
    }
    free(s->sources);
    s->sources = NULL;
    s->nsources = 0;
}
