/* test_views_synthetic.c - the hardware view and the step view fed
 * hand-made events, as the interpreter would send them for the lesson's
 * four kernels (one block of 64 threads over 64 floats). No parser, no
 * interpreter: a small hand-built module and a driver that issues, lane set
 * by lane set, what each kernel's warps execute. The end-to-end test
 * (test_views_e2e.c) runs the real PTX.
 *
 * The fake kernel's code (register slots in brackets):
 *   0  ld.global.f32  %f1[0], [%rd1[6]]       8  ld.shared.f32 %f5[4], [%r1]
 *   1  st.shared.f32  [%r1[7]], %f1           9  mov.f32       %f6[5], %f5
 *   2  bar.sync 0                             10 st.global.f32 [%rd1], %f6
 *   3  ld.shared.f32  %f2[1], [%r1]           11 shfl.sync.down.b32 %f7[8], %f1, 16, 31, -1
 *   4  ld.shared.f32  %f3[2], [%r1+4]         12 add.f32       %f1, %f1, %f7
 *   5  add.f32        %f4[3], %f3, %f2        13 @%p bra 15 (a conditional branch)
 *   6  st.shared.f32  [%r1], %f4              14 st.global.f32 [%rd1], %f4
 *   7  bar.sync 0                             15 ret
 * Source lines: pcs 0-2 line 10, 3-6 line 20, 7 line 21, 8-10 line 30,
 * 11-12 line 40, 13-15 line 50.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "sass_match.h"
#include "step_view.h"

#define ALL 0xffffffffu
#define GLOBAL_IN 0x10000u  /* the input buffer's device address */
#define GLOBAL_OUT 0x20000u /* the output's */

/* ------------------------------------------------------------ the module */

enum { NCODE = 16, NREGS = 10 };

typedef struct fixture {
    cured_model_module module;
    ptx_function fn;
    ptx_instr code[NCODE];
    ptx_register regs[NREGS];
    char *files[2];
} fixture;

static ptx_operand reg(int slot)
{
    ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_OPND_REG;
    o.reg = slot;
    o.sym = -1;
    return o;
}

static ptx_operand addr(int slot, int64_t offset)
{
    ptx_operand o = reg(slot);
    o.kind = PTX_OPND_ADDR;
    o.imm = offset;
    return o;
}

static ptx_operand imm(int64_t value)
{
    ptx_operand o = reg(-1);
    o.kind = PTX_OPND_IMM;
    o.imm = value;
    return o;
}

static void set(ptx_instr *i, ptx_opcode op, ptx_space space, int ndst,
                int nops, ptx_operand a, ptx_operand b, ptx_operand c,
                uint32_t line)
{
    memset(i, 0, sizeof *i);
    i->op = (uint16_t)op;
    i->space = (uint8_t)space;
    i->type = PTX_T_F32;
    i->vec = 1;
    i->ndst = (uint8_t)ndst;
    i->nops = (uint8_t)nops;
    i->guard = -1;
    i->callee = -1;
    i->ops[0] = a;
    i->ops[1] = b;
    i->ops[2] = c;
    i->src_file = i->site_file = i->user_file = 1;
    i->src_line = i->site_line = i->user_line = line;
}

