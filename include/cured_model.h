/* model.h - the model: runs a PTX kernel on the CPU, warp by warp.
 *
 * defines: cured_model_memory (global memory as caller-provided buffers),
 *          cured_model_launch, cured_model_event, cured_model_access, cured_model_observer,
 *          cured_model_shuffle, cured_model_finding, cured_model_findings, cured_model_run
 *          and their helpers; the counters, the checks, the step view, the SASS
 *          summary, catalogue entry names; the tree's maths
 *          (cured_model_tree_formula_of, cured_model_step_view_maths ...); the
 *          trace (cured_model_trace_*: what a launch did, value by value, step
 *          by step, for the renderers of `cured animate`)
 *
 * A launch runs a grid of blocks, each block's warps of 32 lanes with
 * per-thread registers, on one CPU thread. The interpreter (exec.c) calls
 * observers at each warp-level event: counters (counters.c, step_view.c)
 * and checks (checks.c) are observers, so the interpreter stays small and
 * every view sees the same execution. Problems are reported as findings
 * with block, thread, instruction and source line; the model never crashes
 * and never prints.
 */
#ifndef CURED_MODEL_H
#define CURED_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A parsed PTX module (opaque). */
typedef struct cured_model_module cured_model_module;

/* One decoded PTX instruction (opaque outside the model). */
struct ptx_instr;

/* ------------------------------------------------------------ modules */

/* A parse failure: the first error, with its line, column and a message
 * that names what was found and starts with its line
 * ("line 12: unknown instruction 'foo.bar'"). */
typedef struct cured_model_parse_error {
    uint32_t line;
    uint32_t column;
    char message[256];
} cured_model_parse_error;

/* Parses PTX text (text[0..len), need not be NUL-terminated) into a new
 * module. Returns NULL on failure and fills *err (err may be NULL).
 * Never crashes on malformed input; a directive it does not know, or any
 * text that is not well-formed PTX, is an error naming it and its line,
 * never a silent skip. An instruction it cannot decode in a well-formed
 * statement (an opcode or a modifier the model does not know, such as
 * cp.async or wgmma) does not fail the module: the function it is in, and
 * any function calling that one, is marked unusable
 * (cured_model_function_unusable says why) and the other functions parse
 * and run. */
cured_model_module *cured_model_parse(const char *text, size_t len,
                                      cured_model_parse_error *err);

/* Frees a module from cured_model_parse. NULL is fine. */
void cured_model_module_free(cured_model_module *module);

/* Index of the function named `name` (exactly), or -1. */
int cured_model_find_function(const cured_model_module *module, const char *name);

/* Why function `function` of module cannot run, or NULL when it can (and
 * for an index out of range): the instruction the model could not decode
 * ("unknown instruction 'cp.async.ca.shared.global'"), or for a function
 * that calls such a function "calls 'f', which ...". Stores that
 * instruction's PTX line in *ptx_line and its source line (the user's own
 * line, as findings name it; NULL and 0 when the PTX has no .loc there)
 * in *source_file (a file name without its folder) and *source_line; each
 * pointer may be NULL. */
const char *cured_model_function_unusable(const cured_model_module *module, int function,
                                          uint32_t *ptx_line, const char **source_file,
                                          uint32_t *source_line);

#define CURED_MODEL_WARP_SIZE 32

/* ------------------------------------------------------------- memory */

/* One allocation in the model's global memory. `addr` is the device
 * address kernels see; buffers are placed with unmapped gaps between them
 * so an access one past the end is caught. `init` is a per-byte shadow
 * (1 = written) used by the uninitialised-read check; NULL means the whole
 * buffer counts as initialised. The interpreter marks the bytes it stores
 * (exec_mem.c); the checks observer (checks_global.c) marks them too, from
 * its access callback, so the shadow is kept with or without either. */
typedef struct cured_model_buffer {
    char name[48];
    uint64_t addr;
    uint64_t bytes;
    uint8_t *data;
    uint8_t *init;
    const cured_model_module *module;  /* set on the buffer cured_model_memory_module_image
                                  made for that module's data image */
} cured_model_buffer;

typedef struct cured_model_memory {
    cured_model_buffer *buffers;
    int nbuffers;
    int capacity;
    uint64_t next_addr;
} cured_model_memory;

/* A new, empty global memory. Returns NULL when out of host memory. */
cured_model_memory *cured_model_memory_new(void);

/* Frees the memory and every buffer in it. NULL is fine. */
void cured_model_memory_free(cured_model_memory *memory);

/* Allocates `bytes` (zero-filled host side) named `name`; when
 * `initialised` is 0 the buffer is marked unwritten for the initcheck.
 * Returns the buffer (its addr is the device address) or NULL when out of
 * host memory. Addresses are 256-byte aligned, as cudaMalloc's are. The
 * returned pointer stays valid while the memory holds at most 1024
 * buffers (past that, find buffers again by address). */
cured_model_buffer *cured_model_memory_alloc(cured_model_memory *memory, const char *name,
                                 uint64_t bytes, int initialised);

/* The buffer named `name` (the first, when several share it), or NULL. */
cured_model_buffer *cured_model_memory_find_named(const cured_model_memory *memory,
                                                  const char *name);

/* The buffer holding [addr, addr + len), or NULL when that range is not
 * wholly inside one buffer. */
cured_model_buffer *cured_model_memory_find(const cured_model_memory *memory, uint64_t addr,
                                uint64_t len);

/* The buffer holding `module`'s .global and .const data image (each such
 * symbol at its ptx_symbol.offset, initialisers copied in), allocated in
 * `memory` on the first call and the same buffer afterwards, so __device__
 * variables keep their values from one launch to the next, as on a GPU.
 * cured_model_run calls it for modules that have such data; a host may call it to
 * read or reset a variable (buffer->data + symbol offset). Returns NULL
 * when out of host memory. */
