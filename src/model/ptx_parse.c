/* ptx_parse.c - the PTX parser's entry point: module directives, function
 * headers and bodies.
 *
 * defines: ptx_parse
 *
 * Grammar, from the PTX ISA (not from nvcc's layout):
 *   module    := { directive | linkage* (function | variable) }
 *   directive := .version M.m | .target t{, t} | .address_size N
 *              | .file N "path"{, time, size} | .section name { ... }
 *              | .loc ... | .pragma "..."{, "..."};
 *   function  := (.entry | .func [(ret-params)]) name [(params)]
 *                performance-directives* ( ';' | '{' body '}' )
 *   body      := { '{' body '}' | label ':' | declaration | .loc | .pragma
 *              | [@[!]pred] instruction ';' }
 * Section contents (debug information) are skipped by matching braces.
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

/* 1 when t is a word starting with '.' (a directive). */
static int is_directive(const ptx_parser *p, const ptx_token *t)
{
    return t->kind == PTX_TOK_WORD && t->len > 1 && ptx_text(p, t)[0] == '.';
}

/* ------------------------------------------------- module directives */

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
        if (t->kind != PTX_TOK_WORD || is_directive(p, t)) {
            char found[80];
            ptx_describe(p, t, found, sizeof found);
            return ptx_fail(p, t, "expected a target name, found %s", found);
        }
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
    ptx_module *m = p->m;
    size_t need = (size_t)index + 1;
    if (need > (size_t)m->nfiles) {
        if (ptx_grow((void **)&m->files, &p->files_cap, need, sizeof *m->files) != 0)
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

/* `.pragma "nounroll";` */
static int skip_pragma(ptx_parser *p)
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

/* An integer in [lo, hi] for a directive. */
static int parse_bounded(ptx_parser *p, const char *what, int64_t lo, int64_t hi,
                         int64_t *value)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_parse_int(p, value, what) != 0)
        return -1;
    if (*value < lo || *value > hi)
        return ptx_fail(p, t, "%s %lld out of range", what, (long long)*value);
    return 0;
}

/* `.loc file line [col] {, function_name label[+N] | , inlined_at f l c}`.
 * The instruction gets the innermost location; its site is the outermost
 * caller, found by following inlined_at through the recent .loc lines
 * (nvcc emits a chain, outermost first). */
static int parse_loc(ptx_parser *p)
{
    int64_t file, line, column = 0;
    if (parse_bounded(p, ".loc file", 0, PTX_MAX_FILES, &file) != 0 ||
        parse_bounded(p, ".loc line", 0, UINT32_MAX, &line) != 0)
        return -1;
    if (ptx_peek(p, 0)->kind == PTX_TOK_NUMBER &&
        parse_bounded(p, ".loc column", 0, UINT32_MAX, &column) != 0)
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
            if (parse_bounded(p, "inlined_at file", 0, PTX_MAX_FILES, &f) != 0 ||
                parse_bounded(p, "inlined_at line", 0, UINT32_MAX, &l) != 0)
                return -1;
            if (ptx_peek(p, 0)->kind == PTX_TOK_NUMBER &&
                parse_bounded(p, "inlined_at column", 0, UINT32_MAX, &c) != 0)
                return -1;
            site_file = (uint16_t)f;
            site_line = (uint32_t)l;
            unsigned known = p->loc_count < PTX_LOC_HISTORY ? p->loc_count
                                                             : PTX_LOC_HISTORY;
            for (unsigned k = 1; k <= known; k++) {
                const ptx_loc_site *h =
                    &p->loc_history[(p->loc_count - k) % PTX_LOC_HISTORY];
                if (h->file == f && h->line == l && h->column == c) {
                    site_file = h->site_file;
                    site_line = h->site_line;
                    break;
                }
            }
        } else {
            char found[80];
            ptx_describe(p, attr, found, sizeof found);
            return ptx_fail(p, attr, "unknown .loc attribute %s", found);
        }
    }
    ptx_loc_site *h = &p->loc_history[p->loc_count % PTX_LOC_HISTORY];
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
    return 0;
}

/* ------------------------------------------------- function headers */

static uint64_t align_up(uint64_t v, uint64_t align)
{
    return (v + align - 1) / align * align;
}

/* `( .param ..., .param ... )` into a new array laid out as a parameter
 * block (each at the next offset its alignment allows); *bytes receives
 * the block's size. */
