/* cured_model_host.h - the model's runtime API: what a program needs to run
 * kernels in the model as a CUDA program runs them on a GPU.
 *
 * defines: cured_model_source (the PTX: embedded catalogue, .ptx, .cu),
 *          cured_model_default_arch (the architecture a .cu is built for),
 *          cured_model_cu_options (how --cu runs the toolkit),
 *          cured_model_sass_source (the SASS the counters follow),
 *          cured_model_find_entry (a kernel by its CUDA or mangled name),
 *          cured_model_entry_count, cured_model_entry_name,
 *          cured_model_entry_block,
 *          cured_model_arg (kernel arguments from specs) and its functions,
 *          cured_model_args_bind, cured_model_buffer_print/_write_json,
 *          cured_model_step_budget (a launch's default step limit),
 *          cured_model_launch_bytes/_plan_bytes/_host_memory_free/
 *          _memory_fits (whether a run fits in host memory),
 *          cured_model_catalogue_launch (a catalogue kernel's first launch),
 *          cured_model_plan_* (a catalogue kernel's whole launch plan),
 *          cured_model_ncu_report (Nsight Compute's CSV, read) and
 *          cured_model_ncu_compare (the model's counts beside it)
 *
 * Built on include/cured_model.h (modules, memory, launches, observers)
 * and include/cured.h (the catalogue, its plans, device presets). Every
 * function reports failure as a return value with one line of text in the
 * caller's `err` buffer; none prints except the *_print/_write_json
 * reports and the toolkit's log (cured_model_cu_options.log), which write
 * to the FILE the caller gives.
 */
#ifndef CURED_MODEL_HOST_H
#define CURED_MODEL_HOST_H

#include "cured.h"
#include "cured_model.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ sources */

struct sass_module;
struct cured_model_sass_facts;

/* The SASS a kernel runs, as a disassembler printed it, when there is one:
 * the counters follow it (cured_model_sass_source_apply). */
typedef struct cured_model_sass_source {
    const char *text;           /* the disassembler's text, NULL when none */
    size_t len;
    char *owned;                /* text's storage when malloc'd */
    char label[1100];           /* where it came from, for the reports */
    char missing[400];          /* why there is none ("" when there is) */
    struct sass_module *module; /* after cured_model_sass_source_apply */
    struct cured_model_sass_facts *facts; /* what the matches found, for one
                                             PTX module; the counters read it */
    cured_model_sass_summary summary;
    int applied;                /* the counters follow it */
} cured_model_sass_source;

/* The embedded catalogue SASS, or a missing reason when this build has
 * none. Can't fail. */
void cured_model_sass_source_catalogue(cured_model_sass_source *s);

/* Reads a SASS file (`nvdisasm -gp -c` of a cubin that
 * `ptxas -arch=sm_XX -lineinfo` made from the same PTX; -g also works).
 * Returns 0, or -1 with one line in err. */
int cured_model_sass_source_file(cured_model_sass_source *s, const char *path,
                                 char *err, size_t cap);

/* Compiles the PTX file at ptx_path (NAME.ptx) with `ptxas -arch=ARCH
 * -lineinfo` (arch "sm_90" ..., NULL: cured_model_default_arch()) into
 * NAME.cubin beside it and prints that with nvdisasm -gp into NAME.sass,
 * then reads it; `label` names it in reports. Both files are removed
 * afterwards unless `keep`. With `log`, each tool's command line and what
 * it printed go there (cured_model_cu_options.log); otherwise the tools
 * are quiet. When a tool is missing or fails, s says so in missing, with
 * the first line of the failing tool's messages (the run goes on with
 * PTX-level counts). Can't fail. */
void cured_model_sass_source_compile(cured_model_sass_source *s,
                                     const char *ptx_path, const char *arch,
                                     const char *label, int keep, FILE *log);

/* No SASS, for `reason` (copied). Can't fail. */
void cured_model_sass_source_none(cured_model_sass_source *s, const char *reason);

