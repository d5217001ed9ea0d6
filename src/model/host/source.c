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
#include <sys/stat.h>
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

/* The file name of path without its folder and its last extension
 * ("dir/k.cu" -> "k"), into out. */
static void stem_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), base);
}

/* Makes directory dir unless it exists. Returns 0, or -1 with one line in
 * err. */
static int make_dir(const char *dir, char *err, size_t cap)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        snprintf(err, cap, "--keep-ptx %s: not a directory", dir);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        snprintf(err, cap, "--keep-ptx %s: cannot make the directory: %s", dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

int cured_model_source_cu_file(cured_model_source *src, const char *path,
                               cured_model_sass_source *sass,
                               const cured_model_cu_options *opts, char *err, size_t cap)
{
    memset(src, 0, sizeof *src);
    const char *keep = opts ? opts->keep_dir : NULL;
    FILE *log = opts ? opts->log : NULL;
    const char *arch = opts && opts->arch ? opts->arch : cured_model_default_arch();
    char nvcc[1024];
    if (host_find_nvcc(nvcc, sizeof nvcc) != 0) {
        snprintf(err, cap, "--cu needs nvcc (CUDA toolkit), not found on PATH "
                 "or in /usr/local/cuda/bin: compile it yourself with `nvcc "
                 "-arch=%s -ptx -lineinfo` and pass --ptx FILE", arch);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) != 0 || access(path, R_OK) != 0) {
        snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, cap, "'%s' is %s, not a .cu file", path,
                 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        return -1;
    }
    char dir[1024];
    if (keep != NULL) {
        if (make_dir(keep, err, cap) != 0)
            return -1;
        snprintf(dir, sizeof dir, "%s", keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/cured-model-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(dir) == NULL) {
            snprintf(err, cap, "cannot make a temporary directory in %s: %s",
                     tmp && *tmp ? tmp : "/tmp", strerror(errno));
            return -1;
        }
    }
    char stem[256], ptx[1400];
    stem_of(path, stem, sizeof stem);
    snprintf(ptx, sizeof ptx, "%s/%s.ptx", dir, keep ? stem : "kernel");
    char arch_flag[64];
    snprintf(arch_flag, sizeof arch_flag, "-arch=%s", arch);
    char *argv[] = {nvcc, arch_flag, "-ptx", "-lineinfo", "-o", ptx,
                    (char *)path, NULL};
    char *messages = NULL;
    int rc = host_run_tool(argv, NULL, log, &messages);
    int result = 0;
    if (rc != 0) {
        snprintf(err, cap, "nvcc could not compile '%s' (%s %d)%s", path,
                 rc < 0 ? "status" : "exit", rc,
                 messages ? ": its messages are above" : "");
        src->tool_messages = messages;
        messages = NULL;
        result = -1;
    } else if (cured_model_source_ptx_file(src, ptx, err, cap) != 0) {
        result = -1;
    }
    free(messages);
    if (keep != NULL)
        snprintf(src->label, sizeof src->label, "%.1000s", ptx);
    else
        snprintf(src->label, sizeof src->label, "%.1000s (PTX)", path);
    if (result == 0 && sass != NULL)
        cured_model_sass_source_compile(sass, ptx, arch, path, keep != NULL, log);
    if (keep != NULL && result == 0) {
        snprintf(src->kept, sizeof src->kept, "%s", ptx);
        if (sass != NULL && sass->text != NULL) {
            size_t n = strlen(ptx) - 4;   /* NAME.ptx -> NAME.cubin, NAME.sass */
            snprintf(src->kept + strlen(src->kept), sizeof src->kept - strlen(src->kept),
                     ", %.*s.cubin, %.*s.sass", (int)n, ptx, (int)n, ptx);
        }
    }
    if (keep == NULL) {
        remove(ptx);
        rmdir(dir);
    }
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
    /* A CUDA file or a binary given as PTX fails on its first line: say
     * what it looks like. */
    size_t n = strlen(src->label);
    int binary = memchr(src->text, '\0', src->len) != NULL ||
                 (src->len >= 4 && memcmp(src->text, "\x7f" "ELF", 4) == 0);
    int cuda = !binary && (strstr(src->text, "__global__") != NULL ||
                           (n > 3 && strcmp(src->label + n - 3, ".cu") == 0) ||
                           (n > 4 && strcmp(src->label + n - 4, ".cuh") == 0));
    snprintf(err, cap, "%s:%u:%u: %s%s", src->label, perr.line, perr.column, message,
             cuda ? " (this looks like CUDA source, not PTX: give it with --cu)"
             : binary ? " (this is a binary file, not PTX text)" : "");
    return -1;
}

void cured_model_source_free(cured_model_source *src)
{
    cured_model_module_free(src->module);
    free(src->owned);
    free(src->tool_messages);
    memset(src, 0, sizeof *src);
}
