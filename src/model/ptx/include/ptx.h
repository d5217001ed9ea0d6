/* ptx.h - the model's in-memory form of a PTX module (the parser's output,
 * the interpreter's input).
 *
 * defines: ptx_type, ptx_space, ptx_opcode, ptx_operand, ptx_instr,
 *          ptx_symbol, ptx_function, cured_model_module, cured_model_parse_error,
 *          cured_model_parse, cured_model_module_free, cured_model_find_function,
 *          ptx_line_text, ptx_source_file_name, ptx_toolkit_file,
 *          ptx_mangled_name, ptx_type_size, ptx_access_size, ptx_type_name,
 *          ptx_opcode_name
 *
 * One module holds every function of a .ptx file. Instructions are decoded
 * once into fixed-size records (no strings on the hot path): registers are
 * slot numbers in the function's register file, branch targets are
 * instruction indices, symbols are indices into the module's symbol table.
 * Everything here is plain data, owned by the module, freed by
 * cured_model_module_free.
 */
#ifndef CURED_PTX_H
#define CURED_PTX_H

#include "cured_model.h"

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- types */

/* Scalar PTX types. Bit types (b8..b128) are untyped bags of bits. */
typedef enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2,
    PTX_T_F32, PTX_T_F64,
    PTX_T_COUNT
} ptx_type;

/* State spaces. GENERIC is an address in the unified space (ld without a
 * space qualifier, cvta's source/target). */
typedef enum ptx_space {
    PTX_S_NONE = 0,
    PTX_S_GENERIC,
    PTX_S_GLOBAL,
    PTX_S_SHARED,
    PTX_S_LOCAL,
    PTX_S_PARAM,
    PTX_S_CONST,
    PTX_S_REG,
    PTX_S_COUNT
} ptx_space;

/* ----------------------------------------------------------- opcodes */

/* Base operations. The modifiers that change meaning (.wide, .hi, .sat,
 * rounding, comparison, shuffle mode, atomic op ...) live in ptx_instr. */
typedef enum ptx_opcode {
    PTX_OP_INVALID = 0,
    /* data movement */
    PTX_OP_LD, PTX_OP_LDU, PTX_OP_ST, PTX_OP_MOV, PTX_OP_CVTA, PTX_OP_CVT,
    PTX_OP_PREFETCH,
    /* integer and float arithmetic */
    PTX_OP_ADD, PTX_OP_SUB, PTX_OP_MUL, PTX_OP_MAD, PTX_OP_FMA, PTX_OP_DIV,
    PTX_OP_REM, PTX_OP_MIN, PTX_OP_MAX, PTX_OP_NEG, PTX_OP_ABS,
    PTX_OP_RCP, PTX_OP_SQRT, PTX_OP_RSQRT, PTX_OP_EX2, PTX_OP_LG2,
    PTX_OP_SIN, PTX_OP_COS, PTX_OP_COPYSIGN, PTX_OP_TESTP,
    PTX_OP_MUL24, PTX_OP_MAD24, PTX_OP_SAD,
    /* logic and bits */
    PTX_OP_AND, PTX_OP_OR, PTX_OP_XOR, PTX_OP_NOT, PTX_OP_CNOT,
    PTX_OP_SHL, PTX_OP_SHR, PTX_OP_SHF, PTX_OP_POPC, PTX_OP_CLZ,
    PTX_OP_BREV, PTX_OP_BFE, PTX_OP_BFI, PTX_OP_PRMT, PTX_OP_BFIND,
    PTX_OP_FNS, PTX_OP_DP4A, PTX_OP_DP2A,
    /* comparison and selection */
    PTX_OP_SETP, PTX_OP_SET, PTX_OP_SELP, PTX_OP_SLCT,
    /* control flow */
    PTX_OP_BRA, PTX_OP_BRX, PTX_OP_CALL, PTX_OP_RET, PTX_OP_EXIT, PTX_OP_TRAP,
    /* synchronisation and warp-level operations */
    PTX_OP_BAR,       /* bar.sync / barrier.sync / bar.arrive / bar.red */
    PTX_OP_BAR_WARP,  /* bar.warp.sync */
    PTX_OP_BAR_CLUSTER, /* barrier.cluster.arrive / barrier.cluster.wait */
    PTX_OP_MEMBAR,    /* membar.cta/gl/sys, fence.* */
    PTX_OP_SHFL,      /* shfl.sync */
    PTX_OP_VOTE,      /* vote.sync */
    PTX_OP_ACTIVEMASK,
    PTX_OP_MATCH,     /* match.sync */
    PTX_OP_REDUX,     /* redux.sync */
    PTX_OP_ATOM, PTX_OP_RED,
    PTX_OP_NANOSLEEP,
    /* thread-block clusters */
    PTX_OP_MAPA,      /* mapa: an address in another CTA of the cluster */
    PTX_OP_GETCTARANK,/* getctarank: the CTA an address belongs to */
    /* programmatic dependent launch */
    PTX_OP_GRIDDEPCONTROL, /* griddepcontrol.wait / .launch_dependents */
    PTX_OP_COUNT
} ptx_opcode;