cured_model_buffer *cured_model_memory_module_image(cured_model_memory *memory,
                                        const cured_model_module *module);

/* ----------------------------------------------------------- findings */

typedef enum cured_model_finding_kind {
    CURED_MODEL_FIND_OOB_GLOBAL = 1,   /* global access outside every buffer */
    CURED_MODEL_FIND_OOB_SHARED,       /* shared access past the block's window */
    CURED_MODEL_FIND_OOB_LOCAL,        /* local access past the thread's frame */
    CURED_MODEL_FIND_OOB_PARAM,        /* param/const access out of range */
    CURED_MODEL_FIND_MISALIGNED,       /* address not aligned to the access size */
    CURED_MODEL_FIND_UNINIT_SHARED,    /* read of shared memory no thread wrote */
    CURED_MODEL_FIND_UNINIT_GLOBAL,    /* read of global memory nothing wrote */
    CURED_MODEL_FIND_RACE_SHARED,      /* conflicting shared accesses, no sync */
    CURED_MODEL_FIND_BAD_MASK,         /* shfl/vote/match/redux/bar.warp mask names
                                    lanes that exited or do not exist, or
                                    omits the executing lane */
    CURED_MODEL_FIND_BARRIER_DIVERGENCE, /* a barrier that not every live thread
                                      of the block reaches */
    CURED_MODEL_FIND_STEP_LIMIT,       /* the step limit ran out (endless loop?) */
    CURED_MODEL_FIND_UNSUPPORTED,      /* an instruction form the model cannot run */
    CURED_MODEL_FIND_TRAP,             /* trap executed */
    CURED_MODEL_FIND_BAD_LAUNCH        /* launch parameters invalid */
} cured_model_finding_kind;

/* Severity: an error stops the launch after the current warp instruction
 * (as a fault stops a GPU kernel); a hazard is recorded and the run goes on. */
typedef enum cured_model_severity { CURED_MODEL_HAZARD = 0, CURED_MODEL_ERROR = 1 } cured_model_severity;

typedef struct cured_model_finding {
    cured_model_finding_kind kind;
    cured_model_severity severity;
    uint32_t block[3];       /* blockIdx */
    uint32_t thread[3];      /* threadIdx of the first offending thread */
    int32_t function;        /* function index, -1 when not tied to code */
    int32_t pc;              /* instruction index in that function */
    uint32_t ptx_line;       /* line in the PTX text */
    uint16_t src_file;       /* .loc file/line of the user's own source
                                (0 when the PTX has none): the innermost
                                .loc, or for code inlined from a CUDA
                                toolkit header (atomicAdd, __shfl_down_sync)
                                the user's line that calls it */
    uint32_t src_line;
    uint64_t address;        /* the address concerned, when there is one */
    char message[224];       /* one line: what happened, with the
                                instruction's text where it helps */
} cured_model_finding;

/* A growing list of findings; identical findings (same kind, function and
 * pc) are counted once, with `repeats` for the rest. */
typedef struct cured_model_findings {
    cured_model_finding *items;
    uint32_t *repeats;
    int count;
    int capacity;
    int errors;              /* findings of severity CURED_MODEL_ERROR */
} cured_model_findings;

/* Adds a finding (merging repeats). Returns 0, or -1 when out of host
 * memory (the finding is then dropped). */
int cured_model_findings_add(cured_model_findings *list, const cured_model_finding *f);

/* Adds every finding of src to dst, repeats included (a finding dst has
 * already gains src's count). Returns 0, or -1 when out of host memory. */
int cured_model_findings_merge(cured_model_findings *dst, const cured_model_findings *src);

/* Frees the list's storage and empties it. */
void cured_model_findings_clear(cured_model_findings *list);

/* Prints the findings one per line: severity, kind, block and thread, the
 * PTX instruction's text (from ptx_text[0..ptx_len), the module's source)
 * and line, the source line (and the kernel's own line where the code was
 * inlined from elsewhere), repeats and the message. */
void cured_model_findings_print(FILE *out, const cured_model_findings *list,
                                const cured_model_module *module,
                                const char *ptx_text, size_t ptx_len);

/* Writes the findings as a JSON array of objects with the same fields. */
void cured_model_findings_write_json(FILE *out, const cured_model_findings *list,
                                     const cured_model_module *module,
                                     const char *ptx_text, size_t ptx_len);

/* The hazards in list that can change what the kernel computes: shared-
 * memory races and reads of unwritten shared or global memory (what they
 * give depends on the order the hardware runs warps in, or on what memory
 * held before, so a result computed through them may differ on a GPU and
 * from run to run). Returns their number (findings, not repeats) and
 * writes their kinds' names, each once, joined by ", " into kinds (may be
 * NULL; cut short at cap). Can't fail. */
int cured_model_findings_result_hazards(const cured_model_findings *list, char *kinds,
                                        size_t cap);

/* Short name of a finding kind ("out-of-bounds global", "shared race"...). */
const char *cured_model_finding_kind_name(cured_model_finding_kind kind);

/* ------------------------------------------------------------- events */

/* A warp-level event: the instruction one warp issues. */
typedef struct cured_model_event {
    const cured_model_module *module;
    int32_t function;        /* index in module->functions */
    int32_t pc;              /* instruction index */
    const struct ptx_instr *ins; /* the instruction (opaque outside the model) */
    uint32_t block;          /* linear block index */
    uint32_t warp;           /* warp index within the block */
    uint32_t present;        /* lanes that exist in this warp (a partial last
                                warp has fewer than 32) */
    uint32_t active;         /* lanes that issued this instruction (at this
                                pc, not exited, not waiting) */
    uint32_t guard_true;     /* active lanes whose guard predicate held (the
                                lanes that take effect); = active unguarded */
    const uint8_t *shared;   /* the block's shared window as it is now
                                (read-only; static part, then dynamic) */
    uint64_t shared_bytes;   /* its size: static bytes aligned up to the
                                extern alignment (16 by default), plus
                                cured_model_launch.dynamic_shared_bytes */
    const uint64_t *regs;    /* the warp's registers of `function` as they
                                are now (read-only), lane-inner:
                                regs[slot * 32 + lane], slots as the PTX
                                declares them (ptx.h: for observers inside
                                the model) */
} cured_model_event;