/* Parses the text (the first time), matches it with `entry` of module
 * into s's facts (the summary is of the last call) and, when that matched
 * something, makes the counters follow the facts (they must not outlive
 * s). Every call must name the same module. Returns 0 (also when there is
 * no text: nothing to do), or -1 with one line in err: malformed SASS
 * ("LABEL:LINE: message"), another module than before, or out of memory. */
int cured_model_sass_source_apply(cured_model_sass_source *s,
                                  const cured_model_module *module, int entry,
                                  cured_model_counters *c, char *err, size_t cap);

/* Prints "sass: ..." lines: where the SASS came from and what the matcher
 * did, its notes; or why the counts are PTX-level. */
void cured_model_sass_source_print(FILE *out, const cured_model_sass_source *s,
                                   const cured_model_module *module);

/* Writes the same as one JSON object (without a trailing newline). */
void cured_model_sass_source_json(FILE *out, const cured_model_sass_source *s,
                                  const cured_model_module *module);

/* Frees what s owns and zeroes it. */
void cured_model_sass_source_free(cured_model_sass_source *s);

/* The PTX a run executes. */
typedef struct cured_model_source {
    const char *text;     /* the PTX text (NUL-terminated) */
    size_t len;
    char *owned;          /* text's storage when malloc'd, else NULL */
    char label[1024];     /* what to call it in messages: a path or
                             "catalogue.ptx" */
    cured_model_module *module;   /* after cured_model_source_parse */
    char *tool_messages;  /* --cu: what the toolkit program that failed
                             printed (nvcc's errors), malloc'd; NULL when
                             none failed or it printed nothing */
    char kept[3400];      /* --cu with keep_dir: the files kept, comma
                             separated ("DIR/k.ptx, DIR/k.cubin, DIR/k.sass");
                             "" when none */
} cured_model_source;

/* How cured_model_source_cu_file runs the toolkit. */
typedef struct cured_model_cu_options {
    const char *keep_dir; /* NULL: work in a temporary directory, removed
                             afterwards; else the directory (made when it
                             does not exist) where the PTX nvcc makes, and
                             the cubin and SASS made from it, stay: for
                             k.cu, k.ptx, k.cubin and k.sass */
    FILE *log;            /* NULL: the tools run quietly (a failing tool's
                             messages come back in tool_messages); else
                             each tool's command line, then what it
                             printed, go there */
    const char *arch;     /* "sm_90" ...: nvcc's and ptxas's -arch; NULL:
                             cured_model_default_arch() */
} cured_model_cu_options;

/* Points src at the embedded catalogue PTX. Returns 0, or -1 with one line
 * in err when this build has none (built without CUDA). */
int cured_model_source_catalogue(cured_model_source *src, char *err, size_t cap);

/* Reads a .ptx file into src. Returns 0, or -1 with one line in err. */
int cured_model_source_ptx_file(cured_model_source *src, const char *path,
                                char *err, size_t cap);

/* The architecture the model builds a .cu for when the caller names none,
 * "sm_90" by default: the build's CURED_MODEL_ARCH, the one its embedded
 * catalogue PTX and SASS were made for (the lowest real architecture of
 * CMAKE_CUDA_ARCHITECTURES; cmake/arch.cmake has the rule). Can't fail. */
const char *cured_model_default_arch(void);

/* Compiles a .cu file with `nvcc -arch=ARCH -ptx -lineinfo` (opts->arch,
 * or cured_model_default_arch() when opts or opts->arch is NULL; into a
 * temporary directory, or opts->keep_dir) and reads the PTX into src;
 * with sass (may be NULL), also its SASS from that PTX for the same arch
 * (cured_model_sass_source_compile: a missing tool is not an error). opts
 * may be NULL (quiet, nothing kept). With keep_dir, src->label is the kept
 * PTX's path and src->kept lists the files kept. Returns 0, or -1 with one
 * line in err: no nvcc, a path that is not a readable file, nvcc failed
 * (its messages in src->tool_messages; an architecture it does not know,
 * too), a directory that cannot be made. */
