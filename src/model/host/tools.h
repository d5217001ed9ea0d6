/* tools.h - the toolkit programs the model runs (nvcc, ptxas, nvdisasm)
 * and the files it reads whole; private to src/model/host.
 *
 * defines: host_find_tool, host_run_tool, host_read_file, host_find_nvcc
 */
#ifndef CURED_MODEL_HOST_TOOLS_H
#define CURED_MODEL_HOST_TOOLS_H

#include <stddef.h>

/* The program `name` to run: the first on PATH, else in
 * /usr/local/cuda/bin, else `fallback` when that is executable (may be
 * NULL), written into out. Returns 0, or -1 when there is none. */
int host_find_tool(const char *name, const char *fallback, char *out,
                  size_t cap);

/* Runs argv (argv[0] a path) and waits. Its stdout goes to the file
 * `stdout_path` (created or truncated), or to our stderr when that is NULL
 * (a tool's messages belong with ours; our stdout is for data). Returns
 * its exit status, or -1 when it could not be started or was killed. */
int host_run_tool(char *const argv[], const char *stdout_path);

/* Reads the file at path into a malloc'ed, NUL-terminated *text of *len
 * bytes. Returns 0, or -1 with one line in err. */
int host_read_file(const char *path, char **text, size_t *len, char *err,
                  size_t cap);

/* The nvcc to use: the first on PATH, else /usr/local/cuda/bin/nvcc, written
 * into out. Returns 0, or -1 when there is none. (source.c) */
int host_find_nvcc(char *out, size_t cap);

#endif /* CURED_MODEL_HOST_TOOLS_H */
