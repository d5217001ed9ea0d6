/* cli_fail.c - the command line's one way to report bad usage or input:
 * one line on stderr, exit status 2. Its own file, below the commands and
 * main.c, so that no command calls back into main.c.
 *
 * defines: cli_fail, cli_fail_json
 */
#include "cli.h"
#include "json_out.h"

#include <stdarg.h>
#include <stdio.h>

/* The message of the last cli_fail, for cli_fail_json. The process runs
 * one command and stops, so one line is all there is to keep. */
static char last_failure[1024];

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_failure, sizeof last_failure, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cured %s: %s\n", cmd, last_failure);
    return 2;
}

void cli_fail_json(void)
{
    printf("{\"error\": ");
    cured_json_string(stdout, last_failure);
    printf(", \"exit_status\": 2}\n");
}