int cured_model_source_cu_file(cured_model_source *src, const char *path,
                               cured_model_sass_source *sass,
                               const cured_model_cu_options *opts, char *err,
                               size_t cap);

/* Parses src's text into src->module. Returns 0, or -1 with the parser's
 * message in err as "LABEL:LINE:COLUMN: message" (one line). */
int cured_model_source_parse(cured_model_source *src, char *err, size_t cap);

/* Frees what src owns (text, module, tool messages) and zeroes it. */
void cured_model_source_free(cured_model_source *src);

/* ------------------------------------------------------------ entries */

/* The kernel entry of module to run: the one named `name` (its mangled
 * name as in the PTX, or the name it has in the CUDA source: `k` finds
 * `_Z1kPfj`, and an extern "C" kernel's name is both), or, with name
 * NULL, the module's only entry. Returns its function index, or -1 with
 * one line in err that lists the module's entries (`label` names the
 * module there): no such entry, a name that fits several (overloads or
 * template instances: name one by its mangled name), no entry at all,
 * several entries and no name, or an entry the model cannot run
 * ("FILE:LINE: kernel 'k' cannot run in the model: unknown instruction
 * ..."; FILE:LINE the user's source line of that instruction when the PTX
 * has one, else label and the PTX line). */
int cured_model_find_entry(const cured_model_module *module, const char *name,
                           const char *label, char *err, size_t cap);

/* How many kernel entries (.entry) module has, 0 for NULL. Can't fail. */
int cured_model_entry_count(const cured_model_module *module);

/* The entry's name (mangled, as in the PTX), or NULL for a bad index. */
const char *cured_model_entry_name(const cured_model_module *module, int entry);

/* The block shape the entry asks for with .reqntid, else (32, 1, 1).
 * Can't fail (a bad index gives (32, 1, 1)). */
cured_model_dim3 cured_model_entry_block(const cured_model_module *module,
                                         int entry);

/* Where one kernel parameter lies in the entry's parameter block. */
typedef struct cured_model_param {
    size_t offset;
    size_t size;
} cured_model_param;

/* The entry's parameters in order: fills out[0 .. min(count, cap)) and
 * *bytes (the block's size; bytes may be NULL). Returns their count, or -1
 * for a bad module or entry. */
int cured_model_entry_params(const cured_model_module *module, int entry,
                             cured_model_param *out, int cap, size_t *bytes);

/* ---------------------------------------------------------- arguments */

/* How a buffer argument starts. */
typedef enum cured_model_arg_init {
    CURED_MODEL_ARG_RANDOM = 1, /* floats uniform in [-0.5, 0.5), signed ints
                                   in [-8, 8), unsigned in [0, 16) */
    CURED_MODEL_ARG_ONES,
    CURED_MODEL_ARG_IOTA,       /* 0, 1, 2, ... */
    CURED_MODEL_ARG_ZEROS,
    CURED_MODEL_ARG_UNINIT,     /* unwritten (for the initcheck) */
    CURED_MODEL_ARG_FILE        /* a file's raw bytes */
} cured_model_arg_init;

#define CURED_MODEL_ARG_NAME_MAX 48
#define CURED_MODEL_ARG_PATH_MAX 1024
#define CURED_MODEL_ARG_DEFAULT_SEED 1u

/* One kernel parameter's argument, from a spec (one --arg of `cured model`):
 *
 *   NAME=TYPE[COUNT]:INIT   a buffer in global memory, INIT one of
 *                           random[@SEED] | ones | iota | zeros | uninit |
 *                           file:PATH (COUNT may then be omitted:
 *                           NAME=TYPE[]:file:PATH)
 *   [NAME=]TYPE:VALUE       a scalar: u32:5, s32:-1, u64:0x10, f32:1.5 ...
 *
 * TYPE is f32 f64 s8 s16 s32 s64 u8 u16 u32 u64 (i8..i64 are aliases of
 * the signed ones). COUNT, SEED and integer VALUEs are decimal or hex after
 * 0x, never octal (010 is ten); COUNT * the element size is at most
 * CURED_MODEL_MAX_BUFFER_BYTES. */
