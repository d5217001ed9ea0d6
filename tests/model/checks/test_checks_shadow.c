/* test_checks_shadow.c - the checks' shadow logic, driven by synthetic
 * event sequences (no parser, no interpreter): what races, what does not,
 * what reads unwritten memory.
 *
 *   ctest --test-dir build -R test_checks_shadow
 *
 * A fake module holds one function of 64 instructions; instruction pc sits
 * on line 100 + pc of "k.cu", so messages and findings name known lines.
 */
#include "checks.h"
#include "ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define NCODE 64

// ----------------------------------------------------------------------------
// A tiny harness: a fake module, launch and block, and helpers that issue
// one warp instruction each.

typedef struct harness {
    cured_model_module module;
    ptx_function function;
    ptx_instr code[NCODE];
    char *files[2];
    cured_model_findings findings;
    cured_model_checks *checks;
    cured_model_observer obs;
    cured_model_launch launch;
    uint32_t threads;
} harness;

/* Sets up checks over a 1-D block of `threads` threads (blockDim.x = bx,
 * the rest in y) and begins block 0. */
static harness *harness_new(uint32_t threads, uint32_t bx)
{
    harness *h = calloc(1, sizeof *h);
    assert_non_null(h);
    for (int pc = 0; pc < NCODE; pc++) {
        h->code[pc].op = PTX_OP_LD;
        h->code[pc].ptx_line = 1000 + (uint32_t)pc;
        h->code[pc].src_file = 1;
        h->code[pc].src_line = 100 + (uint32_t)pc;
    }
    h->files[0] = NULL;
    h->files[1] = "/some/dir/k.cu";
    h->function.name = "k";
    h->function.is_entry = 1;
    h->function.code = h->code;
    h->function.ncode = NCODE;
    h->function.shared_static_bytes = 1024;
    h->module.functions = &h->function;
    h->module.nfunctions = 1;
    h->module.files = h->files;
    h->module.nfiles = 2;
    h->checks = cured_model_checks_new(&h->findings);
    assert_non_null(h->checks);
    h->obs = cured_model_checks_observer(h->checks);
    h->launch.module = &h->module;
    h->launch.function = 0;
    h->launch.grid = (cured_model_dim3){2, 1, 1};
    h->launch.block = (cured_model_dim3){bx, threads / bx, 1};
    h->threads = threads;
    h->obs.launch_begin(h->obs.ctx, &h->launch);
    h->obs.block_begin(h->obs.ctx, 0, threads);
    return h;
}

static void harness_free(harness *h)
{
    cured_model_checks_free(h->checks);
    cured_model_findings_clear(&h->findings);
    free(h);
}

static cured_model_event event_at(harness *h, uint32_t block, uint32_t warp, int pc,
                            uint32_t active)
{
    cured_model_event e = {.module = &h->module, .function = 0, .pc = pc,
                     .ins = &h->code[pc], .block = block, .warp = warp,
                     .present = 0xffffffffu, .active = active,
                     .guard_true = active};
    return e;
}

/* Warp `warp` of block `block` issues instruction pc: a shared access of
 * `size` bytes by the lanes of `mask`, lane l at offset base + l * stride. */
static void shared_in(harness *h, uint32_t block, uint32_t warp, int pc,
                      cured_model_access_kind kind, uint32_t mask, uint64_t base,
                      uint64_t stride, uint8_t size)
{
    h->code[pc].op = kind == CURED_MODEL_LOAD ? PTX_OP_LD : kind == CURED_MODEL_STORE ? PTX_OP_ST
                                                                           : PTX_OP_ATOM;
    cured_model_event e = event_at(h, block, warp, pc, mask);
    h->obs.instr(h->obs.ctx, &e);
    cured_model_access a = {.event = &e, .space = PTX_S_SHARED, .kind = (uint8_t)kind,
                      .size = size, .elem_size = size, .mask = mask};
    for (int l = 0; l < 32; l++)
        a.addr[l] = base + (uint64_t)l * stride;
    h->obs.access(h->obs.ctx, &a);
}

static void shared(harness *h, uint32_t warp, int pc, cured_model_access_kind kind,
                   uint32_t mask, uint64_t base, uint64_t stride, uint8_t size)
{
    shared_in(h, 0, warp, pc, kind, mask, base, stride, size);
}

