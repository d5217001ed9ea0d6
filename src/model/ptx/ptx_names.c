/* ptx_names.c - the names of PTX types, state spaces, opcodes and special
 * registers, both ways.
 *
 * defines: ptx_type_size, ptx_type_name, ptx_opcode_name (public, ptx.h);
 *          ptx_type_from_name, ptx_space_from_name, ptx_sreg_from_name,
 *          ptx_type_is_float (internal, ptx_parser.h)
 */
#include "ptx_parser.h"

#include <string.h>

static const char *const type_names[PTX_T_COUNT] = {
    [PTX_T_NONE] = "none", [PTX_T_PRED] = "pred",
    [PTX_T_B8] = "b8", [PTX_T_B16] = "b16", [PTX_T_B32] = "b32",
    [PTX_T_B64] = "b64", [PTX_T_B128] = "b128",
    [PTX_T_U8] = "u8", [PTX_T_U16] = "u16", [PTX_T_U32] = "u32",
    [PTX_T_U64] = "u64",
    [PTX_T_S8] = "s8", [PTX_T_S16] = "s16", [PTX_T_S32] = "s32",
    [PTX_T_S64] = "s64",
    [PTX_T_F16] = "f16", [PTX_T_F16X2] = "f16x2", [PTX_T_BF16] = "bf16",
    [PTX_T_BF16X2] = "bf16x2", [PTX_T_F32] = "f32", [PTX_T_F64] = "f64",
};

static const unsigned char type_sizes[PTX_T_COUNT] = {
    [PTX_T_NONE] = 0, [PTX_T_PRED] = 1,
    [PTX_T_B8] = 1, [PTX_T_B16] = 2, [PTX_T_B32] = 4, [PTX_T_B64] = 8,
    [PTX_T_B128] = 16,
    [PTX_T_U8] = 1, [PTX_T_U16] = 2, [PTX_T_U32] = 4, [PTX_T_U64] = 8,
    [PTX_T_S8] = 1, [PTX_T_S16] = 2, [PTX_T_S32] = 4, [PTX_T_S64] = 8,
    [PTX_T_F16] = 2, [PTX_T_F16X2] = 4, [PTX_T_BF16] = 2, [PTX_T_BF16X2] = 4,
    [PTX_T_F32] = 4, [PTX_T_F64] = 8,
};

