/* exec_internal.h - the interpreter's state, and what its files offer each
 * other. Not part of the model's interface: nothing outside
 * src/model/exec*.c includes this.
 *
 * defines: exec_launch, exec_cluster, exec_block, exec_warp, exec_fn, EXEC_LANES,
 *          exec_key/exec_key_*, exec_src, exec_dst, the generic windows
 *          EXEC_SHARED_BASE ..., and the declarations of the interpreter's
 *          files
 *
 * docs/interpreter.md has the files top down (a file calls only files
 * below it) and, under "State", the conventions every file keeps: how
 * registers are laid out and kept canonical, and a lane's scheduling key.
 */
#ifndef CURED_MODEL_EXEC_INTERNAL_H
#define CURED_MODEL_EXEC_INTERNAL_H

#include "cured_model.h"
#include "ptx.h"

#include <stdint.h>

#define EXEC_FULL 0xffffffffu
#define EXEC_BARRIERS 16           /* bar ids 0..15 */
#define EXEC_MAX_DEPTH 64          /* call depth limit */

/* Generic address windows: shared and local are disjoint from every
 * global buffer (memory.c places buffers from 0x7000'0000'0000 up to the
 * shared window). A thread's local window is 16 MiB. */
#define EXEC_PARAM_BASE 0x7D0000000000ull
#define EXEC_SHARED_BASE 0x7E0000000000ull
#define EXEC_LOCAL_BASE 0x7F0000000000ull
#define EXEC_WINDOW_SIZE 0x010000000000ull
#define EXEC_LOCAL_SHIFT 24

/* The .shared::cluster window: a CTA's own .shared offsets (below
 * 2^EXEC_CTA_SHIFT) name its own shared memory; mapa, in a cluster of two
 * or more CTAs, makes (rank + 1) << EXEC_CTA_SHIFT | offset, the offset in
 * the shared memory of CTA `rank` (exec_cluster.c, exec_mem.c). */
#define EXEC_CTA_SHIFT 24
#define EXEC_OWN_CTA UINT32_MAX

/* The window address of offset `off` in CTA `rank`'s shared memory. */
static inline uint64_t exec_cluster_address(uint32_t rank, uint64_t off)
{
    return ((uint64_t)rank + 1) << EXEC_CTA_SHIFT | off;
}

/* The offset a window address names in its CTA's shared memory. */
static inline uint64_t exec_cluster_offset(uint64_t a)
{
    return a & ((1ull << EXEC_CTA_SHIFT) - 1);
}

/* The CTA rank a window address names, EXEC_OWN_CTA for none (an
 * offset of the CTA's own). */
static inline uint32_t exec_cluster_rank(uint64_t a)
{
    uint64_t r = a >> EXEC_CTA_SHIFT;
    return r == 0 ? EXEC_OWN_CTA : r - 1 > 0xFFFFu ? 0xFFFFu : (uint32_t)(r - 1);
}

/* ------------------------------------------------------------ lane loop */

/* Runs the statements in ... once per lane l set in mask m (an int named
 * by the second argument). A full mask runs a plain counted loop the
 * compiler can unroll or vectorise. */
#define EXEC_LANES(m, l, ...)                                            \
    do {                                                                 \
        uint32_t lanes_ = (m);                                           \
        if (lanes_ == EXEC_FULL) {                                       \
            for (int l = 0; l < CURED_MODEL_WARP_SIZE; l++) { __VA_ARGS__ }    \
        } else {                                                         \
            while (lanes_) {                                             \
                int l = __builtin_ctz(lanes_);                           \
                lanes_ &= lanes_ - 1;                                    \
                __VA_ARGS__                                              \
            }                                                            \
        }                                                                \
    } while (0)

/* Set bits of v (SWAR: no libgcc call without -mpopcnt). */
static inline uint32_t exec_popc32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

/* --------------------------------------------------------------- keys */

static inline uint64_t exec_key(uint32_t depth, uint32_t fn, uint32_t pc)
{
    return ((uint64_t)(0xFFFFu - depth) << 48) | ((uint64_t)fn << 32) | pc;
}
static inline uint32_t exec_key_pc(uint64_t k) { return (uint32_t)k; }
static inline uint32_t exec_key_fn(uint64_t k) { return (uint32_t)(k >> 32) & 0xFFFFu; }
static inline uint32_t exec_key_depth(uint64_t k) { return 0xFFFFu - (uint32_t)(k >> 48); }

/* -------------------------------------------------------------- state */

