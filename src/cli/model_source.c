/* model_source.c - loads the PTX `cured model` runs: embedded, from a .ptx
 * file, or compiled from a .cu file by nvcc.
 *
 * defines: cli_source_catalogue, cli_source_ptx_file, cli_source_cu_file,
 *          cli_source_parse, cli_source_free, cli_find_nvcc
 */
#define _POSIX_C_SOURCE 200809L
#include "model_source.h"

#include "catalogue_ptx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int cli_source_catalogue(cli_source *src, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    src->text = model_catalogue_ptx(&src->len);
    if (src->text == NULL) {
        snprintf(err, cap, "this build has no embedded catalogue PTX (built "
                 "without CUDA): run your own kernel with --ptx FILE or --cu FILE");
        return -1;
    }
    snprintf(src->label, sizeof src->label, "catalogue.ptx");
    return 0;
}

int cli_source_ptx_file(cli_source *src, const char *path, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    snprintf(src->label, sizeof src->label, "%s", path);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t len = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    while (text != NULL) {
        len += fread(text + len, 1, capacity - len - 1, f);
        if (len + 1 < capacity)
            break;
        capacity *= 2;
        char *grown = realloc(text, capacity);
        if (grown == NULL)
            free(text);
        text = grown;
    }
    int failed = text == NULL || ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        snprintf(err, cap, "cannot read '%s'", path);
        return -1;
    }
    text[len] = '\0';
    src->owned = text;
    src->text = text;
    src->len = len;
    return 0;
}

int cli_find_nvcc(char *out, size_t cap)
{
    const char *path = getenv("PATH");
    while (path != NULL && *path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && (size_t)snprintf(out, cap, "%.*s/nvcc", (int)n, path) < cap &&
            access(out, X_OK) == 0)
            return 0;
        path += n + (path[n] == ':');
    }
    if ((size_t)snprintf(out, cap, "/usr/local/cuda/bin/nvcc") < cap &&
        access(out, X_OK) == 0)
        return 0;
    return -1;
}

/* Runs argv (argv[0] a path) and waits. Returns its exit status, or -1 when
 * it could not be started or was killed. */
static int run_program(char *const argv[])
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* nvcc's messages belong on stderr with ours; stdout is for data. */
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int cli_source_cu_file(cli_source *src, const char *path, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    char nvcc[1024];
    if (cli_find_nvcc(nvcc, sizeof nvcc) != 0) {
        snprintf(err, cap, "--cu needs nvcc (CUDA toolkit), not found on PATH "
                 "or in /usr/local/cuda/bin: compile it yourself with `nvcc "
                 "-arch=sm_90 -ptx -lineinfo` and pass --ptx FILE");
        return -1;
    }
    if (access(path, R_OK) != 0) {
        snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cured-model-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        snprintf(err, cap, "cannot make a temporary directory in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return -1;
    }
    char ptx[1100];
    snprintf(ptx, sizeof ptx, "%s/kernel.ptx", dir);
    char *argv[] = {nvcc, "-arch=sm_90", "-ptx", "-lineinfo", "-o", ptx,
                    (char *)path, NULL};
    fprintf(stderr, "cured model: %s -arch=sm_90 -ptx -lineinfo %s\n", nvcc, path);
    int rc = run_program(argv);
    int result = 0;
    if (rc != 0) {
        snprintf(err, cap, "nvcc failed on '%s' (%s %d)", path,
                 rc < 0 ? "status" : "exit", rc);
        result = -1;
    } else if (cli_source_ptx_file(src, ptx, err, cap) != 0) {
        result = -1;
    }
    snprintf(src->label, sizeof src->label, "%s (PTX)", path);
    remove(ptx);
    rmdir(dir);
    return result;
}

int cli_source_parse(cli_source *src, char *err, size_t cap)
{
    ptx_error perr;
    memset(&perr, 0, sizeof perr);
    src->module = ptx_parse(src->text, src->len, &perr);
    if (src->module != NULL)
        return 0;
    /* One line, whatever the parser wrote. */
    for (char *c = perr.message; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    /* The position goes first, as compilers write it; drop the parser's own
     * "line N: " so it is not said twice. */
    const char *message = perr.message[0] ? perr.message : "malformed PTX";
    char prefix[32];
    snprintf(prefix, sizeof prefix, "line %u: ", perr.line);
    if (strncmp(message, prefix, strlen(prefix)) == 0)
        message += strlen(prefix);
    snprintf(err, cap, "%s:%u:%u: %s", src->label, perr.line, perr.column, message);
    return -1;
}

void cli_source_free(cli_source *src)
{
    ptx_module_free(src->module);
    free(src->owned);
    memset(src, 0, sizeof *src);
}
