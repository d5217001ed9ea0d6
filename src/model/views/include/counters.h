/* counters.h - the model's hardware view: what Nsight Compute would count
 * for a kernel, per kernel, per PTX instruction and per source line.
 *
 * defines: cured_model_counter, cured_model_counter_info, cured_model_counter_describe,
 *          cured_model_counters, cured_model_counters_new, cured_model_counters_free,
 *          cured_model_counters_reset, cured_model_counters_observer,
 *          cured_model_counters_use_sass, cured_model_counters_sass_label
 *          (these in counters_sass.c),
 *          cured_model_counters_total, cured_model_counters_totals, cured_model_counters_at,
 *          cured_model_counters_active_share, cured_model_counters_by,
 *          cured_model_counters_line, cured_model_counters_lines,
 *          cured_model_counters_function, cured_model_counters_module,
 *          cured_model_counters_complete,
 *          cured_model_counters_print_table, cured_model_counters_write_json
 *          (the last two are in counters_report.c)
 *
 * Usage: c = cured_model_counters_new(module, entry); put
 * cured_model_counters_observer(c) in the launch's observers; cured_model_run; read the
 * totals, the rows, or print them; cured_model_counters_free(c). Several launches
 * add up until cured_model_counters_reset.
 *
 * PTX, and SASS where it is known. The model runs the PTX nvcc emits, so
 * smsp__inst_executed.sum here is "PTX warp instructions issued", which
 * differs from what ncu reports for the SASS ptxas makes (ptxas adds
 * address arithmetic and control instructions, removes others, unrolls,
 * predicates short branches). The memory counters follow the SASS when
 * the matcher (sass_match.h) has said, per PTX memory instruction, what
 * ptxas made of it (a fact, sass_facts.h, that the counters read once
 * given the table: cured_model_counters_use_sass): how many SASS instructions
 * of which widths (a merge: two ld.shared.f32 into one LDS.64; a split;
 * an ld.global.v4 of which two components are used: two LDG.E), whether
 * they carry a guard predicate, and which branches ptxas removed. Without
 * that, counts are PTX-level: memory instructions mostly map one to one.
 *
 * Predicated SASS (the rule that makes instruction counts SASS-level).
 * ncu counts smsp__inst_executed_op_* per warp that ISSUES a SASS
 * instruction, also when its guard is false in every lane; requests,
 * wavefronts and sectors count only lanes that access memory. ptxas
 * if-converts short branches: `if (tid < s) sdata[tid] += sdata[tid + s];`
 * is a PTX branch around two ld.shared and a st.shared, and in SASS three
 * predicated instructions (@!P1 LDS, @!P1 LDS, @!P1 STS) that every warp
 * reaching the loop step issues. So, for a PTX memory instruction whose
 * SASS fact says `predicated`:
 *  (1) a warp that executes it with no lane whose guard holds (a guarded
 *      PTX instruction) counts one instruction per SASS piece, nothing else;
 *  (2) a warp that jumps over it by a branch ptxas removed counts one
 *      instruction per piece too: when a branch at pc b is taken by every
 *      active lane of a warp (a conditional one, as the branch observer
 *      reports it, or an unconditional one, always), each pc in b's skip
 *      list (sass_facts.h) counts once for that warp.
 * The matcher builds a removed branch's skip list by walking the PTX from
 * b + 1 to the target: predicated memory instructions whose SASS sits in
 * the straight-line stretch of the SASS that the branch's own block falls
 * into; through nested removed branches (their bodies are predicated too);
 * stopping at anything a warp would not reach without a jump (a branch
 * ptxas kept, a call, a return, a barrier, an unpredicated access). A
 * backward branch skips nothing, so loops need no special case: each trip
 * is one pass of the walk's region. Wavefronts, conflicts, requests and
 * sectors of such warps stay 0.
 *
 * The conventions (bank rules in bank.h):
 *  - a memory instruction counts once per access event (model.h: one per
 *    state space its lanes resolve to) that has a lane accessing memory
 *    (once per SASS piece when the SASS is known); a warp whose lanes are
 *    all predicated off counts in smsp__inst_executed, and in the op_*
 *    instruction counters only by the rules above;
 *  - one request per global warp instruction (per piece when split);
 *  - divergent branches: one per conditional branch a warp executes whose
 *    active lanes do not all go the same way (0 < taken < active);
 *  - barriers, shuffles and votes are warp-level instruction counts, as
 *    ncu's instruction statistics list them by SASS opcode (BAR, SHFL, VOTE).
 */
#ifndef CURED_MODEL_COUNTERS_H
#define CURED_MODEL_COUNTERS_H

