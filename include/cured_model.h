/* model.h - the model: runs a PTX kernel on the CPU, warp by warp.
 *
 * defines: cured_model_memory (global memory as caller-provided buffers),
 *          cured_model_launch, cured_model_event, cured_model_access, cured_model_observer,
 *          cured_model_finding, cured_model_findings, cured_model_run and their helpers
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
 * Never crashes on malformed input; an instruction or directive it does
 * not know is an error naming it and its line, never a silent skip. */
cured_model_module *cured_model_parse(const char *text, size_t len,
                                      cured_model_parse_error *err);

/* Frees a module from cured_model_parse. NULL is fine. */
void cured_model_module_free(cured_model_module *module);

/* Index of the function named `name` (exactly), or -1. */
int cured_model_find_function(const cured_model_module *module, const char *name);

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
    uint16_t src_file;       /* .loc file/line (0 when the PTX has none) */
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
} cured_model_event;

typedef enum cured_model_access_kind {
    CURED_MODEL_LOAD = 0,
    CURED_MODEL_STORE,
    CURED_MODEL_ATOMIC             /* read-modify-write: atom and red */
} cured_model_access_kind;

/* One warp-level memory access, after generic addresses were resolved.
 * A generic instruction whose lanes fall in several spaces is reported as
 * one access per space. */
typedef struct cured_model_access {
    const cured_model_event *event;
    uint8_t space;           /* ptx_space: GLOBAL, SHARED, LOCAL, CONST, PARAM */
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
     * event of the last warp to arrive; `id` is the barrier number. */
    void (*barrier)(void *ctx, const cured_model_event *e, uint32_t id);
    /* bar.warp.sync (and the implied warp sync of the *.sync warp
     * operations: shfl/vote/match/redux), over `mask` lanes. */
    void (*warp_sync)(void *ctx, const cured_model_event *e, uint32_t mask);
    /* Lanes exited (ret from the entry, or exit). */
    void (*lanes_exit)(void *ctx, const cured_model_event *e, uint32_t lanes);
} cured_model_observer;

/* ------------------------------------------------------------- launch */

typedef struct cured_model_dim3 {
    uint32_t x, y, z;
} cured_model_dim3;

#define CURED_MODEL_DEFAULT_STEP_LIMIT ((uint64_t)1 << 32)

typedef struct cured_model_launch {
    const cured_model_module *module;
    int function;                  /* an .entry's index */
    cured_model_dim3 grid;
    cured_model_dim3 block;
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
 * then a CURED_MODEL_FIND_BAD_LAUNCH finding. */
int cured_model_run(const cured_model_launch *launch, cured_model_result *result);

#ifdef __cplusplus
}
#endif

#endif /* CURED_MODEL_H */
