/* ptx_body.c - function bodies: nested `{ }` blocks with their own names
 * and labels, labels, guards, declarations, .loc and .pragma, and the
 * instructions themselves (ptx_instr.c).
 *
 * defines: ptx_parse_body
 *
 *   body      := { '{' body '}' | label ':' | declaration | .loc | .pragma
 *              | [@[!]pred] instruction ';' }
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdio.h>
#include <string.h>

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
    if (op->kind != PTX_TOK_WORD || ptx_is_directive(p, op))
        return ptx_fail_expected(p, op, "an instruction after the guard");
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
        return ptx_parse_loc(p);
    if (ptx_is_word(p, t, ".pragma"))
        return ptx_skip_pragma(p);
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

int ptx_parse_body(ptx_parser *p)
{
    ptx_function *fn = ptx_current(p);
    p->code_cap = p->regs_cap = p->call_params_cap = 0;
    p->loc_file = p->site_file = 0;
    p->loc_line = p->site_line = 0;
    p->loc_count = 0;
    p->loc_frame = -1;
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
        } else if (ptx_is_directive(p, t)) {
            rc = parse_body_directive(p);
        } else if (t->kind == PTX_TOK_WORD && ptx_is_punct(ptx_peek(p, 1), ':')) {
            rc = define_label(p);
        } else if (t->kind == PTX_TOK_WORD) {
            rc = ptx_parse_instruction(p, -1, 0);
        } else {
            rc = ptx_fail_expected(p, t, "an instruction");
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