typedef enum cured_model_access_kind {
    CURED_MODEL_LOAD = 0,
    CURED_MODEL_STORE,
    CURED_MODEL_ATOMIC             /* read-modify-write: atom and red */
} cured_model_access_kind;

/* One warp-level memory access, after generic addresses were resolved.
 * A generic instruction whose lanes fall in several spaces is reported as
 * one access per space. */
/* cured_model_access.space of an access to another CTA's shared memory
 * in the thread-block cluster (distributed shared memory, through mapa):
 * addr holds that block's linear index << 32 | the offset in its window.
 * Not a ptx_space, so observers that switch on those pass it by. */
#define CURED_MODEL_SPACE_CLUSTER_SHARED 0x40

/* The observers' barrier id of the cluster barrier (after bar 0..15). */
#define CURED_MODEL_CLUSTER_BARRIER 16

typedef struct cured_model_access {
    const cured_model_event *event;
    uint8_t space;           /* ptx_space: GLOBAL, SHARED, LOCAL, CONST, PARAM;
                                or CURED_MODEL_SPACE_CLUSTER_SHARED */
    uint8_t kind;            /* cured_model_access_kind */
    uint8_t size;            /* bytes per lane, all vector elements
                                (ld.v4.f32: 16) */
    uint8_t elem_size;       /* bytes of one vector element */
    uint32_t mask;           /* lanes that access memory */
    uint64_t addr[CURED_MODEL_WARP_SIZE]; /* per lane: device address (global),
                                       offset in the block's window (shared),
                                       offset in the thread's frame (local) */
} cured_model_access;

struct cured_model_launch;
struct cured_model_shuffle;

/* Observers: every member may be NULL. Calls are made in execution order,
 * on the thread that called cured_model_run. */
typedef struct cured_model_observer {
    void *ctx;
    /* Before the first block runs / after the last ended. */
    void (*launch_begin)(void *ctx, const struct cured_model_launch *launch);
    void (*launch_end)(void *ctx, const struct cured_model_launch *launch);
    /* A block starts (threads: its thread count) / ends. */
    void (*block_begin)(void *ctx, uint32_t block, uint32_t threads);
    void (*block_end)(void *ctx, uint32_t block);
    /* Every warp-level instruction issued, before it takes effect. */
    void (*instr)(void *ctx, const cured_model_event *e);
    /* Every memory access, after instr() for the same instruction and
     * before the values are stored. */
    void (*access)(void *ctx, const cured_model_access *a);
    /* A conditional branch: `taken` lanes jump, guard_true == taken; it
     * diverged when 0 < taken < active. */
    void (*branch)(void *ctx, const cured_model_event *e, uint32_t taken);
    /* A block-wide barrier released: every live thread arrived. e is the
     * event of the last warp to arrive; `id` is the barrier number (0..15),
     * or CURED_MODEL_CLUSTER_BARRIER for a completed phase of the cluster
     * barrier (barrier.cluster), told once for each block of the cluster
     * (e->block that block). */
    void (*barrier)(void *ctx, const cured_model_event *e, uint32_t id);
    /* bar.warp.sync (and the implied warp sync of the *.sync warp
     * operations: shfl/vote/match/redux), over `mask` lanes. */
    void (*warp_sync)(void *ctx, const cured_model_event *e, uint32_t mask);
    /* Lanes exited (ret from the entry, or exit). */
    void (*lanes_exit)(void *ctx, const cured_model_event *e, uint32_t lanes);
    /* After an instruction took effect (its stores are in memory, its
     * destination registers written; e->regs and e->shared show them):
     * every instruction instr() saw except the control flow (bra, call,
     * ret, exit, bar: their own callbacks say what they did) and a
     * warp-synchronous one whose lanes wait for the rest of their mask (it
     * is seen again when they arrive). The interpreter skips this call
     * altogether when no observer sets it. */
    void (*instr_done)(void *ctx, const cured_model_event *e);
    /* A shfl.sync exchanged values (before instr_done). */
    void (*shuffle)(void *ctx, const struct cured_model_shuffle *s);
} cured_model_observer;

/* What one shfl.sync did, lane by lane. */
typedef struct cured_model_shuffle {
    const cured_model_event *event;
    uint32_t lanes;          /* lanes that exchanged: the issuing group and
                                the lanes of its mask that waited for it */
    uint32_t in_range;       /* of them, those whose source lane was in
                                range (the predicate p) */
    uint8_t src_lane[CURED_MODEL_WARP_SIZE];  /* the lane each read; its own
                                                 when the source was out of
                                                 range (shfl.down past 31) */
    uint32_t offered[CURED_MODEL_WARP_SIZE];  /* the value each lane offered */
    uint32_t received[CURED_MODEL_WARP_SIZE]; /* the value each lane got */
} cured_model_shuffle;

/* ------------------------------------------------------------- launch */

typedef struct cured_model_dim3 {
    uint32_t x, y, z;
} cured_model_dim3;

/* The interpreter's step limit for a launch that gives 0: a fixed bound
 * for hosts that set none. cured_model_step_budget (cured_model_host.h)
 * sizes one to the launch instead, so an endless loop stops in seconds;
 * `cured model` and the plan runner use that. */
#define CURED_MODEL_DEFAULT_STEP_LIMIT ((uint64_t)1 << 32)

