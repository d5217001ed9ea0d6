/* sass.h - the SASS a kernel runs, read from the text the toolkit's
 * disassemblers print: what ptxas made of each PTX memory instruction.
 *
 * defines: sass_kind, sass_access, sass_instr, sass_function, sass_module,
 *          sass_error, sass_parse, sass_module_free, sass_find_function,
 *          sass_decode (sass_decode.c), SASS_GUARD_PT
 *
 * Input: `nvdisasm -gp -c FILE.cubin` (every instruction annotated with the
 * PTX line it came from: the best, the matcher pairs lines exactly),
 * `nvdisasm -g -c` or `-gi` (source file and line), or `cuobjdump -sass`
 * (no lines at all). Compile the cubin from the same PTX the model runs,
 * `ptxas -arch=sm_90 -lineinfo kernel.ptx -o kernel.cubin`, so that the PTX
 * lines in the SASS are the lines of that file.
 *
 * The reader keeps what the counters need: per function, each instruction's
 * offset, mnemonic, guard predicate, and for loads, stores and atomics the
 * state space, the bytes per lane and the address operand; the line it was
 * annotated with; and which straight-line stretch ("block": between labels
 * and jumps) it sits in. Never crashes on malformed text: the first error
 * names its line.
 */
#ifndef CURED_MODEL_SASS_H
#define CURED_MODEL_SASS_H

#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

/* What an instruction is, as far as the counters care. */
typedef enum sass_kind {
    SASS_K_OTHER = 0,   /* arithmetic, moves, constant-bank loads (LDC) ... */
    SASS_K_MEMORY,      /* LDS STS LDG STG LD ST LDL STL ATOMS ATOMG ATOM RED
                           REDG: a load, store or atomic whose space and width
                           are known */
    SASS_K_CONTROL,     /* BRA BRX JMP JMX CALL RET EXIT BREAK KILL, and
                           WARPSYNC.COLLECTIVE: control may leave here, so a
                           straight-line stretch ends after it */
    SASS_K_BARRIER      /* BAR */
} sass_kind;

/* What a memory instruction does. */
typedef enum sass_access {
    SASS_A_NONE = 0,
    SASS_A_LOAD,
    SASS_A_STORE,
    SASS_A_ATOMIC,      /* ATOM*: the old value comes back */
    SASS_A_REDUCTION    /* RED/REDG: nothing comes back */
} sass_access;

#define SASS_GUARD_PT 7 /* guard_pred of @PT / no guard */

typedef struct sass_instr {
    uint32_t offset;        /* the byte offset nvdisasm prints: the 0x190 of
                               a line starting with 0190 between comment marks */
    uint32_t text_line;     /* its line in the SASS text, 1-based */
    char opcode[40];        /* the mnemonic with its modifiers, "LDS.U.64"
                               (truncated to fit) */
    uint8_t kind;           /* sass_kind */
    uint8_t space;          /* memory: PTX_S_SHARED, _GLOBAL, _LOCAL or
                               _GENERIC; else PTX_S_NONE */
    uint8_t access;         /* memory: sass_access */
    uint8_t width;          /* memory: bytes per lane (1, 2, 4, 8, 16) */
    uint8_t guarded;        /* 1 when a predicate other than PT guards it:
                               the warp issues it whatever the lanes say */
    uint8_t guard_neg;      /* @!P */
    uint8_t guard_pred;     /* 0..6 for P0..P6 (UP0..UP6), SASS_GUARD_PT */
    uint8_t guard_uniform;  /* a uniform predicate (@UPn) */
    char addr_base[24];     /* memory: the address's registers, "R2.64",
                               "R6+UR4" ("" for an absolute address) */
    int64_t addr_offset;    /* memory: the address's immediate, 0x8 of
                               [R2.64+0x8]; 0 when none */
    uint16_t file;          /* index in sass_module.files of its line
                               annotation, 0 = none */
    uint32_t line;          /* the annotation's line, 0 = none */
    uint32_t block;         /* straight-line stretch: starts at 0, grows at
                               every label and after every SASS_K_CONTROL */
    uint8_t self_loop;      /* a BRA to the label just before it: the
                               endless loop after a function's last EXIT,
                               which no warp reaches */
    uint8_t fallback;       /* between WARPSYNC.COLLECTIVE and ENDCOLLECTIVE:
                               the copy of a warp-wide operation that only a
                               warp arriving diverged runs (it jumped there
                               by a BRA.DIV); the converged warp runs the
                               copy in the main code */
} sass_instr;

typedef struct sass_function {
    char *name;             /* as the disassembler names it: a kernel's
                               mangled name; a called function compiled into
                               a kernel's section is "$KERNEL$FUNCTION" */
    sass_instr *code;
    int ncode;
} sass_function;

typedef struct sass_module {
    sass_function *functions;
    int nfunctions;
    char **files;           /* files[i] for i in 1..nfiles-1; files[0] NULL */
    int nfiles;
    int ptx_file;           /* index of ".nv_debug_ptx_txt", the file whose
                               lines are PTX lines (nvdisasm -gp), or 0 */
    int has_lines;          /* some instruction carries a line */
} sass_module;

/* A read failure: the first error, with its line ("line 12: ..."). */
typedef struct sass_error {
    uint32_t line;
    char message[256];
} sass_error;

/* Reads disassembler text (text[0..len), need not be NUL-terminated) into
 * a new module. Lines it does not need (section headers, directives,
 * comments, encodings) are skipped; inside a function, a line that is none
 * of these and no instruction or label is an error, as is an instruction
 * line without its offset or its `;`, an instruction outside any function,
 * a line annotation that cannot be read, or text with no function at all.
 * Returns NULL on failure and fills *err (err may be NULL). */
sass_module *sass_parse(const char *text, size_t len, sass_error *err);

/* Frees a module from sass_parse. NULL is fine. */
void sass_module_free(sass_module *module);

/* The index of the function named `name`, or -1. */
int sass_find_function(const sass_module *module, const char *name);

/* Decodes one instruction's text (what stands between the offset comment
 * and the `;`: "@!P1 LDS.64 R2, [R5+0x8]") into *out: opcode, kind,
 * guard, and for memory instructions space, access, width and address.
 * Other fields are left as they are. Returns 0, or -1 with a reason in why
 * (an empty mnemonic, a malformed guard). */
int sass_decode(const char *text, size_t len, sass_instr *out, char *why,
                size_t cap);

#endif /* CURED_MODEL_SASS_H */
