/* ref_fill.h - the seeded fill: the pseudo-random input values of the CLI,
 * the bench and every test, one definition for the host and the GPU.
 *
 * defines: CURED_REF_HD, CURED_REF_INT_BITS, cured_ref_fill_kind,
 *          cured_ref_fill, cured_ref_fill_standard, cured_ref_random_bits,
 *          cured_ref_sparse_value, cured_ref_fill_f32, cured_ref_fill_f64,
 *          cured_ref_fill_signed, cured_ref_fill_unsigned,
 *          cured_ref_fill_element, cured_ref_fill_buffer (ref_fill.c)
 *
 * Value i of a fill is a pure function of (seed, i): no state, so a GPU
 * thread makes element i on its own and gets the host's bits, a prefix of
 * a fill is the fill of the shorter length, and the reference sums a fill
 * without a buffer (cured_ref_sum_add_fill). The per-element functions are
 * `static inline` and CURED_REF_HD, so CUDA device code calls them too
 * (src/bench/bench_fill.cu); everything here is plain C11 otherwise.
 *
 * The 64 random bits of element i are splitmix64's output number i for the
 * state `seed`, the generator `cured model`'s random@SEED has always used,
 * so its inputs (and every count printed from them) stay what they were.
 */
#ifndef CURED_REF_FILL_H
#define CURED_REF_FILL_H

#include <stdint.h>

#include "cured.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define CURED_REF_HD __host__ __device__
#else
#define CURED_REF_HD
#endif

/* The random bits an integer of the standard fill takes: signed values in
 * [-8, 8), unsigned in [0, 16), so sums of millions stay far from wrapping
 * in i64 and a sum printed by the CLI is a readable number. */
#define CURED_REF_INT_BITS 4

typedef enum cured_ref_fill_kind {
    /* floats uniform in [-0.5, 0.5) on the grid 2^-24 (f32) or 2^-53
     * (f64), so every value is exact in its type; integers from the top
     * int_bits random bits: signed in [-2^(b-1), 2^(b-1)), unsigned in
     * [0, 2^b) (b = 64, or the type's width, makes every bit random) */
    CURED_REF_FILL_UNIFORM = 0,
    /* small integers: 0, or +-1 .. +-max_magnitude (sign and size equally
     * likely) with probability 1/sparsity; as floats every partial sum is
     * exact while sum|x| <= 2^24 (f32), so a float sum must be bit-exact.
     * Unsigned types hold a negative value's two's complement, which a
     * wrapping sum adds as the negative value. */
    CURED_REF_FILL_SPARSE
} cured_ref_fill_kind;

/* What a fill makes. Fields a kind does not use are ignored. */
typedef struct cured_ref_fill {
    cured_ref_fill_kind kind;
    uint64_t seed;
    int int_bits;          /* UNIFORM integers: 1 .. 64 */
    uint64_t sparsity;     /* SPARSE: one value in `sparsity` is nonzero, >= 1 */
    int max_magnitude;     /* SPARSE: >= 1 */
} cured_ref_fill;

/* The standard fill of seed `seed`: what `cured model`'s random@SEED, the
 * catalogue's input and `cured bench` use (UNIFORM, CURED_REF_INT_BITS).
 * Can't fail. */
CURED_REF_HD static inline cured_ref_fill cured_ref_fill_standard(uint64_t seed)
{
    cured_ref_fill f;
    f.kind = CURED_REF_FILL_UNIFORM;
    f.seed = seed;
    f.int_bits = CURED_REF_INT_BITS;
    f.sparsity = 1;
    f.max_magnitude = 1;
    return f;
}

/* The 64 random bits of element i for `seed`: splitmix64's i-th output
 * (0-based) from state `seed`, i.e. its finalizer applied to seed + (i + 1)
 * times the golden-ratio increment. Can't fail. */