#include "cured_model.h"
#include "ptx.h"

#include <stdint.h>
#include <stdio.h>

/* ----------------------------------------------------------- counters */

/* Every counter, with the Nsight Compute metric it stands for. */
typedef enum cured_model_counter {
    CURED_MODEL_CTR_INST = 0,            /* smsp__inst_executed.sum (PTX) */
    CURED_MODEL_CTR_THREAD_INST,         /* smsp__thread_inst_executed.sum */
    CURED_MODEL_CTR_THREAD_INST_PRED_ON, /* smsp__thread_inst_executed_pred_on.sum */
    CURED_MODEL_CTR_SHARED_LD,           /* smsp__inst_executed_op_shared_ld.sum */
    CURED_MODEL_CTR_SHARED_ST,           /* smsp__inst_executed_op_shared_st.sum */
    CURED_MODEL_CTR_SHARED_ATOM,         /* smsp__inst_executed_op_shared_atom.sum */
    CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS,/* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS,/* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum */
    CURED_MODEL_CTR_SHARED_LD_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    CURED_MODEL_CTR_SHARED_ST_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum */
    CURED_MODEL_CTR_GLOBAL_LD,           /* smsp__inst_executed_op_global_ld.sum */
    CURED_MODEL_CTR_GLOBAL_ST,           /* smsp__inst_executed_op_global_st.sum */
    CURED_MODEL_CTR_GLOBAL_ATOM,         /* smsp__inst_executed_op_global_atom.sum */
    CURED_MODEL_CTR_GLOBAL_RED,          /* smsp__inst_executed_op_global_red.sum */
    CURED_MODEL_CTR_GLOBAL_LD_REQUESTS,  /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    CURED_MODEL_CTR_GLOBAL_ST_REQUESTS,  /* l1tex__t_requests_pipe_lsu_mem_global_op_st.sum */
    CURED_MODEL_CTR_GLOBAL_ATOM_REQUESTS,/* l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum */
    CURED_MODEL_CTR_GLOBAL_RED_REQUESTS, /* l1tex__t_requests_pipe_lsu_mem_global_op_red.sum */
    CURED_MODEL_CTR_GLOBAL_LD_SECTORS,   /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    CURED_MODEL_CTR_GLOBAL_ST_SECTORS,   /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    CURED_MODEL_CTR_GLOBAL_ATOM_SECTORS, /* l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum */
    CURED_MODEL_CTR_GLOBAL_RED_SECTORS,  /* l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum */
    CURED_MODEL_CTR_LOCAL_LD,            /* smsp__inst_executed_op_local_ld.sum */
    CURED_MODEL_CTR_LOCAL_ST,            /* smsp__inst_executed_op_local_st.sum */
    CURED_MODEL_CTR_BRANCHES,            /* smsp__inst_executed_op_branch.sum (bra) */
    CURED_MODEL_CTR_DIVERGENT_BRANCHES,  /* smsp__sass_branch_targets_threads_divergent.sum */
    CURED_MODEL_CTR_BARRIERS,            /* sass__inst_executed_per_opcode, BAR */
    CURED_MODEL_CTR_SHUFFLES,            /* sass__inst_executed_per_opcode, SHFL */
    CURED_MODEL_CTR_VOTES,               /* sass__inst_executed_per_opcode, VOTE */
    CURED_MODEL_CTR_COUNT
} cured_model_counter;

/* What a counter is: `key` is a short snake_case name for tables and for
 * code ("shared_ld_wavefronts"), `metric` the Nsight Compute metric name,
 * `what` one line of meaning. */
typedef struct cured_model_counter_info {
    const char *key;
    const char *metric;
    const char *what;
} cured_model_counter_info;

/* The description of counter `id`, or NULL when id is out of range. */
const cured_model_counter_info *cured_model_counter_describe(cured_model_counter id);

/* ----------------------------------------------------------- the view */

typedef struct cured_model_counters cured_model_counters;

/* New, zeroed counters for kernels of `module` (which must outlive them);
 * `function` is the entry being launched (reports name it first). Every
 * function of the module is counted (a called .func too). Returns NULL when
 * out of host memory or when function is not a function of the module. */
cured_model_counters *cured_model_counters_new(const cured_model_module *module, int function);

/* Frees the counters. NULL is fine. */
void cured_model_counters_free(cured_model_counters *c);

/* Zeroes every count (the SASS facts in use stay in use). */
void cured_model_counters_reset(cured_model_counters *c);

/* The observer to put in cured_model_launch.observers. Its ctx is c. */
cured_model_observer cured_model_counters_observer(cured_model_counters *c);