typedef struct cured_model_launch {
    const cured_model_module *module;
    int function;                  /* an .entry's index */
    cured_model_dim3 grid;
    cured_model_dim3 block;
    cured_model_dim3 cluster;      /* thread-block cluster dimensions
                                      (blocks, each dividing the grid's; at
                                      most 16 blocks); all 0: the kernel's
                                      .reqnctapercluster, else clusters of
                                      one block (a launch without them) */
    uint32_t dynamic_shared_bytes;
    const void *params;            /* the kernel's parameter block, laid out
                                      as the entry's .param symbols say
                                      (offset, size, alignment) */
    size_t params_size;
    cured_model_memory *memory;          /* global memory */
    uint64_t step_limit;           /* warp instructions; 0 = default */
    cured_model_observer *observers;     /* array of nobservers */
    int nobservers;
    int check_uninit_global;       /* report reads of unwritten global bytes */
} cured_model_launch;

typedef struct cured_model_result {
    uint64_t warp_instructions;    /* warp-level instructions issued */
    uint64_t thread_instructions;  /* sum of active lanes over them */
    int completed;                 /* 1 when every thread exited normally */
    cured_model_findings findings;       /* caller frees with cured_model_findings_clear */
} cured_model_result;

/* Runs the launch to completion (or to the first error finding) and fills
 * *result. Returns 0 when the kernel ran (findings may still hold hazards
 * or errors: check result->findings.errors), -1 when the launch could not
 * start (bad function index, block over 1024 threads, shared memory over
 * the 227 KiB limit, params_size wrong, out of host memory); the reason is
 * then a CURED_MODEL_FIND_BAD_LAUNCH finding, or a
 * CURED_MODEL_FIND_UNSUPPORTED one for a kernel the model cannot run
 * (cured_model_function_unusable). */
int cured_model_run(const cured_model_launch *launch, cured_model_result *result);

/* ========================================================== counters */

/* Every counter, with the name it is printed under: an Nsight Compute
 * metric where the model derives what ncu counts from the SASS, a name of
 * the model's own (model__...) where it counts PTX instructions, which ncu
 * does not see (docs/model.md, "PTX and SASS"). */
typedef enum cured_model_counter {
    CURED_MODEL_CTR_INST = 0,            /* model__ptx_inst_executed */
    CURED_MODEL_CTR_THREAD_INST,         /* model__ptx_thread_inst_executed */
    CURED_MODEL_CTR_THREAD_INST_PRED_ON, /* model__ptx_thread_inst_executed_pred_on */
    CURED_MODEL_CTR_SHARED_LD,           /* smsp__inst_executed_op_shared_ld.sum */
    CURED_MODEL_CTR_SHARED_ST,           /* smsp__inst_executed_op_shared_st.sum */
    CURED_MODEL_CTR_SHARED_ATOM,         /* smsp__inst_executed_op_shared_atom.sum */
    CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS,/* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS,/* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum */
    CURED_MODEL_CTR_SHARED_ATOM_WAVEFRONTS,/* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum */
    CURED_MODEL_CTR_SHARED_LD_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    CURED_MODEL_CTR_SHARED_ST_CONFLICTS, /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum */
    CURED_MODEL_CTR_SHARED_ATOM_CONFLICTS,/* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum */
    CURED_MODEL_CTR_GLOBAL_LD,           /* smsp__inst_executed_op_global_ld.sum */
    CURED_MODEL_CTR_GLOBAL_ST,           /* smsp__inst_executed_op_global_st.sum */
    CURED_MODEL_CTR_GLOBAL_ATOM,         /* smsp__inst_executed_op_generic_atom.sum:
                                            sm_70 and later count ATOMG there */
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
    CURED_MODEL_CTR_BRANCHES,            /* model__ptx_inst_executed_op_bra */
    CURED_MODEL_CTR_DIVERGENT_BRANCHES,  /* model__ptx_branches_divergent */
    CURED_MODEL_CTR_BRANCH_TARGETS,      /* smsp__sass_branch_targets.sum (SASS only) */
    CURED_MODEL_CTR_BRANCH_DIVERGENT,    /* smsp__sass_branch_targets_threads_divergent.sum */
    CURED_MODEL_CTR_BRANCH_UNIFORM,      /* smsp__sass_branch_targets_threads_uniform.sum */
    CURED_MODEL_CTR_BARRIERS,            /* sass__inst_executed_per_opcode [BAR] */
    CURED_MODEL_CTR_SHUFFLES,            /* sass__inst_executed_per_opcode [SHFL] */
    CURED_MODEL_CTR_VOTES,               /* sass__inst_executed_per_opcode [VOTE] */
    CURED_MODEL_CTR_COUNT
} cured_model_counter;

/* What a counter is: `key` is a short snake_case name for tables and for
 * code ("shared_ld_wavefronts"), `metric` the name it is printed under (an
 * Nsight Compute metric, or model__... for the model's own), `what` one
 * line of meaning. `ncu` is 1 when `metric` is Nsight Compute's and the
 * model derives it as ncu counts it (from the SASS where the counters
 * have it), 0 for the model's own; `needs_sass` is 1 for a counter that
 * only the SASS can give (it is not counted, and printed as "-", without
 * SASS facts). */
typedef struct cured_model_counter_info {
    const char *key;
    const char *metric;
    const char *what;
    int ncu;
    int needs_sass;
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
    CURED_MODEL_BY_SOURCE,    /* the user's own line (ptx_instr.user_file/
                           user_line): the innermost .loc (inside an
                           inlined function of the user's: that
                           function's line), except for code inlined from
                           a CUDA toolkit header (atomicAdd,
                           __shfl_down_sync ...): the user's line that
                           calls it, as findings say */
    CURED_MODEL_BY_SITE,      /* ptx_instr.site_file/site_line: the outermost
                           (the kernel's own line for inlined code) */
    CURED_MODEL_BY_PTX        /* ptx_instr.ptx_line: one row per instruction */
} cured_model_counters_by;

