/* model_source.h - where `cured model` gets its PTX: the embedded catalogue,
 * a .ptx file, or a .cu file compiled with nvcc.
 *
 * defines: cli_source, cli_source_catalogue, cli_source_ptx_file,
 *          cli_source_cu_file, cli_source_parse, cli_source_free,
 *          cli_find_nvcc
 */
#ifndef CURED_CLI_MODEL_SOURCE_H
#define CURED_CLI_MODEL_SOURCE_H

#include "sass_source.h"
#include "ptx.h"

#include <stddef.h>

typedef struct cli_source {
    const char *text;     /* the PTX text (NUL-terminated) */
    size_t len;
    char *owned;          /* text's storage when malloc'd, else NULL */
    char label[1024];     /* what to call it in messages: a path or
                             "catalogue.ptx" */
    cured_model_module *module;   /* after cli_source_parse */
} cli_source;

/* Points src at the embedded catalogue PTX. Returns 0, or -1 with one line
 * in err when this build has none (built without CUDA). */
int cli_source_catalogue(cli_source *src, char *err, size_t cap);

/* Reads a .ptx file into src. Returns 0, or -1 with one line in err. */
int cli_source_ptx_file(cli_source *src, const char *path, char *err,
                        size_t cap);

/* Compiles a .cu file with `nvcc -arch=sm_90 -ptx -lineinfo` into a
 * temporary file (removed afterwards) and reads the PTX into src; with
 * sass (may be NULL), also its SASS from that PTX (cli_sass_compile: a
 * missing tool is not an error). nvcc's own messages go to stderr as it
 * writes them. Returns 0, or -1 with one line in err: no nvcc, nvcc
 * failed, no temporary directory. */
int cli_source_cu_file(cli_source *src, const char *path, cli_sass *sass,
                       char *err, size_t cap);

/* Parses src's text into src->module. Returns 0, or -1 with the parser's
 * message in err as "LABEL:LINE:COLUMN: message" (one line). */
int cli_source_parse(cli_source *src, char *err, size_t cap);

/* Frees what src owns (text, module). */
void cli_source_free(cli_source *src);

/* The nvcc to use: the first on PATH, else /usr/local/cuda/bin/nvcc, written
 * into out. Returns 0, or -1 when there is none. */
int cli_find_nvcc(char *out, size_t cap);

#endif /* CURED_CLI_MODEL_SOURCE_H */
