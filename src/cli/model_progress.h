/* model_progress.h - `cured model`'s progress on stderr for runs longer
 * than a few seconds.
 *
 * defines: cli_progress, cli_progress_init, cli_progress_observer,
 *          cli_progress_end
 */
#ifndef CURED_CLI_MODEL_PROGRESS_H
#define CURED_CLI_MODEL_PROGRESS_H

#include "cured_model.h"

#include <stdint.h>
#include <stdio.h>

/* The first line comes after this many seconds, then one every
 * PROGRESS_EVERY_TTY seconds on a terminal (one line rewritten with \r),
 * or every PROGRESS_EVERY_LOG seconds elsewhere (plain lines: a log stays
 * short). */
#define PROGRESS_FIRST 3.0
#define PROGRESS_EVERY_TTY 1.0
#define PROGRESS_EVERY_LOG 5.0

/* How far a run is; an observer (cli_progress_observer) fills it. */
typedef struct cli_progress {
    FILE *out;                 /* stderr; never stdout, which is for data */
    int tty;                   /* out is a terminal: rewrite one line */
    double (*now)(void);       /* seconds on a monotonic clock */
    double start, next;        /* when the run began; when a line is due */
    double launch_start;       /* when the launch running began */
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    uint64_t block, blocks;    /* the block running (0-based), of the launch's */
    uint64_t blocks_run;       /* over every launch so far */
    int launch, launches;      /* the launch running (1-based), of; 1: not shown */
    int printed;               /* lines printed so far */
    int width;                 /* length of the last terminal line */
} cli_progress;

/* Prepares p for a run of `launches` launches reporting to out (tty: when
 * out is a terminal), timed by now (NULL: CLOCK_MONOTONIC). Can't fail. */
void cli_progress_init(cli_progress *p, FILE *out, int launches, double (*now)(void));

/* The observer to add to a launch: counts warp and thread instructions
 * and, every 2^14 warp instructions, reads the clock; when a line is due,
 * prints "cured model: [launch 1/3, ]block 1234/16384, 3.1 G
 * thread-instructions, 12 s[, about 40 s left]". Its ctx is p. */
cured_model_observer cli_progress_observer(cli_progress *p);

/* After the run: when lines were printed, one more with the totals ("done
 * in 14 s: ..."), ending the terminal's line. Nothing after a short run. */
void cli_progress_end(cli_progress *p);

#endif /* CURED_CLI_MODEL_PROGRESS_H */