/* One row: the sum of the counts of the instructions of one function that
 * share a key. For CURED_MODEL_BY_PTX, file is 0 and line the PTX line.
 * Instructions with no line (no .loc, or `.loc N 0 0`) are one row of
 * their own, file 0 and line 0, at most one per function. */
typedef struct cured_model_counters_line {
    int function;
    uint16_t file;
    uint32_t line;
    int first_pc;            /* the lowest pc in the row */
    uint64_t v[CURED_MODEL_CTR_COUNT];
} cured_model_counters_line;

/* The rows of `function` (-1: the entry) keyed by `by`, sorted by file then
 * line (the row of no line last), only those where something was counted (an instruction ran, or a
 * warp skipped a predicated SASS access). Stores a malloc'ed array in
 * *rows (the caller frees it; NULL when there are none) and returns the row
 * count, or -1 when out of host memory or for a bad function or by. */
int cured_model_counters_lines(const cured_model_counters *c, int function,
                         cured_model_counters_by by, cured_model_counters_line **rows);

/* ------------------------------------------------------------ reports */

/* Prints the totals (each with its ncu metric name) and, unless by is
 * CURED_MODEL_BY_TOTAL, one table row per line of each function that ran, as
 * aligned plain text, each row ending with its line: the source line's
 * text read from the file the PTX's .file names, or where that cannot be
 * read, "ptx: " and the PTX line of its first instruction from
 * ptx_text[0..ptx_len) (the module's text; NULL for none); then the
 * columns' legend (cured_model_counters_print_legend). Returns 0, or -1
 * when out of host memory or on a write error. */
int cured_model_counters_print_table(FILE *out, const cured_model_counters *c,
                                     cured_model_counters_by by, const char *ptx_text,
                                     size_t ptx_len);

/* Prints what each column heading of the per-line table stands for
 * (inst, threads, sh.ld ... div.br), one per line. Can't fail. */
void cured_model_counters_print_legend(FILE *out);

/* Writes the counts as one JSON object: the kernel's name, a note on PTX vs
 * SASS, "totals" keyed by ncu metric name, "derived" (the active-lane share),
 * the counter table (key, metric, meaning), and per function "lines"
 * (by source: file, line, source_text, the line's text or null when its
 * file cannot be read) and "ptx" (by instruction) rows whose counts are
 * keyed by the counters' short keys, non-zero ones only. Returns 0, or -1 when out of host
 * memory or on a write error. */
int cured_model_counters_write_json(FILE *out, const cured_model_counters *c);

/* ============================================================ checks */

typedef struct cured_model_checks cured_model_checks;

/* New checks that add their findings to *out (which must outlive them;
 * any list works, including the one a cured_model_result will hold, as long as
 * cured_model_run fills that list in place). Returns NULL when out of host
 * memory. */
cured_model_checks *cured_model_checks_new(cured_model_findings *out);

/* The observer to put in cured_model_launch.observers. One cured_model_checks serves
 * any number of launches, one at a time. Can't fail. */
cured_model_observer cured_model_checks_observer(cured_model_checks *checks);

/* Whether the warp-wide *.sync operations (shfl, vote, match, redux) order
 * shared memory for the lanes of their mask as bar.warp.sync does. Off by
 * default, as on the GPU: the programming guide promises memory ordering
 * for __syncwarp only, and racecheck reports a hazard that only a shuffle
 * separates. Can't fail. */
void cured_model_checks_set_warp_ops_sync(cured_model_checks *checks, int on);

/* Frees the checks (not the findings list). NULL is fine. */
void cured_model_checks_free(cured_model_checks *checks);

/* The host bytes the checks keep per byte of a running block's shared
 * memory (its shadow cell: the last write, the reads since, clocks), for
 * estimates of a launch's host memory. Can't fail. */
size_t cured_model_checks_bytes_per_shared_byte(void);

/* ========================================================= step view */

/* One tree step (docs/counting.md, "The step view", rule 5). */
typedef struct cured_model_step {
    uint32_t block;           /* linear block index */
    uint32_t interval;        /* which barrier interval of the block (0: before
                                 the first barrier) */
    uint64_t accesses;        /* counted shared accesses in it */
    uint32_t adding_threads;
    uint32_t bank_degree;     /* worst over its counted warp stores; 0: none */
    uint32_t warps;           /* participating warps */
    uint32_t divergent_warps; /* of those, the ones with a partial lane set */
} cured_model_step;

/* The page's row and what stands behind it (docs/counting.md, "The step
 * view", rule 6). */
typedef struct cured_model_step_summary {
    uint64_t accesses;          /* counted shared accesses */
    uint64_t barriers;          /* counted barrier releases */
    uint32_t worst_bank_degree; /* 0 when there are no tree steps ("-") */
    int tree_steps;             /* how many, over all blocks */
    int has_first_step;         /* 0: "none" */
    uint32_t first_step_divergent;
    uint32_t first_step_warps;
    uint32_t shuffle_rounds;    /* most shfl instructions of one warp */
    uint64_t shuffles;          /* shfl warp instructions in all */
    /* What the conventions left out: */
    uint64_t initial_stores;    /* pure shared stores (lane level) */
    uint64_t initial_barriers;  /* barriers after them */
    uint64_t final_reads;       /* shared loads that went straight to global */
    uint32_t blocks;            /* blocks seen */
} cured_model_step_summary;

typedef struct cured_model_step_view cured_model_step_view;

/* A new, empty view for launches of entry `function` of `module` (which
 * must outlive it). Returns NULL when out of host memory or for a function
 * index out of range. */
cured_model_step_view *cured_model_step_view_new(const cured_model_module *module, int function);

/* Frees the view. NULL is fine. */
void cured_model_step_view_free(cured_model_step_view *v);