/* What the interpreter precomputes per function of the module. */
typedef struct exec_fn {
    int reachable;          /* called (transitively) by the entry */
    uint32_t frame;         /* local frame bytes, 16-byte aligned */
    uint64_t stack;         /* deepest local stack from here (bytes) */
    int depth;              /* deepest call chain from here (frames) */
} exec_fn;

/* One warp of the running block. Every present lane is in exactly one of
 * cur, parked, bar_wait, sync_wait, cluster_wait, exited. */
typedef struct exec_warp {
    uint32_t index;         /* warp index in the block */
    uint32_t present;       /* lanes that exist */
    uint32_t exited;
    uint32_t bar_wait;      /* waiting at a block barrier (key: after it) */
    uint32_t sync_wait;     /* waiting at a warp-synchronous instruction
                               for other lanes of its mask (key: at it) */
    uint32_t cluster_wait;  /* waiting at barrier.cluster.wait for the
                               phase to complete (key: after it) */
    uint32_t cur;           /* the group issuing now, all at cur_key */
    uint32_t parked;        /* runnable lanes not in cur, at key[] */
    uint64_t cur_key;
    uint64_t parked_min;    /* smallest key in parked (parked != 0) */
    uint64_t key[CURED_MODEL_WARP_SIZE];

    /* the current function's code and register window (from cur_key) */
    const ptx_function *functions;  /* the module's */
    uint32_t fn;
    const ptx_instr *code;
    uint32_t ncode;
    uint64_t *R;
    uint64_t **regs;        /* per function: nregs * 32, NULL unreachable */

    uint32_t tid[3][CURED_MODEL_WARP_SIZE];
    uint32_t cc;            /* carry flags of add.cc/sub.cc per lane */

    /* barrier waits */
    uint64_t bar_key;       /* smallest key (barrier pc + 1) of bar_wait */
    uint32_t passed;        /* lanes that ran on past a barrier some lanes
                               of this warp wait at (divergence) */
    uint8_t bar_id[CURED_MODEL_WARP_SIZE];
    uint8_t bar_pred[CURED_MODEL_WARP_SIZE];    /* bar.red contribution */
    const ptx_instr *bar_ins[CURED_MODEL_WARP_SIZE];
    /* the cluster barrier (exec_cluster.c): lanes that arrived and have
     * not waited yet, and those of them whose phase is not complete */
    uint32_t cluster_arrived;
    uint32_t cluster_pending;
    /* warp-sync waits: the union of the group's masks */
    uint32_t sync_mask[CURED_MODEL_WARP_SIZE];

    /* calls: per depth, per lane */
    uint64_t *ret_key;             /* [EXEC_MAX_DEPTH * 32] */
    const ptx_instr **ret_call;    /* the call instruction */
    uint32_t *saved_base;          /* caller's local frame base */
    uint32_t local_base[CURED_MODEL_WARP_SIZE];  /* current frame base */

    uint8_t *tparam;        /* per-thread .param storage, lane-major */
} exec_warp;

/* One CTA of the running cluster. */
typedef struct exec_block {
    uint32_t index;         /* linear block index */
    uint32_t ctaid[3];
    uint32_t threads;
    uint32_t live;          /* threads not exited */
    int nwarps;
    exec_warp *warps;
    uint8_t *shared;        /* window: static, then dynamic */
    uint64_t shared_bytes;
    uint64_t dyn_base;      /* where the dynamic (extern) part starts */
    uint8_t *local;         /* threads * local_stack bytes */
    int released;           /* a barrier was released: warps start over
                               from warp 0 */
    uint32_t arrived[EXEC_BARRIERS];   /* threads counted at each barrier */
    uint32_t expect[EXEC_BARRIERS];    /* thread count asked for, 0 = all */
    cured_model_event last[EXEC_BARRIERS];   /* event of the last arrival */
    uint32_t rank;          /* %cluster_ctarank: its place in the cluster */
} exec_block;

/* The running cluster: its CTAs, run together (a cluster of one CTA in a
 * launch without cluster dimensions), and the cluster barrier over all of
 * their threads (exec_cluster.c). */
typedef struct exec_cluster {
    uint32_t ncta;          /* CTAs a cluster holds (x * y * z) */
    uint32_t dim[3];        /* the launch's cluster dimensions */
    int explicit_dims;      /* the launch (or the kernel) asked for them */
    exec_block *ctas;       /* [ncta], rank order */
    /* live threads of all its CTAs arrived at the current phase, phases
     * completed, the event of the last arrival */
    uint32_t count;
    uint32_t phase;
    cured_model_event last;
} exec_cluster;