static fixture *fixture_new(void)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    ptx_operand none = imm(0);
    ptx_instr *c = f->code;
    set(&c[0], PTX_OP_LD, PTX_S_GLOBAL, 1, 2, reg(0), addr(6, 0), none, 10);
    set(&c[1], PTX_OP_ST, PTX_S_SHARED, 0, 2, addr(7, 0), reg(0), none, 10);
    set(&c[2], PTX_OP_BAR, PTX_S_NONE, 0, 1, imm(0), none, none, 10);
    set(&c[3], PTX_OP_LD, PTX_S_SHARED, 1, 2, reg(1), addr(7, 0), none, 20);
    set(&c[4], PTX_OP_LD, PTX_S_SHARED, 1, 2, reg(2), addr(7, 4), none, 20);
    set(&c[5], PTX_OP_ADD, PTX_S_NONE, 1, 3, reg(3), reg(2), reg(1), 20);
    set(&c[6], PTX_OP_ST, PTX_S_SHARED, 0, 2, addr(7, 0), reg(3), none, 20);
    set(&c[7], PTX_OP_BAR, PTX_S_NONE, 0, 1, imm(0), none, none, 21);
    set(&c[8], PTX_OP_LD, PTX_S_SHARED, 1, 2, reg(4), addr(7, 0), none, 30);
    set(&c[9], PTX_OP_MOV, PTX_S_NONE, 1, 2, reg(5), reg(4), none, 30);
    set(&c[10], PTX_OP_ST, PTX_S_GLOBAL, 0, 2, addr(6, 0), reg(5), none, 30);
    set(&c[11], PTX_OP_SHFL, PTX_S_NONE, 1, 3, reg(8), reg(0), imm(16), 40);
    set(&c[12], PTX_OP_ADD, PTX_S_NONE, 1, 3, reg(0), reg(0), reg(8), 40);
    set(&c[13], PTX_OP_BRA, PTX_S_NONE, 0, 1, imm(15), none, none, 50);
    c[13].ops[0].kind = PTX_OPND_LABEL;
    c[13].guard = 9;
    set(&c[14], PTX_OP_ST, PTX_S_GLOBAL, 0, 2, addr(6, 0), reg(3), none, 50);
    set(&c[15], PTX_OP_RET, PTX_S_NONE, 0, 0, none, none, none, 50);
    for (int pc = 0; pc < NCODE; pc++)
        c[pc].ptx_line = 100 + (uint32_t)pc;
    for (int r = 0; r < NREGS; r++)
        f->regs[r].type = PTX_T_F32;
    f->fn.name = "fake";
    f->fn.is_entry = 1;
    f->fn.regs = f->regs;
    f->fn.nregs = NREGS;
    f->fn.code = f->code;
    f->fn.ncode = NCODE;
    f->files[1] = "dir/seed.cu";
    f->module.functions = &f->fn;
    f->module.nfunctions = 1;
    f->module.files = f->files;
    f->module.nfiles = 2;
    return f;
}

/* ------------------------------------------------------------ the driver */

/* Sends the events of one warp instruction to both observers. */
typedef struct driver {
    const fixture *f;
    cured_model_observer obs[2];
} driver;

static cured_model_event event(const driver *d, int pc, uint32_t warp, uint32_t active)
{
    cured_model_event e;
    memset(&e, 0, sizeof e);
    e.module = &d->f->module;
    e.function = 0;
    e.pc = pc;
    e.ins = &d->f->code[pc];
    e.warp = warp;
    e.present = ALL;
    e.active = e.guard_true = active;
    return e;
}

static void issue(const driver *d, int pc, uint32_t warp, uint32_t active)
{
    cured_model_event e = event(d, pc, warp, active);
    for (int i = 0; i < 2; i++)
        d->obs[i].instr(d->obs[i].ctx, &e);
}

/* Issues pc and its memory access: lane l of warp w at base + 4 * word(l). */
static void issue_access(const driver *d, int pc, uint32_t warp, uint32_t active,
                         int space, int kind, uint64_t base, const unsigned word[32])
{
    cured_model_event e = event(d, pc, warp, active);
    cured_model_access a;
    memset(&a, 0, sizeof a);
    a.event = &e;
    a.space = (uint8_t)space;
    a.kind = (uint8_t)kind;
    a.size = a.elem_size = 4;
    a.mask = active;
    for (int l = 0; l < 32; l++)
        a.addr[l] = base + 4u * word[l];
    for (int i = 0; i < 2; i++) {
        d->obs[i].instr(d->obs[i].ctx, &e);
        d->obs[i].access(d->obs[i].ctx, &a);
    }
}

static void barrier(const driver *d)
{
    cured_model_event e = event(d, 2, 1, ALL);
    for (int i = 0; i < 2; i++)
        if (d->obs[i].barrier)
            d->obs[i].barrier(d->obs[i].ctx, &e, 0);
}

static void branch(const driver *d, uint32_t warp, uint32_t active, uint32_t taken)
{
    cured_model_event e = event(d, 13, warp, active);
    e.guard_true = taken;
    for (int i = 0; i < 2; i++) {
        d->obs[i].instr(d->obs[i].ctx, &e);
        if (d->obs[i].branch)
            d->obs[i].branch(d->obs[i].ctx, &e, taken);
    }
}

