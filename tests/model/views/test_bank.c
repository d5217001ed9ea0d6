/* test_bank.c - shared-memory wavefronts and bank conflicts, global sectors,
 * on hand-made lane address sets (the rules of docs/counting.md; no
 * interpreter).
 *
 * Each expectation is derived in its comment: word w is in bank w % 32, a
 * phase is the whole warp for 4-byte accesses, a half-warp for 8, a
 * quarter-warp for 16; a phase costs the most distinct words of one bank.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bank.h"

#define ALL 0xffffffffu

/* addr[l] = base + stride * l for every lane. */
static void lanes_at(uint64_t addr[32], uint64_t base, uint64_t stride)
{
    for (int l = 0; l < 32; l++)
        addr[l] = base + stride * (uint64_t)l;
}

static void expect_cost(const uint64_t addr[32], uint32_t mask, unsigned size,
                        unsigned wavefronts, unsigned ideal, unsigned conflicts)
{
    bank_shared_cost c = bank_shared_cost_of(addr, mask, size);
    assert_int_equal(c.wavefronts, wavefronts);
    assert_int_equal(c.ideal, ideal);
    assert_int_equal(c.conflicts, conflicts);
}

/* Lane l reads word l: 32 words in 32 banks, one wavefront. */
static void test_stride_one_word(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 4);
    expect_cost(a, ALL, 4, 1, 1, 0);
    assert_int_equal(bank_shared_cost_of(a, ALL, 4).degree, 1);
}

/* Lane l reads word 2l: words 0..62 even, bank 2l % 32, so lanes l and
 * l + 16 share a bank: 2-way, 2 wavefronts, 1 conflict. */
static void test_stride_two_words(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 8);
    expect_cost(a, ALL, 4, 2, 1, 1);
    assert_int_equal(bank_shared_cost_of(a, ALL, 4).degree, 2);
}

/* Lane l reads word 32l: every lane in bank 0, 32 different words:
 * 32-way, 32 wavefronts, 31 conflicts. */
static void test_stride_32_words(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 128);
    expect_cost(a, ALL, 4, 32, 1, 31);
    assert_int_equal(bank_shared_cost_of(a, ALL, 4).degree, 32);
}

/* Every lane reads word 5: one word, broadcast, one wavefront. Lanes split
 * over words 0 and 32 (both bank 0): 2 distinct words, 2 wavefronts. */
static void test_broadcast(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 20, 0);
    expect_cost(a, ALL, 4, 1, 1, 0);
    for (int l = 0; l < 32; l++)
        a[l] = (l & 1) ? 128 : 0;
    expect_cost(a, ALL, 4, 2, 1, 1);
}

/* 64-bit, lane l at byte 8l: each half-warp covers 16 * 2 = 32 consecutive
 * words, one per bank: 2 phases, 1 wavefront each, no conflict. */
static void test_64bit_consecutive(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 8);
    expect_cost(a, ALL, 8, 2, 2, 0);
}

/* 128-bit, lane l at byte 16l: each quarter-warp covers 8 * 4 = 32
 * consecutive words: 4 phases, 4 wavefronts, no conflict. */
static void test_128bit_consecutive(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 16);
    expect_cost(a, ALL, 16, 4, 4, 0);
}

/* 64-bit, lane l at byte 16l: half-warp 0 covers words 4l and 4l + 1,
 * l = 0..15, i.e. banks 4l % 32 and 4l % 32 + 1: lanes l and l + 8 collide,
 * 2 words per bank: 2 wavefronts per phase, 4 in all, 2 conflicts. */
static void test_64bit_strided(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 16);
    expect_cost(a, ALL, 8, 4, 2, 2);
}

/* Partial masks: only the first half-warp of a 64-bit access is active:
 * one phase, 1 wavefront. Lanes 16..31 of the stride-32 pattern: 16 words
 * in bank 0, 16 wavefronts, 15 conflicts. No lane: nothing. */
