/* ptx_lex.c - the PTX tokenizer: text in, a flat token array out.
 *
 * defines: ptx_lex, ptx_tokens_free
 *
 * The text is not NUL-terminated: every look at a character checks `len`.
 * Words are identifier characters plus '.', with "::" allowed inside
 * (`ld.global.L1::no_allocate`) so a label's single ':' still ends it;
 * a word that starts with '.' (a directive or declaration word) ends at
 * its next '.'. Numbers
 * start with a digit and run over letters, digits and '.', taking a sign
 * only right after a decimal exponent ('1e-3').
 */
#include "ptx_lex.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

#define PTX_MAX_TOKEN_LEN 65536u

typedef struct lexer {
    const char *text;
    size_t len;
    size_t pos;
    uint32_t line;
    size_t line_start;     /* offset of the first byte of the current line */
    ptx_tokens *out;
    cured_model_parse_error *err;
} lexer;

/* 1 for characters that may start an identifier-like word. */
static int is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '$' || c == '%';
}

/* 1 for characters that may continue a word or a number. */
static int is_word_char(char c)
{
    return is_word_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The character at offset i, or 0 past the end. */
static char peek_at(const lexer *lx, size_t i)
{
    return i < lx->len ? lx->text[i] : '\0';
}

/* 1-based column of `offset` on the current line (saturating). */
static uint32_t column_of(const lexer *lx, size_t offset)
{
    size_t col = offset - lx->line_start + 1;
    return col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
}

/* Records an error at `offset` on the current line. Returns -1. */
static int lex_fail(lexer *lx, size_t offset, const char *what, char c)
{
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
        ptx_error_setf(lx->err, lx->line, column_of(lx, offset), "%s '%c'",
                       what, c);
    else
        ptx_error_setf(lx->err, lx->line, column_of(lx, offset),
                       "%s (byte 0x%02x)", what, (unsigned char)c);
    return -1;
}

/* Appends a token [start, end). Returns 0 or -1 (too long, no memory). */
static int emit(lexer *lx, ptx_token_kind kind, size_t start, size_t end,
                uint32_t line, uint32_t column)
{
    if (end - start > PTX_MAX_TOKEN_LEN) {
        ptx_error_setf(lx->err, line, column, "token longer than %u bytes",
                       PTX_MAX_TOKEN_LEN);
        return -1;
    }
    ptx_tokens *t = lx->out;
    if (cured_grow((void **)&t->items, &t->capacity, t->count + 1,
                 sizeof *t->items) != 0) {
        ptx_error_setf(lx->err, line, column, "out of memory");
        return -1;
    }
    ptx_token *tok = &t->items[t->count++];
    tok->kind = (uint8_t)kind;
    tok->punct = kind == PTX_TOK_PUNCT ? lx->text[start] : '\0';
    tok->len = (uint32_t)(end - start);
    tok->line = line;
    tok->column = column;
    tok->offset = start;
    return 0;
}

/* Skips a block comment starting at lx->pos (at its opening slash-star).
 * Returns 0, or -1 when it never ends. */
static int skip_block_comment(lexer *lx)
{
    size_t start = lx->pos;
    uint32_t line = lx->line;
    uint32_t column = column_of(lx, start);
    lx->pos += 2;
    while (lx->pos < lx->len) {
        char c = lx->text[lx->pos];
        if (c == '*' && peek_at(lx, lx->pos + 1) == '/') {
            lx->pos += 2;
            return 0;
        }
        lx->pos++;
        if (c == '\n') {
            lx->line++;
            lx->line_start = lx->pos;
        }
    }
    ptx_error_setf(lx->err, line, column, "unterminated /* comment");
    return -1;
}

/* Scans a word (identifier, directive, opcode) at lx->pos. A directive
 * word ends at its next dot: `.reg.b32` is `.reg` then `.b32`, as ptxas
 * reads it; an opcode keeps its dots (`ld.global.u32`). */
static size_t scan_word(const lexer *lx, size_t i)
{
    int directive = lx->text[i] == '.';
    i++;
    for (;;) {
        char c = peek_at(lx, i);
        if (directive && c == '.') {
            return i;
        } else if (is_word_char(c)) {
            i++;
        } else if (c == ':' && peek_at(lx, i + 1) == ':' &&
                   is_word_char(peek_at(lx, i + 2))) {
            i += 2;
        } else {
            return i;
        }
    }
}

/* Scans a number at lx->pos (which is a digit). */
static size_t scan_number(const lexer *lx, size_t i)
{
    size_t start = i;
    char second = peek_at(lx, start + 1);
    int prefixed = lx->text[start] == '0' &&
                   (second == 'x' || second == 'X' || second == 'f' ||
                    second == 'F' || second == 'd' || second == 'D' ||
                    second == 'b' || second == 'B');
    i++;
    for (;;) {
        char c = peek_at(lx, i);
        if (is_word_char(c)) {
            i++;
        } else if ((c == '+' || c == '-') && !prefixed &&
                   (lx->text[i - 1] == 'e' || lx->text[i - 1] == 'E') &&
                   is_digit(peek_at(lx, i + 1))) {
            i++;
        } else {
            return i;
        }
    }
}

/* Scans a string at lx->pos ('"'); strings stay on one line. Returns the
 * end offset, or 0 when unterminated. */
static size_t scan_string(const lexer *lx, size_t i)
{
    i++;
    while (i < lx->len) {
        char c = lx->text[i];
        if (c == '"')
            return i + 1;
        if (c == '\n')
            return 0;
        if (c == '\\' && i + 1 < lx->len && lx->text[i + 1] != '\n')
            i++;
        i++;
    }
    return 0;
}

/* 1 for the punctuation characters PTX uses. */
static int is_punct(char c)
{
    return c != '\0' && strchr(";,{}[]()<>+-|!@=:", c) != NULL;
}

int ptx_lex(const char *text, size_t len, ptx_tokens *out, cured_model_parse_error *err)
{
    lexer lx = {text, len, 0, 1, 0, out, err};
    while (lx.pos < len) {
        char c = text[lx.pos];
        size_t start = lx.pos;
        uint32_t column = column_of(&lx, start);
        if (c == '\n') {
            lx.pos++;
            lx.line++;
            lx.line_start = lx.pos;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx.pos++;
            continue;
        }
        if (c == '/' && peek_at(&lx, start + 1) == '/') {
            while (lx.pos < len && text[lx.pos] != '\n')
                lx.pos++;
            continue;
        }
        if (c == '/' && peek_at(&lx, start + 1) == '*') {
            if (skip_block_comment(&lx) != 0)
                goto fail;
            continue;
        }
        int rc;
        if (is_word_start(c) || (c == '.' && is_word_start(peek_at(&lx, start + 1)))) {
            lx.pos = scan_word(&lx, start);
            rc = emit(&lx, PTX_TOK_WORD, start, lx.pos, lx.line, column);
        } else if (is_digit(c)) {
            lx.pos = scan_number(&lx, start);
            rc = emit(&lx, PTX_TOK_NUMBER, start, lx.pos, lx.line, column);
        } else if (c == '"') {
            size_t end = scan_string(&lx, start);
            if (end == 0) {
                ptx_error_setf(err, lx.line, column, "unterminated string");
                goto fail;
            }
            lx.pos = end;
            rc = emit(&lx, PTX_TOK_STRING, start, end, lx.line, column);
        } else if (is_punct(c)) {
            lx.pos++;
            rc = emit(&lx, PTX_TOK_PUNCT, start, lx.pos, lx.line, column);
        } else if (c == '#') {
            ptx_error_setf(err, lx.line, column,
                           "preprocessor directives ('#') are not supported");
            goto fail;
        } else {
            lex_fail(&lx, start, "unexpected character", c);
            goto fail;
        }
        if (rc != 0)
            goto fail;
    }
    if (emit(&lx, PTX_TOK_EOF, len, len, lx.line, column_of(&lx, len)) != 0)
        goto fail;
    return 0;
fail:
    ptx_tokens_free(out);
    return -1;
}

void ptx_tokens_free(ptx_tokens *tokens)
{
    free(tokens->items);
    tokens->items = NULL;
    tokens->count = 0;
    tokens->capacity = 0;
}