/* Comparison operators of setp/set (and testp's property in `sub`). */
typedef enum ptx_cmp {
    PTX_CMP_NONE = 0,
    PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE, PTX_CMP_GT, PTX_CMP_GE,
    PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU,
    PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN
} ptx_cmp;

/* Boolean combiners of setp/set (`setp.lt.and.s32 p, a, b, c`). */
typedef enum ptx_boolop {
    PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR
} ptx_boolop;

/* Rounding modifiers (float: rn rz rm rp; float->int: rni rzi rmi rpi). */
typedef enum ptx_round {
    PTX_RND_NONE = 0,
    PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI,
    PTX_RND_RNA, PTX_RND_RS
} ptx_round;

/* Sub-operations, meaning depends on the opcode (ptx_instr.sub). */
enum {
    /* shfl.sync modes */
    PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX,
    /* vote.sync modes */
    PTX_VOTE_ALL = 1, PTX_VOTE_ANY, PTX_VOTE_UNI, PTX_VOTE_BALLOT,
    /* match.sync modes */
    PTX_MATCH_ANY = 1, PTX_MATCH_ALL,
    /* atom/red/redux/bar.red operations */
    PTX_ATOM_ADD = 1, PTX_ATOM_MIN, PTX_ATOM_MAX, PTX_ATOM_INC, PTX_ATOM_DEC,
    PTX_ATOM_AND, PTX_ATOM_OR, PTX_ATOM_XOR, PTX_ATOM_EXCH, PTX_ATOM_CAS,
    PTX_ATOM_POPC,
    /* bar kinds */
    PTX_BAR_SYNC = 1, PTX_BAR_ARRIVE, PTX_BAR_RED, PTX_BAR_WAIT,
    /* membar/fence scopes */
    PTX_SCOPE_CTA = 1, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU, PTX_SCOPE_SYS,
    /* shr/shl/shf: shf direction and clamp live in flags */
    PTX_SHF_L = 1, PTX_SHF_R,
    /* prmt modes (0: the default, selector bytes in c) */
    PTX_PRMT_F4E = 1, PTX_PRMT_B4E, PTX_PRMT_RC8, PTX_PRMT_ECL, PTX_PRMT_ECR,
    PTX_PRMT_RC16,
    /* testp properties */
    PTX_TESTP_FINITE = 1, PTX_TESTP_INFINITE, PTX_TESTP_NUMBER,
    PTX_TESTP_NOTANUMBER, PTX_TESTP_NORMAL, PTX_TESTP_SUBNORMAL,
    /* griddepcontrol actions */
    PTX_GDC_WAIT = 1, PTX_GDC_LAUNCH_DEPENDENTS
};

/* Instruction flag bits (ptx_instr.flags). */
enum {
    PTX_F_FTZ = 1u << 0,
    PTX_F_SAT = 1u << 1,
    PTX_F_WIDE = 1u << 2,     /* mul.wide, mad.wide */
    PTX_F_HI = 1u << 3,       /* mul.hi, mad.hi */
    PTX_F_LO = 1u << 4,       /* mul.lo, mad.lo */
    PTX_F_APPROX = 1u << 5,
    PTX_F_FULL = 1u << 6,
    PTX_F_NC = 1u << 7,       /* ld.global.nc */
    PTX_F_VOLATILE = 1u << 8,
    PTX_F_UNI = 1u << 9,      /* bra.uni, call.uni */
    PTX_F_ALIGNED = 1u << 10, /* bar.sync.aligned / barrier.sync.aligned */
    PTX_F_CC = 1u << 11,      /* add.cc / addc (carry) */
    PTX_F_CARRY_IN = 1u << 12,
    PTX_F_CLAMP = 1u << 13,   /* shf.clamp, shfl clamp */
    PTX_F_SHIFTAMT = 1u << 14,/* bfind.shiftamt */
    PTX_F_RELAXED = 1u << 15, /* atom.relaxed/acquire/release: memory order seen */
    PTX_F_NOFTZ = 1u << 16,
    PTX_F_NAN = 1u << 17,     /* min.NaN / max.NaN: NaN wins */
    PTX_F_RELU = 1u << 18,    /* fma/cvt/min/max .relu: negative results -> 0 */
    PTX_F_CLUSTER_WINDOW = 1u << 19 /* .shared::cluster (space SHARED): the
                                       cluster's window, which for the CTA's
                                       own addresses is its .shared window */
};

