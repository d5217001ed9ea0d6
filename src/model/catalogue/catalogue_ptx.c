/* catalogue_ptx.c - the embedded catalogue PTX and its entries by name.
 *
 * defines: cured_model_catalogue_ptx, cured_model_catalogue_entry_name
 *
 * With CURED_HAVE_CATALOGUE_PTX the build links a generated source
 * (cmake/embed.cmake) defining cured_catalogue_ptx_data/_size. Entry names
 * are read from the module: a small reader of the Itanium C++ mangling nvcc
 * uses (_Z, nested names, template arguments), enough for kernel templates
 * over an element type and an integer block size.
 */
#include "catalogue_ptx.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CURED_HAVE_CATALOGUE_PTX
extern const unsigned char cured_catalogue_ptx_data[];
extern const size_t cured_catalogue_ptx_size;
#endif

const char *cured_model_catalogue_ptx(size_t *len)
{
#ifdef CURED_HAVE_CATALOGUE_PTX
    *len = cured_catalogue_ptx_size;
    return (const char *)cured_catalogue_ptx_data;
#else
    *len = 0;
    return NULL;
#endif
}

// ----------------------------------------------------------------------------
// Reading an entry's name

/* What an entry's name says: its function name (the innermost component),
 * the first element-type template argument (an Itanium builtin type code,
 * 'f' float, 'i' int ...; 0 when none) and the first integer template
 * argument (-1 when none). */
typedef struct entry_form {
    char name[96];
    char type;
    long block;
} entry_form;

/* Reads template arguments I ... E at *p into f (type codes and integer
 * literals only; anything else means "not one of ours"). */
static int read_template_args(const char **p, entry_form *f)
{
    static const char builtin[] = "fdijxylmstahc";
    const char *s = *p + 1;                     /* past 'I' */
    while (*s && *s != 'E') {
        if (*s == 'L') {                        /* L<type>[n]<digits>E */
            s += 2;
            int neg = *s == 'n';
            s += neg;
            if (!isdigit((unsigned char)*s))
                return -1;
            long v = strtol(s, (char **)&s, 10);
            if (*s++ != 'E')
                return -1;
            if (f->block < 0)
                f->block = neg ? -v : v;
        } else if (strchr(builtin, *s) != NULL) {
            if (f->type == 0)
                f->type = *s;
            s++;
        } else {
            return -1;
        }
    }
    if (*s != 'E')
        return -1;
    *p = s + 1;
    return 0;
}

/* Fills f from a mangled name (_Z...), 0 on success, -1 for a name that is
 * not a (possibly templated, possibly namespaced) plain function. */
static int read_mangled(const char *s, entry_form *f)
{
    f->type = 0;
    f->block = -1;
    char qualified[256];
    size_t inner;
    const char *p;
    int nested = ptx_mangled_name(s, qualified, sizeof qualified, &inner, &p);
    if (nested < 0 || strlen(qualified + inner) >= sizeof f->name)
        return -1;
    strcpy(f->name, qualified + inner);
    if (*p == 'I' && read_template_args(&p, f) != 0)
        return -1;
    return !nested || *p == 'E' ? 0 : -1;
}

/* 1 when function name `name` is catalogue kernel `kernel`: equal, or
 * equal once a reduce_/cured_ prefix or a _kernel suffix is taken off. */
static int names_kernel(const char *name, const char *kernel)
{
    static const char *prefixes[] = {"", "reduce_", "cured_"};
    size_t klen = strlen(kernel);
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t plen = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], plen) != 0)
            continue;
        const char *rest = name + plen;
        if (strncmp(rest, kernel, klen) != 0)
            continue;
        if (rest[klen] == '\0' || strcmp(rest + klen, "_kernel") == 0)
            return 1;
    }
    return 0;
}

/* 1 when the Itanium builtin type code `code` is element type `dtype`. */
static int code_is_dtype(char code, const char *dtype)
{
    static const struct { const char *dtype, *codes; } map[] = {
        {"f32", "f"}, {"f64", "d"}, {"i32", "i"}, {"s32", "i"},
        {"i64", "xl"}, {"s64", "xl"}, {"u32", "j"}, {"u64", "ym"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].dtype, dtype) == 0)
            return code != 0 && strchr(map[i].codes, code) != NULL;
    return 0;
}

/* Fills f from an extern "C" name <kernel>_<dtype>[_<block>], where the
 * kernel part is matched by the caller. Returns 0 when the name has that
 * shape for `kernel`, with f->type set to the dtype's first code. */
static int read_plain(const char *s, const char *kernel, entry_form *f)
{
    static const char *dtypes[] = {"f32", "f64", "i32", "i64", "u32", "u64"};
    size_t klen = strlen(kernel);
    f->type = 0;
    f->block = -1;
    if (strncmp(s, kernel, klen) != 0 || s[klen] != '_')
        return -1;
    const char *d = s + klen + 1;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        if (strncmp(d, dtypes[i], 3) != 0)
            continue;
        const char *tail = d + 3;
        if (*tail == '_' && isdigit((unsigned char)tail[1])) {
            char *end;
            f->block = strtol(tail + 1, &end, 10);
            if (*end != '\0')
                return -1;
        } else if (*tail != '\0') {
            return -1;
        }
        static const char codes[] = "fdixjy";
        f->type = codes[i];
        snprintf(f->name, sizeof f->name, "%s", kernel);
        return 0;
    }
    return -1;
}

int cured_model_catalogue_entry_name(const cured_model_module *module, const char *kernel,
                               const char *dtype, int block, char *out,
                               size_t cap)
{
    int status = CURED_MODEL_CATALOGUE_NO_KERNEL;
    const char *best = NULL;
    long best_block = -1;
    for (int i = 0; i < module->nfunctions; i++) {
        const ptx_function *fn = &module->functions[i];
        if (!fn->is_entry)
            continue;
        entry_form f;
        if (read_mangled(fn->name, &f) == 0) {
            if (!names_kernel(f.name, kernel))
                continue;
        } else if (read_plain(fn->name, kernel, &f) != 0) {
            continue;
        }
        if (status == CURED_MODEL_CATALOGUE_NO_KERNEL)
            status = CURED_MODEL_CATALOGUE_NO_DTYPE;
        if (!code_is_dtype(f.type, dtype))
            continue;
        if (status == CURED_MODEL_CATALOGUE_NO_DTYPE)
            status = CURED_MODEL_CATALOGUE_NO_BLOCK;
        if (f.block >= 0 && block > 0 && f.block != block)
            continue;
        if (f.block >= 0 && block <= 0 && best != NULL && f.block >= best_block)
            continue;                        /* keep the smallest instance */
        if (best != NULL && (f.block < 0 || block > 0))
            continue;                        /* first match wins */
        best = fn->name;
        best_block = f.block;
    }
    if (best == NULL)
        return status;
    if (strlen(best) >= cap)
        return CURED_MODEL_CATALOGUE_TOO_LONG;
    strcpy(out, best);
    return CURED_MODEL_CATALOGUE_OK;
}
