/* source.c - loads the PTX a run executes: embedded, from a .ptx
 * file, or compiled from a .cu file by nvcc.
 *
 * defines: cured_model_source_catalogue, cured_model_source_ptx_file, cured_model_source_cu_file,
 *          cured_model_source_parse, cured_model_source_free, host_find_nvcc
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model_host.h"
#include "ptx.h"

#include "catalogue_ptx.h"
#include "tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cured_model_source_catalogue(cured_model_source *src, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    src->text = cured_model_catalogue_ptx(&src->len);
    if (src->text == NULL) {
        snprintf(err, cap, "this build has no embedded catalogue PTX (built "
                 "without CUDA): run your own kernel with --ptx FILE or --cu FILE");
        return -1;
    }
    snprintf(src->label, sizeof src->label, "catalogue.ptx");
    return 0;
}

int cured_model_source_ptx_file(cured_model_source *src, const char *path, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    snprintf(src->label, sizeof src->label, "%.1000s", path);
    char *text;
    if (host_read_file(path, &text, &src->len, err, cap) != 0)
        return -1;
    src->owned = text;
    src->text = text;
    return 0;
}

int host_find_nvcc(char *out, size_t cap)
{
    return host_find_tool("nvcc", NULL, out, cap);
}

int cured_model_source_cu_file(cured_model_source *src, const char *path, const char *arch,
                       cured_model_sass_source *sass, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    if (arch == NULL)
        arch = cured_model_default_arch();
    char nvcc[1024];
    if (host_find_nvcc(nvcc, sizeof nvcc) != 0) {
        snprintf(err, cap, "--cu needs nvcc (CUDA toolkit), not found on PATH "
                 "or in /usr/local/cuda/bin: compile it yourself with `nvcc "
                 "-arch=%s -ptx -lineinfo` and pass --ptx FILE", arch);
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
    char arch_flag[64];
    snprintf(arch_flag, sizeof arch_flag, "-arch=%s", arch);
    char *argv[] = {nvcc, arch_flag, "-ptx", "-lineinfo", "-o", ptx,
                    (char *)path, NULL};
    fprintf(stderr, "cured model: %s %s -ptx -lineinfo %s\n", nvcc, arch_flag, path);
    int rc = host_run_tool(argv, NULL);
    int result = 0;
    if (rc != 0) {
        snprintf(err, cap, "nvcc failed on '%s' (%s %d)", path,
                 rc < 0 ? "status" : "exit", rc);
        result = -1;
    } else if (cured_model_source_ptx_file(src, ptx, err, cap) != 0) {
        result = -1;
    }
    snprintf(src->label, sizeof src->label, "%s (PTX)", path);
    if (result == 0 && sass != NULL)
        cured_model_sass_source_compile(sass, ptx, arch, path);
    remove(ptx);
    rmdir(dir);
    return result;
}

int cured_model_source_parse(cured_model_source *src, char *err, size_t cap)
{
    cured_model_parse_error perr;
    memset(&perr, 0, sizeof perr);
    src->module = cured_model_parse(src->text, src->len, &perr);
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

void cured_model_source_free(cured_model_source *src)
{
    cured_model_module_free(src->module);
    free(src->owned);
    memset(src, 0, sizeof *src);
}