static void block(const driver *d, int begin)
{
    for (int i = 0; i < 2; i++) {
        if (begin && d->obs[i].block_begin)
            d->obs[i].block_begin(d->obs[i].ctx, 0, 64);
        if (!begin && d->obs[i].block_end)
            d->obs[i].block_end(d->obs[i].ctx, 0);
    }
}

/* Which word thread tid adds onto (*dst) from which (*src) at stride s, or
 * 0 when it does not add: the three tree versions. */
typedef int (*tree_rule)(unsigned tid, unsigned s, unsigned *dst, unsigned *src);

static int divergent(unsigned tid, unsigned s, unsigned *dst, unsigned *src)
{
    *dst = tid;
    *src = tid + s;
    return tid % (2 * s) == 0;
}

static int strided(unsigned tid, unsigned s, unsigned *dst, unsigned *src)
{
    *dst = 2 * s * tid;
    *src = *dst + s;
    return *dst < 64;
}

static int sequential(unsigned tid, unsigned s, unsigned *dst, unsigned *src)
{
    *dst = tid;
    *src = tid + s;
    return tid < s;
}

/* Runs a tree version: load, barrier, six steps (s = 1..32, or 32..1 for
 * sequential), each with a barrier, thread 0's final read and store. */
static void run_tree(const driver *d, tree_rule rule, int halving)
{
    unsigned idx[32], dst[32], src[32], zero[32] = {0};
    block(d, 1);
    for (uint32_t w = 0; w < 2; w++) {
        for (int l = 0; l < 32; l++)
            idx[l] = 32 * w + (unsigned)l;
        issue_access(d, 0, w, ALL, PTX_S_GLOBAL, CURED_MODEL_LOAD, GLOBAL_IN, idx);
        issue_access(d, 1, w, ALL, PTX_S_SHARED, CURED_MODEL_STORE, 0, idx);
    }
    barrier(d);
    for (int k = 0; k < 6; k++) {
        unsigned s = halving ? 32u >> k : 1u << k;
        for (uint32_t w = 0; w < 2; w++) {
            uint32_t mask = 0;
            for (unsigned l = 0; l < 32; l++)
                if (rule(32 * w + l, s, &dst[l], &src[l]))
                    mask |= 1u << l;
            if (mask == 0)
                continue;
            issue_access(d, 3, w, mask, PTX_S_SHARED, CURED_MODEL_LOAD, 0, dst);
            issue_access(d, 4, w, mask, PTX_S_SHARED, CURED_MODEL_LOAD, 0, src);
            issue(d, 5, w, mask);
            issue_access(d, 6, w, mask, PTX_S_SHARED, CURED_MODEL_STORE, 0, dst);
        }
        barrier(d);
    }
    issue_access(d, 8, 0, 1u, PTX_S_SHARED, CURED_MODEL_LOAD, 0, zero);
    issue(d, 9, 0, 1u);
    issue_access(d, 10, 0, 1u, PTX_S_GLOBAL, CURED_MODEL_STORE, GLOBAL_OUT, zero);
    block(d, 0);
}

/* The shuffle version: load, five shuffle rounds per warp, lane 0 of each
 * warp stores its sum, barrier, thread 0 loads the two sums, adds, stores. */
static void run_shuffle(const driver *d)
{
    unsigned idx[32], w0[32] = {0}, w1[32] = {0};
    block(d, 1);
    for (uint32_t w = 0; w < 2; w++) {
        for (int l = 0; l < 32; l++)
            idx[l] = 32 * w + (unsigned)l;
        issue_access(d, 0, w, ALL, PTX_S_GLOBAL, CURED_MODEL_LOAD, GLOBAL_IN, idx);
        for (int r = 0; r < 5; r++) {
            issue(d, 11, w, ALL);
            issue(d, 12, w, ALL);
        }
        branch(d, w, ALL, ALL & ~1u); /* lane != 0 jumps over the store */
        issue_access(d, 1, w, 1u, PTX_S_SHARED, CURED_MODEL_STORE, 4 * w, w0);
    }
    barrier(d);
    w1[0] = 1;
    issue_access(d, 3, 0, 1u, PTX_S_SHARED, CURED_MODEL_LOAD, 0, w0);
    issue_access(d, 4, 0, 1u, PTX_S_SHARED, CURED_MODEL_LOAD, 0, w1);
    issue(d, 5, 0, 1u);
    issue_access(d, 14, 0, 1u, PTX_S_GLOBAL, CURED_MODEL_STORE, GLOBAL_OUT, w0);
    block(d, 0);
}