static void test_partial_masks(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 8);
    expect_cost(a, 0x0000ffffu, 8, 1, 1, 0);
    lanes_at(a, 0, 128);
    expect_cost(a, 0xffff0000u, 4, 16, 1, 15);
    expect_cost(a, 0, 4, 0, 0, 0);
    /* one lane of a 128-bit access: 1 phase of 4 */
    lanes_at(a, 0, 16);
    expect_cost(a, 1u << 9, 16, 1, 1, 0);
}

/* Sub-word accesses count by word: 1-byte lanes at bytes 0..31 touch words
 * 0..7, one wavefront; 2-byte lanes at byte 64l touch word 16l, banks 0 and
 * 16, 16 words each: 16 wavefronts. */
static void test_subword(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 1);
    expect_cost(a, ALL, 1, 1, 1, 0);
    lanes_at(a, 0, 64);
    expect_cost(a, ALL, 2, 16, 1, 15);
}

/* The lesson's bank degree, over the whole warp: the strided version's
 * first step writes word 2t for t = 0..31: 2-way; the sequential version's
 * writes word t: 1-way; 64-bit consecutive over the whole warp is 64 words,
 * 2 per bank: 2 (no phases here, unlike the wavefronts). */
static void test_bank_degree(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0, 8);
    assert_int_equal(bank_conflict_degree(a, ALL, 4), 2);
    assert_int_equal(bank_conflict_degree(a, ALL, 8), 2);
    lanes_at(a, 0, 4);
    assert_int_equal(bank_conflict_degree(a, ALL, 4), 1);
    /* strided step 5 (s = 16): threads 0 and 1 write words 0 and 32 */
    lanes_at(a, 0, 128);
    assert_int_equal(bank_conflict_degree(a, 0x3u, 4), 2);
    assert_int_equal(bank_conflict_degree(a, 0, 4), 0);
}

/* Coalesced 4-byte loads from a 256-byte aligned buffer: 128 bytes, 4
 * sectors. Misaligned by 4: bytes [4, 132) touch sectors 0..4: 5. */
static void test_sectors_coalesced(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0x10000, 4);
    assert_int_equal(bank_global_sectors(a, ALL, 4), 4);
    lanes_at(a, 0x10004, 4);
    assert_int_equal(bank_global_sectors(a, ALL, 4), 5);
    /* the first 8 lanes: 32 bytes, one sector */
    lanes_at(a, 0x10000, 4);
    assert_int_equal(bank_global_sectors(a, 0xffu, 4), 1);
    assert_int_equal(bank_global_sectors(a, 0, 4), 0);
}

/* Strided: 4-byte lanes 8 bytes apart span 256 bytes: 8 sectors; 32 bytes
 * apart: one sector each, 32. All lanes one address: 1. */
static void test_sectors_strided(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0x10000, 8);
    assert_int_equal(bank_global_sectors(a, ALL, 4), 8);
    lanes_at(a, 0x10000, 32);
    assert_int_equal(bank_global_sectors(a, ALL, 4), 32);
    lanes_at(a, 0x10000, 0);
    assert_int_equal(bank_global_sectors(a, ALL, 4), 1);
}

/* 16-byte vectors, consecutive: 512 bytes, 16 sectors. One 8-byte lane at
 * byte 28 straddles two sectors. */
static void test_sectors_vectors(void **state)
{
    (void)state;
    uint64_t a[32];
    lanes_at(a, 0x10000, 16);
    assert_int_equal(bank_global_sectors(a, ALL, 16), 16);
    a[0] = 0x1001c;
    assert_int_equal(bank_global_sectors(a, 1u, 8), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_one_word),
        cmocka_unit_test(test_stride_two_words),
        cmocka_unit_test(test_stride_32_words),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_64bit_consecutive),
        cmocka_unit_test(test_128bit_consecutive),
        cmocka_unit_test(test_64bit_strided),
        cmocka_unit_test(test_partial_masks),
        cmocka_unit_test(test_subword),
        cmocka_unit_test(test_bank_degree),
        cmocka_unit_test(test_sectors_coalesced),
        cmocka_unit_test(test_sectors_strided),
        cmocka_unit_test(test_sectors_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
