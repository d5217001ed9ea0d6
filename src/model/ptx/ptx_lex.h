/* ptx_lex.h - the PTX tokenizer (internal to the parser).
 *
 * defines: ptx_token_kind, ptx_token, ptx_tokens, ptx_lex, ptx_tokens_free
 *
 * The lexer turns PTX text into a flat token array that the parser walks
 * with any lookahead it needs. Words keep their dots: `ld.global.u32`,
 * `.reg`, `%tid.x` and `.L2::128B` are each one word; numbers keep their
 * literal spelling for the parser to decode.
 */
#ifndef CURED_PTX_LEX_H
#define CURED_PTX_LEX_H

#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

typedef enum ptx_token_kind {
    PTX_TOK_EOF = 0,
    PTX_TOK_WORD,    /* identifier, directive, opcode with modifiers */
    PTX_TOK_NUMBER,  /* 42, 0x1F, 0f3F800000, 1.5e-3 ... as spelt */
    PTX_TOK_STRING,  /* "..." (text includes the quotes) */
    PTX_TOK_PUNCT    /* one character: ; , { } [ ] ( ) < > + - | ! @ = : */
} ptx_token_kind;

typedef struct ptx_token {
    uint8_t kind;          /* ptx_token_kind */
    char punct;            /* PUNCT: the character */
    uint32_t len;          /* bytes of text */
    uint32_t line;         /* 1-based */
    uint32_t column;       /* 1-based, in bytes */
    size_t offset;         /* start in the text */
} ptx_token;

typedef struct ptx_tokens {
    ptx_token *items;      /* count tokens, the last one PTX_TOK_EOF */
    size_t count;
    size_t capacity;
} ptx_tokens;

/* Tokenizes text[0..len) into *out (which must be zeroed). Comments are
 * dropped. Returns 0, or -1 with *err filled (unterminated comment or
 * string, a character PTX does not use, a token over 64 KiB, out of
 * memory); *out is then freed. */
int ptx_lex(const char *text, size_t len, ptx_tokens *out, cured_model_parse_error *err);

/* Frees the token array. Can't fail. */
void ptx_tokens_free(ptx_tokens *tokens);

#endif /* CURED_PTX_LEX_H */