/* One launch. */
typedef struct exec_launch {
    const cured_model_launch *launch;
    const cured_model_module *module;
    const ptx_function *entry;
    int entry_index;
    cured_model_result *result;
    cured_model_memory *memory;
    cured_model_buffer *image;    /* the module's .global/.const image, or NULL */
    cured_model_buffer *last_buf; /* cache of the last global buffer hit */
    uint64_t steps, limit;
    uint64_t thread_steps;  /* sum of issuing lanes */
    int stop;               /* an error finding was made */
    cured_model_observer *obs;
    int nobs;
    int want_done;          /* an observer has instr_done */
    int want_shuffle;       /* an observer has shuffle */
    exec_fn *fns;
    uint64_t *sym_tparam;   /* per symbol: offset in per-thread param
                               storage, UINT64_MAX when not per-thread */
    uint32_t tparam_bytes;
    uint64_t local_stack;   /* local bytes per thread */
    exec_cluster cluster;
    exec_block *block;      /* the CTA whose warp runs now */
    cured_model_event ev;         /* the instruction's event, with observers */
    uint64_t tmp[PTX_MAX_OPERANDS + 1][CURED_MODEL_WARP_SIZE];
    uint64_t sink[CURED_MODEL_WARP_SIZE];
} exec_launch;

/* ------------------------------------------------------------ helpers */

/* Mask of the low `bytes` bytes (bytes 1..8). */
static inline uint64_t exec_width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

/* v's low `bits` bits, sign-extended to 64. */
static inline int64_t exec_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}

/* 1 for signed integer types. */
static inline int exec_type_signed(unsigned t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

/* 1 for float types (f16, bf16, their x2, f32, f64). */
static inline int exec_type_float(unsigned t)
{
    return t >= PTX_T_F16 && t <= PTX_T_F64;
}

/* ------------------------------------------- operands (exec_operand.c) */

/* Source operand fallback (immediates, special registers, symbols,
 * negated predicates): fills tmp for lanes m and returns it. */
const uint64_t *exec_src_slow(exec_launch *x, exec_warp *w,
                              const ptx_operand *o, uint64_t *tmp, uint32_t m);

/* The lane vector of source operand o for lanes m: the register itself
 * when it is one, else tmp filled in. */
static inline const uint64_t *exec_src(exec_launch *x, exec_warp *w,
                                       const ptx_operand *o, uint64_t *tmp,
                                       uint32_t m)
{
    if (o->kind == PTX_OPND_REG && !o->neg && o->reg >= 0)
        return w->R + (size_t)o->reg * CURED_MODEL_WARP_SIZE;
    return exec_src_slow(x, w, o, tmp, m);
}

/* The lane vector a destination operand writes: its register, or a sink. */
static inline uint64_t *exec_dst(exec_launch *x, exec_warp *w,
                                 const ptx_operand *o)
{
    if (o->kind == PTX_OPND_REG && o->reg >= 0)
        return w->R + (size_t)o->reg * CURED_MODEL_WARP_SIZE;
    return x->sink;
}

/* Width in bytes of register slot `reg` of the current function (8 when
 * unknown). */
unsigned exec_reg_width(const exec_launch *x, const exec_warp *w, int reg);

/* Address of symbol `sym` as a value, in its own space, for lane l of warp
 * w (shared: window offset; local: frame offset; global: device address;
 * const: image offset; kernel param: param-block offset). */
uint64_t exec_sym_addr(const exec_launch *x, const exec_warp *w, int sym, int l);

/* Writes a comparison's per-lane results res[l] (0/1) for setp (p and the
 * optional q = !p) or set (all ones, or 1.0f for an f32 destination),
 * combined with the predicate c (NULL: none) by the instruction's
 * .and/.or/.xor, for lanes m. Shared by the integer and float compares. */
void exec_write_compare(exec_launch *x, exec_warp *w, const ptx_instr *ins,
                        uint32_t m, const uint64_t *res, const uint64_t *c);

/* --------------------------- events, findings, text (exec_report.c) */

/* Fills x->ev for instruction ins issued by lanes `active` (guard: g). */
void exec_event(exec_launch *x, const exec_warp *w, const ptx_instr *ins,
                uint32_t active, uint32_t g);

/* Tells the observers that want it that x->ev's instruction took effect
 * (exec_report.c). */
void exec_event_done(exec_launch *x);

/* Adds a finding at instruction ins of warp w, blamed on `lane` (-1: the
 * first lane of the current group), with a printf-style message. An error
 * stops the launch after this instruction. */
void exec_report(exec_launch *x, const exec_warp *w, const ptx_instr *ins,
                 int lane, cured_model_finding_kind kind, cured_model_severity sev,
                 uint64_t address, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));