/* Forgets every count and step. */
void cured_model_step_view_reset(cured_model_step_view *v);

/* The observer to put in cured_model_launch.observers. Its ctx is v. */
cured_model_observer cured_model_step_view_observer(cured_model_step_view *v);

/* The summary of everything observed since new/reset. Can't fail. */
cured_model_step_summary cured_model_step_view_summary(const cured_model_step_view *v);

/* The tree steps in execution order (block by block); stores a pointer to
 * them (owned by the view, valid until the next event, reset or free) in
 * *steps and returns how many. */
int cured_model_step_view_steps(const cured_model_step_view *v, const cured_model_step **steps);

/* 1 when every event was tracked, 0 when host memory ran out in an
 * observer callback (the counts are then incomplete). */
int cured_model_step_view_complete(const cured_model_step_view *v);

/* -------------------------------------------------------------- output */

/* The page's table header (two lines: names and the |---| rule, each with
 * its newline). */
extern const char cured_model_step_table_header[];

/* Formats the row of `s` labelled `label` into buf (size bytes, NUL ended,
 * cut if short), as "| label | 189 | 6 | 1-way | 2 of 2 |" without newline.
 * Returns what snprintf returns. */
int cured_model_step_view_format_row(char *buf, size_t size, const char *label,
                               const cured_model_step_summary *s);

/* Prints the page's table: the header, then one row per view, labelled by
 * names[i]. Returns 0, or -1 on a write error. */
int cured_model_step_view_print_table(FILE *out, const char *const names[],
                                const cured_model_step_view *const views[], int count);

/* Writes the views as a JSON array, one object per view: its name, the
 * summary's fields and its tree steps. Returns 0, or -1 on a write error. */
int cured_model_step_view_write_json(FILE *out, const char *const names[],
                               const cured_model_step_view *const views[], int count);

/* Prints the view's tree steps as a table, one row per step (block,
 * barrier interval, accesses, adding threads, bank conflict, divergent
 * warps), or a line saying there are none. Returns 0, or -1 on a write
 * error. */
int cured_model_step_view_print_steps(FILE *out, const cured_model_step_view *view);

/* ============================================================== SASS */

/* How the SASS's lines were read. */
typedef enum cured_model_sass_mode {
    CURED_MODEL_SASS_NONE = 0,        /* no usable lines: counts stay PTX-level */
    CURED_MODEL_SASS_BY_PTX_LINE,     /* nvdisasm -gp: exact */
    CURED_MODEL_SASS_BY_SOURCE_LINE   /* nvdisasm -g / -gi */
} cured_model_sass_mode;

/* One thing the matcher could not decide, or decided with a caveat. */
typedef struct cured_model_sass_note {
    int function;
    int pc;                     /* -1 when about the whole function */
    uint32_t ptx_line;          /* 0 when not about one instruction */
    char text[200];
} cured_model_sass_note;

#define CURED_MODEL_SASS_MAX_NOTES 64

/* Which SASS-level counts the matcher could not prove exact (the SASS is
 * not the PTX's shape there: a loop ptxas unrolled, an access it
 * duplicated, a branch it made); those counts follow the PTX. */
#define CURED_MODEL_SASS_INEXACT_MEMORY 1u   /* memory instructions and
                                                their wavefronts, sectors */
#define CURED_MODEL_SASS_INEXACT_BRANCHES 2u /* smsp__sass_branch_targets* */
#define CURED_MODEL_SASS_INEXACT_OPCODES 4u  /* BAR, SHFL, VOTE */

/* What one match of a kernel's SASS with its PTX did (the model's SASS
 * matcher; cured_model_sass_source_apply in cured_model_host.h). */
typedef struct cured_model_sass_summary {
    cured_model_sass_mode mode;
    int functions;              /* PTX functions matched with SASS */
    int memory;                 /* PTX memory instructions given a fact */
    int predicated;             /* of them: predicated in the SASS */
    int reshaped;               /* of them: merged, folded, split, narrowed */
    int removed_branches;       /* PTX branches ptxas removed */
    int skip_lists;             /* of them: with a skip list */
    unsigned inexact;           /* CURED_MODEL_SASS_INEXACT_* bits: the
                                   counts the SASS does not let the model
                                   derive exactly in some function matched
                                   (the notes say where and why) */
    cured_model_sass_note *notes;     /* at most CURED_MODEL_SASS_MAX_NOTES */
    int nnotes;
    int notes_left_out;         /* notes past the cap */
} cured_model_sass_summary;

/* Frees the summary's notes and zeroes it. */
void cured_model_sass_summary_free(cured_model_sass_summary *s);

/* "PTX lines", "source lines", "none". */
const char *cured_model_sass_mode_name(cured_model_sass_mode mode);

/* ========================================================= catalogue */

/* What cured_model_catalogue_entry_name found. */
enum {
    CURED_MODEL_CATALOGUE_OK = 0,
    CURED_MODEL_CATALOGUE_NO_KERNEL = -1,  /* no entry for that kernel name */
    CURED_MODEL_CATALOGUE_NO_DTYPE = -2,   /* the kernel, but not for that dtype */
    CURED_MODEL_CATALOGUE_NO_BLOCK = -3,   /* the kernel and dtype, but no instance
                                        for that compile-time block size */
    CURED_MODEL_CATALOGUE_TOO_LONG = -4    /* the name does not fit in cap */
};