/* A block-wide barrier released (every warp issued bar.sync at pc). */
static void barrier(harness *h, int pc)
{
    h->code[pc].op = PTX_OP_BAR;
    uint32_t nwarps = (h->threads + 31) / 32;
    cured_model_event e;
    for (uint32_t w = 0; w < nwarps; w++) {
        e = event_at(h, 0, w, pc, 0xffffffffu);
        h->obs.instr(h->obs.ctx, &e);
    }
    h->obs.barrier(h->obs.ctx, &e, 0);
}

/* Warp `warp` issues op (bar.warp.sync or a *.sync warp op) over `mask`. */
static void warp_op(harness *h, uint32_t warp, int pc, ptx_opcode op, uint32_t mask)
{
    h->code[pc].op = op;
    cured_model_event e = event_at(h, 0, warp, pc, mask);
    h->obs.instr(h->obs.ctx, &e);
    h->obs.warp_sync(h->obs.ctx, &e, mask);
}

static void syncwarp(harness *h, uint32_t warp, int pc, uint32_t mask)
{
    warp_op(h, warp, pc, PTX_OP_BAR_WARP, mask);
}

#define LANE(l) (1u << (l))

/* The number of findings of `kind`. */
static int count_kind(const harness *h, cured_model_finding_kind kind)
{
    int n = 0;
    for (int i = 0; i < h->findings.count; i++)
        n += h->findings.items[i].kind == kind;
    return n;
}

/* The first finding of `kind` (fails the test when there is none). */
static const cured_model_finding *first_kind(const harness *h, cured_model_finding_kind kind)
{
    for (int i = 0; i < h->findings.count; i++)
        if (h->findings.items[i].kind == kind)
            return &h->findings.items[i];
    fail_msg("no finding of kind %d", kind);
    return NULL;
}

// ----------------------------------------------------------------------------
// Races between warps: barriers

static void test_write_then_read_other_warp_races(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 1, 3, CURED_MODEL_STORE, LANE(31), 0, 0, 4);     /* thread 63 writes s[0] */
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 0, 0, 4);       /* thread 0 reads it */
    assert_int_equal(h->findings.count, 1);
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_RACE_SHARED);
    assert_int_equal(f->severity, CURED_MODEL_HAZARD);
    assert_int_equal(f->pc, 4);
    assert_int_equal(f->src_line, 104);
    assert_int_equal(f->src_file, 1);
    assert_int_equal(f->ptx_line, 1004);
    assert_int_equal(f->thread[0], 0);
    assert_int_equal(f->block[0], 0);
    assert_int_equal(f->address, 0);
    assert_string_equal(f->message, "read by thread (0,0,0) at k.cu:104 races with write "
                                    "by thread (63,0,0) at k.cu:103 (no __syncthreads between)");
    harness_free(h);
}

static void test_barrier_orders_warps(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 1, 3, CURED_MODEL_STORE, 0xffffffffu, 128, 4, 4); /* s[32 + l] = ... */
    barrier(h, 5);
    shared(h, 0, 6, CURED_MODEL_LOAD, 0xffffffffu, 128, 4, 4);  /* ... = s[32 + l] */
    barrier(h, 7);
    shared(h, 1, 8, CURED_MODEL_STORE, 0xffffffffu, 128, 4, 4); /* overwrite: WAR ordered */
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

static void test_read_then_write_other_warp_races(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(5), 20, 0, 4);
    barrier(h, 3);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 20, 0, 4);       /* thread 0 reads s[5] */
    shared(h, 1, 5, CURED_MODEL_STORE, LANE(8), 20, 0, 4);      /* thread 40 writes it */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_RACE_SHARED);
    assert_int_equal(f->pc, 5);
    assert_int_equal(f->thread[0], 40);
    assert_string_equal(f->message, "write by thread (40,0,0) at k.cu:105 races with read "
                                    "by thread (0,0,0) at k.cu:104 (no __syncthreads between)");
    harness_free(h);
}