typedef struct cured_model_arg {
    int is_buffer;              /* 1: a buffer, 0: a scalar */
    char name[CURED_MODEL_ARG_NAME_MAX]; /* "" for an unnamed scalar */
    int type;                   /* element or scalar type: a code
                                   cured_model_arg_type_name names */
    uint64_t count;             /* buffer elements; 0 with a file and no COUNT */
    cured_model_arg_init init;  /* buffers only */
    uint64_t seed;              /* random@SEED */
    char path[CURED_MODEL_ARG_PATH_MAX]; /* file:PATH */
    uint64_t bits;              /* scalar: the value's bits, little-endian,
                                   in the low cured_model_arg_elem_size bytes */
} cured_model_arg;

/* Parses one spec (text) into *arg. Returns 0, or -1 with one line in err
 * ("unknown type 'f33' in 'x=f33[4]:ones'") saying what is wrong. */
int cured_model_arg_parse(const char *text, cured_model_arg *arg, char *err,
                          size_t cap);

/* Bytes of one element of a spec type (1, 2, 4 or 8); 0 for a code the
 * specs do not use. Can't fail. */
unsigned cured_model_arg_elem_size(int type);

/* The most bytes one buffer may hold: the model keeps every buffer in host
 * memory, with a shadow byte per byte while any of it is unwritten. */
#define CURED_MODEL_MAX_BUFFER_BYTES ((uint64_t)1 << 32)

/* The one rule for a buffer's size, whoever makes the buffer (an --arg
 * spec, the arguments `--n` builds, a whole plan's input): *bytes =
 * count * elem_size. Returns 0, or -1 with one line in err when that is
 * over CURED_MODEL_MAX_BUFFER_BYTES, a product too large for 64 bits
 * included, or elem_size is 0: "NAME=TYPE[COUNT] is 16 GiB, over the
 * model's 4 GiB per buffer" (name and type only name it there). */
int cured_model_buffer_bytes(const char *name, const char *type, uint64_t count,
                             unsigned elem_size, uint64_t *bytes, char *err,
                             size_t cap);

/* Parses a spec type name ("f32", "i32", "u8" ...) into *type. Returns 0,
 * or -1 for a name the specs do not know. */
int cured_model_arg_type_parse(const char *name, int *type);

/* The spec name of a type code ("f32", "s32" ...), "?" for others. */
const char *cured_model_arg_type_name(int type);

/* Fills data[0 .. count * elem_size) as the spec's INIT says (random,
 * ones, iota, zeros; uninit and file leave data untouched). Deterministic:
 * the same seed gives the same values on every machine. Can't fail. */
void cured_model_arg_fill(const cured_model_arg *arg, void *data);

/* Reads arg->path's bytes into a new malloc'd buffer, *bytes its length.
 * The file must hold a whole number of elements, exactly count of them when
 * the spec gave a COUNT. Returns the buffer (free() it), or NULL with one
 * line in err. A zero-length file is an error (nothing to point at). */
void *cured_model_arg_read_file(const cured_model_arg *arg, uint64_t *bytes,
                                char *err, size_t cap);

/* Parses "X", "X,Y" or "X,Y,Z" (each >= 1, missing ones are 1) into *d.
 * Returns 0, or -1 with one line in err; `what` names the option
 * ("--grid") in that line. */
int cured_model_dim3_parse(const char *text, const char *what,
                           cured_model_dim3 *d, char *err, size_t cap);