CURED_REF_HD static inline uint64_t cured_ref_random_bits(uint64_t seed, uint64_t i)
{
    uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The SPARSE value of the random bits r: 0 unless r % sparsity == 0, then
 * 1 + (bits 32.. of r) % max_magnitude, negative when bit 40 is set. */
CURED_REF_HD static inline int64_t cured_ref_sparse_value(const cured_ref_fill *f,
                                                          uint64_t r)
{
    uint64_t sparsity = f->sparsity > 0 ? f->sparsity : 1;
    uint64_t most = f->max_magnitude > 0 ? (uint64_t)f->max_magnitude : 1;
    if (r % sparsity != 0)
        return 0;
    int64_t v = (int64_t)(1 + (r >> 32) % most);
    return (r >> 40) & 1 ? -v : v;
}

/* Element i of the fill as a float. UNIFORM: (top 24 bits) * 2^-24 - 0.5,
 * computed exactly. Can't fail. */
CURED_REF_HD static inline float cured_ref_fill_f32(const cured_ref_fill *f, uint64_t i)
{
    uint64_t r = cured_ref_random_bits(f->seed, i);
    if (f->kind == CURED_REF_FILL_SPARSE)
        return (float)cured_ref_sparse_value(f, r);
    return (float)(r >> 40) * 0x1p-24f - 0.5f;
}

/* Element i of the fill as a double. UNIFORM: (top 53 bits) * 2^-53 - 0.5,
 * computed exactly. Can't fail. */
CURED_REF_HD static inline double cured_ref_fill_f64(const cured_ref_fill *f, uint64_t i)
{
    uint64_t r = cured_ref_random_bits(f->seed, i);
    if (f->kind == CURED_REF_FILL_SPARSE)
        return (double)cured_ref_sparse_value(f, r);
    return (double)(r >> 11) * 0x1p-53 - 0.5;
}

/* Element i of the fill for a signed integer type: UNIFORM, the top b bits
 * as u, minus 2^(b-1) (b = int_bits, clamped to 1 .. 64). A narrower type
 * keeps the low bits of the value (all of it when b <= its width). Can't
 * fail. */
CURED_REF_HD static inline int64_t cured_ref_fill_signed(const cured_ref_fill *f, uint64_t i)
{
    uint64_t r = cured_ref_random_bits(f->seed, i);
    if (f->kind == CURED_REF_FILL_SPARSE)
        return cured_ref_sparse_value(f, r);
    int b = f->int_bits < 1 ? 1 : f->int_bits > 64 ? 64 : f->int_bits;
    uint64_t u = r >> (64 - b), half = 1ull << (b - 1);
    /* u - half without a signed overflow at b = 64 */
    return u >= half ? (int64_t)(u - half) : -(int64_t)(half - u - 1) - 1;
}

/* Element i of the fill for an unsigned integer type: UNIFORM, the top b
 * bits (b = int_bits, clamped to 1 .. 64); SPARSE, the value modulo 2^64.
 * A narrower type keeps the low bits. Can't fail. */
CURED_REF_HD static inline uint64_t cured_ref_fill_unsigned(const cured_ref_fill *f,
                                                            uint64_t i)
{
    uint64_t r = cured_ref_random_bits(f->seed, i);
    if (f->kind == CURED_REF_FILL_SPARSE)
        return (uint64_t)cured_ref_sparse_value(f, r);
    int b = f->int_bits < 1 ? 1 : f->int_bits > 64 ? 64 : f->int_bits;
    return r >> (64 - b);
}

/* Writes element i of the fill, as dtype d, into the element's bytes at out
 * (little-endian, as the GPU and the model hold them). Returns 0, or -1 for
 * a dtype it does not know (out untouched). */
int cured_ref_fill_element(const cured_ref_fill *f, cured_dtype d, uint64_t i,
                           void *out);

/* Fills out[0, n) with elements 0 .. n-1 of the fill as dtype d: the CPU's
 * copy of what a GPU kernel calling the functions above makes. Returns 0,
 * or -1 for a dtype it does not know (out untouched). */
int cured_ref_fill_buffer(const cured_ref_fill *f, cured_dtype d, void *out,
                          uint64_t n);

#ifdef __cplusplus
}
#endif

#endif /* CURED_REF_FILL_H */
