/* sass_decode.c - one SASS instruction's text, decoded: mnemonic, guard,
 * and for loads, stores and atomics their space, width and address.
 *
 * defines: sass_decode
 *
 * Widths come from the mnemonic's modifiers as nvdisasm writes them for
 * sm_70..sm_90: no size modifier is 32 bits; .U8/.S8 1 byte, .U16/.S16 2,
 * .64 8, .128 16; atomics also name their type (.F64, .U64, .S64: 8).
 */
#include "sass.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The memory mnemonics the counters know, by base name. */
static const struct {
    const char *base;
    uint8_t space;
    uint8_t access;
} memory_ops[] = {
    {"LDS", PTX_S_SHARED, SASS_A_LOAD},      {"STS", PTX_S_SHARED, SASS_A_STORE},
    {"ATOMS", PTX_S_SHARED, SASS_A_ATOMIC},  {"LDG", PTX_S_GLOBAL, SASS_A_LOAD},
    {"STG", PTX_S_GLOBAL, SASS_A_STORE},     {"ATOMG", PTX_S_GLOBAL, SASS_A_ATOMIC},
    {"REDG", PTX_S_GLOBAL, SASS_A_REDUCTION}, {"LDL", PTX_S_LOCAL, SASS_A_LOAD},
    {"STL", PTX_S_LOCAL, SASS_A_STORE},      {"LD", PTX_S_GENERIC, SASS_A_LOAD},
    {"ST", PTX_S_GENERIC, SASS_A_STORE},     {"ATOM", PTX_S_GENERIC, SASS_A_ATOMIC},
    {"RED", PTX_S_GENERIC, SASS_A_REDUCTION},
};

/* Mnemonics after which control may not fall through to the next line. */
static const char *const control_ops[] = {
    "BRA", "BRX", "BRXU", "JMP", "JMX", "JMXU", "CALL", "RET", "EXIT",
    "BREAK", "KILL", "BPT", "RTT",
};