static int parse_param_list(ptx_parser *p, int32_t function, int32_t **out,
                            int *count, uint64_t *bytes)
{
    const ptx_token *open = ptx_peek(p, 0);
    if (ptx_expect(p, '(', "to open the parameter list") != 0)
        return -1;
    int32_t *list = NULL;
    size_t n = 0, cap = 0;
    uint64_t offset = 0;
    if (!ptx_is_punct(ptx_peek(p, 0), ')')) {
        for (;;) {
            int32_t symbol;
            if (ptx_parse_param(p, function, &symbol) != 0)
                goto fail;
            if (n >= INT32_MAX / 2 ||
                ptx_grow((void **)&list, &cap, n + 1, sizeof *list) != 0) {
                ptx_fail(p, open, "out of memory");
                goto fail;
            }
            list[n++] = symbol;
            ptx_symbol *s = &p->m->symbols[symbol];
            s->offset = align_up(offset, s->align);
            offset = s->offset + s->size;
            if (offset > PTX_MAX_OBJECT_BYTES) {
                ptx_fail(p, open, "parameter block too large");
                goto fail;
            }
            if (!ptx_is_punct(ptx_peek(p, 0), ','))
                break;
            ptx_next(p);
        }
    }
    if (ptx_expect(p, ')', "to close the parameter list") != 0)
        goto fail;
    *out = list;
    *count = (int)n;
    *bytes = offset;
    return 0;
fail:
    free(list);
    return -1;
}

/* Skips a balanced `( ... )` at the cursor (a return list, read later). */
static int skip_parens(ptx_parser *p)
{
    const ptx_token *open = ptx_next(p);
    for (;;) {
        const ptx_token *t = ptx_next(p);
        if (t->kind == PTX_TOK_EOF || ptx_is_punct(t, '('))
            return ptx_fail(p, open, "unbalanced '(' in function header");
        if (ptx_is_punct(t, ')'))
            return 0;
    }
}

/* Up to three dimensions after .maxntid / .reqntid. */
static int parse_dims3(ptx_parser *p, uint32_t dims[3])
{
    for (int i = 0; i < 3; i++) {
        int64_t v;
        if (parse_bounded(p, "thread count", 0, UINT32_MAX, &v) != 0)
            return -1;
        dims[i] = (uint32_t)v;
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            break;
        ptx_next(p);
    }
    return 0;
}

