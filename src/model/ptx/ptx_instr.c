/* ptx_instr.c - decoding one PTX instruction into a ptx_instr record: the
 * opcode word and its modifiers; ptx_instr_operands.c reads the operands.
 *
 * defines: ptx_parse_instruction
 *
 * An instruction is an opcode word (`ld.global.nc.v4.f32`), operands and
 * ';'. The word's first part picks an entry of `opcodes` (what operands
 * it takes, which modifier families it accepts); every later part is
 * looked up in `modifiers`, where one spelling may mean different things
 * to different opcodes (`.lo` is a comparison for setp, half a product
 * for mul; `.and` combines predicates for setp, is an operation for
 * atom). Modifiers may come in any order; an opcode or a part no entry
 * accepts makes the function unusable (ptx_unsupported), naming it. The opcode and its modifiers settle the operand
 * pattern (ptx_instr_internal.h says what its letters mean).
 */
#include "ptx_instr_internal.h"

#include <string.h>

/* Modifier families an opcode accepts. */
enum {
    M_SPACE = 1u << 0, M_ROUND = 1u << 1, M_FTZ = 1u << 2, M_SAT = 1u << 3,
    M_HILO = 1u << 4, M_APPROX = 1u << 5, M_CMP = 1u << 6, M_BOOL = 1u << 7,
    M_CC = 1u << 8, M_LDST = 1u << 9, M_ORDER = 1u << 10, M_ATOMOP = 1u << 11,
    M_NOFTZ = 1u << 12, M_SHFL = 1u << 13, M_VOTE = 1u << 14,
    M_MATCH = 1u << 15, M_SYNC = 1u << 16, M_UNI = 1u << 17, M_PRMT = 1u << 18,
    M_TESTP = 1u << 19, M_SHF = 1u << 20, M_SHIFTAMT = 1u << 21,
    M_BAR = 1u << 22, M_MEMBAR = 1u << 23, M_PROXY = 1u << 24, M_TO = 1u << 25,
    M_NAN = 1u << 26, M_PREFETCH = 1u << 27, M_NC = 1u << 28, M_RELU = 1u << 29,
    M_ATOMVEC = 1u << 30
};
/* The last family: 1u << 31 is past the int range an enum constant has. */
#define M_GRIDDEP (1u << 31)

/* barrier.cluster's memory semantics (ptx_decode.sem). */
enum { SEM_RELEASE = 1, SEM_RELAXED, SEM_ACQUIRE };

/* What a modifier does to the instruction. */
enum {
    K_IGNORE = 1,  /* accepted, no effect on the model (cache hints ...) */
    K_SPACE, K_ROUND, K_FLAG, K_CMP, K_BOOL, K_SUB, K_SYNC, K_VEC,
    K_ORDER, K_SCOPE, K_TO, K_PROXY, K_BARKIND, K_WARP, K_CLUSTER, K_BARSEM
};

typedef struct modifier {
    const char *word;
    uint32_t family;
    uint8_t kind;
    uint32_t value;
} modifier;