static void test_write_write_other_warp_races(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    shared(h, 1, 3, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    assert_int_equal(first_kind(h, CURED_MODEL_FIND_RACE_SHARED)->thread[0], 32);
    harness_free(h);
}

static void test_reads_do_not_race(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    barrier(h, 3);
    shared(h, 0, 4, CURED_MODEL_LOAD, 0xffffffffu, 0, 0, 4);   /* every thread reads s[0] */
    shared(h, 1, 4, CURED_MODEL_LOAD, 0xffffffffu, 0, 0, 4);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

// ----------------------------------------------------------------------------
// Races inside a warp: __syncwarp

static void test_same_warp_needs_syncwarp(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);       /* lane 1 writes s[1] */
    shared(h, 0, 3, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);        /* lane 0 reads it */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    assert_string_equal(first_kind(h, CURED_MODEL_FIND_RACE_SHARED)->message,
                        "read by thread (0,0,0) at k.cu:103 races with write by thread "
                        "(1,0,0) at k.cu:102 (no __syncwarp between)");
    harness_free(h);
}

static void test_syncwarp_orders_lanes(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    syncwarp(h, 0, 3, 0xffffffffu);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

static void test_syncwarp_without_the_writer_does_not_order(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    syncwarp(h, 0, 3, LANE(0) | LANE(2));                 /* lane 1 not in it */
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    harness_free(h);
}

static void test_syncwarp_before_the_write_does_not_order(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    syncwarp(h, 0, 1, 0xffffffffu);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    shared(h, 0, 3, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    harness_free(h);
}

static void test_syncwarp_orders_through_a_third_lane(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    syncwarp(h, 0, 3, LANE(1) | LANE(2));
    syncwarp(h, 0, 4, LANE(2) | LANE(0));
    shared(h, 0, 5, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

static void test_syncwarp_does_not_order_other_warps(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 1, 2, CURED_MODEL_STORE, LANE(0), 4, 0, 4);       /* thread 32 */
    syncwarp(h, 0, 3, 0xffffffffu);
    syncwarp(h, 1, 3, 0xffffffffu);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);        /* thread 0 */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    harness_free(h);
}

static void test_one_instruction_does_not_race_with_itself(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, 0xffffffffu, 0, 0, 4);   /* all lanes write s[0] */
    syncwarp(h, 0, 3, 0xffffffffu);
    shared(h, 0, 4, CURED_MODEL_LOAD, 0xffffffffu, 0, 0, 4);    /* all lanes read s[0] */
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

static void test_every_writer_of_one_instruction_counts(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(3) | LANE(7), 0, 0, 4); /* both write s[0] */
    shared(h, 0, 3, CURED_MODEL_LOAD, LANE(7), 0, 0, 4);        /* lane 3's write unordered */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    assert_string_equal(first_kind(h, CURED_MODEL_FIND_RACE_SHARED)->message,
                        "read by thread (7,0,0) at k.cu:103 races with write by thread "
                        "(3,0,0) at k.cu:102 (no __syncwarp between)");
    harness_free(h);
}

static void test_shuffle_does_not_order_memory_by_default(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    warp_op(h, 0, 3, PTX_OP_SHFL, 0xffffffffu);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    harness_free(h);

    h = harness_new(32, 32);
    cured_model_checks_set_warp_ops_sync(h->checks, 1);
    shared(h, 0, 2, CURED_MODEL_STORE, LANE(1), 4, 0, 4);
    warp_op(h, 0, 3, PTX_OP_SHFL, 0xffffffffu);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 4, 0, 4);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

/* The last-warp unroll's step `s[l] += s[l + 16]` over lanes 0..31 as four
 * instructions: load s[l], load s[l + 16], (add), store s[l]; the step before
 * stored s[l] from every lane. With sync = 1, __syncwarp() separates every
 * load from the next store and every store from the next load. */
static void unroll_step(harness *h, int sync)
{
    shared(h, 0, 10, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4); /* previous step's store */
    if (sync)
        syncwarp(h, 0, 11, 0xffffffffu);
    shared(h, 0, 12, CURED_MODEL_LOAD, 0xffffffffu, 0, 4, 4);  /* s[l] */
    shared(h, 0, 13, CURED_MODEL_LOAD, 0xffffffffu, 64, 4, 4); /* s[l + 16] */
    if (sync)
        syncwarp(h, 0, 14, 0xffffffffu);
    shared(h, 0, 15, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);
}

static void test_unroll_without_syncwarp_races(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 1, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);
    shared(h, 1, 1, CURED_MODEL_STORE, 0xffffffffu, 128, 4, 4);
    barrier(h, 2);
    unroll_step(h, 0);
    /* lane l reads s[l + 16], which lane l + 16 stored at pc 10 (RAW), and
     * lane l + 16 then stores s[l + 16], which lane l read at pc 13 (WAR) */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 2);
    const cured_model_finding *raw = &h->findings.items[0];
    assert_int_equal(raw->pc, 13);
    assert_int_equal(raw->thread[0], 0);
    assert_string_equal(raw->message, "read by thread (0,0,0) at k.cu:113 races with write "
                                      "by thread (16,0,0) at k.cu:110 (no __syncwarp between)");
    const cured_model_finding *war = &h->findings.items[1];
    assert_int_equal(war->pc, 15);
    assert_int_equal(war->thread[0], 16);
    assert_string_equal(war->message, "write by thread (16,0,0) at k.cu:115 races with read "
                                      "by thread (0,0,0) at k.cu:113 (no __syncwarp between)");
    harness_free(h);
}