/* Bytes of one modifier token, 0 when it says nothing about size. */
static unsigned token_width(const char *tok, size_t n, int atomic)
{
    static const struct { const char *tok; unsigned bytes; int atomic_only; } w[] = {
        {"U8", 1, 0}, {"S8", 1, 0}, {"U16", 2, 0}, {"S16", 2, 0},
        {"32", 4, 0}, {"64", 8, 0}, {"128", 16, 0},
        {"F64", 8, 1}, {"U64", 8, 1}, {"S64", 8, 1},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (strlen(w[i].tok) == n && memcmp(w[i].tok, tok, n) == 0 &&
            (!w[i].atomic_only || atomic))
            return w[i].bytes;
    return 0;
}

/* The width of a memory mnemonic from its modifiers (after the base). */
static unsigned mnemonic_width(const char *mods, int atomic)
{
    unsigned width = 4;
    while (*mods == '.') {
        const char *tok = ++mods;
        while (*mods && *mods != '.')
            mods++;
        unsigned w = token_width(tok, (size_t)(mods - tok), atomic);
        if (w)
            width = w;
    }
    return width;
}

/* Reads the guard "@P0", "@!UP3", "@PT" at *p into out; advances *p past it
 * and its blanks. Returns 0, or -1 for a malformed one. */
static int read_guard(const char **p, const char *end, sass_instr *out)
{
    const char *s = *p + 1;
    int neg = 0, uniform = 0;
    if (s < end && *s == '!') {
        neg = 1;
        s++;
    }
    if (s < end && *s == 'U') {
        uniform = 1;
        s++;
    }
    if (s >= end || *s != 'P')
        return -1;
    s++;
    int pred;
    if (s < end && *s == 'T')
        pred = SASS_GUARD_PT;
    else if (s < end && *s >= '0' && *s <= '6')
        pred = *s - '0';
    else
        return -1;
    s++;
    if (s < end && !isspace((unsigned char)*s))
        return -1;
    while (s < end && isspace((unsigned char)*s))
        s++;
    out->guard_neg = (uint8_t)neg;
    out->guard_uniform = (uint8_t)uniform;
    out->guard_pred = (uint8_t)pred;
    /* @PT always runs; @!PT never does, which is still a guard */
    out->guarded = (uint8_t)(pred != SASS_GUARD_PT || neg);
    *p = s;
    return 0;
}

/* Reads the last [...] group of the operands into base and offset. */
static void read_address(const char *ops, const char *end, sass_instr *out)
{
    const char *open = NULL, *close = NULL;
    for (const char *s = ops; s < end; s++)
        if (*s == '[')
            open = s;
    if (open != NULL)
        for (const char *s = open; s < end; s++)
            if (*s == ']') {
                close = s;
                break;
            }
    out->addr_base[0] = '\0';
    out->addr_offset = 0;
    if (open == NULL || close == NULL)
        return;
    size_t used = 0;
    const char *s = open + 1;
    while (s < close) {
        const char *t = s;
        while (s < close && *s != '+')
            s++;
        while (t < s && isspace((unsigned char)*t))
            t++;
        const char *te = s;
        while (te > t && isspace((unsigned char)te[-1]))
            te--;
        if (te > t && (isdigit((unsigned char)*t) || *t == '-')) {
            char num[32];
            size_t n = (size_t)(te - t) < sizeof num - 1 ? (size_t)(te - t)
                                                         : sizeof num - 1;
            memcpy(num, t, n);
            num[n] = '\0';
            out->addr_offset += strtoll(num, NULL, 0);
        } else if (te > t) {
            size_t n = (size_t)(te - t);
            if (used + n + 2 < sizeof out->addr_base) {
                if (used)
                    out->addr_base[used++] = '+';
                memcpy(out->addr_base + used, t, n);
                used += n;
                out->addr_base[used] = '\0';
            }
        }
        if (s < close)
            s++;
    }
}

int sass_decode(const char *text, size_t len, sass_instr *out, char *why,
                size_t cap)
{
    const char *p = text, *end = text + len;
    while (p < end && isspace((unsigned char)*p))
        p++;
    out->guarded = 0;
    out->guard_neg = 0;
    out->guard_pred = SASS_GUARD_PT;
    out->guard_uniform = 0;
    if (p < end && *p == '@' && read_guard(&p, end, out) != 0) {
        snprintf(why, cap, "malformed guard predicate in '%.*s'", (int)len, text);
        return -1;
    }
    const char *m = p;
    while (p < end && !isspace((unsigned char)*p))
        p++;
    size_t mlen = (size_t)(p - m);
    if (mlen == 0 || !isupper((unsigned char)*m)) {
        snprintf(why, cap, "no mnemonic in '%.*s'", (int)len, text);
        return -1;
    }
    size_t keep = mlen < sizeof out->opcode - 1 ? mlen : sizeof out->opcode - 1;
    memcpy(out->opcode, m, keep);
    out->opcode[keep] = '\0';
    size_t blen = strcspn(out->opcode, ".");

    out->kind = SASS_K_OTHER;
    out->space = PTX_S_NONE;
    out->access = SASS_A_NONE;
    out->width = 0;
    out->addr_base[0] = '\0';
    out->addr_offset = 0;
    for (size_t i = 0; i < sizeof memory_ops / sizeof memory_ops[0]; i++)
        if (strlen(memory_ops[i].base) == blen &&
            memcmp(memory_ops[i].base, out->opcode, blen) == 0) {
            int atomic = memory_ops[i].access >= SASS_A_ATOMIC;
            out->kind = SASS_K_MEMORY;
            out->space = memory_ops[i].space;
            out->access = memory_ops[i].access;
            out->width = (uint8_t)mnemonic_width(out->opcode + blen, atomic);
            read_address(p, end, out);
            return 0;
        }
    for (size_t i = 0; i < sizeof control_ops / sizeof control_ops[0]; i++)
        if (strlen(control_ops[i]) == blen &&
            memcmp(control_ops[i], out->opcode, blen) == 0) {
            out->kind = SASS_K_CONTROL;
            return 0;
        }
    if (blen == 3 && memcmp(out->opcode, "BAR", 3) == 0)
        out->kind = SASS_K_BARRIER;
    else if (strncmp(out->opcode, "WARPSYNC.COLLECTIVE", 19) == 0)
        out->kind = SASS_K_CONTROL;      /* may branch to its fallback */
    return 0;
}
