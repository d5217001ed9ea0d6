/* ptx_directive.c - the directives that stand alone: .version, .target,
 * .address_size, .file, .section (skipped), .pragma (skipped) and .loc,
 * whose source positions the instructions that follow carry.
 *
 * defines: ptx_parse_module_directive, ptx_parse_loc, ptx_resolve_user_lines,
 *          ptx_skip_pragma, ptx_parse_bounded
 *
 *   directive := .version M.m | .target t{, t} | .address_size N
 *              | .file N "path"{, time, size} | .section name { ... }
 *              | .loc ... | .pragma "..."{, "..."};
 * Section contents (debug information) are skipped by matching braces.
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

/* `.version 9.0` */
static int parse_version(ptx_parser *p)
{
    const ptx_token *t = ptx_next(p);
    const char *s = ptx_text(p, t);
    uint32_t major = 0, minor = 0;
    size_t i = 0, digits = 0;
    if (t->kind != PTX_TOK_NUMBER)
        goto bad;
    for (; i < t->len && s[i] >= '0' && s[i] <= '9' && digits < 6; i++, digits++)
        major = major * 10 + (uint32_t)(s[i] - '0');
    if (digits == 0 || i >= t->len || s[i] != '.')
        goto bad;
    for (i++, digits = 0; i < t->len && s[i] >= '0' && s[i] <= '9' && digits < 6;
         i++, digits++)
        minor = minor * 10 + (uint32_t)(s[i] - '0');
    if (digits == 0 || i != t->len)
        goto bad;
    p->m->version_major = major;
    p->m->version_minor = minor;
    return 0;
bad:
    return ptx_fail(p, t, ".version needs MAJOR.MINOR, found '%.*s'",
                    ptx_show_len(t), s);
}

/* `.target sm_90{, texmode_unified ...}`: the first name is kept. */
static int parse_target(ptx_parser *p)
{
    for (int first = 1;; first = 0) {
        const ptx_token *t = ptx_next(p);
        if (t->kind != PTX_TOK_WORD || ptx_is_directive(p, t))
            return ptx_fail_expected(p, t, "a target name");
        if (first) {
            free(p->m->target);
            p->m->target = ptx_strndup(ptx_text(p, t), t->len);
            if (p->m->target == NULL)
                return ptx_fail(p, t, "out of memory");
        }
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            return 0;
        ptx_next(p);
    }
}

/* `.address_size 32|64` */
static int parse_address_size(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    int64_t size;
    if (ptx_parse_int(p, &size, "after .address_size") != 0)
        return -1;
    if (size != 32 && size != 64)
        return ptx_fail(p, t, ".address_size %lld is not 32 or 64", (long long)size);
    p->m->address_size = (int)size;
    return 0;
}

/* A string token's contents, quotes removed, escapes resolved. */
static char *string_value(const ptx_parser *p, const ptx_token *t)
{
    const char *s = ptx_text(p, t) + 1;
    size_t n = t->len - 2;
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        out[k++] = s[i];
    }
    out[k] = '\0';
    return out;
}

/* `.file N "path"{, timestamp, size}` */
static int parse_file(ptx_parser *p)
{
    const ptx_token *at = ptx_peek(p, 0);
    int64_t index;
    if (ptx_parse_int(p, &index, "file index") != 0)
        return -1;
    if (index < 0 || index > PTX_MAX_FILES)
        return ptx_fail(p, at, ".file index %lld out of range", (long long)index);
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_STRING)
        return ptx_fail(p, name, ".file needs a quoted path");
    while (ptx_is_punct(ptx_peek(p, 0), ',')) {
        ptx_next(p);
        int64_t ignored;
        if (ptx_parse_int(p, &ignored, "in .file") != 0)
            return -1;
    }
    cured_model_module *m = p->m;
    size_t need = (size_t)index + 1;
    if (need > (size_t)m->nfiles) {
        if (cured_grow((void **)&m->files, &p->files_cap, need, sizeof *m->files) != 0)
            return ptx_fail(p, at, "out of memory");
        memset(m->files + m->nfiles, 0, (need - (size_t)m->nfiles) * sizeof *m->files);
        m->nfiles = (int)need;
    }
    char *path = string_value(p, name);
    if (path == NULL)
        return ptx_fail(p, at, "out of memory");
    free(m->files[index]);
    m->files[index] = path;
    return 0;
}