/* ------------------------------------------------------------- SASS */

typedef struct cured_model_sass_facts cured_model_sass_facts;  /* sass_facts.h */

/* Makes c count memory instructions as the SASS issues them, by the facts
 * f (NULL: PTX-level counts again). c keeps the pointer: f must outlive
 * every run and report of c, and facts added to f later (the matcher, for
 * another entry) count from then on. Returns 0, or -1 when f describes
 * another module than c counts (c is left as it was). */
int cured_model_counters_use_sass(cured_model_counters *c, const cured_model_sass_facts *f);

/* Where the SASS the counts follow came from (the label of the facts in
 * use), or NULL when the counts are PTX-level (or the facts have no
 * label). */
const char *cured_model_counters_sass_label(const cured_model_counters *c);

/* The kernel-wide total of one counter (0 for an id out of range). */
uint64_t cured_model_counters_total(const cured_model_counters *c, cured_model_counter id);

/* All totals, indexed by cured_model_counter (CURED_MODEL_CTR_COUNT values). */
const uint64_t *cured_model_counters_totals(const cured_model_counters *c);

/* The counts of the instruction at (function, pc), CURED_MODEL_CTR_COUNT values,
 * or NULL when out of range or when that function never ran. */
const uint64_t *cured_model_counters_at(const cured_model_counters *c, int function,
                                  int pc);

/* The active-lane share: thread instructions / (warp instructions * 32),
 * i.e. smsp__thread_inst_executed_per_inst_executed.ratio / 32 (the old
 * warp execution efficiency). 0 when nothing ran. */
double cured_model_counters_active_share(const cured_model_counters *c);

/* The entry given to cured_model_counters_new, and the module. */
int cured_model_counters_function(const cured_model_counters *c);
const cured_model_module *cured_model_counters_module(const cured_model_counters *c);

/* 1 when every event was counted, 0 when the per-instruction rows of some
 * function could not be allocated (its counts are then in the totals only). */
int cured_model_counters_complete(const cured_model_counters *c);

/* --------------------------------------------------------------- rows */

/* How rows are keyed. */
typedef enum cured_model_counters_by {
    CURED_MODEL_BY_TOTAL = 0, /* no rows: the kernel's totals only */
    CURED_MODEL_BY_SOURCE,    /* ptx_instr.src_file/src_line: the innermost .loc
                           (inside an inlined function: that function's line) */
    CURED_MODEL_BY_SITE,      /* ptx_instr.site_file/site_line: the outermost
                           (the kernel's own line for inlined code) */
    CURED_MODEL_BY_PTX        /* ptx_instr.ptx_line: one row per instruction */
} cured_model_counters_by;

/* One row: the sum of the counts of the instructions of one function that
 * share a key. For CURED_MODEL_BY_PTX, file is 0 and line the PTX line. Lines
 * with no .loc (line 0) are a row of their own. */
typedef struct cured_model_counters_line {
    int function;
    uint16_t file;
    uint32_t line;
    int first_pc;            /* the lowest pc in the row */
    uint64_t v[CURED_MODEL_CTR_COUNT];
} cured_model_counters_line;

/* The rows of `function` (-1: the entry) keyed by `by`, sorted by file then
 * line, only those where something was counted (an instruction ran, or a
 * warp skipped a predicated SASS access). Stores a malloc'ed array in
 * *rows (the caller frees it; NULL when there are none) and returns the row
 * count, or -1 when out of host memory or for a bad function or by. */
int cured_model_counters_lines(const cured_model_counters *c, int function,
                         cured_model_counters_by by, cured_model_counters_line **rows);

/* ------------------------------------------------------------ reports */

/* Prints the totals (each with its ncu metric name) and, unless by is
 * CURED_MODEL_BY_TOTAL, one table row per line of each function that ran, as
 * aligned plain text. Returns 0, or -1 when out of host memory or on a
 * write error. */
int cured_model_counters_print_table(FILE *out, const cured_model_counters *c,
                               cured_model_counters_by by);

/* Writes the counts as one JSON object: the kernel's name, a note on PTX vs
 * SASS, "totals" keyed by ncu metric name, "derived" (the active-lane share),
 * the counter table (key, metric, meaning), and per function "lines"
 * (by source) and "ptx" (by instruction) rows whose counts are keyed by the
 * counters' short keys, non-zero ones only. Returns 0, or -1 when out of host
 * memory or on a write error. */
int cured_model_counters_write_json(FILE *out, const cured_model_counters *c);

#endif /* CURED_MODEL_COUNTERS_H */