/* Allocates and fills one buffer in `memory` per buffer argument (args[i]
 * with a file and no COUNT gets its count from the file), and lays the
 * kernel's parameter block out in a new malloc'd block (*params,
 * *params_size = the function's parameter bytes). The arguments are
 * matched to the entry's parameters in order: a buffer goes to a 64-bit
 * integer or untyped parameter (its device address), a scalar to a
 * parameter of its own size and kind: a float (f32, f64) to a float
 * parameter, an integer to an integer one (f32:1000 is not the bits of
 * 1000.0f for a .u32: write u32:0x447a0000 for those), where signedness
 * differs only a value both types hold (s32:5 for a .u32 is 5; s32:-1 is
 * refused, u32:4294967295 meant); an untyped .bN parameter takes any
 * scalar of its size. Returns 0, or -1 with one line in err naming the
 * parameter and both types (the block is then not allocated; buffers
 * already made stay in memory): a missing or extra argument, a buffer for a
 * parameter that is not 8 bytes or is a float, a scalar whose size or kind
 * is not its parameter's, two buffers with one name, a buffer over
 * cured_model_buffer_bytes's limit, a file that cannot be read, out of
 * memory. */
int cured_model_args_bind(const cured_model_module *module, int function,
                          cured_model_arg *args, int nargs,
                          cured_model_memory *memory, uint8_t **params,
                          size_t *params_size, char *err, size_t cap);

/* The elements of every buffer among args (their counts summed; a file
 * buffer counts once bound). Can't fail. */
uint64_t cured_model_args_elements(const cured_model_arg *args, int nargs);

/* The buffer argument named `name` among args, or NULL. */
const cured_model_arg *cured_model_arg_find(const cured_model_arg *args,
                                            int nargs, const char *name);

/* Prints buffer b (of argument arg) as "NAME (TYPE[COUNT]): v0 v1 ...":
 * the first and last values, or every value with `all`. */
void cured_model_buffer_print(FILE *out, const cured_model_arg *arg,
                              const cured_model_buffer *b, int all);

/* Writes the same as one JSON object (without a trailing newline). */
void cured_model_buffer_write_json(FILE *out, const cured_model_arg *arg,
                                   const cured_model_buffer *b, int all);

/* ---------------------------------------------------------- step limit */

/* The default step limit a host gives a launch (cured_model_launch.
 * step_limit), scaled to its size: CURED_MODEL_STEP_BUDGET_PER_UNIT warp
 * instructions per warp launched and per 32 elements of its buffers, and
 * at least CURED_MODEL_STEP_BUDGET_FLOOR. Every catalogue kernel needs a
 * small fraction of it at any n, and an endless loop in a small launch
 * stops within seconds. `elements` is what its buffers hold
 * (cured_model_args_elements). Saturates instead of wrapping; can't fail. */
#define CURED_MODEL_STEP_BUDGET_PER_UNIT 1024
#define CURED_MODEL_STEP_BUDGET_FLOOR ((uint64_t)1 << 24)
uint64_t cured_model_step_budget(cured_model_dim3 grid, cured_model_dim3 block,
                                 uint64_t elements);

/* ------------------------------------------------------- host memory */

/* The host memory (bytes, roughly: an upper bound of the small parts) a
 * launch of `function` of module takes in the model with these arguments
 * (bound or not: a file buffer without a COUNT is sized from its file):
 * every buffer, again for a file's bytes (read, then copied in) and for an
 * unwritten buffer's shadow (a byte per byte), the module's .global data,
 * and the state of the blocks that run together (one, or a thread-block
 * cluster's: `cluster`, all 0 for the kernel's own or none): registers and
 * local memory per thread, shared memory and the checks' state of it.
 * Saturates; can't fail. */
uint64_t cured_model_launch_bytes(const cured_model_module *module, int function,
                                  const cured_model_arg *args, int nargs,
                                  cured_model_dim3 block, cured_model_dim3 cluster,
                                  uint32_t dynamic_shared);

/* The same for a whole plan of catalogue kernel `kernel` over n values of
 * dtype with blocks of `block` (cured_model_plan_run_catalogue): the
 * input, *out, the scratch and their shadows, the largest block's state
 * (module: the catalogue PTX). The caller's own copy of the input is not
 * counted. Saturates; can't fail. */
uint64_t cured_model_plan_bytes(const cured_model_module *module, int kernel,
                                cured_dtype dtype, uint64_t n, int block);

