/* tools.c - finding and running the toolkit's programs, reading files
 * whole (tools.h).
 *
 * defines: host_find_tool, host_run_tool, host_read_file
 */
#define _POSIX_C_SOURCE 200809L
#include "tools.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int host_find_tool(const char *name, const char *fallback, char *out,
                  size_t cap)
{
    const char *path = getenv("PATH");
    while (path != NULL && *path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && (size_t)snprintf(out, cap, "%.*s/%s", (int)n, path, name) < cap &&
            access(out, X_OK) == 0)
            return 0;
        path += n + (path[n] == ':');
    }
    if ((size_t)snprintf(out, cap, "/usr/local/cuda/bin/%s", name) < cap &&
        access(out, X_OK) == 0)
        return 0;
    if (fallback != NULL && (size_t)snprintf(out, cap, "%s", fallback) < cap &&
        access(out, X_OK) == 0)
        return 0;
    return -1;
}

int host_run_tool(char *const argv[], const char *stdout_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = STDERR_FILENO;
        if (stdout_path != NULL)
            fd = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0)
            _exit(127);
        dup2(fd, STDOUT_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int host_read_file(const char *path, char **text, size_t *len, char *err,
                  size_t cap)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, cap, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t n = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    while (buf != NULL) {
        n += fread(buf + n, 1, capacity - n - 1, f);
        if (n + 1 < capacity)
            break;
        capacity *= 2;
        char *grown = realloc(buf, capacity);
        if (grown == NULL)
            free(buf);
        buf = grown;
    }
    int failed = buf == NULL || ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        snprintf(err, cap, "cannot read '%s'", path);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}
