/* step_view_impl.h - the seed view's internal state, shared by
 * step_view.c (the observer: counts, intervals, steps), step_view_taint.c
 * (rules 1 and 3 of docs/counting.md, "The step view": per-thread register
 * purity and shared-load origins) and step_view_words.c (the words each
 * thread read in an interval). Not an API: only step_view*.c include it.
 *
 * The step view's files, top down: step_view_report.c (the table, JSON,
 * through step_view.h) -> step_view.c (the observer) -> step_view_taint.c
 * and step_view_words.c (neither calls the other) and bank.h.
 *
 * defines: word_set, taint_file, interval, struct cured_model_step_view,
 *          step_words_add, step_words_contains, step_taint_of,
 *          step_taint_reset, step_operand_regs, step_sources_pure,
 *          step_set_dsts, step_space_pure, step_value_operands
 */
#ifndef CURED_MODEL_STEP_VIEW_IMPL_H
#define CURED_MODEL_STEP_VIEW_IMPL_H

#include "step_view.h"
#include "ptx.h"

#include <stdint.h>

/* The words one thread read in the current interval: an open-addressing
 * set of word + 1 (0 = empty), emptied lazily when the epoch moves on. */
typedef struct word_set {
    uint32_t *keys;
    uint32_t cap;       /* a power of two, or 0 */
    uint32_t count;
    uint32_t epoch;
} word_set;

/* Per thread, per register slot of one function: purity and the shared
 * load the value came from (0: none). Indexed [thread * nregs + slot]. */
typedef struct taint_file {
    uint8_t *pure;
    uint64_t *origin;
    uint32_t threads;   /* threads allocated for */
} taint_file;

/* A barrier interval of some block; `step` is its index in steps[] once it
 * closed as a tree step, else -1. */
typedef struct interval {
    cured_model_step s;
    int tree;
    int step;
} interval;

struct cured_model_step_view {
    const cured_model_module *module;
    int function;
    int incomplete;

    /* totals over blocks */
    uint64_t accesses, barriers, initial_stores, initial_barriers, final_reads;
    uint64_t shuffles;
    uint32_t shuffle_rounds, blocks;

    interval *intervals;
    int nintervals, cap_intervals;
    cured_model_step *steps;
    int nsteps, cap_steps;

    /* the block running */
    int in_block;
    uint32_t block, nthreads, nwarps, cap_threads;
    int cur;                  /* index of the open interval in intervals[] */
    uint32_t epoch;           /* moves on with every interval */
    int pending_initial;      /* pure stores since the last barrier */
    uint64_t load_seq;
    uint32_t *lanes;          /* per warp: lanes with counted accesses now */
    uint32_t *shfl_count;     /* per warp: shfl instructions this block */
    uint32_t *adding_epoch;   /* per thread: epoch it was last counted adding */
    word_set *reads;          /* per thread */
    uint64_t *subtracted;     /* final reads taken out in this block */
    int nsubtracted, cap_subtracted;
    taint_file *taint;        /* per function of the module */
};

/* ------------------------------------------- word sets (step_view_words.c) */

/* Adds word to s, first emptying s when it belongs to an older epoch than
 * `epoch`. Returns 0, or -1 when out of host memory. */
int step_words_add(word_set *s, uint32_t epoch, uint32_t word);

/* 1 when s holds word in `epoch` (emptying s when it is older), else 0. */
int step_words_contains(word_set *s, uint32_t epoch, uint32_t word);

/* ----------------------------------------------- taint (step_view_taint.c) */

/* The taint file of `function` for the current block, allocated (all pure,
 * no origin) on first use; NULL when out of host memory (v->incomplete is
 * then set) or for a function out of range. */
taint_file *step_taint_of(cured_model_step_view *v, int function);

/* Clears every allocated taint file for a new block. */
void step_taint_reset(cured_model_step_view *v);

/* Stores in slots[] the register slots operand `op` reads or names (a REG,
 * the registers of a VEC, an ADDR's base register); returns how many (at
 * most 4). */
int step_operand_regs(const ptx_operand *op, int32_t slots[5]);

/* Whether the registers of operands [from, to) of ins are all pure for
 * `thread`; *origin gets the origin of the single register source when the
 * operands are one REG (for mov/cvt), else 0. */
int step_sources_pure(const taint_file *t, int nregs, uint32_t thread,
                      const ptx_instr *ins, int from, int to, uint64_t *origin);

/* Sets the destination registers of ins for `thread`. */
void step_set_dsts(taint_file *t, int nregs, uint32_t thread,
                   const ptx_instr *ins, int pure, uint64_t origin);

/* Whether a load from `space` gives a pure value (rule 1). */
int step_space_pure(int space, int is_entry);

/* The first operand holding the value a store/atom/red writes, and the
 * end of those operands. */
void step_value_operands(const ptx_instr *ins, int *from, int *to);

#endif /* CURED_MODEL_STEP_VIEW_IMPL_H */