/* ------------------------------------------------------------- the tests */

typedef struct views {
    fixture *f;
    cured_model_counters *c;
    cured_model_step_view *v;
    driver d;
} views;

static views views_new(void)
{
    views x;
    x.f = fixture_new();
    x.c = cured_model_counters_new(&x.f->module, 0);
    x.v = cured_model_step_view_new(&x.f->module, 0);
    assert_non_null(x.c);
    assert_non_null(x.v);
    x.d.f = x.f;
    x.d.obs[0] = cured_model_counters_observer(x.c);
    x.d.obs[1] = cured_model_step_view_observer(x.v);
    return x;
}

static void views_free(views *x)
{
    cured_model_counters_free(x->c);
    cured_model_step_view_free(x->v);
    free(x->f);
}

static void expect_row(const cured_model_step_view *v, const char *label,
                       const char *expected)
{
    char row[128];
    cured_model_step_summary s = cured_model_step_view_summary(v);
    cured_model_step_view_format_row(row, sizeof row, label, &s);
    assert_string_equal(row, expected);
}

#define CTR(x, id) cured_model_counters_total((x).c, id)

/* Divergent: steps s = 1..32 add 32, 16, 8, 4, 2, 1 threads = 63, 3 accesses
 * each = 189; the load's 64 stores and its barrier and thread 0's final
 * read are left out: 6 barriers. First step: 16 adding lanes in each warp:
 * 2 of 2 divergent. Words written at step s are multiples of 2s, at most one
 * per bank in a warp: 1-way.
 * Hardware: shared ld = 2 per add block, warp 0 runs it at all 6 steps,
 * warp 1 at the first 5 (tid 32 is not a multiple of 64) = 22, plus the
 * final read = 23; st = 2 (load) + 11 = 13; every access conflict-free:
 * wavefronts = instructions. Global: 2 loads of 4 sectors, 1 store of 1. */
static void test_divergent(void **state)
{
    (void)state;
    views x = views_new();
    run_tree(&x.d, divergent, 0);
    expect_row(x.v, "divergent", "| divergent | 189 | 6 | 1-way | 2 of 2 |");
    cured_model_step_summary s = cured_model_step_view_summary(x.v);
    assert_int_equal(s.initial_stores, 64);
    assert_int_equal(s.initial_barriers, 1);
    assert_int_equal(s.final_reads, 1);
    assert_int_equal(s.tree_steps, 6);
    const cured_model_step *steps;
    assert_int_equal(cured_model_step_view_steps(x.v, &steps), 6);
    static const unsigned adding[6] = {32, 16, 8, 4, 2, 1};
    for (int k = 0; k < 6; k++) {
        assert_int_equal(steps[k].adding_threads, adding[k]);
        assert_int_equal(steps[k].accesses, 3 * adding[k]);
        assert_int_equal(steps[k].interval, k + 1);
    }
    /* s = 16: threads 0 and 32, one per warp, both divergent; s = 32: tid 0 */
    assert_int_equal(steps[4].warps, 2);
    assert_int_equal(steps[4].divergent_warps, 2);
    assert_int_equal(steps[5].warps, 1);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD), 23);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 23);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 0);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST_CONFLICTS), 0);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 8);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS), 2);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_GLOBAL_ST_SECTORS), 1);
    views_free(&x);
}

/* Strided: the adding threads are 0..32/s-1, all in warp 0: first step 0 of
 * 1. Words written at s = 1: 2t for t = 0..31: t and t + 16 share a bank,
 * 2-way (and likewise at s = 2..16; s = 32 writes word 0 only).
 * Hardware: warp 0 runs the add block 6 times: shared ld 12 + 1 = 13, st
 * 2 + 6 = 8. Wavefronts: s = 1..16 each load and the store cost 2 (2-way),
 * s = 32 one each: ld 5 * 4 + 2 + 1 (final) = 23, conflicts 23 - 13 = 10;
 * st 2 + 5 * 2 + 1 = 13, conflicts 13 - 8 = 5. */