static void test_unroll_with_syncwarp_is_silent(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 1, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);
    shared(h, 1, 1, CURED_MODEL_STORE, 0xffffffffu, 128, 4, 4);
    barrier(h, 2);
    unroll_step(h, 1);
    unroll_step(h, 1);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

// ----------------------------------------------------------------------------
// Atomics, sub-word accesses, reporting once

static void test_atomics_do_not_race_with_atomics(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 1, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    barrier(h, 2);
    shared(h, 0, 3, CURED_MODEL_ATOMIC, 0xffffffffu, 0, 0, 4);  /* atomicAdd(&s[0]) */
    shared(h, 1, 3, CURED_MODEL_ATOMIC, 0xffffffffu, 0, 0, 4);
    assert_int_equal(h->findings.count, 0);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(2), 0, 0, 4);        /* plain read, no barrier */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    assert_string_equal(first_kind(h, CURED_MODEL_FIND_RACE_SHARED)->message,
                        "read by thread (2,0,0) at k.cu:104 races with atomic by thread "
                        "(63,0,0) at k.cu:103 (no __syncthreads between)");
    harness_free(h);
}

static void test_sub_word_accesses(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 1, CURED_MODEL_STORE, LANE(0), 0, 0, 1);       /* byte 0 */
    shared(h, 1, 2, CURED_MODEL_STORE, LANE(0), 1, 0, 1);       /* byte 1: no overlap */
    shared(h, 1, 3, CURED_MODEL_STORE, LANE(1), 2, 0, 2);       /* bytes 2..3 */
    assert_int_equal(h->findings.count, 0);
    shared(h, 0, 4, CURED_MODEL_LOAD, LANE(0), 0, 0, 4);        /* word 0: bytes 1..3 race */
    assert_int_equal(h->findings.count, 1);               /* two pairs at one pc */
    assert_int_equal(h->findings.repeats[0], 1);
    assert_int_equal(h->findings.items[0].address, 1);
    harness_free(h);
}

static void test_race_reported_once_per_pair(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    for (int round = 0; round < 3; round++) {
        shared(h, 1, 2, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);
        shared(h, 0, 3, CURED_MODEL_LOAD, 0xffffffffu, 0, 4, 4);
        barrier(h, 4);
    }
    assert_int_equal(h->findings.count, 1);
    assert_int_equal(h->findings.repeats[0], 0);
    harness_free(h);
}

static void test_many_readers_keep_other_warps(void **state)
{
    (void)state;
    harness *h = harness_new(128, 128);
    shared(h, 0, 1, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    barrier(h, 2);
    shared(h, 3, 3, CURED_MODEL_LOAD, LANE(9), 0, 0, 4);        /* thread 105 reads s[0] */
    shared(h, 0, 4, CURED_MODEL_LOAD, 0xffffffffu, 0, 0, 4);    /* then 32 lanes of warp 0 */
    syncwarp(h, 0, 5, 0xffffffffu);
    shared(h, 0, 6, CURED_MODEL_STORE, LANE(0), 0, 0, 4);       /* ordered in warp 0 only */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_RACE_SHARED), 1);
    assert_string_equal(first_kind(h, CURED_MODEL_FIND_RACE_SHARED)->message,
                        "write by thread (0,0,0) at k.cu:106 races with read by thread "
                        "(105,0,0) at k.cu:103 (no __syncthreads between)");
    harness_free(h);
}

static void test_threads_named_in_three_dimensions(void **state)
{
    (void)state;
    harness *h = harness_new(64, 16);                     /* blockDim (16, 4, 1) */
    shared(h, 1, 2, CURED_MODEL_STORE, LANE(3), 0, 0, 4);       /* thread 35 = (3,2,0) */
    shared(h, 0, 3, CURED_MODEL_LOAD, LANE(17), 0, 0, 4);       /* thread 17 = (1,1,0) */
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_RACE_SHARED);
    assert_int_equal(f->thread[0], 1);
    assert_int_equal(f->thread[1], 1);
    assert_int_equal(f->thread[2], 0);
    assert_string_equal(f->message, "read by thread (1,1,0) at k.cu:103 races with write "
                                    "by thread (3,2,0) at k.cu:102 (no __syncthreads between)");
    harness_free(h);
}