static const modifier modifiers[] = {
    {"global", M_SPACE, K_SPACE, PTX_S_GLOBAL},
    {"shared", M_SPACE, K_SPACE, PTX_S_SHARED},
    {"shared::cta", M_SPACE, K_SPACE, PTX_S_SHARED},
    {"shared::cluster", M_SPACE, K_CLUSTER, PTX_S_SHARED},
    {"local", M_SPACE, K_SPACE, PTX_S_LOCAL},
    {"param", M_SPACE, K_SPACE, PTX_S_PARAM},
    {"const", M_SPACE, K_SPACE, PTX_S_CONST},
    {"rn", M_ROUND, K_ROUND, PTX_RND_RN}, {"rz", M_ROUND, K_ROUND, PTX_RND_RZ},
    {"rm", M_ROUND, K_ROUND, PTX_RND_RM}, {"rp", M_ROUND, K_ROUND, PTX_RND_RP},
    {"rni", M_ROUND, K_ROUND, PTX_RND_RNI}, {"rzi", M_ROUND, K_ROUND, PTX_RND_RZI},
    {"rmi", M_ROUND, K_ROUND, PTX_RND_RMI}, {"rpi", M_ROUND, K_ROUND, PTX_RND_RPI},
    {"rna", M_ROUND, K_ROUND, PTX_RND_RNA}, {"rs", M_ROUND, K_ROUND, PTX_RND_RS},
    {"ftz", M_FTZ, K_FLAG, PTX_F_FTZ},
    {"sat", M_SAT, K_FLAG, PTX_F_SAT},
    {"wide", M_HILO, K_FLAG, PTX_F_WIDE}, {"hi", M_HILO, K_FLAG, PTX_F_HI},
    {"lo", M_HILO, K_FLAG, PTX_F_LO},
    {"approx", M_APPROX, K_FLAG, PTX_F_APPROX},
    {"full", M_APPROX, K_FLAG, PTX_F_FULL},
    {"eq", M_CMP, K_CMP, PTX_CMP_EQ}, {"ne", M_CMP, K_CMP, PTX_CMP_NE},
    {"lt", M_CMP, K_CMP, PTX_CMP_LT}, {"le", M_CMP, K_CMP, PTX_CMP_LE},
    {"gt", M_CMP, K_CMP, PTX_CMP_GT}, {"ge", M_CMP, K_CMP, PTX_CMP_GE},
    {"lo", M_CMP, K_CMP, PTX_CMP_LO}, {"ls", M_CMP, K_CMP, PTX_CMP_LS},
    {"hi", M_CMP, K_CMP, PTX_CMP_HI}, {"hs", M_CMP, K_CMP, PTX_CMP_HS},
    {"equ", M_CMP, K_CMP, PTX_CMP_EQU}, {"neu", M_CMP, K_CMP, PTX_CMP_NEU},
    {"ltu", M_CMP, K_CMP, PTX_CMP_LTU}, {"leu", M_CMP, K_CMP, PTX_CMP_LEU},
    {"gtu", M_CMP, K_CMP, PTX_CMP_GTU}, {"geu", M_CMP, K_CMP, PTX_CMP_GEU},
    {"num", M_CMP, K_CMP, PTX_CMP_NUM}, {"nan", M_CMP, K_CMP, PTX_CMP_NAN},
    {"and", M_BOOL, K_BOOL, PTX_BOOL_AND}, {"or", M_BOOL, K_BOOL, PTX_BOOL_OR},
    {"xor", M_BOOL, K_BOOL, PTX_BOOL_XOR},
    {"cc", M_CC, K_FLAG, PTX_F_CC},
    {"nc", M_NC, K_FLAG, PTX_F_NC},
    {"volatile", M_LDST, K_FLAG, PTX_F_VOLATILE},
    {"ca", M_LDST, K_IGNORE, 0}, {"cg", M_LDST, K_IGNORE, 0},
    {"cs", M_LDST, K_IGNORE, 0}, {"lu", M_LDST, K_IGNORE, 0},
    {"cv", M_LDST, K_IGNORE, 0}, {"wb", M_LDST, K_IGNORE, 0},
    {"wt", M_LDST, K_IGNORE, 0},
    {"v2", M_LDST | M_ATOMVEC, K_VEC, 2}, {"v4", M_LDST | M_ATOMVEC, K_VEC, 4},
    {"relaxed", M_ORDER, K_ORDER, 0}, {"acquire", M_ORDER, K_ORDER, 0},
    {"release", M_ORDER, K_ORDER, 0}, {"acq_rel", M_ORDER, K_ORDER, 0},
    {"sc", M_ORDER, K_ORDER, 0},
    {"weak", M_ORDER, K_IGNORE, 0}, {"mmio", M_ORDER, K_IGNORE, 0},
    {"cta", M_ORDER, K_SCOPE, PTX_SCOPE_CTA},
    {"cluster", M_ORDER, K_SCOPE, PTX_SCOPE_CLUSTER},
    {"gpu", M_ORDER, K_SCOPE, PTX_SCOPE_GPU},
    {"sys", M_ORDER, K_SCOPE, PTX_SCOPE_SYS},
    {"add", M_ATOMOP, K_SUB, PTX_ATOM_ADD}, {"min", M_ATOMOP, K_SUB, PTX_ATOM_MIN},
    {"max", M_ATOMOP, K_SUB, PTX_ATOM_MAX}, {"inc", M_ATOMOP, K_SUB, PTX_ATOM_INC},
    {"dec", M_ATOMOP, K_SUB, PTX_ATOM_DEC}, {"and", M_ATOMOP, K_SUB, PTX_ATOM_AND},
    {"or", M_ATOMOP, K_SUB, PTX_ATOM_OR}, {"xor", M_ATOMOP, K_SUB, PTX_ATOM_XOR},
    {"exch", M_ATOMOP, K_SUB, PTX_ATOM_EXCH}, {"cas", M_ATOMOP, K_SUB, PTX_ATOM_CAS},
    {"popc", M_ATOMOP, K_SUB, PTX_ATOM_POPC},
    {"noftz", M_NOFTZ, K_FLAG, PTX_F_NOFTZ},
    {"up", M_SHFL, K_SUB, PTX_SHFL_UP}, {"down", M_SHFL, K_SUB, PTX_SHFL_DOWN},
    {"bfly", M_SHFL, K_SUB, PTX_SHFL_BFLY}, {"idx", M_SHFL, K_SUB, PTX_SHFL_IDX},
    {"all", M_VOTE, K_SUB, PTX_VOTE_ALL}, {"any", M_VOTE, K_SUB, PTX_VOTE_ANY},
    {"uni", M_VOTE, K_SUB, PTX_VOTE_UNI}, {"ballot", M_VOTE, K_SUB, PTX_VOTE_BALLOT},
    {"any", M_MATCH, K_SUB, PTX_MATCH_ANY}, {"all", M_MATCH, K_SUB, PTX_MATCH_ALL},
    {"sync", M_SYNC, K_SYNC, 0},
    {"uni", M_UNI, K_FLAG, PTX_F_UNI},
    {"f4e", M_PRMT, K_SUB, PTX_PRMT_F4E}, {"b4e", M_PRMT, K_SUB, PTX_PRMT_B4E},
    {"rc8", M_PRMT, K_SUB, PTX_PRMT_RC8}, {"ecl", M_PRMT, K_SUB, PTX_PRMT_ECL},
    {"ecr", M_PRMT, K_SUB, PTX_PRMT_ECR}, {"rc16", M_PRMT, K_SUB, PTX_PRMT_RC16},
    {"finite", M_TESTP, K_SUB, PTX_TESTP_FINITE},
    {"infinite", M_TESTP, K_SUB, PTX_TESTP_INFINITE},
    {"number", M_TESTP, K_SUB, PTX_TESTP_NUMBER},
    {"notanumber", M_TESTP, K_SUB, PTX_TESTP_NOTANUMBER},
    {"normal", M_TESTP, K_SUB, PTX_TESTP_NORMAL},
    {"subnormal", M_TESTP, K_SUB, PTX_TESTP_SUBNORMAL},
    {"l", M_SHF, K_SUB, PTX_SHF_L}, {"r", M_SHF, K_SUB, PTX_SHF_R},
    {"wrap", M_SHF, K_IGNORE, 0}, {"clamp", M_SHF, K_FLAG, PTX_F_CLAMP},
    {"shiftamt", M_SHIFTAMT, K_FLAG, PTX_F_SHIFTAMT},
    {"sync", M_BAR, K_BARKIND, PTX_BAR_SYNC},
    {"arrive", M_BAR, K_BARKIND, PTX_BAR_ARRIVE},
    {"red", M_BAR, K_BARKIND, PTX_BAR_RED},
    {"aligned", M_BAR, K_FLAG, PTX_F_ALIGNED},
    {"cta", M_BAR, K_IGNORE, 0},
    {"warp", M_BAR, K_WARP, 0},
    {"cluster", M_BAR, K_CLUSTER, 0},
    {"wait", M_BAR, K_BARKIND, PTX_BAR_WAIT},
    {"release", M_BAR, K_BARSEM, SEM_RELEASE},
    {"relaxed", M_BAR, K_BARSEM, SEM_RELAXED},
    {"acquire", M_BAR, K_BARSEM, SEM_ACQUIRE},
    {"cta", M_MEMBAR, K_SCOPE, PTX_SCOPE_CTA},
    {"gl", M_MEMBAR, K_SCOPE, PTX_SCOPE_GPU},
    {"sys", M_MEMBAR, K_SCOPE, PTX_SCOPE_SYS},
    {"proxy", M_PROXY, K_PROXY, 0},
    {"to", M_TO, K_TO, 0},
    {"NaN", M_NAN, K_FLAG, PTX_F_NAN},
    {"relu", M_RELU, K_FLAG, PTX_F_RELU},
    {"L1", M_PREFETCH, K_IGNORE, 0}, {"L2", M_PREFETCH, K_IGNORE, 0},
    {"wait", M_GRIDDEP, K_SUB, PTX_GDC_WAIT},
    {"launch_dependents", M_GRIDDEP, K_SUB, PTX_GDC_LAUNCH_DEPENDENTS},
};

