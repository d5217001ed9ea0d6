/* bind.c - binds argument specs to an entry's parameters.
 *
 * defines: cured_model_args_bind, cured_model_arg_find
 */
#include "cured_model_host.h"
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cured_model_arg *cured_model_arg_find(const cured_model_arg *specs, int nspecs,
                                    const char *name)
{
    for (int i = 0; i < nspecs; i++)
        if (specs[i].is_buffer && strcmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

/* Describes parameter i of fn as "parameter 2 (NAME, .u32, 4 bytes)". */
static void describe_param(const cured_model_module *m, const ptx_function *fn, int i,
                           char *out, size_t cap)
{
    const ptx_symbol *p = &m->symbols[fn->params[i]];
    snprintf(out, cap, "parameter %d (%s, .%s, %llu bytes)", i + 1, p->name,
             ptx_type_name((ptx_type)p->type), (unsigned long long)p->size);
}

// ----------------------------------------------------------------------------
// Types

/* What a PTX or spec type holds, as far as binding cares: untyped bits
 * (.b32, byte arrays) take anything of their size. */
typedef enum value_class { CLASS_BITS, CLASS_UNSIGNED, CLASS_SIGNED, CLASS_FLOAT } value_class;

static value_class class_of(ptx_type t)
{
    switch (t) {
    case PTX_T_U8: case PTX_T_U16: case PTX_T_U32: case PTX_T_U64: return CLASS_UNSIGNED;
    case PTX_T_S8: case PTX_T_S16: case PTX_T_S32: case PTX_T_S64: return CLASS_SIGNED;
    case PTX_T_F16: case PTX_T_F16X2: case PTX_T_BF16: case PTX_T_BF16X2:
    case PTX_T_F32: case PTX_T_F64: return CLASS_FLOAT;
    default: return CLASS_BITS;
    }
}

/* Scalar spec s as it was written: "u32:1000", "s32:-1", "f32:1000". */
static void scalar_text(const cured_model_arg *s, char *out, size_t cap)
{
    unsigned size = cured_model_arg_elem_size(s->type);
    const char *type = cured_model_arg_type_name(s->type);
    value_class c = class_of((ptx_type)s->type);
    if (c == CLASS_FLOAT && size == 4) {
        float f;
        uint32_t u = (uint32_t)s->bits;
        memcpy(&f, &u, 4);
        snprintf(out, cap, "%s:%.9g", type, f);
    } else if (c == CLASS_FLOAT) {
        double d;
        memcpy(&d, &s->bits, 8);
        snprintf(out, cap, "%s:%.17g", type, d);
    } else if (c == CLASS_SIGNED) {
        unsigned shift = 64 - 8 * size;    /* sign-extend the low size bytes */
        snprintf(out, cap, "%s:%lld", type, (long long)((int64_t)(s->bits << shift) >> shift));
    } else {
        snprintf(out, cap, "%s:%llu", type, (unsigned long long)s->bits);
    }
}

/* Checks that scalar spec s means the same in parameter p (`what`
 * describes it) as it does as written: a float for a float, an integer
 * for an integer (not the bits of a float: f32:1000 for a .u32 once ran
 * with 1148846080), and where signedness differs, a value both types hold
 * (s32:5 for a .u32 is 5; s32:-1 is refused). Untyped .bN parameters take
 * any spec of their size. Returns 0, or -1 with one line in err. */
static int check_scalar_type(const cured_model_arg *s, const ptx_symbol *p, int index,
                             const char *what, char *err, size_t cap)
{
    value_class want = class_of((ptx_type)p->type), have = class_of((ptx_type)s->type);
    unsigned bits = 8 * cured_model_arg_elem_size(s->type);
    uint64_t sign_bit = (uint64_t)1 << (bits - 1);
    char text[64];
    if (want == CLASS_BITS || want == have)
        return 0;
    scalar_text(s, text, sizeof text);
    char integer = want == CLASS_SIGNED ? 's' : 'u';
    if (have == CLASS_FLOAT) {
        snprintf(err, cap, "--arg %d is %s, a float, but %s is an integer: give "
                 "%c%u:VALUE, or the float's bits in hex, %c%u:0x%llx", index + 1,
                 text, what, integer, bits, integer, bits, (unsigned long long)s->bits);
        return -1;
    }
    if (want == CLASS_FLOAT) {
        snprintf(err, cap, "--arg %d is %s, an integer, but %s is a float: give "
                 "f%u:VALUE", index + 1, text, what, bits);
        return -1;
    }
    if ((s->bits & sign_bit) == 0)   /* 0 .. the signed maximum: the same in both */
        return 0;
    /* the same bits, written as the parameter's type reads them */
    cured_model_arg same = *s;
    char name[8];
    snprintf(name, sizeof name, "%c%u", integer, bits);
    cured_model_arg_type_parse(name, &same.type);
    char as_param[64];
    scalar_text(&same, as_param, sizeof as_param);
    snprintf(err, cap, "--arg %d is %s, but %s is %s and reads those bits as %s: "
             "give %s if that is meant", index + 1, text, what,
             want == CLASS_SIGNED ? "signed" : "unsigned", as_param + strcspn(as_param, ":") + 1,
             as_param);
    return -1;
}

// ----------------------------------------------------------------------------
// Binding

/* Allocates buffer spec s in memory and fills it; its device address goes
 * to *addr. Returns 0, or -1 with err set. */
static int make_buffer(cured_model_arg *s, cured_model_memory *memory, uint64_t *addr,
                       char *err, size_t cap)
{
    unsigned size = cured_model_arg_elem_size(s->type);
    void *file = NULL;
    uint64_t bytes = 0;
    if (s->init != CURED_MODEL_ARG_FILE &&
        cured_model_buffer_bytes(s->name, cured_model_arg_type_name(s->type), s->count,
                                 size, &bytes, err, cap) != 0)
        return -1;
    if (s->init == CURED_MODEL_ARG_FILE) {
        file = cured_model_arg_read_file(s, &bytes, err, cap);
        if (file == NULL)
            return -1;
        s->count = bytes / size;
    }
    cured_model_buffer *b = cured_model_memory_alloc(memory, s->name, bytes,
                                         s->init != CURED_MODEL_ARG_UNINIT);
    if (b == NULL) {
        free(file);
        snprintf(err, cap, "out of memory for buffer %s (%llu bytes)", s->name,
                 (unsigned long long)bytes);
        return -1;
    }
    if (file != NULL)
        memcpy(b->data, file, bytes);
    else
        cured_model_arg_fill(s, b->data);
    free(file);
    *addr = b->addr;
    return 0;
}

int cured_model_args_bind(const cured_model_module *module, int function, cured_model_arg *specs,
                  int nspecs, cured_model_memory *memory, uint8_t **params,
                  size_t *params_size, char *err, size_t cap)
{
    const ptx_function *fn = &module->functions[function];
    char what[200];
    if (nspecs < fn->nparams) {
        describe_param(module, fn, nspecs, what, sizeof what);
        snprintf(err, cap, "missing --arg for %s of %s: it takes %d, %d given",
                 what, fn->name, fn->nparams, nspecs);
        return -1;
    }
    if (nspecs > fn->nparams) {
        snprintf(err, cap, "too many --arg: %s takes %d parameters, %d given",
                 fn->name, fn->nparams, nspecs);
        return -1;
    }
    for (int i = 0; i < nspecs; i++) {
        const ptx_symbol *p = &module->symbols[fn->params[i]];
        unsigned size = cured_model_arg_elem_size(specs[i].type);
        describe_param(module, fn, i, what, sizeof what);
        if (specs[i].is_buffer && p->size != 8) {
            snprintf(err, cap, "--arg %d is buffer %s, but %s cannot hold a "
                     "64-bit address", i + 1, specs[i].name, what);
            return -1;
        }
        if (specs[i].is_buffer && class_of((ptx_type)p->type) == CLASS_FLOAT) {
            snprintf(err, cap, "--arg %d is buffer %s, but %s is a float, not an "
                     "address", i + 1, specs[i].name, what);
            return -1;
        }
        if (!specs[i].is_buffer && p->size != size) {
            snprintf(err, cap, "--arg %d is a %u-byte %s, but %s", i + 1, size,
                     cured_model_arg_type_name(specs[i].type), what);
            return -1;
        }
        if (!specs[i].is_buffer &&
            check_scalar_type(&specs[i], p, i, what, err, cap) != 0)
            return -1;
        if (specs[i].is_buffer &&
            cured_model_arg_find(specs, i, specs[i].name) != NULL) {
            snprintf(err, cap, "two buffers named %s", specs[i].name);
            return -1;
        }
        uint64_t bytes;      /* before anything is allocated: the size rule */
        if (specs[i].is_buffer && specs[i].init != CURED_MODEL_ARG_FILE &&
            cured_model_buffer_bytes(specs[i].name, cured_model_arg_type_name(specs[i].type),
                                     specs[i].count, size, &bytes, err, cap) != 0)
            return -1;
    }

    size_t bytes = fn->param_bytes ? (size_t)fn->param_bytes : 1;
    uint8_t *block = calloc(1, bytes);
    if (block == NULL) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (int i = 0; i < nspecs; i++) {
        const ptx_symbol *p = &module->symbols[fn->params[i]];
        uint64_t value = specs[i].bits;
        if (specs[i].is_buffer &&
            make_buffer(&specs[i], memory, &value, err, cap) != 0) {
            free(block);
            return -1;
        }
        if (p->offset + p->size > fn->param_bytes) {
            free(block);
            snprintf(err, cap, "%s lies outside the %llu-byte parameter block",
                     p->name, (unsigned long long)fn->param_bytes);
            return -1;
        }
        for (uint64_t b = 0; b < p->size; b++)   /* little-endian */
            block[p->offset + b] = (uint8_t)(b < 8 ? value >> (8 * b) : 0);
    }
    *params = block;
    *params_size = (size_t)fn->param_bytes;
    return 0;
}
