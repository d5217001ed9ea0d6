/* ptx_decl.c - declarations: registers, variables in every state space,
 * function parameters, with alignment, arrays and initialisers.
 *
 * defines: ptx_parse_reg_decl, ptx_parse_var_decl, ptx_parse_param
 *
 * A declaration is a run of dotted words (state space, .align N, .v2/.v4,
 * a type, .ptr with its own space and alignment), then one or more names,
 * each with `<N>` (a register range), array dimensions `[N]` / `[]` and
 * an initialiser `= v` / `= {v, ...}` (.global and .const only).
 * Locals and the global data image are laid out as they are declared;
 * parameters by their function header; shared memory at the module's end
 * (ptx_layout.c).
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_MAX_ALIGN 65536

typedef struct decl_attrs {
    ptx_space space;
    ptx_type type;
    unsigned vec;          /* 1, 2, 4 (or 8) */
    uint32_t align;        /* 0 when not given */
    int is_ptr;
    const ptx_token *first;
} decl_attrs;

/* Values collected from an initialiser, before the symbol's size is known
 * (`x[] = {1, 2}`). */
typedef struct init_values {
    uint64_t *bits;
    size_t count, cap;
} init_values;

/* Parses `.align N` (the .align word at the cursor) into *align. */
static int parse_align(ptx_parser *p, uint32_t *align)
{
    const ptx_token *t = ptx_next(p);
    int64_t v;
    if (ptx_parse_int(p, &v, "after .align") != 0)
        return -1;
    if (v <= 0 || v > PTX_MAX_ALIGN || (v & (v - 1)) != 0)
        return ptx_fail(p, t, ".align %lld is not a power of two up to %d",
                        (long long)v, PTX_MAX_ALIGN);
    *align = (uint32_t)v;
    return 0;
}

/* The dotted words of a declaration, the space word at the cursor. */
static int parse_attrs(ptx_parser *p, decl_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->vec = 1;
    a->first = ptx_peek(p, 0);
    int ptr_space_seen = 0;
    while (ptx_is_directive(p, ptx_peek(p, 0))) {
        const ptx_token *t = ptx_peek(p, 0);
        const char *w = ptx_text(p, t) + 1;
        size_t n = t->len - 1;
        ptx_space space = ptx_space_from_name(w, n);
        ptx_type type = ptx_type_from_name(w, n);
        if (ptx_is_word(p, t, ".align")) {
            uint32_t align = 0;
            if (parse_align(p, &align) != 0)
                return -1;
            if (!a->is_ptr)
                a->align = align;
            continue;
        }
        ptx_next(p);
        if (space != PTX_S_NONE) {
            if (a->is_ptr && !ptr_space_seen && space != PTX_S_REG) {
                ptr_space_seen = 1;
            } else if (a->space != PTX_S_NONE) {
                return ptx_fail(p, t, "second state space '%.*s' in declaration",
                                ptx_show_len(t), ptx_text(p, t));
            } else {
                a->space = space;
            }
        } else if (type != PTX_T_NONE) {
            if (a->type != PTX_T_NONE)
                return ptx_fail(p, t, "second type '%.*s' in declaration",
                                ptx_show_len(t), ptx_text(p, t));
            a->type = type;
        } else if (ptx_is_word(p, t, ".v2") || ptx_is_word(p, t, ".v4") ||
                   ptx_is_word(p, t, ".v8")) {
            a->vec = (unsigned)(ptx_text(p, t)[2] - '0');
        } else if (ptx_is_word(p, t, ".ptr")) {
            if (a->space != PTX_S_PARAM)
                return ptx_fail(p, t, ".ptr outside a .param declaration");
            a->is_ptr = 1;
        } else {
            return ptx_fail(p, t, "unknown word '%.*s' in declaration",
                            ptx_show_len(t), ptx_text(p, t));
        }
    }
    if (a->space == PTX_S_NONE)
        return ptx_fail(p, a->first, "declaration without a state space");
    if (a->type == PTX_T_NONE) {
        char found[80];
        ptx_describe(p, ptx_peek(p, 0), found, sizeof found);
        return ptx_fail(p, ptx_peek(p, 0), "declaration without a type before %s",
                        found);
    }
    return 0;
}

/* Expects an identifier (not a directive) at the cursor. */
static int parse_name(ptx_parser *p, const ptx_token **name, const char *what)
{
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TOK_WORD || ptx_is_directive(p, t)) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "expected %s name, found %s", what, found);
    }
    *name = ptx_next(p);
    return 0;
}