/* The host memory this process can still use, into *bytes: the least of
 * the system's available memory (/proc/meminfo MemAvailable, else
 * sysconf(_SC_AVPHYS_PAGES)), a cgroup's limit less its usage, and the
 * room under this process's address-space limit (ulimit -v). Returns 0,
 * or -1 when none of them can be read. */
int cured_model_host_memory_free(uint64_t *bytes);

/* Returns 0 when a run that needs `need` bytes fits in `available`, else
 * -1 with one line in err: "this run needs about 17.2 GiB of host memory
 * (...) and 12.3 GiB is free". */
int cured_model_memory_fits(uint64_t need, uint64_t available, char *err, size_t cap);

/* ---------------------------------------------------- catalogue kernels */

/* The standard launch of one catalogue kernel: the first launch of its
 * plan, with its arguments. */
typedef struct cured_model_catalogue_launch {
    cured_model_dim3 grid;
    cured_model_dim3 block;
    uint32_t dynamic_shared;     /* bytes */
    cured_model_arg args[5];     /* in, out, n [, partials, counter] */
    int nargs;
} cured_model_catalogue_launch;

/* Plans catalogue kernel `kernel` (its index) for n values of `dtype` with
 * blocks of `block` threads (a power of two in [32, 1024]) on a device of
 * shape *device, inputs random@seed: the launch shape of the dispatch's
 * first launch (cured_catalogue_plan_on), the input buffer "in", the
 * output "out" (one value per block, or one for atomic and single_pass,
 * zeroed where the kernel adds into it), n as the kernel's u32 or u64, and
 * single_pass's "partials" and zeroed "counter". Returns 0, or -1 with one
 * line in err (n of 0 or over the kernel's max_n, a bad block size, a
 * buffer over cured_model_buffer_bytes's limit). */
int cured_model_catalogue_launch_make(int kernel, cured_dtype dtype, uint64_t n,
                                      int block, uint64_t seed,
                                      const cured_device_shape *device,
                                      cured_model_catalogue_launch *launch,
                                      char *err, size_t cap);

/* One launch of a whole plan, as it ran. */
typedef struct cured_model_plan_launch {
    int function;                /* the entry run: an index into the module */
    int completed;               /* ran to its end with no error finding */
    uint64_t warp_instructions;
    uint64_t thread_instructions;
    cured_model_findings findings; /* this launch's: interpreter and checks */
} cured_model_plan_launch;

/* What one run of a whole plan did. */
typedef struct cured_model_plan_result {
    cured_plan plan;             /* the dispatch's plan that was run */
    int launches_run;            /* launches that ran to their end */
    int launches_started;        /* launch[0 .. launches_started) are filled */
    cured_model_plan_launch launch[CURED_MAX_LAUNCHES];
    int completed;               /* 1: every launch of the plan completed */
    uint8_t value[8];            /* *out after the run (element-size bytes) */
    int wrote_past_out;          /* 1: the element after *out lost its poison */
    int state_dirty;             /* 1: the scratch's state area (the first
                                    CURED_TEMP_STATE_BYTES) is not zero after */
    uint64_t thread_instructions; /* over every launch */
    cured_model_findings findings; /* every launch's together */
    char error[256];             /* why the plan could not run (return -1) */
} cured_model_plan_result;

/* What a caller adds to every launch of a plan (cured_model_plan_run_watched). */
typedef struct cured_model_plan_watch {
    const cured_model_observer *observers; /* run beside the checks */
    int nobservers;
    uint64_t step_limit;         /* per launch; 0: each launch's
                                    cured_model_step_budget */
    /* Called before launch k runs `function` (an index into the module):
     * where a caller prepares per-entry state (the SASS facts of the
     * counters). Returns 0, or -1 with one line in err to stop the run
     * (it then returns -1 with that line). May be NULL. */
    int (*before_launch)(void *ctx, int k, int function, char *err, size_t cap);
    void *ctx;
} cured_model_plan_watch;