// ----------------------------------------------------------------------------
// Unwritten shared memory

static void test_read_of_unwritten_shared(void **state)
{
    (void)state;
    harness *h = harness_new(64, 64);
    shared(h, 0, 1, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);   /* s[0..31] written */
    barrier(h, 2);
    shared(h, 0, 3, CURED_MODEL_LOAD, 0xffffffffu, 0, 4, 4);    /* warp 0 reads its own */
    assert_int_equal(h->findings.count, 0);
    shared(h, 1, 3, CURED_MODEL_LOAD, 0xffffffffu, 128, 4, 4);  /* warp 1: s[32..63] */
    assert_int_equal(h->findings.count, 1);
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_UNINIT_SHARED);
    assert_int_equal(f->severity, CURED_MODEL_HAZARD);
    assert_int_equal(f->thread[0], 32);
    assert_int_equal(f->address, 128);
    assert_int_equal(f->src_line, 103);
    assert_string_equal(f->message, "read of shared offset 0x80 by thread (32,0,0) at "
                                    "k.cu:103: no thread of the block wrote it");
    harness_free(h);
}

static void test_atomic_on_unwritten_shared(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 1, CURED_MODEL_ATOMIC, LANE(0), 8, 0, 4);
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_UNINIT_SHARED), 1);
    shared(h, 0, 2, CURED_MODEL_ATOMIC, LANE(0), 8, 0, 4);      /* now written */
    assert_int_equal(h->findings.count, 1);
    harness_free(h);
}

static void test_each_block_starts_unwritten(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    shared(h, 0, 1, CURED_MODEL_STORE, 0xffffffffu, 0, 4, 4);
    syncwarp(h, 0, 2, 0xffffffffu);
    shared(h, 0, 3, CURED_MODEL_LOAD, 0xffffffffu, 0, 4, 4);
    h->obs.block_end(h->obs.ctx, 0);
    assert_int_equal(h->findings.count, 0);
    h->obs.block_begin(h->obs.ctx, 1, 32);
    shared_in(h, 1, 0, 3, CURED_MODEL_LOAD, 0xffffffffu, 0, 4, 4); /* block 1 wrote nothing */
    assert_int_equal(h->findings.count, 1);
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_UNINIT_SHARED);
    assert_int_equal(f->block[0], 1);
    harness_free(h);
}