/* How an opcode's operands are read beyond its pattern. */
enum {
    FORM_PLAIN = 0,
    FORM_CALL,        /* call: (rets), target, (args) */
    FORM_BAR          /* bar/barrier: operands depend on the kind */
};

typedef struct opcode_spec {
    const char *name;
    uint8_t op;
    uint8_t form;
    const char *pattern;
    uint8_t min_ops;
    uint8_t ntypes;        /* types the word must carry (cvt: 2) */
    uint32_t families;
    uint32_t flags;        /* set by the opcode itself (addc: CARRY_IN) */
} opcode_spec;

#define ARITH (M_ROUND | M_FTZ | M_SAT)
#define MEMORY (M_SPACE | M_LDST | M_ORDER)

static const opcode_spec opcodes[] = {
    {"ld", PTX_OP_LD, FORM_PLAIN, "Da", 2, 1, MEMORY | M_NC, 0},
    {"ldu", PTX_OP_LDU, FORM_PLAIN, "Da", 2, 1, MEMORY, 0},
    {"st", PTX_OP_ST, FORM_PLAIN, "av", 2, 1, MEMORY, 0},
    {"mov", PTX_OP_MOV, FORM_PLAIN, "Dm", 2, 1, 0, 0},
    {"cvta", PTX_OP_CVTA, FORM_PLAIN, "dy", 2, 1, M_SPACE | M_TO, 0},
    {"cvt", PTX_OP_CVT, FORM_PLAIN, "dss", 2, 2, ARITH | M_RELU, 0},
    {"prefetch", PTX_OP_PREFETCH, FORM_PLAIN, "a", 1, 0, M_SPACE | M_PREFETCH, 0},
    {"add", PTX_OP_ADD, FORM_PLAIN, "dss", 3, 1, ARITH | M_CC, 0},
    {"addc", PTX_OP_ADD, FORM_PLAIN, "dss", 3, 1, M_CC, PTX_F_CARRY_IN},
    {"sub", PTX_OP_SUB, FORM_PLAIN, "dss", 3, 1, ARITH | M_CC, 0},
    {"subc", PTX_OP_SUB, FORM_PLAIN, "dss", 3, 1, M_CC, PTX_F_CARRY_IN},
    {"mul", PTX_OP_MUL, FORM_PLAIN, "dss", 3, 1, ARITH | M_HILO, 0},
    {"mad", PTX_OP_MAD, FORM_PLAIN, "dsss", 4, 1, ARITH | M_HILO | M_CC, 0},
    {"madc", PTX_OP_MAD, FORM_PLAIN, "dsss", 4, 1, M_HILO | M_CC, PTX_F_CARRY_IN},
    {"fma", PTX_OP_FMA, FORM_PLAIN, "dsss", 4, 1, ARITH | M_RELU, 0},
    {"div", PTX_OP_DIV, FORM_PLAIN, "dss", 3, 1, ARITH | M_APPROX, 0},
    {"rem", PTX_OP_REM, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"min", PTX_OP_MIN, FORM_PLAIN, "dss", 3, 1, M_FTZ | M_NAN | M_RELU, 0},
    {"max", PTX_OP_MAX, FORM_PLAIN, "dss", 3, 1, M_FTZ | M_NAN | M_RELU, 0},
    {"neg", PTX_OP_NEG, FORM_PLAIN, "ds", 2, 1, M_FTZ, 0},
    {"abs", PTX_OP_ABS, FORM_PLAIN, "ds", 2, 1, M_FTZ, 0},
    {"rcp", PTX_OP_RCP, FORM_PLAIN, "ds", 2, 1, M_ROUND | M_FTZ | M_APPROX, 0},
    {"sqrt", PTX_OP_SQRT, FORM_PLAIN, "ds", 2, 1, M_ROUND | M_FTZ | M_APPROX, 0},
    {"rsqrt", PTX_OP_RSQRT, FORM_PLAIN, "ds", 2, 1, M_FTZ | M_APPROX, 0},
    {"ex2", PTX_OP_EX2, FORM_PLAIN, "ds", 2, 1, M_FTZ | M_APPROX, 0},
    {"lg2", PTX_OP_LG2, FORM_PLAIN, "ds", 2, 1, M_FTZ | M_APPROX, 0},
    {"sin", PTX_OP_SIN, FORM_PLAIN, "ds", 2, 1, M_FTZ | M_APPROX, 0},
    {"cos", PTX_OP_COS, FORM_PLAIN, "ds", 2, 1, M_FTZ | M_APPROX, 0},
    {"copysign", PTX_OP_COPYSIGN, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"testp", PTX_OP_TESTP, FORM_PLAIN, "Ts", 2, 1, M_TESTP, 0},
    {"mul24", PTX_OP_MUL24, FORM_PLAIN, "dss", 3, 1, M_HILO, 0},
    {"mad24", PTX_OP_MAD24, FORM_PLAIN, "dsss", 4, 1, M_HILO | M_SAT, 0},
    {"sad", PTX_OP_SAD, FORM_PLAIN, "dsss", 4, 1, 0, 0},
    {"and", PTX_OP_AND, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"or", PTX_OP_OR, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"xor", PTX_OP_XOR, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"not", PTX_OP_NOT, FORM_PLAIN, "ds", 2, 1, 0, 0},
    {"cnot", PTX_OP_CNOT, FORM_PLAIN, "ds", 2, 1, 0, 0},
    {"shl", PTX_OP_SHL, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"shr", PTX_OP_SHR, FORM_PLAIN, "dss", 3, 1, 0, 0},
    {"shf", PTX_OP_SHF, FORM_PLAIN, "dsss", 4, 1, M_SHF, 0},
    {"popc", PTX_OP_POPC, FORM_PLAIN, "ds", 2, 1, 0, 0},
    {"clz", PTX_OP_CLZ, FORM_PLAIN, "ds", 2, 1, 0, 0},
    {"brev", PTX_OP_BREV, FORM_PLAIN, "ds", 2, 1, 0, 0},
    {"bfe", PTX_OP_BFE, FORM_PLAIN, "dsss", 4, 1, 0, 0},
    {"bfi", PTX_OP_BFI, FORM_PLAIN, "dssss", 5, 1, 0, 0},
    {"prmt", PTX_OP_PRMT, FORM_PLAIN, "dsss", 4, 1, M_PRMT, 0},
    {"bfind", PTX_OP_BFIND, FORM_PLAIN, "ds", 2, 1, M_SHIFTAMT, 0},
    {"fns", PTX_OP_FNS, FORM_PLAIN, "dsss", 4, 1, 0, 0},
    {"dp4a", PTX_OP_DP4A, FORM_PLAIN, "dsss", 4, 2, 0, 0},
    {"dp2a", PTX_OP_DP2A, FORM_PLAIN, "dsss", 4, 2, M_HILO, 0},
    {"setp", PTX_OP_SETP, FORM_PLAIN, "Pssp", 3, 1, M_CMP | M_BOOL | M_FTZ, 0},
    {"set", PTX_OP_SET, FORM_PLAIN, "dssp", 3, 2, M_CMP | M_BOOL | M_FTZ, 0},
    {"selp", PTX_OP_SELP, FORM_PLAIN, "dssp", 4, 1, 0, 0},
    {"slct", PTX_OP_SLCT, FORM_PLAIN, "dsss", 4, 2, M_FTZ, 0},
    {"bra", PTX_OP_BRA, FORM_PLAIN, "l", 1, 0, M_UNI, 0},
    {"call", PTX_OP_CALL, FORM_CALL, "", 0, 0, M_UNI, 0},
    {"ret", PTX_OP_RET, FORM_PLAIN, "", 0, 0, M_UNI, 0},
    {"exit", PTX_OP_EXIT, FORM_PLAIN, "", 0, 0, 0, 0},
    {"trap", PTX_OP_TRAP, FORM_PLAIN, "", 0, 0, 0, 0},
    {"bar", PTX_OP_BAR, FORM_BAR, "", 0, 0, M_BAR | M_ATOMOP, PTX_F_ALIGNED},
    {"barrier", PTX_OP_BAR, FORM_BAR, "", 0, 0, M_BAR | M_ATOMOP, 0},
    {"membar", PTX_OP_MEMBAR, FORM_PLAIN, "", 0, 0, M_MEMBAR, 0},
    {"fence", PTX_OP_MEMBAR, FORM_PLAIN, "", 0, 0, M_ORDER | M_PROXY, 0},
    {"shfl", PTX_OP_SHFL, FORM_PLAIN, "qssss", 5, 1, M_SHFL | M_SYNC, 0},
    {"vote", PTX_OP_VOTE, FORM_PLAIN, "dps", 3, 1, M_VOTE | M_SYNC, 0},
    {"activemask", PTX_OP_ACTIVEMASK, FORM_PLAIN, "d", 1, 1, 0, 0},
    {"match", PTX_OP_MATCH, FORM_PLAIN, "qss", 3, 1, M_MATCH | M_SYNC, 0},
    {"redux", PTX_OP_REDUX, FORM_PLAIN, "dss", 3, 1, M_ATOMOP | M_SYNC, 0},
    {"atom", PTX_OP_ATOM, FORM_PLAIN, "Davs", 3, 1,
     M_SPACE | M_ORDER | M_ATOMOP | M_NOFTZ | M_ATOMVEC, 0},
    {"red", PTX_OP_RED, FORM_PLAIN, "av", 2, 1,
     M_SPACE | M_ORDER | M_ATOMOP | M_NOFTZ | M_ATOMVEC, 0},
    {"nanosleep", PTX_OP_NANOSLEEP, FORM_PLAIN, "s", 1, 1, 0, 0},
    {"mapa", PTX_OP_MAPA, FORM_PLAIN, "dys", 3, 1, M_SPACE, 0},
    {"getctarank", PTX_OP_GETCTARANK, FORM_PLAIN, "dy", 2, 1, M_SPACE, 0},
    {"griddepcontrol", PTX_OP_GRIDDEPCONTROL, FORM_PLAIN, "", 0, 0, M_GRIDDEP, 0},
};

