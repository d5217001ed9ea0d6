/* cli.h - the `cured` command line: one function per subcommand.
 *
 * defines: cli_command, cli_commands, cli_fail, cmd_tour, cmd_list, cmd_version,
 *          cmd_model, cmd_animate, cmd_bench (CUDA builds only)
 *
 * Every subcommand gets argv starting at its own name (getopt_long-ready),
 * prints data on stdout and progress on stderr, and returns the process exit
 * status: 0 on success, 1 when the work ran and found a failure, 2 for bad
 * usage or input (after one clear line on stderr, see cli_fail).
 */
#ifndef CURED_CLI_H
#define CURED_CLI_H

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} cli_command;

/* The table of subcommands, terminated by an entry whose name is NULL. */
extern const cli_command cli_commands[];

/* Prints "cured <cmd>: <message>" as one line on stderr and returns 2, so a
 * subcommand can `return cli_fail(...)`. */
int cli_fail(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

int cmd_tour(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_animate(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif /* CURED_CLI_H */
