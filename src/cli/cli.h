/* cli.h - the `cured` command line: one function per subcommand.
 *
 * defines: cli_command, cli_fail, cli_fail_json (cli_fail.c), cli_catalogue_find
 *          (cmd_list.c), cmd_tour, cmd_list, cmd_version, cmd_model, cmd_sum,
 *          cmd_animate, cmd_bench (CUDA builds only)
 *
 * Every subcommand gets argv starting at its own name (getopt_long-ready),
 * prints data on stdout and progress on stderr, and returns the process exit
 * status: 0 on success, 1 when the work ran and found a failure, 2 for bad
 * usage or input (after one clear line on stderr, see cli_fail).
 */
#ifndef CURED_CLI_H
#define CURED_CLI_H

#include <stddef.h>

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} cli_command;

/* Prints "cured <cmd>: <message>" as one line on stderr and returns 2, so a
 * subcommand can `return cli_fail(...)`. */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The catalogue kernel `text` names: its name, or its number in
 * `cured list` (1 to cured_catalogue_count()). Stores its 0-based index
 * in *index and returns 0, or returns -1 with one line in err: a number
 * out of range, or an unknown name (suggesting a near one). (cmd_list.c) */
int cli_catalogue_find(const char *text, int *index, char *err, size_t cap);

/* Prints the last cli_fail's message on stdout as one JSON object,
 * {"error": "MESSAGE", "exit_status": 2}: for a command run with --json,
 * whose reader expects JSON on stdout even when it fails. */
void cli_fail_json(void);

int cmd_tour(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_animate(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sum(int argc, char **argv);

#endif /* CURED_CLI_H */