/* 1 when s[0..n) spells word exactly. */
static int same(const char *s, size_t n, const char *word)
{
    return n > 0 && s[0] == word[0] && strncmp(word, s, n) == 0 && word[n] == '\0';
}

static const opcode_spec *find_opcode(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++)
        if (same(s, n, opcodes[i].name))
            return &opcodes[i];
    return NULL;
}

/* Sets a one-per-instruction field, failing when it is already set. */
static int set_once(ptx_parser *p, ptx_decode *d, uint8_t *field, uint32_t value,
                    const char *part, size_t n)
{
    if (*field != 0 && *field != value)
        return ptx_fail(p, d->word, "conflicting modifier '.%.*s' in " WORD_FMT,
                        (int)n, part, WORD_ARGS(p, d));
    *field = (uint8_t)value;
    return 0;
}

/* Applies one modifier part (without its dot) to the instruction.
 * Returns 0, 1 when the rest of the word is not modifiers (fence.proxy's
 * kind), 2 for a part no entry accepts (d->unknown), -1 after an error. */
static int apply_modifier(ptx_parser *p, ptx_decode *d, ptx_instr *ins,
                          const char *part, size_t n)
{
    uint32_t families = d->spec->families;
    ptx_type type = ptx_type_from_name(part, n);
    if (type != PTX_T_NONE) {
        if (d->ntypes == 2)
            return ptx_fail(p, d->word, "too many types in " WORD_FMT,
                            WORD_ARGS(p, d));
        d->types[d->ntypes++] = type;
        return 0;
    }
    int cache_qualifier = n > 4 && (memcmp(part, "L1::", 4) == 0 ||
                                    memcmp(part, "L2::", 4) == 0);
    if (cache_qualifier && (families & (M_LDST | M_PREFETCH))) {
        if (same(part, n, "L2::cache_hint"))
            d->cache_hint = 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof modifiers / sizeof modifiers[0]; i++) {
        const modifier *mod = &modifiers[i];
        if (!(mod->family & families) || !same(part, n, mod->word))
            continue;
        switch (mod->kind) {
        case K_IGNORE:
            return 0;
        case K_SPACE:
            return set_once(p, d, &ins->space, mod->value, part, n);
        case K_ROUND:
            return set_once(p, d, &ins->rnd, mod->value, part, n);
        case K_FLAG:
            ins->flags |= mod->value;
            return 0;
        case K_CMP:
            return set_once(p, d, &ins->cmp, mod->value, part, n);
        case K_BOOL:
            return set_once(p, d, &ins->boolop, mod->value, part, n);
        case K_SUB:
            if (ins->op == PTX_OP_BAR)
                return set_once(p, d, &ins->red_op, mod->value, part, n);
            return set_once(p, d, &ins->sub, mod->value, part, n);
        case K_SYNC:
            d->saw_sync = 1;
            return 0;
        case K_VEC:
            if (ins->vec != 1 && ins->vec != mod->value)
                return ptx_fail(p, d->word, "conflicting modifier '.%.*s' in "
                                WORD_FMT, (int)n, part, WORD_ARGS(p, d));
            ins->vec = (uint8_t)mod->value;
            return 0;
        case K_ORDER:
            if (ins->op != PTX_OP_MEMBAR)
                ins->flags |= PTX_F_RELAXED;
            return 0;
        case K_SCOPE:
            d->saw_scope = 1;
            if (ins->op == PTX_OP_MEMBAR)
                return set_once(p, d, &ins->sub, mod->value, part, n);
            return 0;
        case K_TO:
            ins->cvta_to = 1;
            return 0;
        case K_PROXY:
            return 1;   /* the rest of the word names the proxy kind */
        case K_BARKIND:
            return set_once(p, d, &ins->sub, mod->value, part, n);
        case K_WARP:
            ins->op = PTX_OP_BAR_WARP;
            return 0;
        case K_CLUSTER:
            if (ins->op == PTX_OP_BAR) {   /* barrier.cluster */
                ins->op = PTX_OP_BAR_CLUSTER;
                return 0;
            }
            ins->flags |= PTX_F_CLUSTER_WINDOW;   /* .shared::cluster */
            return set_once(p, d, &ins->space, mod->value, part, n);
        case K_BARSEM:
            return set_once(p, d, &d->sem, mod->value, part, n);
        }
    }
    d->unknown = part;    /* the model does not know it: the caller isolates */
    d->unknown_len = n;
    return 2;
}

