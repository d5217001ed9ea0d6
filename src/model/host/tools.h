/* tools.h - the toolkit programs the model runs (nvcc, ptxas, nvdisasm)
 * and the files it reads whole; private to src/model/host.
 *
 * defines: host_find_tool, host_run_tool, host_read_file, host_find_nvcc
 */
#ifndef CURED_MODEL_HOST_TOOLS_H
#define CURED_MODEL_HOST_TOOLS_H

#include <stddef.h>
#include <stdio.h>

/* The program `name` to run: the first on PATH, else in
 * /usr/local/cuda/bin, else `fallback` when that is executable (may be
 * NULL), written into out. Returns 0, or -1 when there is none. */
int host_find_tool(const char *name, const char *fallback, char *out,
                  size_t cap);

/* Runs argv (argv[0] a path) and waits. Its stdout goes to the file
 * `stdout_path` (created or truncated) when that is not NULL; what it
 * prints otherwise (stderr, and stdout without stdout_path) is captured,
 * never written to our own streams. With `log`, the command line goes
 * there first ("+ nvcc -arch=sm_90 ..."), then the captured messages.
 * With `messages`, *messages receives them (malloc'd, NUL-terminated;
 * NULL when the tool printed nothing or memory ran out). Returns the
 * tool's exit status, or -1 when it could not be started or was killed. */
int host_run_tool(char *const argv[], const char *stdout_path, FILE *log,
                  char **messages);

/* Reads the file at path into a malloc'ed, NUL-terminated *text of *len
 * bytes. Returns 0, or -1 with one line in err (a missing file, a
 * directory, a read error). */
int host_read_file(const char *path, char **text, size_t *len, char *err,
                  size_t cap);

/* The nvcc to use: the first on PATH, else /usr/local/cuda/bin/nvcc, written
 * into out. Returns 0, or -1 when there is none. (source.c) */
int host_find_nvcc(char *out, size_t cap);

#endif /* CURED_MODEL_HOST_TOOLS_H */