/* ----------------------------------------------------------- operands */

typedef enum ptx_operand_kind {
    PTX_OPND_NONE = 0,
    PTX_OPND_REG,    /* a register slot (reg); `neg` set for `!%p` */
    PTX_OPND_IMM,    /* an immediate: imm holds the bits. Integer literals:
                        the 64-bit two's-complement value as written (-1 is
                        all ones; the interpreter truncates to the operand's
                        width). Float literals, as ptxas reads them, for the
                        type of the operand (cvt/setp/set sources: type2):
                        .f32 operand: any float literal as f32 bits (0d and
                        decimal rounded to nearest); .f64 operand: f64 bits;
                        .b32 operand: 0f bits unchanged; .b64: 0d bits
                        unchanged. Any other pairing (an integer literal for
                        a float operand, a float literal for an integer or
                        f16 operand) is a parse error. */
    PTX_OPND_SREG,   /* a special register: sreg (ptx_sreg), comp 0..3 = x..w
                        (for %envregN, comp = N) */
    PTX_OPND_ADDR,   /* a memory address [base + imm]: base is reg (>= 0) or
                        sym (>= 0) or neither (absolute imm) */
    PTX_OPND_SYM,    /* the address of a symbol used as a value (mov r, sym;
                        or a function name in call) */
    PTX_OPND_VEC,    /* {a, b, c, d}: vec[0..vec_count) register slots,
                        -1 for the sink `_`; vec_imm_mask marks immediates
                        whose value is in vec_imm[] */
    PTX_OPND_LABEL,  /* a branch target: imm is the instruction index */
    PTX_OPND_SINK    /* `_` */
} ptx_operand_kind;

/* Special registers (PTX_OPND_SREG). */
typedef enum ptx_sreg {
    PTX_SREG_TID = 1, PTX_SREG_NTID, PTX_SREG_CTAID, PTX_SREG_NCTAID,
    PTX_SREG_LANEID, PTX_SREG_WARPID, PTX_SREG_NWARPID, PTX_SREG_SMID,
    PTX_SREG_NSMID, PTX_SREG_GRIDID, PTX_SREG_LANEMASK_EQ,
    PTX_SREG_LANEMASK_LE, PTX_SREG_LANEMASK_LT, PTX_SREG_LANEMASK_GE,
    PTX_SREG_LANEMASK_GT, PTX_SREG_CLOCK, PTX_SREG_CLOCK64,
    PTX_SREG_GLOBALTIMER, PTX_SREG_DYNAMIC_SMEM_SIZE,
    PTX_SREG_TOTAL_SMEM_SIZE, PTX_SREG_CLUSTERID, PTX_SREG_NCLUSTERID,
    PTX_SREG_CLUSTER_CTAID, PTX_SREG_CLUSTER_NCTAID, PTX_SREG_CLUSTER_CTARANK,
    PTX_SREG_CLUSTER_NCTARANK, PTX_SREG_IS_EXPLICIT_CLUSTER,
    PTX_SREG_ENVREG,       /* %envreg0..31: comp holds the number 0..31 */
    PTX_SREG_CLOCK_HI, PTX_SREG_GLOBALTIMER_LO, PTX_SREG_GLOBALTIMER_HI
} ptx_sreg;

typedef struct ptx_operand {
    uint8_t kind;          /* ptx_operand_kind */
    uint8_t neg;           /* `!` before a predicate operand */
    uint8_t comp;          /* SREG component 0..3 (x, y, z, w) */
    uint8_t vec_count;     /* VEC: 1..4 */
    uint8_t vec_imm_mask;  /* VEC: bit i set when element i is an immediate */
    uint8_t sreg;          /* SREG: ptx_sreg */
    int32_t reg;           /* REG / ADDR base register slot, else -1 */
    int32_t sym;           /* ADDR / SYM symbol index, else -1 */
    int64_t imm;           /* IMM bits, ADDR offset, LABEL target index */
    int32_t vec[4];        /* VEC register slots (-1: sink or immediate) */
    int64_t vec_imm[4];    /* VEC immediates (rare: st.v2 [a], {%r1, 0}) */
} ptx_operand;