/* Applies every part after the opcode name. Returns 0, 2 for a modifier
 * the model does not know (d->unknown), -1 after an error. */
static int apply_modifiers(ptx_parser *p, ptx_decode *d, ptx_instr *ins,
                           const char *s, size_t n, size_t name_len)
{
    size_t i = name_len;
    while (i < n) {
        size_t start = ++i;   /* skip the '.' */
        while (i < n && s[i] != '.')
            i++;
        if (i == start)
            return ptx_fail(p, d->word, "empty modifier in " WORD_FMT,
                            WORD_ARGS(p, d));
        int rc = apply_modifier(p, d, ins, s + start, i - start);
        if (rc < 0 || rc == 2)
            return rc;
        if (rc > 0)
            return 0;
    }
    return 0;
}

/* Fills the types and the operand pattern from the modifiers, and checks
 * the modifiers every form of the opcode needs. */
static int settle_form(ptx_parser *p, ptx_decode *d, ptx_instr *ins)
{
    const opcode_spec *spec = d->spec;
    int want_types = spec->ntypes;
    const char *pattern = spec->pattern;
    d->min_ops = spec->min_ops;
    if (spec->form == FORM_BAR) {
        if (ins->op == PTX_OP_BAR_CLUSTER) {
            if (spec->flags & PTX_F_ALIGNED)
                return ptx_fail(p, d->word, WORD_FMT ": the cluster barrier is "
                                "barrier.cluster", WORD_ARGS(p, d));
            if (ins->sub != PTX_BAR_ARRIVE && ins->sub != PTX_BAR_WAIT)
                return ptx_fail(p, d->word, WORD_FMT " needs .arrive or .wait",
                                WORD_ARGS(p, d));
            if (d->sem == SEM_ACQUIRE ? ins->sub != PTX_BAR_WAIT
                                      : d->sem != 0 && ins->sub != PTX_BAR_ARRIVE)
                return ptx_fail(p, d->word, WORD_FMT ": arrive takes .release or "
                                ".relaxed, wait takes .acquire", WORD_ARGS(p, d));
            if (d->sem == SEM_RELAXED)
                ins->flags |= PTX_F_RELAXED;
            pattern = "";
            d->min_ops = 0;
        } else if (d->sem != 0) {
            return ptx_fail(p, d->word, "memory semantics on " WORD_FMT
                            " (only barrier.cluster takes them)", WORD_ARGS(p, d));
        } else if (ins->op == PTX_OP_BAR_WARP) {
            if (ins->sub != PTX_BAR_SYNC)
                return ptx_fail(p, d->word, WORD_FMT " needs .sync", WORD_ARGS(p, d));
            ins->sub = 0;
            ins->flags &= ~(uint32_t)PTX_F_ALIGNED;
            pattern = "s";
            d->min_ops = 1;
        } else if (ins->sub == PTX_BAR_RED) {
            if (ins->red_op == 0)
                return ptx_fail(p, d->word, WORD_FMT " needs .popc, .and or .or",
                                WORD_ARGS(p, d));
            want_types = 1;
            pattern = "dssp";
            d->min_ops = 3;
        } else if (ins->sub == PTX_BAR_SYNC || ins->sub == PTX_BAR_ARRIVE) {
            pattern = "ss";
            d->min_ops = ins->sub == PTX_BAR_ARRIVE ? 2 : 1;
        } else {
            return ptx_fail(p, d->word, WORD_FMT " needs .sync, .arrive or .red",
                            WORD_ARGS(p, d));
        }
        if (ins->red_op != 0 && ins->sub != PTX_BAR_RED)
            return ptx_fail(p, d->word, "reduction modifier on " WORD_FMT,
                            WORD_ARGS(p, d));
    }
    if (d->ntypes != want_types) {
        if (want_types == 0)
            return ptx_fail(p, d->word, WORD_FMT " takes no type", WORD_ARGS(p, d));
        return ptx_fail(p, d->word, WORD_FMT " needs %d type%s", WORD_ARGS(p, d),
                        want_types, want_types > 1 ? "s" : "");
    }
    ins->type = (uint8_t)d->types[0];
    ins->type2 = (uint8_t)(want_types == 2 ? d->types[1] : d->types[0]);
    uint32_t fam = spec->families;
    if ((fam & M_SYNC) && !d->saw_sync)
        return ptx_fail(p, d->word, WORD_FMT " needs .sync", WORD_ARGS(p, d));
    if ((fam & (M_SHFL | M_VOTE | M_MATCH | M_TESTP | M_SHF)) && ins->sub == 0)
        return ptx_fail(p, d->word, WORD_FMT " needs a mode", WORD_ARGS(p, d));
    if (ins->op == PTX_OP_GRIDDEPCONTROL && ins->sub == 0)
        return ptx_fail(p, d->word, WORD_FMT " needs .wait or .launch_dependents",
                        WORD_ARGS(p, d));
    if ((ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED ||
         ins->op == PTX_OP_REDUX) && ins->sub == 0)
        return ptx_fail(p, d->word, WORD_FMT " needs an operation (.add, .min ...)",
                        WORD_ARGS(p, d));
    if (ins->op == PTX_OP_RED && ins->sub == PTX_ATOM_CAS)
        return ptx_fail(p, d->word, "red has no .cas");
    if ((ins->op == PTX_OP_SETP || ins->op == PTX_OP_SET) && ins->cmp == 0)
        return ptx_fail(p, d->word, WORD_FMT " needs a comparison", WORD_ARGS(p, d));
    if (ins->op == PTX_OP_CVTA && (ins->space == PTX_S_NONE ||
                                   ins->space == PTX_S_PARAM))
        return ptx_fail(p, d->word, WORD_FMT " needs .global, .shared, .local or "
                        ".const", WORD_ARGS(p, d));
    if (ins->op == PTX_OP_MEMBAR && spec->families == M_MEMBAR && ins->sub == 0)
        return ptx_fail(p, d->word, WORD_FMT " needs .cta, .gl or .sys",
                        WORD_ARGS(p, d));
    if (ins->op == PTX_OP_LD || ins->op == PTX_OP_LDU || ins->op == PTX_OP_ST ||
        ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED ||
        ins->op == PTX_OP_PREFETCH) {
        if (ins->space == PTX_S_NONE)
            ins->space = PTX_S_GENERIC;
    }
    if ((ins->op == PTX_OP_MAPA || ins->op == PTX_OP_GETCTARANK) &&
        ((ins->space != PTX_S_NONE && !(ins->flags & PTX_F_CLUSTER_WINDOW)) ||
         (ins->type != PTX_T_U32 && ins->type != PTX_T_U64)))
        return ptx_fail(p, d->word, WORD_FMT " takes .shared::cluster or no space, "
                        "and .u32 or .u64", WORD_ARGS(p, d));
    if ((ins->op == PTX_OP_MAPA || ins->op == PTX_OP_GETCTARANK) &&
        ins->space == PTX_S_NONE)
        ins->space = PTX_S_GENERIC;
    if ((ins->flags & PTX_F_NC) && ins->space != PTX_S_GLOBAL)
        return ptx_fail(p, d->word, ".nc needs .global in " WORD_FMT,
                        WORD_ARGS(p, d));
    /* optional extra operands */
    size_t len = strlen(pattern);
    memcpy(d->pattern, pattern, len + 1);
    if (ins->op == PTX_OP_CVT &&
        (ins->type == PTX_T_F16X2 || ins->type == PTX_T_BF16X2))
        d->min_ops = 3;   /* cvt.rn.f16x2.f32 d, a, b */
    else if (ins->op == PTX_OP_CVT)
        d->pattern[2] = '\0';
    if (ins->op == PTX_OP_ATOM && ins->sub == PTX_ATOM_CAS)
        d->min_ops = 4;
    else if (ins->op == PTX_OP_ATOM)
        d->pattern[3] = '\0';
    if ((ins->op == PTX_OP_SETP || ins->op == PTX_OP_SET) && ins->boolop != 0)
        d->min_ops = 4;
    else if (ins->op == PTX_OP_SETP || ins->op == PTX_OP_SET)
        d->pattern[3] = '\0';
    if (d->cache_hint) {
        if (len + 1 >= sizeof d->pattern)
            return ptx_fail(p, d->word, "cache hint not supported on " WORD_FMT,
                            WORD_ARGS(p, d));
        d->pattern[len] = 's';
        d->pattern[len + 1] = '\0';
        d->min_ops++;
    }
    return 0;
}