/* `.section .debug_xxx { ... }`: skipped by matching braces (the name
 * may be several words: `.nv.info` lexes as `.nv` `.info`). */
static int skip_section(ptx_parser *p)
{
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_WORD)
        return ptx_fail(p, name, ".section needs a name");
    while (ptx_peek(p, 0)->kind == PTX_TOK_WORD)
        ptx_next(p);
    const ptx_token *open = ptx_peek(p, 0);
    if (ptx_expect(p, '{', "after the section name") != 0)
        return -1;
    size_t depth = 1;
    while (depth > 0) {
        const ptx_token *t = ptx_next(p);
        if (t->kind == PTX_TOK_EOF)
            return ptx_fail(p, open, "section '%.*s' never closes",
                            ptx_show_len(name), ptx_text(p, name));
        if (ptx_is_punct(t, '{'))
            depth++;
        else if (ptx_is_punct(t, '}'))
            depth--;
    }
    return 0;
}

int ptx_skip_pragma(ptx_parser *p)
{
    for (;;) {
        const ptx_token *t = ptx_next(p);
        if (t->kind != PTX_TOK_STRING)
            return ptx_fail(p, t, ".pragma needs a quoted string");
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            break;
        ptx_next(p);
    }
    return ptx_expect(p, ';', "after .pragma");
}

int ptx_parse_bounded(ptx_parser *p, const char *what, int64_t lo, int64_t hi,
                      int64_t *value)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_parse_int(p, value, what) != 0)
        return -1;
    if (*value < lo || *value > hi)
        return ptx_fail(p, t, "%s %lld out of range", what, (long long)*value);
    return 0;
}

/* Appends a frame; *index receives it. Returns 0 or -1 (out of memory,
 * recorded at token at). */
static int add_frame(ptx_parser *p, const ptx_token *at, int64_t file, int64_t line,
                     int32_t caller, int32_t *index)
{
    if (p->nframes >= INT32_MAX - 1 ||
        cured_grow((void **)&p->frames, &p->frames_cap, p->nframes + 1,
                 sizeof *p->frames) != 0)
        return ptx_fail(p, at, "out of memory");
    p->frames[p->nframes] = (ptx_loc_frame){(uint32_t)line, (uint16_t)file, caller};
    *index = (int32_t)p->nframes++;
    return 0;
}

int ptx_parse_loc(ptx_parser *p)
{
    const ptx_token *at = ptx_peek(p, 0);
    int32_t caller = -1;
    int64_t file, line, column = 0;
    if (ptx_parse_bounded(p, ".loc file", 0, PTX_MAX_FILES, &file) != 0 ||
        ptx_parse_bounded(p, ".loc line", 0, UINT32_MAX, &line) != 0)
        return -1;
    if (ptx_peek(p, 0)->kind == PTX_TOK_NUMBER &&
        ptx_parse_bounded(p, ".loc column", 0, UINT32_MAX, &column) != 0)
        return -1;
    uint16_t site_file = (uint16_t)file;
    uint32_t site_line = (uint32_t)line;
    while (ptx_is_punct(ptx_peek(p, 0), ',')) {
        ptx_next(p);
        const ptx_token *attr = ptx_next(p);
        if (ptx_is_word(p, attr, "function_name")) {
            const ptx_token *label = ptx_next(p);
            if (label->kind != PTX_TOK_WORD)
                return ptx_fail(p, label, "function_name needs a label");
            if (ptx_is_punct(ptx_peek(p, 0), '+')) {
                int64_t ignored;
                ptx_next(p);
                if (ptx_parse_int(p, &ignored, "after function_name +") != 0)
                    return -1;
            }
        } else if (ptx_is_word(p, attr, "inlined_at")) {
            int64_t f, l, c = 0;
            if (ptx_parse_bounded(p, "inlined_at file", 0, PTX_MAX_FILES, &f) != 0 ||
                ptx_parse_bounded(p, "inlined_at line", 0, UINT32_MAX, &l) != 0)
                return -1;
            if (ptx_peek(p, 0)->kind == PTX_TOK_NUMBER &&
                ptx_parse_bounded(p, "inlined_at column", 0, UINT32_MAX, &c) != 0)
                return -1;
            site_file = (uint16_t)f;
            site_line = (uint32_t)l;
            caller = -1;
            unsigned known = p->loc_count < PTX_LOC_HISTORY ? p->loc_count
                                                             : PTX_LOC_HISTORY;
            for (unsigned k = 1; k <= known; k++) {
                const ptx_loc_site *h =
                    &p->loc_history[(p->loc_count - k) % PTX_LOC_HISTORY];
                if (h->file == f && h->line == l && h->column == c) {
                    site_file = h->site_file;
                    site_line = h->site_line;
                    caller = h->frame;
                    break;
                }
            }
            if (caller < 0 && add_frame(p, attr, f, l, -1, &caller) != 0)
                return -1;
        } else {
            char found[80];
            ptx_describe(p, attr, found, sizeof found);
            return ptx_fail(p, attr, "unknown .loc attribute %s", found);
        }
    }
    int32_t frame = -1;
    if (add_frame(p, at, file, line, caller, &frame) != 0)
        return -1;
    ptx_loc_site *h = &p->loc_history[p->loc_count % PTX_LOC_HISTORY];
    h->frame = frame;
    h->file = (uint32_t)file;
    h->line = (uint32_t)line;
    h->column = (uint32_t)column;
    h->site_file = site_file;
    h->site_line = site_line;
    p->loc_count++;
    p->loc_file = (uint16_t)file;
    p->loc_line = (uint32_t)line;
    p->site_file = site_file;
    p->site_line = site_line;
    p->loc_frame = frame;
    return 0;
}