/* `[N][M]...` or `[]` after a name: *count gets the element count (1 for
 * none), *unsized 1 for `[]`. */
static int parse_dims(ptx_parser *p, uint64_t elem_size, uint64_t *count,
                      int *unsized)
{
    *count = 1;
    *unsized = 0;
    int dims = 0;
    while (ptx_is_punct(ptx_peek(p, 0), '[')) {
        const ptx_token *open = ptx_next(p);
        if (ptx_is_punct(ptx_peek(p, 0), ']')) {
            if (dims != 0)
                return ptx_fail(p, open, "only the first dimension may be empty");
            ptx_next(p);
            *unsized = 1;
            dims++;
            continue;
        }
        int64_t n;
        if (ptx_parse_int(p, &n, "array size") != 0)
            return -1;
        if (n <= 0)
            return ptx_fail(p, open, "array size %lld is not positive", (long long)n);
        if ((uint64_t)n > PTX_MAX_OBJECT_BYTES / elem_size / *count)
            return ptx_fail(p, open, "array too large");
        *count *= (uint64_t)n;
        dims++;
        if (ptx_expect(p, ']', "after the array size") != 0)
            return -1;
    }
    return 0;
}

/* Checks an integer literal fits `bytes` bytes (signed or unsigned). */
static int fits_width(uint64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return 1;
    unsigned bits = bytes * 8;
    uint64_t high = v >> bits;
    if (high == 0)
        return 1;
    int64_t s = (int64_t)v;
    return s < 0 && s >= -((int64_t)1 << (bits - 1));
}

/* One scalar initialiser value. */
static int parse_init_value(ptx_parser *p, ptx_type type, init_values *vals)
{
    const ptx_token *t = ptx_peek(p, ptx_is_punct(ptx_peek(p, 0), '-') ? 1 : 0);
    if (t->kind == PTX_TOK_WORD)
        return ptx_fail(p, t, "address initialisers ('%.*s') are not supported",
                        ptx_show_len(t), ptx_text(p, t));
    ptx_number num;
    uint64_t bits;
    if (ptx_parse_literal(p, type, "an initialiser value", &num, &bits) != 0)
        return -1;
    if (num.kind == PTX_NUM_INT && !fits_width(bits, ptx_type_size(type)))
        return ptx_fail(p, t, "initialiser %.*s does not fit .%s", ptx_show_len(t),
                        ptx_text(p, t), ptx_type_name(type));
    if ((uint64_t)(vals->count + 1) * ptx_type_size(type) > PTX_MAX_INIT_BYTES)
        return ptx_fail(p, t, "initialiser too large");
    if (cured_grow((void **)&vals->bits, &vals->cap, vals->count + 1,
                 sizeof *vals->bits) != 0)
        return ptx_fail(p, t, "out of memory");
    vals->bits[vals->count++] = bits;
    return 0;
}

/* `= v` or `= {v, {v, v}, ...}` (nested braces are flattened in order).
 * Iterative, so deep nesting cannot exhaust the stack. */
static int parse_initialiser(ptx_parser *p, ptx_type type, init_values *vals)
{
    int depth = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (ptx_is_punct(t, '{')) {
            ptx_next(p);
            if (++depth > 64)
                return ptx_fail(p, t, "initialiser nested too deeply");
            if (!ptx_is_punct(ptx_peek(p, 0), '}'))
                continue;   /* an element follows; `{}` is closed below */
        } else if (parse_init_value(p, type, vals) != 0) {
            return -1;
        }
        /* after a value or an empty `{`: close braces, then ',' or done */
        for (;;) {
            t = ptx_peek(p, 0);
            if (depth > 0 && ptx_is_punct(t, '}')) {
                ptx_next(p);
                depth--;
                continue;
            }
            break;
        }
        if (depth == 0)
            return 0;
        if (ptx_expect(p, ',', "between initialiser values") != 0)
            return -1;
    }
}