int ptx_parse_instruction(ptx_parser *p, int32_t guard, int guard_neg)
{
    ptx_decode d;
    memset(&d, 0, sizeof d);
    d.word = ptx_next(p);
    const char *s = ptx_text(p, d.word);
    size_t n = d.word->len;
    size_t name_len = 0;
    while (name_len < n && s[name_len] != '.')
        name_len++;
    d.spec = find_opcode(s, name_len);
    if (d.spec == NULL)
        return ptx_unsupported(p, d.word, "unknown instruction " WORD_FMT,
                               WORD_ARGS(p, &d));
    ptx_instr *ins;
    if (ptx_add_instr(p, d.word, &ins) != 0)
        return -1;
    ins->op = d.spec->op;
    ins->flags = d.spec->flags;
    ins->guard = guard;
    ins->guard_neg = (int8_t)guard_neg;
    int rc = apply_modifiers(p, &d, ins, s, n, name_len);
    if (rc == 2) {
        ptx_current(p)->ncode--;   /* nothing refers to it yet */
        return ptx_unsupported(p, d.word, "unknown modifier '.%.*s' in " WORD_FMT,
                               (int)d.unknown_len > 40 ? 40 : (int)d.unknown_len,
                               d.unknown, WORD_ARGS(p, &d));
    }
    if (rc != 0 || settle_form(p, &d, ins) != 0)
        return -1;
    if (d.spec->form == FORM_CALL)
        return ptx_parse_call(p, &d, ins);
    if (d.spec->form == FORM_BAR && ins->sub == PTX_BAR_RED)
        return ptx_parse_bar_red(p, &d, ins);
    if (ptx_parse_operands(p, &d, ins) != 0)
        return -1;
    return ptx_check_operands(p, &d, ins);
}