/* Performance directives between a function's header and its body. */
static int parse_performance(ptx_parser *p, int32_t function)
{
    while (is_directive(p, ptx_peek(p, 0))) {
        const ptx_token *t = ptx_next(p);
        ptx_function *fn = &p->m->functions[function];
        int64_t ignored;
        int rc;
        if (ptx_is_word(p, t, ".maxntid"))
            rc = parse_dims3(p, fn->max_ntid);
        else if (ptx_is_word(p, t, ".reqntid"))
            rc = parse_dims3(p, fn->reqntid);
        else if (ptx_is_word(p, t, ".reqnctapercluster")) {
            uint32_t dims[3];
            rc = parse_dims3(p, dims);
        } else if (ptx_is_word(p, t, ".minnctapersm") ||
                   ptx_is_word(p, t, ".maxnctapersm") ||
                   ptx_is_word(p, t, ".maxnreg") ||
                   ptx_is_word(p, t, ".maxclusterrank"))
            rc = parse_bounded(p, "count", 0, UINT32_MAX, &ignored);
        else if (ptx_is_word(p, t, ".noreturn") ||
                 ptx_is_word(p, t, ".explicitcluster"))
            rc = 0;
        else if (ptx_is_word(p, t, ".pragma"))
            rc = skip_pragma(p);
        else
            rc = ptx_fail(p, t, "unknown directive '%.*s' in function header",
                          ptx_show_len(t), ptx_text(p, t));
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* The function named by token `name`: the existing one (declared by a
 * prototype) or a new one. */
static int declare_function(ptx_parser *p, const ptx_token *name, int is_entry,
                            int32_t *index)
{
    const ptx_binding *b = ptx_scope_find(&p->names, ptx_text(p, name), name->len);
    ptx_module *m = p->m;
    if (b != NULL && b->kind != PTX_BIND_FUNC)
        return ptx_fail(p, name, "'%.*s' is already declared as a variable",
                        ptx_show_len(name), ptx_text(p, name));
    if (b != NULL) {
        ptx_function *fn = &m->functions[b->index];
        if (fn->is_entry != is_entry)
            return ptx_fail(p, name, "'%.*s' declared both as .entry and .func",
                            ptx_show_len(name), ptx_text(p, name));
        *index = b->index;
        return 0;
    }
    if (m->nfunctions >= INT32_MAX - 1 ||
        ptx_grow((void **)&m->functions, &p->functions_cap,
                 (size_t)m->nfunctions + 1, sizeof *m->functions) != 0)
        return ptx_fail(p, name, "out of memory");
    ptx_function *fn = &m->functions[m->nfunctions];
    memset(fn, 0, sizeof *fn);
    fn->name = ptx_strndup(ptx_text(p, name), name->len);
    if (fn->name == NULL)
        return ptx_fail(p, name, "out of memory");
    fn->is_entry = is_entry;
    *index = m->nfunctions++;
    return ptx_bind(p, name, fn->name, name->len, PTX_BIND_FUNC, *index);
}

static int parse_body(ptx_parser *p);

/* A function header's parameter lists, parsed before knowing whether a
 * body follows. */
typedef struct header_params {
    int32_t *rets, *params;
    int nrets, nparams;
    uint64_t param_bytes;
} header_params;

/* Gives the lists to the function (a definition, or a prototype of a
 * function not yet defined), freeing what it had. */
static void install_params(ptx_function *fn, header_params *h)
{
    free(fn->params);
    free(fn->rets);
    fn->params = h->params;
    fn->rets = h->rets;
    fn->nparams = h->nparams;
    fn->nrets = h->nrets;
    fn->param_bytes = h->param_bytes;
    memset(h, 0, sizeof *h);
}

/* `.entry name (params) ... { body }` or `.func (rets) name (params) ...`,
 * a definition or a prototype ending in ';'. The keyword is at the cursor.
 * A prototype may come before or after the definition; the definition's
 * parameters are the ones kept. */
static int parse_function(ptx_parser *p, int is_extern, int is_visible)
{
    const ptx_token *keyword = ptx_next(p);
    int is_entry = ptx_is_word(p, keyword, ".entry");
    size_t rets_at = 0;
    if (!is_entry && ptx_is_punct(ptx_peek(p, 0), '(')) {
        rets_at = p->pos;
        if (skip_parens(p) != 0)
            return -1;
    }
    const ptx_token *name = ptx_next(p);
    if (name->kind != PTX_TOK_WORD || is_directive(p, name)) {
        char found[80];
        ptx_describe(p, name, found, sizeof found);
        return ptx_fail(p, name, "expected a function name, found %s", found);
    }
    int32_t f = -1;
    if (declare_function(p, name, is_entry, &f) != 0)
        return -1;
    ptx_function *fn = &p->m->functions[f];
    int declared_before = fn->params != NULL || fn->rets != NULL || fn->has_body;
    fn->is_visible = fn->is_visible || is_visible;
    if (ptx_scope_push(&p->names) != 0)
        return ptx_fail(p, name, "out of memory");
    header_params h;
    memset(&h, 0, sizeof h);
    int rc = -1;
    if (rets_at != 0) {
        size_t resume = p->pos;
        uint64_t ret_bytes;
        p->pos = rets_at;
        if (parse_param_list(p, f, &h.rets, &h.nrets, &ret_bytes) != 0)
            goto done;
        p->pos = resume;
    }
    if (ptx_is_punct(ptx_peek(p, 0), '(') &&
        parse_param_list(p, f, &h.params, &h.nparams, &h.param_bytes) != 0)
        goto done;
    if (declared_before && (fn->nparams != h.nparams || fn->nrets != h.nrets)) {
        ptx_fail(p, name, "conflicting declarations of '%s'", fn->name);
        goto done;
    }
    if (parse_performance(p, f) != 0)
        goto done;
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_punct(t, ';')) {
        ptx_next(p);
        if (!fn->has_body)
            install_params(fn, &h);
        rc = 0;
    } else if (ptx_is_punct(t, '{')) {
        if (is_extern) {
            ptx_fail(p, name, ".extern function '%s' has a body", fn->name);
            goto done;
        }
        if (fn->has_body) {
            ptx_fail(p, name, "function '%s' defined twice", fn->name);
            goto done;
        }
        install_params(fn, &h);
        fn->has_body = 1;
        p->fn = f;
        rc = parse_body(p);
        p->fn = -1;
    } else {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        ptx_fail(p, t, "expected '{' or ';' after the header of '%s', found %s",
                 fn->name, found);
    }
done:
    free(h.params);
    free(h.rets);
    ptx_scope_pop(&p->names);
    return rc;
}

/* ---------------------------------------------------- function bodies */

/* `label:` at the cursor: the label names the next instruction; it is
 * visible in its block and the blocks inside it. */
static int define_label(ptx_parser *p)
{
    const ptx_token *t = ptx_next(p);
    ptx_next(p);   /* ':' */
    int rc = ptx_scope_bind(&p->labels, ptx_text(p, t), t->len, PTX_BIND_LABEL,
                            ptx_current(p)->ncode);
    if (rc < 0)
        return ptx_fail(p, t, "out of memory");
    if (rc > 0)
        return ptx_fail(p, t, "duplicate label '%.*s'", ptx_show_len(t),
                        ptx_text(p, t));
    return 0;
}

/* `@%p` or `@!%p` then the instruction. */
static int parse_guarded(ptx_parser *p)
{
    ptx_next(p);   /* '@' */
    int neg = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '!')) {
        ptx_next(p);
        neg = 1;
    }
    const ptx_token *t = ptx_next(p);
    const ptx_binding *b = t->kind == PTX_TOK_WORD
        ? ptx_scope_find(&p->names, ptx_text(p, t), t->len) : NULL;
    if (b == NULL || b->kind != PTX_BIND_REG) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "guard %s is not a declared predicate register",
                        found);
    }
    if (ptx_current(p)->regs[b->index].type != PTX_T_PRED)
        return ptx_fail(p, t, "guard '%.*s' is not a .pred register",
                        ptx_show_len(t), ptx_text(p, t));
    const ptx_token *op = ptx_peek(p, 0);
    if (op->kind != PTX_TOK_WORD || is_directive(p, op)) {
        char found[80];
        ptx_describe(p, op, found, sizeof found);
        return ptx_fail(p, op, "expected an instruction after the guard, found %s",
                        found);
    }
    return ptx_parse_instruction(p, b->index, neg);
}

