/* animate.h - `cured animate`: its options, the runs it traces and the
 * terminal it plays in.
 *
 * defines: cli_animate_options, CLI_ANIMATE_MAX_N, cli_animate_parse,
 *          cli_animate_usage, cli_animate_lesson, cli_animate_load_catalogue,
 *          cli_animate_catalogue, cli_animate_file, cli_animate_write_page,
 *          cli_animate_play
 *
 * animate_options.c parses the command line; animate_run.c runs one launch
 * in the model with a trace watching and makes it a story (src/viz);
 * animate_term.c plays stories in a terminal; cmd_animate.c ties them.
 */
#ifndef CURED_CLI_ANIMATE_H
#define CURED_CLI_ANIMATE_H

#include "cured_model_host.h"
#include "viz.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_ANIMATE_MAX_N 1024   /* one block of at most 1024 threads */
#define CLI_ANIMATE_MAX_ARGS 64

typedef struct cli_animate_options {
    const char *kernel;      /* a lesson or catalogue name, or NULL */
    const char *ptx_path;    /* --ptx */
    const char *cu_path;     /* --cu */
    const char *entry;       /* --entry */
    const char *dtype;       /* --dtype, default "u32" */
    uint64_t n;              /* --n, default 64 */
    uint64_t seed;
    int have_n, have_seed, have_dtype;
    int have_grid, have_block, have_shared;
    cured_model_dim3 grid, block;
    uint32_t shared;
    cured_model_arg args[CLI_ANIMATE_MAX_ARGS];
    int nargs;
    uint64_t step_limit;
    double speed;            /* --speed, 1: a step each 1.3 s */
    int step;                /* --step: a key per step */
    int color;               /* 0 with --no-color */
    const char *html;        /* --html FILE */
} cli_animate_options;

enum { CLI_ANIMATE_OK = 0, CLI_ANIMATE_HELP = 1, CLI_ANIMATE_ERROR = -1 };

/* Parses argv (argv[0] is "animate") into *o. Returns CLI_ANIMATE_OK,
 * _HELP for --help, or _ERROR with one line in err. (animate_options.c) */
int cli_animate_parse(int argc, char **argv, cli_animate_options *o, char *err,
                      size_t cap);

/* Prints `cured animate --help`. (animate_options.c) */
void cli_animate_usage(FILE *out);

/* The catalogue kernel a lesson name stands for ("strided-index" ->
 * "strided"), the name itself when it is a catalogue name, NULL else;
 * *label gets what the lesson calls it and *code its idea in code, *group
 * "lesson" or "catalogue". (animate_run.c) */
const char *cli_animate_lesson(const char *name, const char **label, const char **code,
                               const char **group);

/* Loads and parses the embedded catalogue PTX into *src. Returns 0, or 2
 * after a line on stderr (a build without it). (animate_run.c) */
int cli_animate_load_catalogue(cured_model_source *src);

/* Runs catalogue kernel `kernel` (a catalogue name) from the parsed
 * catalogue src on o's n values of o's dtype with a trace, and makes its
 * story. Returns 0, 1 when the model stopped the kernel with an error
 * finding (after a line on stderr), 2 for bad input (after a line on
 * stderr). (animate_run.c) */
int cli_animate_catalogue(const cli_animate_options *o, const cured_model_source *src,
                          const char *kernel, viz_story **out);

/* The same for o's --ptx/--cu kernel with its --arg specs. */
int cli_animate_file(const cli_animate_options *o, viz_story **out);

/* Writes the page o->html asks for: the lesson's versions, the catalogue's
 * other kernels and o's own kernel, at o's n, opening on o's KERNEL (or
 * the user's). Prints where it went on stdout. Returns 0, 1 (a kernel the
 * model stopped, a write error) or 2 (bad input), after a line on stderr.
 * (cmd_animate.c) */
int cli_animate_write_page(const cli_animate_options *o);

/* Plays a story in the terminal as o asks: frame after frame at o->speed,
 * or a key per frame with --step; plain frames one after another when
 * stdout is not a terminal. Restores the terminal on exit and on signals.
 * Returns 0, or 1 on a write error. (animate_term.c) */
int cli_animate_play(const cli_animate_options *o, const viz_story *s);

#endif /* CURED_CLI_ANIMATE_H */
