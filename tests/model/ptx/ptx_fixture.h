/* ptx_fixture.h - helpers for the parser tests: load a .ptx fixture, parse
 * it, and find the instruction written on the line that holds a snippet.
 *
 * defines: ptx_fixture, fixture_load, fixture_free, fixture_find,
 *          fixture_must_find, fixture_line, fixture_function, fixture_reg,
 *          fixture_symbol, fixture_index
 */
#ifndef CURED_TEST_PTX_FIXTURE_H
#define CURED_TEST_PTX_FIXTURE_H

#include "ptx.h"

#include <stddef.h>

typedef struct ptx_fixture {
    char *text;
    size_t len;
    cured_model_module *module;
    cured_model_parse_error err;
} ptx_fixture;

/* Reads PTX_FIXTURE_DIR/name (failing the test when it cannot) and parses
 * it. Returns 0 when the parse worked (fx->module set), -1 when it failed
 * (fx->err says why, and stderr "<name>: <message>"). */
int fixture_load(ptx_fixture *fx, const char *name);

/* Frees the text and the module. */
void fixture_free(ptx_fixture *fx);

/* The 1-based line of the only line containing `snippet`; 0 when no line
 * or more than one line contains it. */
unsigned fixture_line(const ptx_fixture *fx, const char *snippet);

/* The n-th (0-based) instruction with opcode `op` (PTX_OP_INVALID: any)
 * on the line holding `snippet`; NULL when there is none. *function
 * receives its function's index when function is not NULL. */
const ptx_instr *fixture_find(const ptx_fixture *fx, const char *snippet,
                              ptx_opcode op, int n, int *function);

/* fixture_find, asserted to find one (stderr names the snippet when it
 * does not). */
const ptx_instr *fixture_must_find(const ptx_fixture *fx, const char *snippet,
                                   ptx_opcode op, int n, int *function);

/* The index of an instruction within its function's code. */
int fixture_index(const ptx_fixture *fx, int function, const ptx_instr *ins);

/* Index of the first function whose name contains `part`, or -1. */
int fixture_function(const ptx_fixture *fx, const char *part);

/* Slot of the first register named `name` in function f, or -1. */
int fixture_reg(const ptx_fixture *fx, int f, const char *name);

/* Index of the first symbol named `name` owned by `function` (-1: module
 * scope; -2: any owner), or -1. */
int fixture_symbol(const ptx_fixture *fx, const char *name, int function);

#endif /* CURED_TEST_PTX_FIXTURE_H */