/* A directive inside a body. */
static int parse_body_directive(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_word(p, t, ".reg"))
        return ptx_parse_reg_decl(p);
    if (ptx_is_word(p, t, ".local") || ptx_is_word(p, t, ".shared") ||
        ptx_is_word(p, t, ".param") || ptx_is_word(p, t, ".global") ||
        ptx_is_word(p, t, ".const"))
        return ptx_parse_var_decl(p, 0);
    if (ptx_is_word(p, t, ".extern")) {
        ptx_next(p);
        return ptx_parse_var_decl(p, 1);
    }
    ptx_next(p);
    if (ptx_is_word(p, t, ".loc"))
        return parse_loc(p);
    if (ptx_is_word(p, t, ".pragma"))
        return skip_pragma(p);
    return ptx_fail(p, t, "unknown directive '%.*s' in a function body",
                    ptx_show_len(t), ptx_text(p, t));
}

/* Opens a `{ }` block: its own names and labels. */
static int open_block(ptx_parser *p, const ptx_token *at)
{
    if (p->block_depth >= PTX_MAX_NESTING)
        return ptx_fail(p, at, "blocks nested more than %d deep", PTX_MAX_NESTING);
    if (ptx_scope_push(&p->names) != 0 || ptx_scope_push(&p->labels) != 0)
        return ptx_fail(p, at, "out of memory");
    p->block_depth++;
    return 0;
}

/* Closes the innermost block, resolving the branches that wait on it. */
static int close_block(ptx_parser *p)
{
    int rc = ptx_close_block_labels(p, p->block_depth);
    ptx_scope_pop(&p->labels);
    ptx_scope_pop(&p->names);
    p->block_depth--;
    return rc;
}

