/* ptx_unsupported.c - what the parser does with a well-formed instruction
 * the model cannot decode (an opcode or modifier it does not know): the
 * function becomes unusable, with the reason and the line, and parsing
 * goes on after the statement, so the module's other functions stay
 * usable.
 *
 * defines: ptx_unsupported
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Skips through the ';' that ends the statement `at` begins. Operands may
 * hold `{ }` (vectors) and `( )` (call lists); a '}' or ')' that closes
 * nothing, a directive outside them, or the end of the input means the
 * statement never ended: malformed text, an error. */
static int skip_statement(ptx_parser *p, const ptx_token *at)
{
    int depth = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (t->kind == PTX_TOK_EOF || (depth == 0 && ptx_is_directive(p, t)) ||
            (depth == 0 && (ptx_is_punct(t, '}') || ptx_is_punct(t, ')')))) {
            char found[80];
            ptx_describe(p, t, found, sizeof found);
            return ptx_fail(p, t, "expected ';' to end '%.*s', found %s",
                            ptx_show_len(at), ptx_text(p, at), found);
        }
        ptx_next(p);
        if (depth == 0 && ptx_is_punct(t, ';'))
            return 0;
        if (ptx_is_punct(t, '{') || ptx_is_punct(t, '('))
            depth++;
        else if (ptx_is_punct(t, '}') || ptx_is_punct(t, ')'))
            depth--;
    }
}

int ptx_unsupported(ptx_parser *p, const ptx_token *at, const char *fmt, ...)
{
    ptx_function *fn = ptx_current(p);
    if (fn->unusable == NULL) { /* the first reason only */
        char message[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, sizeof message, fmt, ap);
        va_end(ap);
        fn->unusable = ptx_strndup(message, strlen(message));
        if (fn->unusable == NULL)
            return ptx_fail(p, at, "out of memory");
        fn->unusable_ptx_line = at->line;
        /* the source frame (+ 1; 0: none), until ptx_resolve_user_lines
         * turns it into a line */
        fn->unusable_line = (uint32_t)(p->loc_frame + 1);
    }
    return skip_statement(p, at);
}