/* Writes the collected values into a new init image of `size` bytes. */
static int build_init(ptx_parser *p, const ptx_token *at, ptx_symbol *s,
                      const init_values *vals)
{
    unsigned width = ptx_type_size((ptx_type)s->type);
    if (s->size > PTX_MAX_INIT_BYTES - p->init_bytes)
        return ptx_fail(p, at, "initialised variable '%s' too large (%llu bytes of "
                        "initialised data at most)", s->name,
                        (unsigned long long)PTX_MAX_INIT_BYTES);
    p->init_bytes += s->size;
    if ((uint64_t)vals->count * width > s->size)
        return ptx_fail(p, at, "%zu initialiser values for '%s', which holds %llu",
                        vals->count, s->name,
                        (unsigned long long)(s->size / width));
    s->init = calloc(1, s->size ? s->size : 1);
    if (s->init == NULL)
        return ptx_fail(p, at, "out of memory");
    for (size_t i = 0; i < vals->count; i++)
        for (unsigned b = 0; b < width; b++)
            s->init[i * width + b] = (uint8_t)(vals->bits[i] >> (8 * b));
    return 0;
}

/* v rounded up to a multiple of align (align > 0). */
static uint64_t align_up(uint64_t v, uint64_t align)
{
    return (v + align - 1) / align * align;
}

/* Places a new variable in its space's layout (params are placed by the
 * function header, shared memory at the module's end). */
static int place_variable(ptx_parser *p, const ptx_token *at, ptx_symbol *s)
{
    if (s->space == PTX_S_LOCAL) {
        if (p->fn < 0)
            return ptx_fail(p, at, "module-scope .local variables are not supported");
        ptx_function *fn = ptx_current(p);
        s->offset = align_up(fn->local_bytes, s->align);
        if (s->size > PTX_MAX_OBJECT_BYTES - s->offset)
            return ptx_fail(p, at, "local frame too large");
        fn->local_bytes = s->offset + s->size;
    } else if (s->space == PTX_S_GLOBAL || s->space == PTX_S_CONST) {
        s->offset = align_up(p->m->global_bytes, s->align);
        if (s->size > PTX_MAX_OBJECT_BYTES - s->offset)
            return ptx_fail(p, at, "global data too large");
        p->m->global_bytes = s->offset + s->size;
    }
    return 0;
}

/* Makes the symbol for one declared name; *index receives it. */
static int declare_variable(ptx_parser *p, const decl_attrs *a,
                            const ptx_token *name, int is_extern,
                            int allow_init, int32_t function, int32_t *index)
{
    uint64_t elem = (uint64_t)ptx_type_size(a->type) * a->vec;
    uint64_t count;
    int unsized;
    if (parse_dims(p, elem, &count, &unsized) != 0)
        return -1;
    init_values vals = {0};
    int has_init = 0;
    const ptx_token *eq = ptx_peek(p, 0);
    if (ptx_is_punct(eq, '=')) {
        if (!allow_init || is_extern) {
            return ptx_fail(p, eq, "initialiser not allowed for '%.*s'",
                            ptx_show_len(name), ptx_text(p, name));
        }
        ptx_next(p);
        has_init = 1;
        if (parse_initialiser(p, a->type, &vals) != 0)
            goto fail;
        if (unsized) {
            uint64_t per_count = elem / ptx_type_size(a->type);   /* vec */
            count = (vals.count + per_count - 1) / per_count;
            if (count == 0)
                count = 1;
        }
    } else if (unsized && !is_extern) {
        return ptx_fail(p, name, "array '%.*s' has no size", ptx_show_len(name),
                        ptx_text(p, name));
    }
    ptx_symbol proto;
    memset(&proto, 0, sizeof proto);
    proto.space = (uint8_t)a->space;
    proto.type = (uint8_t)a->type;
    proto.is_extern = (uint8_t)is_extern;
    proto.is_ptr_param = (uint8_t)a->is_ptr;
    proto.align = a->align ? a->align : (uint32_t)elem;
    proto.size = (unsized && !has_init) ? 0 : elem * count;
    proto.function = function;
    if (ptx_add_symbol(p, name, ptx_text(p, name), name->len, &proto, index) != 0)
        goto fail;
    ptx_symbol *s = &p->m->symbols[*index];
    if (has_init && build_init(p, name, s, &vals) != 0)
        goto fail;
    free(vals.bits);
    return place_variable(p, name, s);
fail:
    free(vals.bits);
    return -1;
}

