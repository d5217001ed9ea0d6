/* checks_impl.h - the checks' internal state, shared by checks.c (the
 * observer), checks_shared.c (the shared-memory shadow), checks_global.c
 * (the global init shadow) and checks_report.c (findings and the text in
 * them). Not an API: only checks*.c include it.
 *
 * defines: checks_ref, checks_cell, checks_block, struct cured_model_checks,
 *          checks_shared_access, checks_warp_sync, checks_find_block
 *          (checks_shared.c),
 *          checks_global_access (checks_global.c), checks_report,
 *          checks_where, checks_thread_text (checks_report.c)
 */
#ifndef CURED_MODEL_CHECKS_IMPL_H
#define CURED_MODEL_CHECKS_IMPL_H

#include "checks.h"

#include <stddef.h>
#include <stdint.h>

#define CHECKS_READERS 4
#define CHECKS_MAX_WARPS 32          /* 1024 threads */
#define CHECKS_MIXED UINT32_MAX      /* readers from several blocks */

/* One earlier access to a shared byte: enough to order it against a later
 * one and to name it in a message. */
typedef struct checks_ref {
    uint32_t block;      /* the accessing thread's block (linear index) */
    uint32_t cepoch;     /* the cluster barrier's phases completed then */
    uint32_t epoch;      /* its block's barrier count when it happened */
    uint32_t inst;       /* its warp's instruction count (same instruction?) */
    uint32_t clock;      /* the lane's warp-sync clock */
    int32_t pc;
    int32_t function;
    uint16_t thread;     /* linear thread index in its block */
    uint8_t kind;        /* cured_model_access_kind */
} checks_ref;

/* The shadow of one shared byte. A cell whose gen is not its block's gen
 * is fresh (never touched in this block), so blocks need no clearing. */
typedef struct checks_cell {
    uint32_t gen;
    uint32_t read_epoch; /* the barrier count the readers belong to */
    uint32_t read_cepoch; /* and the cluster barrier's phase count */
    uint32_t read_block; /* the readers' block, CHECKS_MIXED for several */
    uint8_t written;
    uint8_t nreaders;
    uint8_t multi_writer;  /* the last write's instruction wrote this byte
                              from several lanes; other_writer is one */
    uint16_t other_writer;
    uint32_t other_clock;  /* other_writer's warp-sync clock then */
    checks_ref write;
    checks_ref readers[CHECKS_READERS];
} checks_cell;

/* A block that is running: its barrier count, per-warp instruction counts
 * and per-warp vector clocks, and its shared shadow. */
typedef struct checks_block {
    int live;
    uint32_t block;      /* linear block index */
    uint32_t threads;
    uint32_t gen;
    uint32_t epoch;      /* barriers released so far */
    uint32_t cepoch;     /* of them, phases of the cluster barrier */
    uint32_t inst[CHECKS_MAX_WARPS];
    /* vc[w][l][m]: the latest clock of lane m of warp w that lane l is
     * ordered after; vc[w][l][l] is lane l's own clock. */
    uint32_t (*vc)[CURED_MODEL_WARP_SIZE][CURED_MODEL_WARP_SIZE];
    checks_cell *cells;
    size_t ncells;
} checks_block;

/* A race already reported: the later and the earlier instruction. */
typedef struct checks_pair {
    int32_t function, pc, other_function, other_pc;
} checks_pair;

struct cured_model_checks {
    cured_model_findings *out;
    int warp_ops_sync;
    /* the current launch (from launch_begin) */
    cured_model_dim3 grid, block_dim;
    cured_model_memory *memory;
    int check_uninit_global;
    size_t window;       /* shared bytes per block */
    uint32_t next_gen;
    checks_block *blocks;
    int nblocks;
    checks_pair *pairs;
    int npairs, pairs_cap;
};

/* Checks one shared-memory access by a thread of block src for races and
 * unwritten reads, then records it in the shadow: an access to src's own
 * shared memory, or (CURED_MODEL_SPACE_CLUSTER_SHARED) to another block's
 * of its cluster. Out of host memory: the access is skipped. */
void checks_shared_access(cured_model_checks *c, const checks_block *src,
                          const cured_model_access *a);

/* The running block with linear index `block`, or NULL. */
checks_block *checks_find_block(cured_model_checks *c, uint32_t block);

/* Orders the lanes `mask` of warp `warp` of block b with each other. */
void checks_warp_sync(checks_block *b, uint32_t warp, uint32_t mask);

/* Checks one global access for unwritten reads and marks the bytes stores
 * and atomics write in their buffer's init shadow. */
void checks_global_access(cured_model_checks *c, const cured_model_access *a);

/* Adds a hazard of `kind` at event e's instruction, for lane `lane` of the
 * event's warp, at `address`, with `message`. */
void checks_report(cured_model_checks *c, const cured_model_event *e, cured_model_finding_kind kind,
                   int lane, uint64_t address, const char *message);

/* Writes "file.cu:17" for instruction pc of function (the .cu's base name;
 * "ptx line N" when the PTX has no .loc) into buf. */
void checks_where(const cured_model_module *m, int32_t function, int32_t pc, char *buf,
                  size_t size);

/* Writes "(x,y,z)", the threadIdx of linear thread t, into buf. */
void checks_thread_text(const cured_model_checks *c, uint32_t t, char *buf, size_t size);

#endif /* CURED_MODEL_CHECKS_IMPL_H */
