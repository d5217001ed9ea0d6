/* exec_fixture.h - helpers for the interpreter's tests: load a PTX fixture,
 * lay out a kernel's parameters, allocate buffers, run a launch.
 *
 * defines: exec_fixture, xf_load, xf_free, xf_kernel, xf_param, xf_buffer,
 *          xf_run, xf_run_pairs, xf_line_of, xf_has_finding
 *
 * Fixtures live in EXEC_FIXTURES (fixtures/NAME.ptx made by nvcc from
 * fixtures/NAME.cu, committed so the tests run without nvcc).
 */
#ifndef CURED_TEST_EXEC_FIXTURE_H
#define CURED_TEST_EXEC_FIXTURE_H

#include "cured_model.h"

#include <stdint.h>

typedef struct exec_fixture {
    cured_model_module *module;
    cured_model_memory *memory;
    int function;              /* the kernel chosen with xf_kernel */
    uint8_t params[512];       /* its parameter block */
    cured_model_result result;
    cured_model_launch launch;
} exec_fixture;

/* Parses fixtures/<ptx> into fx (fails the test when it cannot) and makes
 * an empty memory. */
void xf_load(exec_fixture *fx, const char *ptx);

/* Frees module, memory and findings. */
void xf_free(exec_fixture *fx);

/* Chooses the kernel to run and resets the launch: grid 1x1x1, block
 * 1x1x1, no observers. */
void xf_kernel(exec_fixture *fx, const char *name);

/* Sets parameter `index` (in declaration order) to the low bytes of v. */
void xf_param(exec_fixture *fx, int index, uint64_t v);

/* A new buffer of `bytes` holding a copy of `init` (NULL: zeros); returns
 * its device address, *host (when not NULL) its bytes. */
uint64_t xf_buffer(exec_fixture *fx, const char *name, uint64_t bytes, const void *init,
                   void **host);

/* Runs the chosen kernel; returns cured_model_run's result. */
int xf_run(exec_fixture *fx, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
           unsigned bz);

/* Loads fixtures/<ptx> into fx and runs `kernel`(a, b, out) in one block
 * of n threads, a row each: a[i] and b[i] are the two 4-byte values of
 * pairs[i] (`pairs` holds n such pairs), out has room for n * cols 4-byte
 * values and is returned (it lives until xf_free). Fails the test when
 * cured_model_run does not return 0; the caller checks the findings. */
void *xf_run_pairs(exec_fixture *fx, const char *ptx, const char *kernel, const void *pairs,
                   int n, int cols);

/* The 1-based line of fixtures/<file> holding `snippet` (fails the test
 * when no line or several do). */
uint32_t xf_line_of(const char *file, const char *snippet);

/* The first finding of `kind` in the result, or NULL. */
const cured_model_finding *xf_has_finding(const exec_fixture *fx, cured_model_finding_kind kind);

#endif /* CURED_TEST_EXEC_FIXTURE_H */
