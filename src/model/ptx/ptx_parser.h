/* ptx_parser.h - the PTX parser's internal state and the functions its
 * files share (not part of the model's interface: see ptx.h).
 *
 * defines: ptx_parser, ptx_scope (names with nested scopes), ptx_number,
 *          ptx_loc_site and ptx_loc_frame (.loc inlining chains),
 *          the token cursor (ptx_cursor.c), name tables (ptx_names.c),
 *          module building (ptx_module.c), directives (ptx_directive.c),
 *          function headers (ptx_function.c) and bodies (ptx_body.c),
 *          declarations (ptx_decl.c), operands (ptx_operand.c),
 *          instructions (ptx_instr.c, ptx_instr_operands.c) and the
 *          final resolution and layout (ptx_layout.c)
 *
 * Parsing is one pass over the token array. Names are resolved as they are
 * met (PTX declares before use), except branch targets and call targets,
 * which are recorded as fixups and resolved when their function or the
 * module ends. The first error stops the parse; every function returning
 * int returns 0 on success and -1 after recording that error. An
 * instruction the model cannot decode is not an error: ptx_unsupported
 * marks its function unusable and the parse goes on.
 */
#ifndef CURED_PTX_PARSER_H
#define CURED_PTX_PARSER_H

#include "ptx.h"
#include "ptx_lex.h"

#include <stddef.h>
#include <stdint.h>

/* Limits that keep hostile input from exhausting memory. */
#define PTX_MAX_REGISTERS (1 << 20)        /* per function */
#define PTX_MAX_MODULE_REGISTERS (1 << 22) /* all functions together */
#define PTX_MAX_OBJECT_BYTES ((uint64_t)1 << 40)
#define PTX_MAX_INIT_BYTES ((uint64_t)1 << 28) /* initialised data, all told */
#define PTX_MAX_FILES 65535
#define PTX_MAX_NESTING 256                /* `{ }` blocks in a function */

/* ------------------------------------------------------------- scopes */

enum { PTX_BIND_REG = 1, PTX_BIND_SYM, PTX_BIND_FUNC, PTX_BIND_LABEL };

typedef struct ptx_binding {
    const char *name;      /* not owned; lives as long as the binding */
    uint32_t len;
    uint8_t kind;          /* PTX_BIND_* */
    uint16_t depth;        /* scope depth it was declared at */
    int32_t index;         /* register slot, symbol, function or instruction */
    int32_t shadowed;      /* binding of the same name it hides, or -1 */
} ptx_binding;

/* Names visible at a point: a hash table from name to its innermost
 * binding, and the stack of bindings that popping a scope unwinds. */
typedef struct ptx_scope {
    ptx_binding *bindings;
    size_t nbindings, bindings_cap;
    int32_t *table;        /* binding index, -1 empty, -2 deleted */
    size_t table_cap;      /* power of two */
    size_t table_used;     /* slots not empty (live or deleted) */
    size_t *marks;         /* nbindings at each open scope */
    size_t nmarks, marks_cap;
} ptx_scope;

/* Opens a scope. Returns 0 or -1 (out of memory). */
int ptx_scope_push(ptx_scope *scope);
/* Closes the innermost scope, forgetting its names. Can't fail. */
void ptx_scope_pop(ptx_scope *scope);
/* The innermost binding of name[0..len), or NULL. */
const ptx_binding *ptx_scope_find(const ptx_scope *scope, const char *name,
                                  size_t len);
/* Binds a name in the innermost scope. Returns 0, 1 when the name is
 * already bound in this same scope (nothing changes), -1 out of memory. */
int ptx_scope_bind(ptx_scope *scope, const char *name, size_t len,
                   uint8_t kind, int32_t index);
/* Frees everything. Can't fail. */
void ptx_scope_free(ptx_scope *scope);

/* ------------------------------------------------------------- parser */

/* A reference resolved later: a branch target (label) or a call target. */
typedef struct ptx_fixup {
    int32_t function;
    int32_t instr;
    int32_t operand;       /* label: operand index; call: unused */
    int32_t depth;         /* label: the block it is looked up in next */
    size_t token;          /* the name's token */
} ptx_fixup;

