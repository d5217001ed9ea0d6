/* main.c - `cured`: entry point, subcommand table and dispatch.
 *
 *   cured <command> [options]      cured --help      cured help <command>
 *   cured --version
 */
#include "cli.h"
#include "cured.h"

#include <stdio.h>
#include <string.h>

static const cli_command cli_commands[] = {
    {"tour", "the lesson in one run: catalogue, lesson table, GPU bench", cmd_tour},
    {"list", "list the catalogue of reduction kernels", cmd_list},
    {"model", "run one kernel launch in the model (CPU): counters, checks", cmd_model},
    {"animate", "see a reduction step by step (terminal or one web page)", cmd_animate},
    {"sum", "reduce an array file (.npy or raw): exact sums, min, max, arg", cmd_sum},
#ifdef CURED_HAVE_CUDA
    {"bench", "time the catalogue against CUB and the read ceiling (GPU)", cmd_bench},
#endif
    {"version", "print the version", cmd_version},
    {NULL, NULL, NULL},
};

static void print_usage(FILE *out)
{
    fprintf(out, "usage: cured <command> [options]\n\ncommands:\n");
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\n`cured <command> --help` explains one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2) {
        /* `cured help model` is `cured model --help` */
        for (const cli_command *c = cli_commands; c->name; c++) {
            if (strcmp(argv[2], c->name) == 0) {
                char *help_argv[] = {argv[2], "--help", NULL};
                return c->run(2, help_argv);
            }
        }
        fprintf(stderr, "cured: unknown command '%s' (see cured --help)\n", argv[2]);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(argc - 1, argv + 1);
    for (const cli_command *c = cli_commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "cured: unknown command '%s' (see cured --help)\n", argv[1]);
    return 2;
}