/* Turns the frame number + 1 that *line holds (0: none) into the user
 * line of that frame (user[]: each frame's user frame). */
static void user_line_of(const ptx_parser *p, const int32_t *user, uint16_t *file,
                         uint32_t *line)
{
    int64_t k = (int64_t)*line - 1;
    *file = 0;
    *line = 0;
    if (k < 0 || (size_t)k >= p->nframes)
        return;
    const ptx_loc_frame *u = &p->frames[user[k]];
    if (u->line != 0) {
        *file = u->file;
        *line = u->line;
    }
}

int ptx_resolve_user_lines(ptx_parser *p)
{
    cured_model_module *m = p->m;
    /* user[k]: the frame that stands for frame k in the user's source.
     * Callers come before the frames they call, so one pass in order
     * settles each frame from its caller's. */
    int32_t *user = p->nframes ? malloc(p->nframes * sizeof *user) : NULL;
    uint8_t *toolkit = m->nfiles ? calloc((size_t)m->nfiles, 1) : NULL;
    if ((p->nframes && user == NULL) || (m->nfiles && toolkit == NULL)) {
        free(user);
        free(toolkit);
        ptx_error_setf(p->err, 1, 1, "out of memory");
        return -1;
    }
    for (int f = 0; f < m->nfiles; f++)
        toolkit[f] = (uint8_t)ptx_toolkit_file(m, (uint16_t)f);
    for (size_t k = 0; k < p->nframes; k++) {
        const ptx_loc_frame *fr = &p->frames[k];
        int in_toolkit = fr->file < m->nfiles && toolkit[fr->file];
        user[k] = in_toolkit && fr->caller >= 0 ? user[fr->caller] : (int32_t)k;
    }
    for (int f = 0; f < m->nfunctions; f++) {
        ptx_function *fn = &m->functions[f];
        for (int pc = 0; pc < fn->ncode; pc++)   /* ptx_add_instr's frames */
            user_line_of(p, user, &fn->code[pc].user_file, &fn->code[pc].user_line);
        if (fn->unusable != NULL)                /* ptx_unsupported's */
            user_line_of(p, user, &fn->unusable_file, &fn->unusable_line);
    }
    free(user);
    free(toolkit);
    return 0;
}

int ptx_parse_module_directive(ptx_parser *p)
{
    static const struct { const char *name; int (*parse)(ptx_parser *); } simple[] = {
        {".version", parse_version}, {".target", parse_target},
        {".address_size", parse_address_size}, {".file", parse_file},
        {".section", skip_section}, {".loc", ptx_parse_loc},
        {".pragma", ptx_skip_pragma},
    };
    const ptx_token *t = ptx_peek(p, 0);
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
        if (ptx_is_word(p, t, simple[i].name)) {
            ptx_next(p);
            return simple[i].parse(p);
        }
    }
    return 1;
}
