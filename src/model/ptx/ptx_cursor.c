/* ptx_cursor.c - the parser's walk over the token array, and its errors.
 *
 * defines: ptx_peek, ptx_next, ptx_text, ptx_is_word, ptx_is_punct,
 *          ptx_is_directive, ptx_expect, ptx_fail, ptx_fail_expected,
 *          ptx_show_len, ptx_describe
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Longest token text quoted in an error message. */
#define PTX_SHOW_MAX 60

const ptx_token *ptx_peek(const ptx_parser *p, size_t ahead)
{
    size_t last = p->toks.count - 1;   /* the EOF token */
    size_t i = p->pos + ahead;
    if (i < p->pos || i > last)
        i = last;
    return &p->toks.items[i];
}

const ptx_token *ptx_next(ptx_parser *p)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TOK_EOF)
        p->pos++;
    return t;
}

const char *ptx_text(const ptx_parser *p, const ptx_token *t)
{
    return p->text + t->offset;
}

int ptx_is_word(const ptx_parser *p, const ptx_token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == PTX_TOK_WORD && t->len == n &&
           memcmp(ptx_text(p, t), word, n) == 0;
}

int ptx_is_punct(const ptx_token *t, char c)
{
    return t->kind == PTX_TOK_PUNCT && t->punct == c;
}

int ptx_is_directive(const ptx_parser *p, const ptx_token *t)
{
    return t->kind == PTX_TOK_WORD && t->len > 1 && ptx_text(p, t)[0] == '.';
}

int ptx_show_len(const ptx_token *t)
{
    return t->len > PTX_SHOW_MAX ? PTX_SHOW_MAX : (int)t->len;
}

void ptx_describe(const ptx_parser *p, const ptx_token *t, char *buf,
                  size_t size)
{
    if (t->kind == PTX_TOK_EOF)
        snprintf(buf, size, "end of input");
    else
        snprintf(buf, size, "'%.*s'", ptx_show_len(t), ptx_text(p, t));
}

int ptx_expect(ptx_parser *p, char c, const char *context)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (ptx_is_punct(t, c)) {
        ptx_next(p);
        return 0;
    }
    char found[80];
    ptx_describe(p, t, found, sizeof found);
    return ptx_fail(p, t, "expected '%c' %s, found %s", c, context, found);
}

int ptx_fail_expected(ptx_parser *p, const ptx_token *t, const char *what)
{
    char found[80];
    ptx_describe(p, t, found, sizeof found);
    return ptx_fail(p, t, "expected %s, found %s", what, found);
}

int ptx_fail(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
{
    char message[sizeof p->err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    ptx_error_setf(p->err, t->line, t->column, "%s", message);
    return -1;
}