/* Runs catalogue kernel `kernel` over the n elements of dtype at `in` (host
 * memory) with blocks of `block` threads: the whole plan libcured makes on
 * a device of shape *device (cured_catalogue_plan_on), launch after launch
 * with the buffers and parameters libcured passes (docs/kernels.md), in
 * the model, from the catalogue module m (the embedded PTX, parsed). Every
 * launch runs with the checks attached, and the step limit
 * cured_model_step_budget gives its size; *out and the scratch's partial
 * sums start poisoned and unwritten, so a read of a value no launch wrote
 * is a finding. Fills *r (cured_model_plan_result_clear frees it).
 * Returns 0 when the plan ran: then r->completed says whether every launch
 * finished (a launch with an error finding stops the plan, as a fault
 * stops a stream) and r->value holds *out. Returns -1 with r->error when it
 * could not: an argument the dispatch rejects, an input over
 * cured_model_buffer_bytes's limit, no entry in m for a launch's kernel,
 * dtype and block, a launch the model refuses, out of host memory. */
int cured_model_plan_run_catalogue(const cured_model_module *m, int kernel,
                                   cured_dtype dtype, const void *in, uint64_t n,
                                   int block, const cured_device_shape *device,
                                   cured_model_plan_result *r);

/* The same with the input in_offset bytes past a 256-byte aligned address,
 * as a caller's d_in + 1 would be (in_offset a multiple of the element
 * size: an unaligned element is a misaligned-access finding). */
int cured_model_plan_run_catalogue_at(const cured_model_module *m, int kernel,
                                      cured_dtype dtype, const void *in,
                                      uint64_t n, size_t in_offset, int block,
                                      const cured_device_shape *device,
                                      cured_model_plan_result *r);

/* The same with the caller's observers, step limit and before_launch hook
 * (watch may be NULL: none). */
int cured_model_plan_run_watched(const cured_model_module *m, int kernel,
                                 cured_dtype dtype, const void *in, uint64_t n,
                                 size_t in_offset, int block,
                                 const cured_device_shape *device,
                                 const cured_model_plan_watch *watch,
                                 cured_model_plan_result *r);

/* Frees r's findings (the run's and each launch's). Can't fail. */
void cured_model_plan_result_clear(cured_model_plan_result *r);

/* ------------------------------------------------- Nsight Compute's CSV */

/* One metric value Nsight Compute reported. A metric may appear more than
 * once for one kernel: several runs of one launch (each value counts). */
typedef struct cured_model_ncu_value {
    char metric[128];            /* "smsp__inst_executed_op_shared_ld.sum";
                                    an instance of an opcode-instanced metric
                                    is "NAME [OPCODE]" */
    double value;                /* in the metric's base unit */
} cured_model_ncu_value;

/* One profiled kernel launch of the CSV. */
typedef struct cured_model_ncu_kernel {
    char id[24];                 /* ncu's ID column */
    char name[512];              /* its Kernel Name column */
    cured_model_dim3 grid, block; /* Grid Size, Block Size; 0 when absent */
    cured_model_ncu_value *values;
    int nvalues;
} cured_model_ncu_kernel;

typedef struct cured_model_ncu_report {
    cured_model_ncu_kernel *kernels;
    int nkernels;
} cured_model_ncu_report;

/* Reads the CSV `ncu --csv` prints (text[0..len)): the raw page
 * (`--page raw`: a header of metric names, a row of units, one row per
 * kernel) or the details page (the default: one row per metric, with
 * "Metric Name", "Metric Unit" and "Metric Value" columns). Lines that are
 * not CSV rows (ncu's ==PROF== log) are skipped; numbers may carry
 * thousands separators ("3,072"); a value in a scaled unit (Kinst, M...)
 * is scaled back; an opcode-instanced value ("BAR: 8; SHFL: 40", as
 * --print-metric-instances details prints them) becomes one value per
 * opcode. Fills *r (cured_model_ncu_report_free frees it). Returns 0, or
 * -1 with one line in err ("line 3: unterminated quote", "no kernel rows:
 * not the CSV of ncu --csv") for text that is not such a CSV. */
int cured_model_ncu_report_parse(const char *text, size_t len, cured_model_ncu_report *r,
                                 char *err, size_t cap);

