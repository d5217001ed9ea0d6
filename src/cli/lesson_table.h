/* lesson_table.h - `cured model --lesson-table`: the lesson's table,
 * reproduced by running the four versions in the model.
 *
 * defines: cli_lesson_table
 */
#ifndef CURED_CLI_LESSON_TABLE_H
#define CURED_CLI_LESSON_TABLE_H

/* Runs the catalogue's divergent, strided, sequential and shuffle kernels
 * (f32) on 64 random values, one block of 64 threads, and prints the
 * lesson's table from the step view, then the hardware view of the same runs
 * (shared ld/st instructions, wavefronts, bank conflicts, barriers,
 * shuffles). json: one JSON object instead. Returns the exit status: 0, 1
 * when a run had error findings, 2 when the build has no catalogue PTX or
 * the PTX could not be loaded (after one line on stderr). */
int cli_lesson_table(int json);

#endif /* CURED_CLI_LESSON_TABLE_H */