#define PTX_MAX_OPERANDS 6

/* One decoded instruction. Operands in PTX order: destinations first.
 * ndst says how many leading operands are written (2 for `setp p|q`,
 * `shfl d|p`; 0 for st, bar, bra ...). For ld/st/atom the address operand
 * is ops[ndst] for ld/atom, ops[0] for st/red.
 *
 * Decoding conventions (the parser, ptx_instr.c, guarantees these):
 * - type/type2: one-type instructions have type2 == type. setp: both are
 *   the compared type. cvt: type = destination, type2 = source. set and
 *   slct: type = destination, type2 = the compared / selector type.
 *   mul.wide/mad.wide: the source type as written (.s32), the result is
 *   twice as wide. cvta: the address type (.u64). dp4a/dp2a: a's, b's type.
 * - space: ld/st/atom/red/prefetch without a state space get GENERIC.
 * - vec: 1, 2 or 4; the ld destination / st value is then a VEC operand of
 *   that many elements (a REG when vec is 1).
 * - cvt.rn.f16x2.f32 d, a, b and cvt.rn.bf16x2.f32: nops 3 (a goes to the
 *   upper half, b to the lower, as PTX says).
 * - atom: d, [a], b (nops 3), cas: d, [a], b, c (nops 4); red: [a], b.
 * - setp/set with a boolop: the combining predicate is ops[nops-1], maybe
 *   `neg`; predicate operands may also be the immediates 0 and 1.
 * - bar (sub SYNC/ARRIVE): ops[0] = barrier id, ops[1] = thread count when
 *   given (nops 1 or 2); flags ALIGNED for bar.* and barrier.*.aligned.
 *   bar.red: ops = d, a (id), b (count, kind NONE when absent), c (pred,
 *   maybe neg); nops 4, ndst 1, red_op the reduction. bar.warp.sync:
 *   op BAR_WARP, ops[0] = member mask.
 * - barrier.cluster.arrive/.wait: op BAR_CLUSTER, sub ARRIVE or WAIT, no
 *   operands; flags ALIGNED for .aligned, RELAXED for arrive.relaxed
 *   (.release, the default, and wait's .acquire set nothing).
 * - mapa{.shared::cluster}.u32/.u64 d, a, rank: op MAPA, nops 3, space
 *   GENERIC, or SHARED with flag CLUSTER_WINDOW; getctarank (same spaces)
 *   d, a: op GETCTARANK, nops 2. ld/st/atom/red/cvta .shared::cluster: space
 *   SHARED with flag CLUSTER_WINDOW; .shared::cta is plain SHARED.
 * - griddepcontrol.wait / griddepcontrol.launch_dependents: op
 *   GRIDDEPCONTROL, sub GDC_WAIT or GDC_LAUNCH_DEPENDENTS, no operands.
 * - membar/fence: op MEMBAR, sub = scope (membar.gl -> GPU); 0 for
 *   fence.proxy.* (accepted, no scope).
 * - call: nops 0; callee, call_args, call_nret, call_nargs as below; the
 *   counts match the callee's nrets (or 0) and nparams.
 * - bra: ops[0] LABEL with imm = target index (ncode for a label at the
 *   very end of the body).
 * - ld/st with .L2::cache_hint carry the cache policy as a last extra
 *   source operand; other cache qualifiers (.ca .cg .L1::no_allocate ...),
 *   scopes on ld/st/atom/red and .weak are accepted and dropped; memory
 *   orders (.relaxed .acquire .release .acq_rel .sc) set PTX_F_RELAXED.
 * - src_line 0 means no location (`.loc 1 0 0` or before any .loc). */