/* Finds the entry of `module` that is catalogue kernel `kernel` ("divergent",
 * "unrolled" ...) for element type `dtype` ("f32", "i32", "u64" ...) and,
 * for kernels with a compile-time block size, `block` (ignored by kernels
 * without one; a kernel with one and block == 0 takes the smallest
 * instance). Writes the entry's (mangled) name into out and returns
 * CURED_MODEL_CATALOGUE_OK, or one of the negative codes above.
 *
 * A kernel's entries are recognised by their demangled form: the function
 * name is the catalogue name, optionally with a `reduce_`/`cured_` prefix or
 * a `_kernel` suffix, in any namespace; the template arguments give the
 * element type and the block size. An extern "C" entry named
 * `<kernel>_<dtype>` or `<kernel>_<dtype>_<block>` matches too. When a
 * kernel has several entries (a grid kernel's passes), the first in the
 * module wins. */
int cured_model_catalogue_entry_name(const cured_model_module *module, const char *kernel,
                               const char *dtype, int block, char *out,
                               size_t cap);


/* ====================================================== tree maths */

/* The maths of a tree over n values (docs/lesson.md, "Why a tree"). */
typedef struct cured_model_tree_formula {
    uint32_t depth;          /* ceil(log2 n): the longest chain of additions */
    uint64_t additions;      /* n - 1 */
    double busy;             /* (1 - 1/n) / log2 n: the average share of n
                                threads adding at one of the depth levels */
} cured_model_tree_formula;

/* The formula's values for n values (n of 0 or 1: all zero). Can't fail. */
cured_model_tree_formula cured_model_tree_formula_of(uint64_t n);

/* The busy share of level k (1-based) of a tree of n values run by
 * `threads` threads: (n / 2^k) / threads, at least one adder (0 for k out
 * of 1 .. depth or threads 0). Can't fail. */
double cured_model_tree_level_busy(uint64_t n, uint32_t k, uint32_t threads);

/* What a step view measured of the same, per block. */
typedef struct cured_model_step_maths {
    uint64_t n;              /* values entering the tree per block: the
                                initial stores over the blocks seen */
    uint32_t threads;        /* threads per block (the caller's) */
    uint32_t depth;          /* tree steps per block */
    uint64_t additions;      /* adding threads over the tree steps, per block */
    double busy;             /* additions / (depth * threads); 0: no steps */
    cured_model_tree_formula formula; /* for n */
} cured_model_step_maths;

/* The measured maths of view v for blocks of `threads` threads. Can't fail. */
cured_model_step_maths cured_model_step_view_maths(const cured_model_step_view *v,
                                                   uint32_t threads);

/* Prints the maths as a table, measured beside the formula (depth,
 * additions, busy share overall and per step), or a line saying there is
 * no tree in shared memory. Returns 0, or -1 on a write error. */
int cured_model_step_view_print_maths(FILE *out, const cured_model_step_view *v,
                                      uint32_t threads);

/* The same as one JSON object (no trailing newline): n, threads, depth,
 * additions, busy, per_step_busy (an array), and formula (depth,
 * additions, busy). Returns 0, or -1 on a write error. */
int cured_model_step_view_write_maths_json(FILE *out, const cured_model_step_view *v,
                                           uint32_t threads);

/* ============================================================= trace */

/* The trace: what one launch did, instruction by instruction, with the
 * values it read and wrote, grouped into the steps a reader sees. It is one
 * more observer (views/trace*.c). It runs a step view inside itself and
 * takes its grouping from it: a block's run is cut at its barrier releases
 * (the step view's intervals), and an interval in which warps shuffle is cut
 * again per shuffle round (round k: every warp's k-th shfl of the interval
 * and what that warp does until its next one; what a warp stores after its
 * last round is a step of its own), or, without shuffles, per counted
 * shared store when a warp makes several in one interval (an unrolled last
 * warp's levels). A step with nothing to show (no memory access, no
 * shuffle) joins the next one. Any kernel the model runs can be
 * traced; the renderers of `cured animate` (src/viz) draw from it alone. */

/* What a trace op is. */
typedef enum cured_model_trace_kind {
    CURED_MODEL_TRACE_OTHER = 0,  /* arithmetic, moves, compares, branches */
    CURED_MODEL_TRACE_LOAD,       /* ld/ldu: one op per state space reached */
    CURED_MODEL_TRACE_STORE,      /* st */
    CURED_MODEL_TRACE_ATOMIC,     /* atom/red: old and new values */
    CURED_MODEL_TRACE_SHUFFLE,    /* shfl.sync: source lanes and values */
    CURED_MODEL_TRACE_BARRIER     /* a block barrier released (after every
                                     warp's bar.sync, which are OTHER ops) */
} cured_model_trace_kind;

/* Where a memory op went. */
typedef enum cured_model_trace_space {
    CURED_MODEL_TRACE_NO_SPACE = 0, /* not memory, or param/const/local */
    CURED_MODEL_TRACE_SHARED,
    CURED_MODEL_TRACE_GLOBAL
} cured_model_trace_space;

/* How to read a value's bits. */
typedef enum cured_model_trace_value {
    CURED_MODEL_TRACE_UNSIGNED = 0, /* u*, b* */
    CURED_MODEL_TRACE_SIGNED,       /* s* */
    CURED_MODEL_TRACE_FLOAT         /* f32, f64 (f16 forms: the raw bits) */
} cured_model_trace_value;

/* Lane flags. */
#define CURED_MODEL_TRACE_IN_RANGE 1u /* shuffle: the source lane was in range */
#define CURED_MODEL_TRACE_HAS_SUM 2u  /* shuffle: `sum` was observed */

/* One lane's part of a memory op or a shuffle. A vector access (.v2, .v4)
 * has one record per element. */
typedef struct cured_model_trace_lane {
    uint8_t lane;
    uint8_t elem;            /* vector element, 0 for scalars */
    uint8_t flags;           /* CURED_MODEL_TRACE_IN_RANGE, _HAS_SUM */
    uint64_t addr;           /* shared: byte offset in the block's window;
                                global: device address; shuffle: the lane it
                                read (its own when out of range) */
    uint64_t before;         /* memory: the element before the op (a load:
                                the value read); shuffle: the value the lane
                                offered */
    uint64_t after;          /* memory: after it (a store: the value
                                written, as memory holds it afterwards);
                                shuffle: the value the lane received */
    uint64_t sum;            /* shuffle: the result of the first
                                instruction of the lane's warp that used the
                                received value (v + received; register
                                moves and selects followed), when HAS_SUM */
} cured_model_trace_lane;

