/* ptx_parse.c - the PTX parser's entry point: the module, statement by
 * statement.
 *
 * defines: cured_model_parse
 *
 * Grammar, from the PTX ISA (not from nvcc's layout):
 *   module    := { directive | linkage* (function | variable) }
 * with directives in ptx_directive.c, functions in ptx_function.c and
 * ptx_body.c, variables in ptx_decl.c.
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

/* One top-level statement. */
static int parse_module_statement(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_punct(t, ';')) {
        ptx_next(p);
        return 0;
    }
    if (!ptx_is_directive(p, t))
        return ptx_fail_expected(p, t, "a directive at module scope");
    int rc = ptx_parse_module_directive(p);
    if (rc <= 0)
        return rc;
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
        return ptx_parse_function(p, is_extern, is_visible);
    if (ptx_is_word(p, t, ".global") || ptx_is_word(p, t, ".const") ||
        ptx_is_word(p, t, ".shared") || ptx_is_word(p, t, ".local"))
        return ptx_parse_var_decl(p, is_extern);
    if (!ptx_is_directive(p, t))
        return ptx_fail_expected(p, t, "a declaration after the linkage");
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
    free(p->frames);
}

cured_model_module *cured_model_parse(const char *text, size_t len, cured_model_parse_error *err)
{
    cured_model_parse_error local;
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
    p.loc_frame = -1;
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
        cured_model_module_free(p.m);
        return NULL;
    }
    return p.m;
}
