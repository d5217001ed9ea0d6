/* model_tools.h - the toolkit programs `cured model` runs (nvcc, ptxas,
 * nvdisasm) and the files it reads whole.
 *
 * defines: cli_find_tool, cli_run_tool, cli_read_file
 */
#ifndef CURED_CLI_MODEL_TOOLS_H
#define CURED_CLI_MODEL_TOOLS_H

#include <stddef.h>

/* The program `name` to run: the first on PATH, else in
 * /usr/local/cuda/bin, else `fallback` when that is executable (may be
 * NULL), written into out. Returns 0, or -1 when there is none. */
int cli_find_tool(const char *name, const char *fallback, char *out,
                  size_t cap);

/* Runs argv (argv[0] a path) and waits. Its stdout goes to the file
 * `stdout_path` (created or truncated), or to our stderr when that is NULL
 * (a tool's messages belong with ours; our stdout is for data). Returns
 * its exit status, or -1 when it could not be started or was killed. */
int cli_run_tool(char *const argv[], const char *stdout_path);

/* Reads the file at path into a malloc'ed, NUL-terminated *text of *len
 * bytes. Returns 0, or -1 with one line in err. */
int cli_read_file(const char *path, char **text, size_t *len, char *err,
                  size_t cap);

#endif /* CURED_CLI_MODEL_TOOLS_H */