/* A recent .loc and the outermost site it was inlined from. */
typedef struct ptx_loc_site {
    uint32_t file, line, column;
    uint16_t site_file;
    uint32_t site_line;
    int32_t frame;         /* its frame in ptx_parser.frames */
} ptx_loc_site;

/* One location of an inlining chain: a .loc's file and line, and the
 * frame of the location it was inlined at (-1: none; always an earlier
 * frame). Kept for the whole module: which files belong to the CUDA
 * toolkit is known only when every .file is read (nvcc writes them last),
 * and only then can an instruction's user line be chosen. */
typedef struct ptx_loc_frame {
    uint32_t line;
    uint16_t file;
    int32_t caller;
} ptx_loc_frame;

#define PTX_LOC_HISTORY 32

typedef struct ptx_parser {
    const char *text;
    size_t len;
    ptx_tokens toks;
    size_t pos;            /* next token */
    cured_model_parse_error *err;
    cured_model_module *m;
    size_t functions_cap, symbols_cap, files_cap;
    uint64_t module_registers;   /* registers declared so far, all functions */
    uint64_t init_bytes;         /* initialised data allocated so far */

    ptx_scope names;       /* module, function and block scopes */
    ptx_scope labels;      /* the current function's labels, by block */
    ptx_fixup *call_fixups;
    size_t ncall_fixups, call_fixups_cap;

    /* the function being parsed (fn < 0 at module scope) */
    int32_t fn;
    int32_t block_depth;   /* 1 in the body's own block, more in `{ }` */
    size_t code_cap, regs_cap, call_params_cap;
    ptx_fixup *label_fixups;
    size_t nlabel_fixups, label_fixups_cap;
    uint16_t loc_file, site_file;
    uint32_t loc_line, site_line;
    ptx_loc_site loc_history[PTX_LOC_HISTORY];
    unsigned loc_count;
    ptx_loc_frame *frames; /* every .loc of the module, and the inlined_at
                              sites no recent .loc named */
    size_t nframes, frames_cap;
    int32_t loc_frame;     /* the frame of the current .loc, -1 for none */
} ptx_parser;

/* --------------------------------------------- cursor (ptx_cursor.c) */