static const char *const opcode_names[PTX_OP_COUNT] = {
    [PTX_OP_INVALID] = "invalid",
    [PTX_OP_LD] = "ld", [PTX_OP_LDU] = "ldu", [PTX_OP_ST] = "st",
    [PTX_OP_MOV] = "mov", [PTX_OP_CVTA] = "cvta", [PTX_OP_CVT] = "cvt",
    [PTX_OP_PREFETCH] = "prefetch",
    [PTX_OP_ADD] = "add", [PTX_OP_SUB] = "sub", [PTX_OP_MUL] = "mul",
    [PTX_OP_MAD] = "mad", [PTX_OP_FMA] = "fma", [PTX_OP_DIV] = "div",
    [PTX_OP_REM] = "rem", [PTX_OP_MIN] = "min", [PTX_OP_MAX] = "max",
    [PTX_OP_NEG] = "neg", [PTX_OP_ABS] = "abs",
    [PTX_OP_RCP] = "rcp", [PTX_OP_SQRT] = "sqrt", [PTX_OP_RSQRT] = "rsqrt",
    [PTX_OP_EX2] = "ex2", [PTX_OP_LG2] = "lg2", [PTX_OP_SIN] = "sin",
    [PTX_OP_COS] = "cos", [PTX_OP_COPYSIGN] = "copysign",
    [PTX_OP_TESTP] = "testp",
    [PTX_OP_MUL24] = "mul24", [PTX_OP_MAD24] = "mad24", [PTX_OP_SAD] = "sad",
    [PTX_OP_AND] = "and", [PTX_OP_OR] = "or", [PTX_OP_XOR] = "xor",
    [PTX_OP_NOT] = "not", [PTX_OP_CNOT] = "cnot",
    [PTX_OP_SHL] = "shl", [PTX_OP_SHR] = "shr", [PTX_OP_SHF] = "shf",
    [PTX_OP_POPC] = "popc", [PTX_OP_CLZ] = "clz", [PTX_OP_BREV] = "brev",
    [PTX_OP_BFE] = "bfe", [PTX_OP_BFI] = "bfi", [PTX_OP_PRMT] = "prmt",
    [PTX_OP_BFIND] = "bfind", [PTX_OP_FNS] = "fns", [PTX_OP_DP4A] = "dp4a",
    [PTX_OP_DP2A] = "dp2a",
    [PTX_OP_SETP] = "setp", [PTX_OP_SET] = "set", [PTX_OP_SELP] = "selp",
    [PTX_OP_SLCT] = "slct",
    [PTX_OP_BRA] = "bra", [PTX_OP_BRX] = "brx.idx", [PTX_OP_CALL] = "call",
    [PTX_OP_RET] = "ret", [PTX_OP_EXIT] = "exit", [PTX_OP_TRAP] = "trap",
    [PTX_OP_BAR] = "bar", [PTX_OP_BAR_WARP] = "bar.warp.sync",
    [PTX_OP_BAR_CLUSTER] = "barrier.cluster",
    [PTX_OP_MEMBAR] = "membar", [PTX_OP_SHFL] = "shfl.sync",
    [PTX_OP_VOTE] = "vote.sync", [PTX_OP_ACTIVEMASK] = "activemask",
    [PTX_OP_MATCH] = "match.sync", [PTX_OP_REDUX] = "redux.sync",
    [PTX_OP_ATOM] = "atom", [PTX_OP_RED] = "red",
    [PTX_OP_NANOSLEEP] = "nanosleep",
    [PTX_OP_MAPA] = "mapa", [PTX_OP_GETCTARANK] = "getctarank",
    [PTX_OP_GRIDDEPCONTROL] = "griddepcontrol",
};

unsigned ptx_type_size(ptx_type type)
{
    return (unsigned)type < PTX_T_COUNT ? type_sizes[type] : 0;
}

const char *ptx_type_name(ptx_type type)
{
    if ((unsigned)type >= PTX_T_COUNT || type_names[type] == NULL)
        return "?";
    return type_names[type];
}

const char *ptx_opcode_name(ptx_opcode op)
{
    if ((unsigned)op >= PTX_OP_COUNT || opcode_names[op] == NULL)
        return "?";
    return opcode_names[op];
}

/* 1 when s[0..n) equals the NUL-terminated word. */
static int same(const char *s, size_t n, const char *word)
{
    return n > 0 && s[0] == word[0] && strncmp(word, s, n) == 0 && word[n] == '\0';
}

ptx_type ptx_type_from_name(const char *s, size_t n)
{
    for (int t = PTX_T_PRED; t < PTX_T_COUNT; t++)
        if (same(s, n, type_names[t]))
            return (ptx_type)t;
    return PTX_T_NONE;
}

ptx_space ptx_space_from_name(const char *s, size_t n)
{
    static const struct { const char *name; ptx_space space; } spaces[] = {
        {"global", PTX_S_GLOBAL}, {"shared", PTX_S_SHARED},
        {"shared::cta", PTX_S_SHARED}, {"local", PTX_S_LOCAL},
        {"param", PTX_S_PARAM}, {"const", PTX_S_CONST}, {"reg", PTX_S_REG},
    };
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (same(s, n, spaces[i].name))
            return spaces[i].space;
    return PTX_S_NONE;
}

int ptx_type_is_float(ptx_type type)
{
    return type == PTX_T_F16 || type == PTX_T_F16X2 || type == PTX_T_BF16 ||
           type == PTX_T_BF16X2 || type == PTX_T_F32 || type == PTX_T_F64;
}

