/* model_options.h - `cured model`'s command line, parsed.
 *
 * defines: cli_model_options, cli_model_parse_options, cli_model_usage,
 *          CLI_MODEL_PARSE_* results
 */
#ifndef CURED_CLI_MODEL_OPTIONS_H
#define CURED_CLI_MODEL_OPTIONS_H

#include "cured.h"
#include "cured_model_host.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_MODEL_MAX_ARGS 64
#define CLI_MODEL_MAX_OUTPUTS 32

/* A buffer to print (--print NAME[:all]) or write (--out NAME=PATH). */
typedef struct cli_model_output {
    const char *name;        /* points into argv (NAME part copied below) */
    char buffer[CURED_MODEL_ARG_NAME_MAX];
    const char *path;        /* --out only */
    int all;                 /* --print NAME:all */
} cli_model_output;

typedef struct cli_model_options {
    const char *kernel;      /* catalogue name, or NULL */
    const char *ptx_path;    /* --ptx */
    const char *cu_path;     /* --cu */
    const char *arch;        /* --arch sm_XX for --cu, NULL: the build's
                                (cured_model_default_arch) */
    const char *keep_ptx;    /* --keep-ptx DIR: keep what the toolkit made
                                of the --cu file */
    int verbose;             /* --verbose: the toolkit's command lines and
                                messages on stderr */
    const char *entry;       /* --entry */
    const char *sass_path;   /* --sass: nvdisasm -gp text of the kernel */
    int no_sass;             /* --no-sass: PTX-level counts */
    const cured_device_preset *device; /* --device, default the first preset
                                          (the H200): the shape of the
                                          catalogue's plans */
    const char *dtype;       /* --dtype, default "f32" */
    int have_grid, have_block, have_shared, have_cluster;
    cured_model_dim3 grid, block, cluster;
    uint32_t shared;
    cured_model_arg args[CLI_MODEL_MAX_ARGS];
    int nargs;
    int have_n;
    uint64_t n;              /* --n, default 1024: the grid, and the
                                standard arguments without --arg */
    uint64_t seed;           /* --seed: the input of --n, default 1 */
    cli_model_output prints[CLI_MODEL_MAX_OUTPUTS];
    int nprints;
    cli_model_output outs[CLI_MODEL_MAX_OUTPUTS];
    int nouts;
    uint64_t step_limit;     /* 0: the model's default */
    int steps;               /* --steps: the step view */
    int lesson_table;        /* --lesson-table */
    int whole_plan;          /* --whole-plan: every launch of the dispatch's
                                plan, and the final sum */
    int json;                /* --json: also set when the parse fails, so the
                                error can be reported as JSON */
    int strict;
    int force;               /* --force: run even when the run's memory
                                estimate is over what the machine has free */
    const char *compare_ncu; /* --compare-ncu FILE: ncu's CSV of the same
                                launch, compared with the counters */
} cli_model_options;

enum { CLI_MODEL_PARSE_OK = 0, CLI_MODEL_PARSE_HELP = 1, CLI_MODEL_PARSE_ERROR = -1 };

/* Parses argv (argv[0] is "model") into *o. Returns CLI_MODEL_PARSE_OK,
 * _HELP for --help, or _ERROR with one line in err (o->json then says
 * whether --json was among argv). Checks what can be checked without the
 * PTX: one source (KERNEL, --ptx or --cu), well-formed numbers, specs and
 * shapes, and that every option given applies to what runs: --lesson-table
 * takes only --json; --whole-plan no option of a single launch; --ptx/--cu
 * no option of the catalogue's (--dtype --n --seed --device), a catalogue
 * KERNEL no --entry. */
int cli_model_parse_options(int argc, char **argv, cli_model_options *o,
                            char *err, size_t cap);

/* Prints `cured model --help`. */
void cli_model_usage(FILE *out);

#endif /* CURED_CLI_MODEL_OPTIONS_H */