typedef struct ptx_instr {
    uint16_t op;           /* ptx_opcode */
    uint8_t type;          /* ptx_type: the instruction type (.u32, .f32 ...);
                              for cvt the destination type */
    uint8_t type2;         /* cvt/cvta: source type; setp/set/slct: the
                              type compared; set: the destination is type */
    uint8_t space;         /* ptx_space for ld/st/atom/red/cvta/prefetch */
    uint8_t cvta_to;       /* cvta: 1 for cvta.to.<space> (generic->space) */
    uint8_t cmp;           /* ptx_cmp for setp/set/testp */
    uint8_t boolop;        /* ptx_boolop */
    uint8_t rnd;           /* ptx_round */
    uint8_t sub;           /* mode: shfl/vote/match/atom/bar/membar scope */
    uint8_t vec;           /* 1, 2 or 4: ld/st .v2/.v4 element count */
    uint8_t nops;          /* operands used */
    uint8_t ndst;          /* leading operands written */
    int8_t guard_neg;      /* 1 for @!%p */
    int32_t guard;         /* guard predicate slot, -1 for none */
    uint32_t flags;        /* PTX_F_* */
    int32_t callee;        /* call: function index; else -1 */
    int32_t call_args;     /* call: index into ptx_function.call_params of
                              this call's param symbols: call_nret return
                              params first, then call_nargs arguments */
    uint16_t call_nargs;   /* call: number of argument params */
    uint16_t call_nret;    /* call: number of return params (0 or 1) */
    uint32_t ptx_line;     /* line in the .ptx text (1-based) */
    uint16_t src_file;     /* .loc file index of the innermost location, 0 = none */
    uint32_t src_line;     /* .loc line of the innermost location, 0 = none */
    uint16_t site_file;    /* outermost inlined_at file (the kernel's own
                              line when the code was inlined), else = src_file */
    uint32_t site_line;
    uint16_t user_file;    /* the line the instruction belongs to in the
                              user's own source: src_file/src_line, except
                              for code inlined from a CUDA toolkit header
                              (ptx_toolkit_file: atomicAdd, __shfl_down_sync
                              ...), where it is the innermost inlined_at
                              outside the toolkit (the line that calls it);
                              0/0 for no location */
    uint32_t user_line;
    ptx_operand ops[PTX_MAX_OPERANDS];
    uint8_t red_op;        /* bar.red (sub = PTX_BAR_RED): PTX_ATOM_POPC,
                              PTX_ATOM_AND or PTX_ATOM_OR */
} ptx_instr;

/* ----------------------------------------------------------- symbols */

/* A named variable in some state space: module globals, shared arrays
 * (module scope, function scope/"demoted", extern dynamic), kernel and
 * function parameters, call-site params, locals. */
typedef struct ptx_symbol {
    char *name;
    uint8_t space;         /* ptx_space */
    uint8_t type;          /* element type as declared (.b8, .u32, .f32 ...) */
    uint8_t is_extern;     /* `.extern .shared ... x[]`: dynamic shared */
    uint8_t is_ptr_param;  /* .param .u64 .ptr ... */
    uint32_t align;        /* bytes */
    uint64_t size;         /* bytes (0 for extern unsized arrays) */
    int32_t function;      /* owning function index, -1 for module scope */
    uint64_t offset;       /* layout offset in its space: shared symbols get
                              their offset in the block's shared window
                              (static first, extern after them, aligned;
                              each kernel's variables packed from 0 in
                              declaration order, variables of different
                              kernels overlapping; every extern at one
                              offset after the static variables of all
                              kernels using it); params their offset in
                              the param block (a .func's return params in
                              a block of their own from 0; call-site params
                              in a nested `{ }` block are each at 0);
                              locals their offset in the thread's local
                              window; globals/consts their offset in the
                              module's global data image */
    uint8_t *init;         /* initial bytes for .global/.const with an
                              initialiser (size bytes), else NULL */
} ptx_symbol;

/* A register declared by `.reg .f32 %f<34>` expands to %f0..%f33. */
typedef struct ptx_register {
    char *name;
    uint8_t type;          /* ptx_type */
} ptx_register;

