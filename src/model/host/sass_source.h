/* model_sass.h - the SASS `cured model` counts by: the catalogue's embedded
 * SASS, a user's `--sass FILE`, or the SASS of a `--cu` kernel compiled with
 * ptxas and printed with nvdisasm; matched with the PTX (sass_match.h) and
 * reported beside the counters.
 *
 * defines: cli_sass, cli_sass_catalogue, cli_sass_file, cli_sass_compile,
 *          cli_sass_none, cli_sass_apply, cli_sass_print, cli_sass_json,
 *          cli_sass_free
 */
#ifndef CURED_CLI_MODEL_SASS_H
#define CURED_CLI_MODEL_SASS_H

#include "counters.h"
#include "sass.h"
#include "sass_match.h"

#include <stddef.h>
#include <stdio.h>

typedef struct cli_sass {
    const char *text;           /* the disassembler's text, NULL when none */
    size_t len;
    char *owned;                /* text's storage when malloc'd */
    char label[1100];           /* where it came from, for the reports */
    char missing[400];          /* why there is none ("" when there is) */
    sass_module *module;        /* after cli_sass_apply */
    cured_model_sass_facts *facts;  /* what the matches found, for one PTX
                                       module; the counters read it */
    cured_model_sass_summary summary;
    int applied;                /* the counters follow it */
} cli_sass;

/* The embedded catalogue SASS, or a missing reason when this build has
 * none. Can't fail. */
void cli_sass_catalogue(cli_sass *s);

/* Reads --sass FILE. Returns 0, or -1 with one line in err. */
int cli_sass_file(cli_sass *s, const char *path, char *err, size_t cap);

/* Compiles the PTX file at ptx_path with ptxas -lineinfo and prints it with
 * nvdisasm -gp into a temporary directory, then reads it; `label` names it
 * in reports. When a tool is missing or fails, s says so in missing (the
 * run goes on with PTX-level counts). Can't fail. */
void cli_sass_compile(cli_sass *s, const char *ptx_path, const char *label);

/* No SASS, for `reason` (copied). Can't fail. */
void cli_sass_none(cli_sass *s, const char *reason);

/* Parses the text (the first time), matches it with `entry` of module
 * into s's facts (the summary is of the last call) and, when that matched
 * something, makes the counters follow the facts (they must not outlive
 * s). Every call must name the same module.
 * Returns 0 (also when there is no text: nothing to do), or -1 with one
 * line in err: malformed SASS ("LABEL:LINE: message"), another module
 * than before, or out of memory. */
int cli_sass_apply(cli_sass *s, const cured_model_module *module, int entry,
                   cured_model_counters *c, char *err, size_t cap);

/* Prints "sass: ..." lines: where the SASS came from and what the matcher
 * did, its notes; or why the counts are PTX-level. */
void cli_sass_print(FILE *out, const cli_sass *s, const cured_model_module *module);

/* Writes the same as one JSON object (without a trailing newline). */
void cli_sass_json(FILE *out, const cli_sass *s, const cured_model_module *module);

/* Frees what s owns. */
void cli_sass_free(cli_sass *s);

#endif /* CURED_CLI_MODEL_SASS_H */
