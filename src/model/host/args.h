/* model_args.h - `cured model`'s kernel-argument specs and launch shapes.
 *
 * defines: cli_arg_init, cli_arg_spec, cli_arg_parse, cli_arg_elem_size,
 *          cli_arg_fill, cli_arg_read_file, cli_dim3_parse,
 *          cli_elem_type_parse, cli_elem_type_name
 *
 * One --arg SPEC is one kernel parameter, in the entry's parameter order:
 *
 *   NAME=TYPE[COUNT]:INIT   a buffer in global memory, INIT one of
 *                           random[@SEED]  floats uniform in [-0.5, 0.5),
 *                                          signed ints in [-8, 8),
 *                                          unsigned ints in [0, 16)
 *                           ones | iota | zeros
 *                           uninit         unwritten (for the initcheck)
 *                           file:PATH      raw bytes; COUNT may be omitted
 *                                          (NAME=TYPE[]:file:PATH)
 *   [NAME=]TYPE:VALUE       a scalar: u32:5, s32:-1, u64:0x10, f32:1.5 ...
 *
 * TYPE is f32 f64 s8 s16 s32 s64 u8 u16 u32 u64 (i8..i64 are aliases of
 * the signed ones). Pure C: parsing and filling touch no model state, so
 * they are unit-tested alone (tests/cli/model/).
 */
#ifndef CURED_CLI_MODEL_ARGS_H
#define CURED_CLI_MODEL_ARGS_H

#include "cured_model.h"
#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

typedef enum cli_arg_init {
    CLI_INIT_RANDOM = 1,
    CLI_INIT_ONES,
    CLI_INIT_IOTA,
    CLI_INIT_ZEROS,
    CLI_INIT_UNINIT,
    CLI_INIT_FILE
} cli_arg_init;

#define CLI_ARG_NAME_MAX 48
#define CLI_ARG_PATH_MAX 1024
#define CLI_ARG_DEFAULT_SEED 1u

typedef struct cli_arg_spec {
    int is_buffer;              /* 1: a buffer, 0: a scalar */
    char name[CLI_ARG_NAME_MAX];/* "" for an unnamed scalar */
    ptx_type type;              /* element type (buffer) or scalar type */
    uint64_t count;             /* buffer elements; 0 with a file and no COUNT */
    cli_arg_init init;          /* buffers only */
    uint64_t seed;              /* random@SEED */
    char path[CLI_ARG_PATH_MAX];/* file:PATH */
    uint64_t bits;              /* scalar: the value's bits, little-endian,
                                   in the low ptx_type_size(type) bytes */
} cli_arg_spec;

/* Parses one SPEC (text) into *spec. Returns 0, or -1 with one line in
 * err ("unknown type 'f33' in 'x=f33[4]:ones'") saying what is wrong. */
int cli_arg_parse(const char *text, cli_arg_spec *spec, char *err, size_t cap);

/* Bytes of one element of a spec type (1, 2, 4 or 8); 0 for a type the
 * specs do not use. Can't fail. */
unsigned cli_arg_elem_size(ptx_type type);

/* Parses a spec type name ("f32", "i32", "u8" ...) into *type. Returns 0, or
 * -1 for a name the specs do not know. */
int cli_elem_type_parse(const char *name, ptx_type *type);

/* The spec name of a type ("f32", "s32" ...), "?" for others. */
const char *cli_elem_type_name(ptx_type type);

/* Fills data[0 .. count * elem_size) as the spec's INIT says (random,
 * ones, iota, zeros; uninit and file leave data untouched: zeros for
 * uninit, the file's bytes come from cli_arg_read_file). Deterministic:
 * the same seed gives the same values on every machine. Can't fail. */
void cli_arg_fill(const cli_arg_spec *spec, void *data);

/* Reads spec->path's bytes into a new malloc'd buffer, *bytes its length.
 * The file must hold a whole number of elements, exactly count of them when
 * the spec gave a COUNT. Returns the buffer (free() it), or NULL with one
 * line in err. A zero-length file is an error (nothing to point at). */
void *cli_arg_read_file(const cli_arg_spec *spec, uint64_t *bytes,
                        char *err, size_t cap);

/* Parses "X", "X,Y" or "X,Y,Z" (each >= 1, missing ones are 1) into *d.
 * Returns 0, or -1 with one line in err; `what` names the option
 * ("--grid") in that line. */
int cli_dim3_parse(const char *text, const char *what, cured_model_dim3 *d,
                   char *err, size_t cap);

#endif /* CURED_CLI_MODEL_ARGS_H */