/* "st.shared.u32" for ins, into buf. Returns buf. */
const char *exec_ins_text(const ptx_instr *ins, char *buf, size_t size);

/* "16-31" / "0, 5, 7-9" for a lane mask, into buf. Returns buf. */
const char *exec_lanes_text(uint32_t mask, char *buf, size_t size);

/* ------------------------------------------------ waits (exec_wait.c) */

/* Releases barrier `id` of the block when every thread it waits for has
 * arrived (all live threads, or the count bar.sync named): its lanes are
 * parked after it, bar.red gets its result, the observers hear of it;
 * lanes of one warp that met at different .aligned barriers, or ran on
 * past it, are reported. Nothing happens before then. */
void exec_wait_barrier(exec_launch *x, uint32_t id);

/* Lanes m of w's current group wait at its warp-synchronous instruction
 * for the rest of `mask` (the union of their masks); the rest of the group
 * goes on. */
void exec_wait_sync(exec_warp *w, uint32_t m, uint32_t mask);

/* Lanes `here`, which waited at the current group's instruction, join the
 * group: the instruction runs for all of them. */
void exec_wait_sync_join(exec_warp *w, uint32_t here);

/* Lanes `go`, which waited at another instruction (another __syncwarp),
 * are released past it: parked at the instruction after theirs. */
void exec_wait_sync_pass(exec_warp *w, uint32_t go);

/* Reports warp-sync waiters of w whose masks name lanes in `gone`, which
 * just exited. */
void exec_wait_lanes_gone(exec_launch *x, exec_warp *w, uint32_t gone);

/* Reports why a block whose live threads all wait can never go on. */
void exec_wait_deadlock(exec_launch *x);

/* ------------------------------ the cluster (exec_cluster.c) */

/* The id the cluster barrier's phases have for the observers' barrier()
 * (after the 16 block barriers). */
#define EXEC_CLUSTER_BARRIER CURED_MODEL_CLUSTER_BARRIER

/* Lanes `gone` of w exited: they no longer count at the cluster barrier,
 * whose phase completes when every live thread has now arrived. */
void exec_cluster_lanes_gone(exec_launch *x, exec_warp *w, uint32_t gone);

/* Reports a block whose threads wait at barrier.cluster.wait for threads
 * that wait elsewhere. Returns 1 when it reported, 0 when no thread waits
 * there. */
int exec_cluster_deadlock(exec_launch *x);

/* ------------------------------------------------ instruction families */

/* Each runs one instruction of its family for the lanes m whose guard held
 * (the issuing group is w->cur); the step loop (exec_step.c) dispatches.
 *
 * Control flow and block barriers (exec_control.c) move the group
 * themselves: call, ret (ins may be NULL: the group ran off the end of its
 * function), exit (lanes `gone` leave), bar. The branch is the step
 * loop's own. */
void exec_call(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
void exec_ret(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
void exec_exit(exec_launch *x, exec_warp *w, uint32_t gone);
void exec_bar(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);

/* barrier.cluster.arrive / .wait by lanes m (exec_cluster.c): moves the
 * group itself, as exec_bar does. */
void exec_cluster_bar(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);

/* The rest leave moving on to the step loop. Each returns 0 when it ran,
 * -1 when the model does not support this form (the caller reports it). */
int exec_alu(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
int exec_float(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
int exec_cvt(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
int exec_mem(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);
/* mapa and getctarank (exec_cluster.c). */
int exec_cluster_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);

/* shl/shr/shf and the bit instructions (popc ... dp2a), for exec_alu,
 * which has checked the type: `bits` its width (8 to 64), `sgn` whether it
 * is signed. Returns as the families above (exec_bits.c). */
int exec_bits(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m, unsigned bits,
              int sgn);

/* A warp-synchronous instruction (shfl, vote, match, redux, activemask,
 * bar.warp.sync; exec_warp.c). Returns 0 when it ran (the caller advances
 * the group), 1 when it changed the schedule itself (lanes wait for the
 * rest of their mask), -1 when unsupported. */
int exec_warp_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m);

/* ------------------------------------------- the step loop (exec_step.c) */

/* Runs warp w of the running block until it has no runnable lane (all
 * exited or waiting) or the launch stops. */
void exec_warp_run(exec_launch *x, exec_warp *w);

#endif /* CURED_MODEL_EXEC_INTERNAL_H */
