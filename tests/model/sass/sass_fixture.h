/* sass_fixture.h - shared by the SASS tests: the committed fixtures
 * (fixtures/, made by fixtures/regen.sh) read and parsed, and one kernel
 * launch run with the counters watching, SASS-level or PTX-level.
 *
 * defines: fixture_text, fixture_ptx, fixture_sass, fixture_run,
 *          fixture_launch
 */
#ifndef CURED_TESTS_SASS_FIXTURE_H
#define CURED_TESTS_SASS_FIXTURE_H

#include "counters.h"
#include "sass.h"
#include "sass_match.h"

#include <stddef.h>
#include <stdint.h>

/* The bytes of fixtures/NAME, NUL-terminated (the caller frees); fails the
 * test when it cannot be read. */
char *fixture_text(const char *name, size_t *len);

/* fixtures/NAME parsed as PTX / as SASS; fails the test on an error. */
cured_model_module *fixture_ptx(const char *name);
sass_module *fixture_sass(const char *name);

/* A launch of a kernel (in, out, n): in holds n ones, out one value per
 * thread (enough for a reduction's one per block, and for the fixture
 * kernels that write out[threadIdx.x]). A kernel with two parameters
 * ignores n. */
typedef struct fixture_launch {
    const char *entry;
    uint32_t grid, block, dynamic_shared;
    uint32_t n;
    int n_is_u64;            /* the kernel takes n as u64 */
} fixture_launch;

/* Runs the launch on module m with new counters, after matching `sass`
 * when it is not NULL (the summary goes to *summary when that is not
 * NULL, else it is freed). Fails the test when the kernel does not run
 * cleanly or, with sass, when the matcher leaves a note. Returns the
 * counters (the caller frees). */
cured_model_counters *fixture_run(const cured_model_module *m, const sass_module *sass,
                            const fixture_launch *l,
                            cured_model_sass_summary *summary);

#endif /* CURED_TESTS_SASS_FIXTURE_H */