/* One warp instruction, or one state space of a memory instruction, or a
 * barrier release. */
typedef struct cured_model_trace_op {
    uint32_t step;           /* index of its step */
    uint32_t block;          /* linear block index */
    uint32_t warp;           /* warp in the block (barrier: the last to arrive) */
    int32_t function;        /* function index and pc of the instruction */
    int32_t pc;
    uint32_t ptx_line;
    uint16_t file;           /* innermost .loc (0: the PTX has none) */
    uint32_t line;
    uint16_t site_file;      /* the kernel's own line, where the code was */
    uint32_t site_line;      /*   inlined from elsewhere (else = file, line) */
    uint8_t kind;            /* cured_model_trace_kind */
    uint8_t space;           /* cured_model_trace_space */
    uint8_t value;           /* cured_model_trace_value of the values */
    uint8_t elem_size;       /* bytes of one value (memory: one element) */
    uint16_t opcode;         /* the PTX opcode (cured_model_trace_opcode_name) */
    uint32_t live;           /* lanes of the warp that exist and have not exited */
    uint32_t active;         /* lanes that issued it (the rest of `live` are
                                masked off by divergence or wait elsewhere) */
    uint32_t lanes;          /* lanes it took effect for: guard true; memory:
                                the lanes that reached this space; shuffle:
                                the lanes that exchanged */
    uint32_t counted;        /* shared accesses (lanes) the lesson's rules
                                count at this op (the step view) */
    uint32_t initial;        /* lanes of initial stores (not counted) */
    uint32_t final_reads;    /* final reads the step view took back here (a
                                global store of a value read from shared) */
    uint32_t first_lane;     /* its lane records: lanes[first_lane ..
                                first_lane + nlane) of cured_model_trace_lanes */
    uint32_t nlane;
} cured_model_trace_op;

/* How a step ended. */
typedef enum cured_model_trace_end {
    CURED_MODEL_TRACE_END_NONE = 0,     /* a shuffle round, or the block's end */
    CURED_MODEL_TRACE_END_BARRIER,      /* a __syncthreads() the lesson counts */
    CURED_MODEL_TRACE_END_INITIAL       /* the barrier after the initial stores
                                           (not counted) */
} cured_model_trace_end;

/* One step a reader sees. */
typedef struct cured_model_trace_step {
    uint32_t block;
    uint32_t interval;       /* the block's barrier interval (step view) */
    int32_t tree_step;       /* its index in cured_model_step_view_steps of
                                the trace's step view, -1: not a tree step
                                (an interval cut in rounds gives it to its
                                sub-step with the most counted accesses) */
    uint32_t round;          /* 0: before the interval's first shuffle; k:
                                round k; rounds + 1: after the last (cut by
                                stores: k counted stores came before it) */
    uint32_t first_op;       /* ops[first_op .. first_op + nops), in
                                execution order */
    uint32_t nops;
    uint64_t accesses;       /* shared accesses the lesson's rules count in
                                it (final reads taken back) */
    uint8_t end;             /* cured_model_trace_end */
} cured_model_trace_step;

typedef struct cured_model_trace cured_model_trace;

/* A new, empty trace for launches of entry `function` of `module` (which
 * must outlive it). Returns NULL when out of host memory or for a function
 * index out of range. */
cured_model_trace *cured_model_trace_new(const cured_model_module *module, int function);

/* Frees the trace. NULL is fine. */
void cured_model_trace_free(cured_model_trace *t);

/* The observer to put in cured_model_launch.observers (its ctx is t). It
 * wants instr_done and shuffle, so a launch with it runs the interpreter's
 * post-instruction calls. One trace records one launch: a second launch
 * adds its blocks after the first's. Can't fail. */
cured_model_observer cured_model_trace_observer(cured_model_trace *t);

/* Caps the ops and lane records kept (defaults: 2^20 ops, 2^21 lanes);
 * past either, recording stops and cured_model_trace_complete says so.
 * Can't fail. */
void cured_model_trace_set_limits(cured_model_trace *t, uint32_t max_ops,
                                  uint32_t max_lanes);

/* The steps, ops and lane records (owned by the trace; valid until the
 * next event or free): each stores a pointer in *out and returns how many. */
uint32_t cured_model_trace_steps(const cured_model_trace *t,
                                 const cured_model_trace_step **out);
uint32_t cured_model_trace_ops(const cured_model_trace *t,
                               const cured_model_trace_op **out);
uint32_t cured_model_trace_lanes(const cured_model_trace *t,
                                 const cured_model_trace_lane **out);

/* The step view the trace ran inside itself (its counts are the lesson's
 * for the same launch). */
const cured_model_step_view *cured_model_trace_step_view(const cured_model_trace *t);

/* The launch's shape (zero before a launch began). */
cured_model_dim3 cured_model_trace_grid(const cured_model_trace *t);
cured_model_dim3 cured_model_trace_block(const cured_model_trace *t);

/* The path of .file `file` of the module (as the PTX names it), or NULL. */
const char *cured_model_trace_file(const cured_model_trace *t, unsigned file);

/* "ld", "st", "shfl.sync" ... for an op's opcode; "?" when out of range. */
const char *cured_model_trace_opcode_name(unsigned opcode);

/* 1 when everything was recorded; 0 when host memory or the limits ran
 * out (the trace then stops where it did). */
int cured_model_trace_complete(const cured_model_trace *t);

#ifdef __cplusplus
}
#endif

#endif /* CURED_MODEL_H */