/* The token `ahead` places after the cursor (the EOF token past the end). */
const ptx_token *ptx_peek(const ptx_parser *p, size_t ahead);
/* Returns the token at the cursor and moves past it (never past EOF). */
const ptx_token *ptx_next(ptx_parser *p);
/* The token's text (not NUL-terminated; t->len bytes). */
const char *ptx_text(const ptx_parser *p, const ptx_token *t);
/* 1 when t is the word `word` exactly. */
int ptx_is_word(const ptx_parser *p, const ptx_token *t, const char *word);
/* 1 when t is the punctuation character c. */
int ptx_is_punct(const ptx_token *t, char c);
/* 1 when t is a word starting with '.' (a directive). */
int ptx_is_directive(const ptx_parser *p, const ptx_token *t);
/* Consumes punctuation c or fails naming `context` and what was found. */
int ptx_expect(ptx_parser *p, char c, const char *context);
/* Records the error "line N: <message>" at token t. Returns -1. */
int ptx_fail(ptx_parser *p, const ptx_token *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records the error "expected <what>, found <t described>". Returns -1. */
int ptx_fail_expected(ptx_parser *p, const ptx_token *t, const char *what);
/* How a token is quoted in messages: printf "%.*s" with these two. */
int ptx_show_len(const ptx_token *t);
/* A short description of a token for "expected X, found Y" messages. */
void ptx_describe(const ptx_parser *p, const ptx_token *t, char *buf,
                  size_t size);

/* ------------------------------------------ numbers (ptx_operand.c) */

typedef enum ptx_number_kind {
    PTX_NUM_INT = 1,       /* decimal, hex, octal, binary; value in bits */
    PTX_NUM_F32_BITS,      /* 0fXXXXXXXX: bits holds the 32 bits */
    PTX_NUM_F64_BITS,      /* 0dXXXXXXXXXXXXXXXX */
    PTX_NUM_DECIMAL_FLOAT  /* 1.5, 1e-3: value in real */
} ptx_number_kind;

typedef struct ptx_number {
    ptx_number_kind kind;
    uint64_t bits;         /* INT: two's complement value; F32/F64 bits */
    double real;           /* DECIMAL_FLOAT */
} ptx_number;

/* Decodes a NUMBER token, negated when `negative`. Fails on malformed or
 * out-of-range literals. */
int ptx_decode_number(ptx_parser *p, const ptx_token *t, int negative,
                      ptx_number *out);
/* Parses an optional '-' and a non-negative-or-negative integer literal
 * at the cursor into *value. */
int ptx_parse_int(ptx_parser *p, int64_t *value, const char *context);
/* Converts a literal to the bits an operand of `type` holds (float
 * literals to that float format; integer literals as they are). Fails
 * when the literal does not suit the type, as ptxas does. */
int ptx_number_to_bits(ptx_parser *p, const ptx_token *t,
                       const ptx_number *num, ptx_type type, uint64_t *bits);
/* A literal for a value of `type` at the cursor: an optional '-', then a
 * number (anything else fails as "expected <what>, found ..."), decoded
 * into *num and converted into *bits (ptx_number_to_bits). */
int ptx_parse_literal(ptx_parser *p, ptx_type type, const char *what, ptx_number *num,
                      uint64_t *bits);

/* ----------------------------------------- name tables (ptx_names.c) */

/* The type named s[0..n) without its dot ("u32"), or PTX_T_NONE. */
ptx_type ptx_type_from_name(const char *s, size_t n);
/* The state space named s[0..n) without its dot, or PTX_S_NONE. */
ptx_space ptx_space_from_name(const char *s, size_t n);
/* Decodes a special register word ("%tid.x"): 0 and *sreg, *comp set, or
 * -1 when it is not one. */
int ptx_sreg_from_name(const char *s, size_t n, uint8_t *sreg,
                       uint8_t *comp);
/* 1 for the float types (f16, f16x2, bf16, bf16x2, f32, f64). */
int ptx_type_is_float(ptx_type type);

/* -------------------------------------- module building (ptx_module.c) */

/* The function being parsed. */
ptx_function *ptx_current(ptx_parser *p);
/* Appends a symbol (name copied from name[0..len)) and returns its index
 * in *index. */
int ptx_add_symbol(ptx_parser *p, const ptx_token *at, const char *name,
                   size_t len, const ptx_symbol *proto, int32_t *index);
/* Appends a register to the current function, taking ownership of
 * `name` (freed on failure), binds it in the innermost scope. */
int ptx_add_register(ptx_parser *p, const ptx_token *at, char *name,
                     size_t len, ptx_type type);
/* Binds a name in the innermost scope, failing on a duplicate. */
int ptx_bind(ptx_parser *p, const ptx_token *at, const char *name,
             size_t len, uint8_t kind, int32_t index);
/* Appends an instruction to the current function; *out points at it. */
int ptx_add_instr(ptx_parser *p, const ptx_token *at, ptx_instr **out);
/* Appends symbol indices to the current function's call_params. */
int ptx_add_call_param(ptx_parser *p, const ptx_token *at, int32_t symbol);
/* Records a fixup in one of the parser's lists. */
int ptx_add_fixup(ptx_parser *p, const ptx_token *at, ptx_fixup **list,
                  size_t *count, size_t *cap, const ptx_fixup *fixup);

/* --------------------------------------- declarations (ptx_decl.c) */

/* `.reg ...;` after the .reg word. */
int ptx_parse_reg_decl(ptx_parser *p);
/* A variable declaration whose first word (the state space, after any
 * linkage words) is at the cursor: `.shared .align 4 .b8 s[64];` and
 * comma lists, with initialisers where the space allows. Module scope
 * when p->fn < 0. */
int ptx_parse_var_decl(ptx_parser *p, int is_extern);
/* One parameter in a function header or a return list:
 * `.param .u64 .ptr .global .align 1 name`, `.param .align 8 .b8 p[16]`
 * (stops before ',' or ')'); *symbol receives its index. */
int ptx_parse_param(ptx_parser *p, int32_t function, int32_t *symbol);

/* ------------------------------------ directives (ptx_directive.c) */

/* A directive that stands alone at module scope (.version, .target,
 * .address_size, .file, .section, .loc, .pragma) at the cursor: parses it
 * and returns 0, or -1 after an error; returns 1, consuming nothing, when
 * the token at the cursor is none of them. */
int ptx_parse_module_directive(ptx_parser *p);
/* `.loc file line [col] {, function_name label[+N] | , inlined_at f l c}`
 * after the .loc word. The instructions that follow get the innermost
 * location; their site is the outermost caller, found by following
 * inlined_at through the recent .loc lines (nvcc emits a chain, outermost
 * first). */
int ptx_parse_loc(ptx_parser *p);
/* Gives every instruction its user line (ptx_instr.user_file/user_line)
 * from the frame ptx_add_instr recorded: the innermost frame of its chain
 * that is not in a CUDA toolkit header; the same for the instruction each
 * unusable function names (ptx_function.unusable_file/line, from the
 * frame ptx_unsupported recorded). Called at the end of the text, once
 * every .file is known. Returns 0 or -1 (out of memory). */
int ptx_resolve_user_lines(ptx_parser *p);
/* `"nounroll"{, "..."};` after the .pragma word (skipped). */
int ptx_skip_pragma(ptx_parser *p);
/* An integer in [lo, hi] at the cursor, for a directive; `what` names it
 * in the error. */
int ptx_parse_bounded(ptx_parser *p, const char *what, int64_t lo, int64_t hi,
                      int64_t *value);

/* ------------------------ functions (ptx_function.c, ptx_body.c) */

/* `.entry name (params) ... { body }` or `.func (rets) name (params) ...`,
 * a definition or a prototype ending in ';'. The keyword is at the cursor.
 * A prototype may come before or after the definition; the definition's
 * parameters are the ones kept. */
int ptx_parse_function(ptx_parser *p, int is_extern, int is_visible);
/* The current function's body after its '{' (at the cursor), through the
 * matching '}'. */
int ptx_parse_body(ptx_parser *p);
/* An instruction at token `at` that the model cannot decode in a
 * statement that is otherwise well formed (an unknown opcode or
 * modifier): records the message (printf-style, without a line) as the
 * current function's reason to be unusable, the first one only, and skips
 * the rest of the statement through its ';', so the body parses on.
 * Returns 0, or -1 after an error when the statement never ends (end of
 * input, a '}' or a directive before its ';') or out of memory. */
int ptx_unsupported(ptx_parser *p, const ptx_token *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ----------------------------------------- operands (ptx_operand.c) */

/* What an operand position accepts (see ptx_parse_operand). */
enum {
    PTX_ACCEPT_REG = 1u << 0,
    PTX_ACCEPT_IMM = 1u << 1,
    PTX_ACCEPT_SREG = 1u << 2,
    PTX_ACCEPT_SYM = 1u << 3,
    PTX_ACCEPT_VEC = 1u << 4,
    PTX_ACCEPT_ADDR = 1u << 5,
    PTX_ACCEPT_LABEL = 1u << 6,
    PTX_ACCEPT_NEG = 1u << 7,     /* `!%p` */
    PTX_ACCEPT_DEST = 1u << 8,    /* a written operand: sinks in vectors */
    PTX_ACCEPT_PRED = 1u << 9     /* the register must be a .pred */
};

/* Parses one operand at the cursor into *out, checking it is one of the
 * `accept` kinds. Immediates are converted for `type` (see
 * ptx_number_to_bits). A label is left for the caller to fix up: kind
 * LABEL with imm -1 and *label_token set. */
int ptx_parse_operand(ptx_parser *p, unsigned accept, ptx_type type,
                      ptx_operand *out, size_t *label_token);

/* -------------------------------------- instructions (ptx_instr.c) */

/* One instruction from its opcode word through ';', guarded by
 * `guard` (-1 for none). Appends it to the current function. */
int ptx_parse_instruction(ptx_parser *p, int32_t guard, int guard_neg);

/* -------------------------------------------- layout (ptx_layout.c) */

/* Resolves the label fixups waiting on the block at `depth`, which is
 * closing: labels are scoped to their block (a branch may reach a label
 * of its own or an enclosing block, before or after it). The unresolved
 * ones move to the enclosing block; at depth 1 they are errors. */
int ptx_close_block_labels(ptx_parser *p, int32_t depth);
/* Resolves call targets, marks the callers of unusable functions
 * unusable, gives instructions their user lines, lays out shared memory
 * and computes every function's shared_static_bytes. Called at the end of
 * the text. */
int ptx_finish_module(ptx_parser *p);

#endif /* CURED_PTX_PARSER_H */