static void test_strided(void **state)
{
    (void)state;
    views x = views_new();
    run_tree(&x.d, strided, 0);
    expect_row(x.v, "strided index", "| strided index | 189 | 6 | 2-way | 0 of 1 |");
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 23);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 10);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST_CONFLICTS), 5);
    views_free(&x);
}

/* Sequential: s = 32..1, threads t < s add word t + s onto word t: warp 0
 * only, full at s = 32: 0 of 1; consecutive words: 1-way, no conflicts.
 * Hardware: ld 13, st 8, wavefronts equal, conflicts 0. */
static void test_sequential(void **state)
{
    (void)state;
    views x = views_new();
    run_tree(&x.d, sequential, 1);
    expect_row(x.v, "sequential", "| sequential | 189 | 6 | 1-way | 0 of 1 |");
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 13);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 8);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD_CONFLICTS), 0);
    views_free(&x);
}

/* Shuffle: the stored warp sums come from shuffles (not pure), so the two
 * stores count, and the barrier too (no pure store before it); thread 0's
 * two loads count (their sum, not the loaded value, reaches global): 4 and
 * 1. No thread reads and writes one word between barriers: no tree step.
 * Hardware: 10 shuffles, 2 shared stores, 2 shared loads, divergent
 * branches 2 (lane 0 against the other 31, in each warp). */
static void test_shuffle(void **state)
{
    (void)state;
    views x = views_new();
    run_shuffle(&x.d);
    expect_row(x.v, "warp shuffle", "| warp shuffle | 4 | 1 | - | none |");
    cured_model_step_summary s = cured_model_step_view_summary(x.v);
    assert_int_equal(s.shuffle_rounds, 5);
    assert_int_equal(s.shuffles, 10);
    assert_int_equal(s.final_reads, 0);
    assert_int_equal(s.initial_stores, 0);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHUFFLES), 10);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_ST), 2);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_SHARED_LD), 2);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_DIVERGENT_BRANCHES), 2);
    assert_int_equal(CTR(x, CURED_MODEL_CTR_BRANCHES), 2);
    views_free(&x);
}

/* The page's table, all four rows, through print_table. */
static void test_print_table(void **state)
{
    (void)state;
    views x[4];
    for (int i = 0; i < 4; i++)
        x[i] = views_new();
    run_tree(&x[0].d, divergent, 0);
    run_tree(&x[1].d, strided, 0);
    run_tree(&x[2].d, sequential, 1);
    run_shuffle(&x[3].d);
    const char *names[4] = {"divergent", "strided index", "sequential",
                            "warp shuffle"};
    const cured_model_step_view *v[4] = {x[0].v, x[1].v, x[2].v, x[3].v};
    char buf[1024] = {0};
    FILE *out = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(out);
    assert_int_equal(cured_model_step_view_print_table(out, names, v, 4), 0);
    fclose(out);
    assert_string_equal(buf,
        "| version | shared-memory accesses | `__syncthreads()` | "
        "worst bank conflict | divergent warps (first step) |\n"
        "|---|---|---|---|---|\n"
        "| divergent | 189 | 6 | 1-way | 2 of 2 |\n"
        "| strided index | 189 | 6 | 2-way | 0 of 1 |\n"
        "| sequential | 189 | 6 | 1-way | 0 of 1 |\n"
        "| warp shuffle | 4 | 1 | - | none |\n");
    for (int i = 0; i < 4; i++)
        views_free(&x[i]);
}

/* Per-instruction and per-line rows: the divergent run's pc 3 (first load of
 * the add block) ran 11 times with 32+16+...+1 + 16+8+4+2+1 = 63 lanes in
 * all; line 20 (pcs 3-6) holds 4 * 11 = 44 warp instructions. */