typedef struct ptx_function {
    char *name;
    int is_entry;          /* .entry (a kernel) vs .func */
    int is_visible;
    int32_t *params;       /* symbol indices of its parameters, in order */
    int nparams;
    int32_t *rets;         /* .func return parameters (symbol indices) */
    int nrets;
    ptx_register *regs;    /* register slots: regs[slot] */
    int nregs;
    ptx_instr *code;       /* instructions; labels resolve to indices here */
    int ncode;
    int32_t *call_params;  /* call argument/return param symbol indices,
                              referenced by ptx_instr.call_args */
    int ncall_params;
    uint64_t param_bytes;  /* size of the parameter block (kernel args) */
    uint64_t shared_static_bytes; /* static shared memory this function
                                     uses: the end of the last shared
                                     variable it or its callees name; when
                                     they use dynamic shared, the extern
                                     offset (dynamic shared starts there) */
    uint64_t local_bytes;  /* per-thread .local frame */
    uint32_t max_ntid[3];  /* .maxntid, 0 when absent */
    uint32_t reqntid[3];   /* .reqntid, 0 when absent */
    uint32_t reqnctapercluster[3]; /* .reqnctapercluster (__cluster_dims__),
                                      0 when absent */
    int has_body;          /* 0 for a prototype or .extern declaration
                              never defined in this module (ncode 0) */
    char *unusable;        /* why the model cannot run it, NULL when it can:
                              the first instruction of its body the model
                              cannot decode, an unknown opcode or modifier
                              in a well-formed statement ("unknown
                              instruction 'cp.async.ca.shared.global'"; the
                              body parses on without it), or for a function
                              that calls such a function, "calls 'f', ..." */
    uint32_t unusable_ptx_line; /* that instruction's PTX line */
    uint16_t unusable_file;     /* and its user line (as ptx_instr.user_*) */
    uint32_t unusable_line;
} ptx_function;

struct cured_model_module {
    uint32_t version_major, version_minor; /* .version */
    char *target;                          /* .target, e.g. "sm_90" */
    int address_size;                      /* .address_size 32/64 */
    ptx_function *functions;
    int nfunctions;
    ptx_symbol *symbols;
    int nsymbols;
    char **files;                          /* .file table: files[index] is
                                              the path of `.file index`,
                                              NULL for unused indices;
                                              nfiles = highest index + 1,
                                              covering every src_file and
                                              site_file of the code */
    int nfiles;
    uint64_t global_bytes;                 /* size of the module's .global and
                                              .const data image */
    uint64_t shared_extern_align;          /* alignment of dynamic shared:
                                              16, or the largest .align of an
                                              .extern .shared if larger */
};

/* ---------------------------------------------------------- functions */

/* The text of PTX line `line` of text[0..len) without its indentation,
 * trailing `//` comment and blanks, runs of blanks (tabs) made one space,
 * into out (truncated to cap). Writes "" for a line that is not there.
 * Can't fail. (ptx_text.c) */
void ptx_line_text(const char *text, size_t len, uint32_t line, char *out,
                   size_t cap);

/* The file name (last path component) of .file index `file` of module,
 * or NULL when the module has none for it. (ptx_text.c) */
const char *ptx_source_file_name(const cured_model_module *module, uint16_t file);

/* 1 when .file index `file` of module is a header of the CUDA toolkit
 * (under its include/ or targets/ folder, or one of its intrinsic and
 * atomic headers by name: sm_30_intrinsics.hpp,
 * device_atomic_functions.hpp ...), whose code nvcc inlines into the
 * kernel; 0 otherwise, also for an unknown index. (ptx_text.c) */
int ptx_toolkit_file(const cured_model_module *module, uint16_t file);

/* Reads the name a mangled C++ function name (`_Z...`) has in its source:
 * writes it, qualified ("ns::reduce"; "k" for `_Z1kPfj`), into qualified
 * (cap bytes), the offset of its innermost component ("reduce") into
 * *innermost and where the mangled text goes on (template arguments 'I...',
 * a nested name's closing 'E', or the parameter types) into *rest (both
 * may be NULL). Returns 1 for a nested name (`_ZN...E`), 0 for a plain
 * one, -1 for a name that is not a plain or nested function name of
 * source names, or one that does not fit. (ptx_mangle.c) */
int ptx_mangled_name(const char *mangled, char *qualified, size_t cap,
                     size_t *innermost, const char **rest);

/* Size in bytes of a scalar type (pred counts as 1), 0 for NONE. */
unsigned ptx_type_size(ptx_type type);

/* Bytes per lane of a load, store or atomic: its type's size times its
 * vector count. */
static inline unsigned ptx_access_size(const ptx_instr *ins)
{
    return ptx_type_size((ptx_type)ins->type) * (ins->vec > 1 ? ins->vec : 1u);
}

/* ".u32", ".f32" ... without the dot ("u32"); "?" for out of range. */
const char *ptx_type_name(ptx_type type);

/* "ld", "shfl.sync" ...; "?" for out of range. */
const char *ptx_opcode_name(ptx_opcode op);

#endif /* CURED_PTX_H */
