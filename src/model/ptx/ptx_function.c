/* ptx_function.c - function headers: .entry and .func with their return
 * and parameter lists and performance directives, as a definition (whose
 * body ptx_body.c reads) or a prototype.
 *
 * defines: ptx_parse_function
 *
 *   function  := (.entry | .func [(ret-params)]) name [(params)]
 *                performance-directives* ( ';' | '{' body '}' )
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

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
                cured_grow((void **)&list, &cap, n + 1, sizeof *list) != 0) {
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
        if (ptx_parse_bounded(p, "thread count", 0, UINT32_MAX, &v) != 0)
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
    while (ptx_is_directive(p, ptx_peek(p, 0))) {
        const ptx_token *t = ptx_next(p);
        ptx_function *fn = &p->m->functions[function];
        int64_t ignored;
        int rc;
        if (ptx_is_word(p, t, ".maxntid"))
            rc = parse_dims3(p, fn->max_ntid);
        else if (ptx_is_word(p, t, ".reqntid"))
            rc = parse_dims3(p, fn->reqntid);
        else if (ptx_is_word(p, t, ".reqnctapercluster")) {
            /* the cluster dimensions a launch without its own takes
             * (exec.c); a launch that names others is refused */
            uint32_t dims[3] = {1, 1, 1};
            rc = parse_dims3(p, dims);
            if (rc == 0)
                memcpy(fn->reqnctapercluster, dims, sizeof dims);
        } else if (ptx_is_word(p, t, ".minnctapersm") ||
                   ptx_is_word(p, t, ".maxnctapersm") ||
                   ptx_is_word(p, t, ".maxnreg") ||
                   ptx_is_word(p, t, ".maxclusterrank"))
            rc = ptx_parse_bounded(p, "count", 0, UINT32_MAX, &ignored);
        else if (ptx_is_word(p, t, ".noreturn") ||
                 ptx_is_word(p, t, ".explicitcluster"))
            rc = 0;
        else if (ptx_is_word(p, t, ".pragma"))
            rc = ptx_skip_pragma(p);
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
    cured_model_module *m = p->m;
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
        cured_grow((void **)&m->functions, &p->functions_cap,
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

int ptx_parse_function(ptx_parser *p, int is_extern, int is_visible)
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
    if (name->kind != PTX_TOK_WORD || ptx_is_directive(p, name))
        return ptx_fail_expected(p, name, "a function name");
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
        rc = ptx_parse_body(p);
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