static void test_rows(void **state)
{
    (void)state;
    views x = views_new();
    run_tree(&x.d, divergent, 0);
    const uint64_t *r = cured_model_counters_at(x.c, 0, 3);
    assert_non_null(r);
    assert_int_equal(r[CURED_MODEL_CTR_INST], 11);
    assert_int_equal(r[CURED_MODEL_CTR_THREAD_INST], 63);
    assert_int_equal(r[CURED_MODEL_CTR_SHARED_LD], 11);
    cured_model_counters_line *rows;
    int n = cured_model_counters_lines(x.c, -1, CURED_MODEL_BY_SOURCE, &rows);
    assert_int_equal(n, 3); /* lines 10, 20, 30 ran (21 only as a barrier
                               release, not an instruction here) */
    assert_int_equal(rows[1].line, 20);
    assert_int_equal(rows[1].v[CURED_MODEL_CTR_INST], 44);
    assert_int_equal(rows[1].first_pc, 3);
    free(rows);
    n = cured_model_counters_lines(x.c, 0, CURED_MODEL_BY_PTX, &rows);
    assert_int_equal(n, 9); /* pcs 0, 1, 3, 4, 5, 6, 8, 9, 10 */
    assert_int_equal(rows[2].line, 103);
    free(rows);
    views_free(&x);
}

/* Width overrides: pcs 3 and 4 merged into one 8-byte access at pc 3 (as
 * ptxas might for adjacent words), pc 1 split into two 2-byte pieces.
 * Sequential run: pc 3 now reads 8 bytes per lane: at s = 32, 32 lanes x 8
 * bytes = two half-warp phases of 32 words, 2 wavefronts; pc 4 counts
 * nothing. */
static void test_width_override(void **state)
{
    (void)state;
    views x = views_new();
    cured_model_sass_facts *facts = cured_model_sass_facts_new(&x.f->module, NULL);
    assert_non_null(facts);
    assert_int_equal(cured_model_sass_facts_set_width(facts, 0, 3, 8), 0);
    assert_int_equal(cured_model_sass_facts_set_width(facts, 0, 4, 0), 0);
    assert_int_equal(cured_model_sass_facts_set_width(facts, 0, 1, 2), 0);
    assert_int_equal(cured_model_sass_facts_set_width(facts, 0, 99, 2), -1);
    assert_int_equal(cured_model_sass_facts_width(facts, 0, 3), 8);
    assert_int_equal(cured_model_sass_facts_width(facts, 0, 5), CURED_MODEL_SASS_WIDTH_PTX);
    assert_int_equal(cured_model_counters_use_sass(x.c, facts), 0);
    run_tree(&x.d, sequential, 1);
    const uint64_t *r3 = cured_model_counters_at(x.c, 0, 3);
    const uint64_t *r4 = cured_model_counters_at(x.c, 0, 4);
    const uint64_t *r1 = cured_model_counters_at(x.c, 0, 1);
    assert_int_equal(r3[CURED_MODEL_CTR_SHARED_LD], 6);
    /* lanes 32, 16, 8, 4, 2, 1 at 8 bytes: 2, 1, 1, 1, 1, 1 phases */
    assert_int_equal(r3[CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS], 7);
    assert_int_equal(r4[CURED_MODEL_CTR_SHARED_LD], 0);
    assert_int_equal(r4[CURED_MODEL_CTR_INST], 6); /* still issued as PTX */
    /* 2 warps, 2 pieces each, 2-byte pieces of consecutive words: 1 each */
    assert_int_equal(r1[CURED_MODEL_CTR_SHARED_ST], 4);
    assert_int_equal(r1[CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS], 4);
    cured_model_sass_facts_free(facts);   /* before the module, in x */
    views_free(&x);
}

/* The reports run and name the metrics. */
static void test_reports(void **state)
{
    (void)state;
    views x = views_new();
    run_tree(&x.d, strided, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(cured_model_counters_print_table(out, x.c, CURED_MODEL_BY_SOURCE, NULL, 0), 0);
    assert_int_equal(cured_model_counters_write_json(out, x.c), 0);
    const char *names[1] = {"strided"};
    const cured_model_step_view *v[1] = {x.v};
    assert_int_equal(cured_model_step_view_write_json(out, names, v, 1), 0);
    fclose(out);
    assert_non_null(strstr(buf, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"));
    assert_non_null(strstr(buf, "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\": 5"));
    assert_non_null(strstr(buf, "seed.cu:20"));
    assert_non_null(strstr(buf, "\"shared_accesses\": 189"));
    free(buf);
    views_free(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_divergent),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_print_table),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_width_override),
        cmocka_unit_test(test_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