/* Frees the report's kernels and values and empties it. Can't fail. */
void cured_model_ncu_report_free(cured_model_ncu_report *r);

/* The values of `metric` for kernel k: their count, and their least and
 * greatest in *lo and *hi (untouched when there is none). */
int cured_model_ncu_values(const cured_model_ncu_kernel *k, const char *metric, double *lo,
                           double *hi);

/* The first kernel of r that is entry `entry` (its mangled name, or the
 * base name in a demangled Kernel Name) launched with grid and block (a
 * kernel without shape columns matches any), or -1. *named, when not
 * NULL, gets the number of kernels with the name whatever their shape. */
int cured_model_ncu_find(const cured_model_ncu_report *r, const char *entry,
                         cured_model_dim3 grid, cured_model_dim3 block, int *named);

/* What the comparison of one metric found. */
typedef enum cured_model_ncu_verdict {
    CURED_MODEL_NCU_EQUAL = 0,   /* ncu's value (every run's) is the model's */
    CURED_MODEL_NCU_KNOWN,       /* they differ for a reason the model knows
                                    (`reason`) */
    CURED_MODEL_NCU_DIFFERENT,   /* they differ and the model knows no reason */
    CURED_MODEL_NCU_NOT_MEASURED,/* the CSV has no value of the metric */
    CURED_MODEL_NCU_OWN          /* a count of the model's own (PTX), shown
                                    beside ncu's nearest metric, not compared */
} cured_model_ncu_verdict;

/* One row of the comparison. */
typedef struct cured_model_ncu_row {
    cured_model_counter counter;
    const char *metric;          /* the model's name for it */
    const char *ncu_metric;      /* the metric looked up in the CSV */
    uint64_t model;
    int model_counted;           /* 0: the model cannot count it here (a
                                    SASS-only count without SASS) */
    int ncu_runs;                /* values the CSV has for it (0: none) */
    double ncu_lo, ncu_hi;       /* their range */
    cured_model_ncu_verdict verdict;
    char reason[240];            /* for KNOWN and OWN: why */
} cured_model_ncu_row;

/* Compares counters c (one launch; `blocks` its grid's blocks) with kernel
 * k of an ncu report: one row per counter, in cured_model_counter order,
 * into rows[0 .. CURED_MODEL_CTR_COUNT). `inexact` holds the
 * CURED_MODEL_SASS_INEXACT_* bits of the SASS match (0 when the counters
 * follow no SASS). A difference is KNOWN when: the counters follow no SASS
 * (a count the SASS would change), the match marked the metric's class
 * inexact, ncu's own runs differ and the model is within their range, or
 * ncu's extra shared wavefronts are exactly its bank conflicts where the
 * model counts none in a grid of several blocks (arbitration among warps
 * in flight, docs/model.md "What stays unmatched"). Returns the number of
 * rows. Can't fail. */
int cured_model_ncu_compare(const cured_model_counters *c, unsigned inexact, uint64_t blocks,
                            const cured_model_ncu_kernel *k, cured_model_ncu_row *rows);

/* The metric an ncu CSV holds for counter id: its own Nsight Compute name,
 * or for a count of the model's own the ncu metric nearest to it
 * (smsp__inst_executed.sum beside model__ptx_inst_executed), NULL when
 * there is none. What `cured model --ncu-metrics` lists for --metrics. */
const char *cured_model_ncu_metric_of(cured_model_counter id);

/* "equal", "known", "DIFFERENT", "not measured", "model's own". */
const char *cured_model_ncu_verdict_name(cured_model_ncu_verdict v);

/* Prints the rows as a table (metric, model, ncu, difference, verdict and
 * reason) and a last line of counts; or, with json, one JSON object
 * {"rows": [...], "equal": N, "known": N, "different": N, ...} without a
 * trailing newline. Returns the number of DIFFERENT rows. */
int cured_model_ncu_print(FILE *out, const cured_model_ncu_row *rows, int n, int json);

#ifdef __cplusplus
}
#endif

#endif /* CURED_MODEL_HOST_H */