int ptx_sreg_from_name(const char *s, size_t n, uint8_t *sreg, uint8_t *comp)
{
    /* vector registers take a component .x/.y/.z; scalars take none */
    static const struct { const char *name; uint8_t sreg; uint8_t vector; } regs[] = {
        {"%tid", PTX_SREG_TID, 1}, {"%ntid", PTX_SREG_NTID, 1},
        {"%ctaid", PTX_SREG_CTAID, 1}, {"%nctaid", PTX_SREG_NCTAID, 1},
        {"%laneid", PTX_SREG_LANEID, 0}, {"%warpid", PTX_SREG_WARPID, 0},
        {"%nwarpid", PTX_SREG_NWARPID, 0}, {"%smid", PTX_SREG_SMID, 0},
        {"%nsmid", PTX_SREG_NSMID, 0}, {"%gridid", PTX_SREG_GRIDID, 0},
        {"%lanemask_eq", PTX_SREG_LANEMASK_EQ, 0},
        {"%lanemask_le", PTX_SREG_LANEMASK_LE, 0},
        {"%lanemask_lt", PTX_SREG_LANEMASK_LT, 0},
        {"%lanemask_ge", PTX_SREG_LANEMASK_GE, 0},
        {"%lanemask_gt", PTX_SREG_LANEMASK_GT, 0},
        {"%clock", PTX_SREG_CLOCK, 0}, {"%clock64", PTX_SREG_CLOCK64, 0},
        {"%globaltimer", PTX_SREG_GLOBALTIMER, 0},
        {"%dynamic_smem_size", PTX_SREG_DYNAMIC_SMEM_SIZE, 0},
        {"%total_smem_size", PTX_SREG_TOTAL_SMEM_SIZE, 0},
        {"%clusterid", PTX_SREG_CLUSTERID, 1},
        {"%nclusterid", PTX_SREG_NCLUSTERID, 1},
        {"%cluster_ctaid", PTX_SREG_CLUSTER_CTAID, 1},
        {"%cluster_nctaid", PTX_SREG_CLUSTER_NCTAID, 1},
        {"%cluster_ctarank", PTX_SREG_CLUSTER_CTARANK, 0},
        {"%cluster_nctarank", PTX_SREG_CLUSTER_NCTARANK, 0},
        {"%is_explicit_cluster", PTX_SREG_IS_EXPLICIT_CLUSTER, 0},
        {"%clock_hi", PTX_SREG_CLOCK_HI, 0},
        {"%globaltimer_lo", PTX_SREG_GLOBALTIMER_LO, 0},
        {"%globaltimer_hi", PTX_SREG_GLOBALTIMER_HI, 0},
    };
    /* %envreg0 .. %envreg31 */
    if (n > 7 && n <= 9 && memcmp(s, "%envreg", 7) == 0 && s[7] >= '0' &&
        s[7] <= '9' && (n == 8 || (s[8] >= '0' && s[8] <= '9' && s[7] != '0'))) {
        unsigned number = (unsigned)(s[7] - '0');
        if (n == 9)
            number = number * 10 + (unsigned)(s[8] - '0');
        if (number > 31)
            return -1;
        *sreg = PTX_SREG_ENVREG;
        *comp = (uint8_t)number;
        return 0;
    }
    size_t base = n;
    uint8_t component = 0;
    if (n >= 2 && s[n - 2] == '.') {
        char c = s[n - 1];
        if (c != 'x' && c != 'y' && c != 'z')
            return -1;
        component = (uint8_t)(c - 'x');
        base = n - 2;
    }
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        if (!same(s, base, regs[i].name))
            continue;
        if (regs[i].vector != (base != n))
            return -1;
        *sreg = regs[i].sreg;
        *comp = component;
        return 0;
    }
    return -1;
}
