/* cli_fail.c - the command line's one way to report bad usage or input:
 * one line on stderr, exit status 2. Its own file, below the commands and
 * main.c, so that no command calls back into main.c.
 *
 * defines: cli_fail
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "cured %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}
