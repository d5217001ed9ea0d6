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
#include <sys/stat.h>
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

/* Reads fd to its end into a growing malloc'd string (*text, *len).
 * Keeps reading after memory runs out (so the tool never blocks on a full
 * pipe), dropping the text. */
static void read_all(int fd, char **text, size_t *len)
{
    size_t cap = 0;
    int lost = 0;
    *text = NULL;
    *len = 0;
    for (;;) {
        char buf[4096];
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (lost)
            continue;
        if (*len + (size_t)n + 1 > cap) {
            size_t grown_cap = (*len + (size_t)n + 1) * 2;
            char *grown = realloc(*text, grown_cap);
            if (grown == NULL) {
                free(*text);
                *text = NULL;
                *len = 0;
                lost = 1;
                continue;
            }
            *text = grown;
            cap = grown_cap;
        }
        memcpy(*text + *len, buf, (size_t)n);
        *len += (size_t)n;
        (*text)[*len] = '\0';
    }
}

int host_run_tool(char *const argv[], const char *stdout_path, FILE *log,
                  char **messages)
{
    if (messages != NULL)
        *messages = NULL;
    if (log != NULL) {
        fputc('+', log);
        for (int i = 0; argv[i] != NULL; i++)
            fprintf(log, " %s", argv[i]);
        fputc('\n', log);
    }
    fflush(stdout);
    fflush(stderr);
    if (log != NULL)
        fflush(log);
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0) {
        int out = pipefd[1];
        if (stdout_path != NULL)
            out = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0)
            _exit(127);
        dup2(out, STDOUT_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipefd[1]);
    char *text;
    size_t len;
    read_all(pipefd[0], &text, &len);
    close(pipefd[0]);
    int status;
    pid_t waited;
    while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (log != NULL && text != NULL) {
        fputs(text, log);
        if (len > 0 && text[len - 1] != '\n')
            fputc('\n', log);
    }
    if (messages != NULL && len > 0)
        *messages = text;
    else
        free(text);
    if (waited < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int host_read_file(const char *path, char **text, size_t *len, char *err,
                  size_t cap)
{
    *text = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "'%s' is a directory, not a file", path);
        return -1;
    }
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