/* The body after its '{' (at the cursor), through the matching '}'. */
static int parse_body(ptx_parser *p)
{
    ptx_function *fn = ptx_current(p);
    p->code_cap = p->regs_cap = p->call_params_cap = 0;
    p->loc_file = p->site_file = 0;
    p->loc_line = p->site_line = 0;
    p->loc_count = 0;
    p->nlabel_fixups = 0;
    p->block_depth = 0;
    ptx_scope_free(&p->labels);
    const ptx_token *open = ptx_next(p);
    if (open_block(p, open) != 0)
        return -1;
    while (p->block_depth > 0) {
        const ptx_token *t = ptx_peek(p, 0);
        int rc = 0;
        if (ptx_is_punct(t, '}')) {
            ptx_next(p);
            rc = close_block(p);
        } else if (ptx_is_punct(t, '{')) {
            ptx_next(p);
            rc = open_block(p, t);
        } else if (t->kind == PTX_TOK_EOF) {
            rc = ptx_fail(p, open, "function '%s' never closes (missing '}')",
                          fn->name);
        } else if (ptx_is_punct(t, ';')) {
            ptx_next(p);
        } else if (ptx_is_punct(t, '@')) {
            rc = parse_guarded(p);
        } else if (is_directive(p, t)) {
            rc = parse_body_directive(p);
        } else if (t->kind == PTX_TOK_WORD && ptx_is_punct(ptx_peek(p, 1), ':')) {
            rc = define_label(p);
        } else if (t->kind == PTX_TOK_WORD) {
            rc = ptx_parse_instruction(p, -1, 0);
        } else {
            char found[80];
            ptx_describe(p, t, found, sizeof found);
            rc = ptx_fail(p, t, "expected an instruction, found %s", found);
        }
        if (rc != 0) {
            /* unwind the blocks still open (the function's own scope is
             * popped by the caller) */
            for (; p->block_depth > 0; p->block_depth--) {
                ptx_scope_pop(&p->labels);
                ptx_scope_pop(&p->names);
            }
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------- module */

/* One top-level statement. */
static int parse_module_statement(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_punct(t, ';')) {
        ptx_next(p);
        return 0;
    }
    if (!is_directive(p, t)) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "expected a directive at module scope, found %s",
                        found);
    }
    static const struct { const char *name; int (*parse)(ptx_parser *); } simple[] = {
        {".version", parse_version}, {".target", parse_target},
        {".address_size", parse_address_size}, {".file", parse_file},
        {".section", skip_section}, {".loc", parse_loc},
        {".pragma", skip_pragma},
    };
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
        if (ptx_is_word(p, t, simple[i].name)) {
            ptx_next(p);
            return simple[i].parse(p);
        }
    }
    int is_extern = 0, is_visible = 0;
    for (;;) {
        t = ptx_peek(p, 0);
        if (ptx_is_word(p, t, ".extern"))
            is_extern = 1;
        else if (ptx_is_word(p, t, ".visible") || ptx_is_word(p, t, ".weak") ||
                 ptx_is_word(p, t, ".common"))
            is_visible = 1;
        else
            break;
        ptx_next(p);
    }
    if (ptx_is_word(p, t, ".entry") || ptx_is_word(p, t, ".func"))
        return parse_function(p, is_extern, is_visible);
    if (ptx_is_word(p, t, ".global") || ptx_is_word(p, t, ".const") ||
        ptx_is_word(p, t, ".shared") || ptx_is_word(p, t, ".local"))
        return ptx_parse_var_decl(p, is_extern);
    if (!is_directive(p, t)) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "expected a declaration after the linkage, found %s",
                        found);
    }
    return ptx_fail(p, t, "unknown directive '%.*s'", ptx_show_len(t),
                    ptx_text(p, t));
}

/* Frees the parser's own storage (not the module). */
static void parser_free(ptx_parser *p)
{
    ptx_tokens_free(&p->toks);
    ptx_scope_free(&p->names);
    ptx_scope_free(&p->labels);
    free(p->call_fixups);
    free(p->label_fixups);
}

ptx_module *ptx_parse(const char *text, size_t len, ptx_error *err)
{
    ptx_error local;
    if (err == NULL)
        err = &local;
    memset(err, 0, sizeof *err);
    if (text == NULL && len > 0) {
        ptx_error_setf(err, 0, 0, "no text");
        return NULL;
    }
    ptx_parser p;
    memset(&p, 0, sizeof p);
    p.text = text;
    p.len = len;
    p.err = err;
    p.fn = -1;
    p.m = calloc(1, sizeof *p.m);
    if (p.m == NULL) {
        ptx_error_setf(err, 0, 0, "out of memory");
        return NULL;
    }
    p.m->shared_extern_align = 16;
    int rc = ptx_lex(text ? text : "", len, &p.toks, err);
    if (rc == 0 && ptx_scope_push(&p.names) != 0) {
        ptx_error_setf(err, 1, 1, "out of memory");
        rc = -1;
    }
    while (rc == 0 && ptx_peek(&p, 0)->kind != PTX_TOK_EOF)
        rc = parse_module_statement(&p);
    if (rc == 0)
        rc = ptx_finish_module(&p);
    parser_free(&p);
    if (rc != 0) {
        ptx_module_free(p.m);
        return NULL;
    }
    return p.m;
}
