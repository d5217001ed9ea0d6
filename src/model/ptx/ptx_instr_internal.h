/* ptx_instr_internal.h - what the instruction decoder's two files share
 * (ptx_instr.c: the opcode word; ptx_instr_operands.c: the operands).
 *
 * defines: ptx_decode, WORD_FMT, WORD_ARGS, ptx_parse_operands,
 *          ptx_parse_bar_red, ptx_parse_call, ptx_check_operands
 *
 * Operand patterns are strings, one letter an operand:
 *   d  register written            D  register or {vector} written
 *   q  register written, optionally `d|p` (a second, predicate, result)
 *   P  predicate written, optionally `p|q`      T  predicate written
 *   s  register, immediate or special register
 *   p  predicate (`!` allowed) or an immediate 0/1
 *   m  as s, or a variable's address, or a {vector} (mov)
 *   y  register or variable (cvta)    v  register, immediate or {vector}
 *   a  [address]                      l  label
 */
#ifndef CURED_PTX_INSTR_INTERNAL_H
#define CURED_PTX_INSTR_INTERNAL_H

#include "ptx_parser.h"

#include <stdint.h>

struct opcode_spec;   /* ptx_instr.c's table entry */

/* Decoding state beyond the record itself. */
typedef struct ptx_decode {
    const ptx_token *word;
    const struct opcode_spec *spec;
    ptx_type types[2];
    int ntypes;
    int saw_sync;
    int saw_scope;
    int cache_hint;        /* .L2::cache_hint: one more operand */
    uint8_t sem;           /* barrier.cluster's .release/.relaxed/.acquire */
    char pattern[8];       /* the operands to read, one letter each */
    uint8_t min_ops;       /* how many of them must be there */
    const char *unknown;   /* a modifier no entry accepts (not NUL-ended) */
    size_t unknown_len;
} ptx_decode;

/* Quotes the whole opcode word in messages. */
#define WORD_FMT "'%.*s'"
#define WORD_ARGS(p, d) ptx_show_len((d)->word), ptx_text((p), (d)->word)

/* Reads the operands d->pattern describes (at least d->min_ops of them),
 * through the closing ';'; label operands become fixups. */
int ptx_parse_operands(ptx_parser *p, ptx_decode *d, ptx_instr *ins);

/* bar.red: `d, a{, b}, {!}c` is stored as d, a, b (NONE when absent), c;
 * through the closing ';'. */
int ptx_parse_bar_red(ptx_parser *p, ptx_decode *d, ptx_instr *ins);

/* call{.uni} {(ret),} target{, (args)}; after the opcode word, through
 * the ';'. A target not yet declared becomes a call fixup. */
int ptx_parse_call(ptx_parser *p, ptx_decode *d, ptx_instr *ins);

/* Checks that the operands read agree with .v2/.v4 and with each other. */
int ptx_check_operands(ptx_parser *p, ptx_decode *d, ptx_instr *ins);

#endif /* CURED_PTX_INSTR_INTERNAL_H */