int ptx_parse_var_decl(ptx_parser *p, int is_extern)
{
    decl_attrs a;
    if (parse_attrs(p, &a) != 0)
        return -1;
    if (a.space == PTX_S_REG)
        return ptx_fail(p, a.first, ".reg declaration with linkage");
    if (a.space == PTX_S_PARAM && p->fn < 0)
        return ptx_fail(p, a.first, ".param variable at module scope");
    if (a.type == PTX_T_PRED)
        return ptx_fail(p, a.first, ".pred variables must be registers");
    if (a.vec == 8)
        return ptx_fail(p, a.first, ".v8 variables are not supported");
    int allow_init = a.space == PTX_S_GLOBAL || a.space == PTX_S_CONST;
    for (;;) {
        const ptx_token *name = NULL;
        int32_t index;
        if (parse_name(p, &name, "a variable") != 0 ||
            declare_variable(p, &a, name, is_extern, allow_init, p->fn, &index) != 0)
            return -1;
        if (ptx_bind(p, name, p->m->symbols[index].name, name->len,
                     PTX_BIND_SYM, index) != 0)
            return -1;
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            break;
        ptx_next(p);
    }
    return ptx_expect(p, ';', "after the declaration");
}

int ptx_parse_param(ptx_parser *p, int32_t function, int32_t *symbol)
{
    const ptx_token *first = ptx_peek(p, 0);
    if (!ptx_is_word(p, first, ".param")) {
        char found[80];
        ptx_describe(p, first, found, sizeof found);
        if (ptx_is_word(p, first, ".reg"))
            return ptx_fail(p, first, ".reg parameters are not supported");
        return ptx_fail(p, first, "expected '.param', found %s", found);
    }
    decl_attrs a;
    if (parse_attrs(p, &a) != 0)
        return -1;
    if (a.space != PTX_S_PARAM)
        return ptx_fail(p, first, "parameter in the wrong state space");
    if (a.type == PTX_T_PRED || a.vec == 8)
        return ptx_fail(p, first, "unsupported parameter type");
    const ptx_token *name = NULL;
    if (parse_name(p, &name, "a parameter") != 0 ||
        declare_variable(p, &a, name, 0, 0, function, symbol) != 0)
        return -1;
    if (p->m->symbols[*symbol].size == 0)
        return ptx_fail(p, name, "parameter '%.*s' has no size",
                        ptx_show_len(name), ptx_text(p, name));
    return ptx_bind(p, name, p->m->symbols[*symbol].name, name->len,
                    PTX_BIND_SYM, *symbol);
}

/* Declares %name0 .. %name<count-1> for `%name<count>`. */
static int declare_range(ptx_parser *p, const ptx_token *name, ptx_type type,
                         int64_t count)
{
    if (count < 0 || count > PTX_MAX_REGISTERS - ptx_current(p)->nregs ||
        (uint64_t)count > PTX_MAX_MODULE_REGISTERS - p->module_registers)
        return ptx_fail(p, name, "register range <%lld> too large", (long long)count);
    for (int64_t i = 0; i < count; i++) {
        size_t size = name->len + 21;
        char *reg = malloc(size);
        if (reg == NULL)
            return ptx_fail(p, name, "out of memory");
        int n = snprintf(reg, size, "%.*s%lld", (int)name->len,
                         ptx_text(p, name), (long long)i);
        if (ptx_add_register(p, name, reg, (size_t)n, type) != 0)
            return -1;
    }
    return 0;
}

int ptx_parse_reg_decl(ptx_parser *p)
{
    decl_attrs a;
    if (parse_attrs(p, &a) != 0)
        return -1;
    if (a.space != PTX_S_REG)
        return ptx_fail(p, a.first, "register declaration in another state space");
    if (a.vec != 1)
        return ptx_fail(p, a.first, "vector registers are not supported");
    for (;;) {
        const ptx_token *name = NULL;
        if (parse_name(p, &name, "a register") != 0)
            return -1;
        if (ptx_is_punct(ptx_peek(p, 0), '<')) {
            ptx_next(p);
            int64_t count;
            if (ptx_parse_int(p, &count, "register count") != 0 ||
                ptx_expect(p, '>', "after the register count") != 0 ||
                declare_range(p, name, a.type, count) != 0)
                return -1;
        } else {
            char *reg = ptx_strndup(ptx_text(p, name), name->len);
            if (reg == NULL)
                return ptx_fail(p, name, "out of memory");
            if (ptx_add_register(p, name, reg, name->len, a.type) != 0)
                return -1;
        }
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            break;
        ptx_next(p);
    }
    return ptx_expect(p, ';', "after the register declaration");
}