static void test_blocks_do_not_share_shadow(void **state)
{
    (void)state;
    harness *h = harness_new(32, 32);
    h->obs.block_begin(h->obs.ctx, 1, 32);                /* two blocks in flight */
    shared_in(h, 0, 0, 1, CURED_MODEL_STORE, LANE(0), 0, 0, 4);
    shared_in(h, 1, 0, 1, CURED_MODEL_STORE, LANE(1), 0, 0, 4);
    shared_in(h, 1, 0, 2, CURED_MODEL_LOAD, LANE(1), 0, 0, 4);
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

// ----------------------------------------------------------------------------
// Unwritten global memory

/* A global access by warp 0 of block 0 at addr + lane * 4. */
static void global(harness *h, int pc, cured_model_access_kind kind, uint32_t mask,
                   uint64_t addr)
{
    cured_model_event e = event_at(h, 0, 0, pc, mask);
    h->obs.instr(h->obs.ctx, &e);
    cured_model_access a = {.event = &e, .space = PTX_S_GLOBAL, .kind = (uint8_t)kind,
                      .size = 4, .elem_size = 4, .mask = mask};
    for (int l = 0; l < 32; l++)
        a.addr[l] = addr + (uint64_t)l * 4;
    h->obs.access(h->obs.ctx, &a);
}

static void test_read_of_unwritten_global(void **state)
{
    (void)state;
    uint8_t data[128] = {0}, init[128] = {0};
    cured_model_buffer buf = {.name = "acc", .addr = 0x10000, .bytes = 128, .data = data,
                        .init = init};
    cured_model_memory mem = {.buffers = &buf, .nbuffers = 1, .capacity = 1};
    harness *h = harness_new(32, 32);
    h->launch.memory = &mem;
    h->launch.check_uninit_global = 1;
    h->obs.launch_begin(h->obs.ctx, &h->launch);
    h->obs.block_begin(h->obs.ctx, 0, 32);

    global(h, 1, CURED_MODEL_STORE, 0x0000ffffu, 0x10000);      /* lanes 0..15 write */
    assert_int_equal(init[63], 1);
    assert_int_equal(init[64], 0);
    global(h, 2, CURED_MODEL_LOAD, 0x0000ffffu, 0x10000);
    assert_int_equal(h->findings.count, 0);
    global(h, 3, CURED_MODEL_LOAD, 0xffffffffu, 0x10000);       /* lanes 16..31: unwritten */
    assert_int_equal(h->findings.count, 1);
    const cured_model_finding *f = first_kind(h, CURED_MODEL_FIND_UNINIT_GLOBAL);
    assert_int_equal(f->thread[0], 16);
    assert_int_equal(f->address, 0x10040);
    assert_int_equal(f->src_line, 103);
    assert_string_equal(f->message, "read of acc+64 by thread (16,0,0) at k.cu:103: "
                                    "nothing wrote that byte");
    global(h, 4, CURED_MODEL_ATOMIC, 0xffffffffu, 0x10000);     /* reads lanes 16..31 too */
    assert_int_equal(count_kind(h, CURED_MODEL_FIND_UNINIT_GLOBAL), 2);
    assert_int_equal(init[127], 1);                       /* the atomic wrote them */
    harness_free(h);
}

static void test_unwritten_global_only_when_asked(void **state)
{
    (void)state;
    uint8_t data[128] = {0}, init[128] = {0};
    cured_model_buffer buf = {.name = "acc", .addr = 0x10000, .bytes = 128, .data = data,
                        .init = init};
    cured_model_memory mem = {.buffers = &buf, .nbuffers = 1, .capacity = 1};
    harness *h = harness_new(32, 32);
    h->launch.memory = &mem;
    h->obs.launch_begin(h->obs.ctx, &h->launch);
    h->obs.block_begin(h->obs.ctx, 0, 32);
    global(h, 1, CURED_MODEL_LOAD, 0xffffffffu, 0x10000);
    global(h, 2, CURED_MODEL_STORE, 0x1u, 0x10000);
    assert_int_equal(h->findings.count, 0);
    assert_int_equal(init[0], 1);                         /* the shadow is still kept */
    assert_int_equal(init[4], 0);
    global(h, 3, CURED_MODEL_LOAD, 0xffffffffu, 0x20000);       /* outside: not ours */
    assert_int_equal(h->findings.count, 0);
    harness_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_then_read_other_warp_races),
        cmocka_unit_test(test_barrier_orders_warps),
        cmocka_unit_test(test_read_then_write_other_warp_races),
        cmocka_unit_test(test_write_write_other_warp_races),
        cmocka_unit_test(test_reads_do_not_race),
        cmocka_unit_test(test_same_warp_needs_syncwarp),
        cmocka_unit_test(test_syncwarp_orders_lanes),
        cmocka_unit_test(test_syncwarp_without_the_writer_does_not_order),
        cmocka_unit_test(test_syncwarp_before_the_write_does_not_order),
        cmocka_unit_test(test_syncwarp_orders_through_a_third_lane),
        cmocka_unit_test(test_syncwarp_does_not_order_other_warps),
        cmocka_unit_test(test_one_instruction_does_not_race_with_itself),
        cmocka_unit_test(test_every_writer_of_one_instruction_counts),
        cmocka_unit_test(test_shuffle_does_not_order_memory_by_default),
        cmocka_unit_test(test_unroll_without_syncwarp_races),
        cmocka_unit_test(test_unroll_with_syncwarp_is_silent),
        cmocka_unit_test(test_atomics_do_not_race_with_atomics),
        cmocka_unit_test(test_sub_word_accesses),
        cmocka_unit_test(test_race_reported_once_per_pair),
        cmocka_unit_test(test_many_readers_keep_other_warps),
        cmocka_unit_test(test_threads_named_in_three_dimensions),
        cmocka_unit_test(test_read_of_unwritten_shared),
        cmocka_unit_test(test_atomic_on_unwritten_shared),
        cmocka_unit_test(test_each_block_starts_unwritten),
        cmocka_unit_test(test_blocks_do_not_share_shadow),
        cmocka_unit_test(test_read_of_unwritten_global),
        cmocka_unit_test(test_unwritten_global_only_when_asked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
