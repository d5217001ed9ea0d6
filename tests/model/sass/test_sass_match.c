/* test_sass_match.c - the matcher (src/model/sass_match.c, sass_skip.c)
 * and the counts that follow it, on fixtures/kernels.cu's PTX and SASS.
 *
 *   ctest --test-dir build -R test_sass_match
 *
 * Each kernel shows one thing ptxas does to memory instructions: a merge
 * (pairs), a vector load narrowed to the components used (vec_unused),
 * if-conversion (guarded), atomics turned into reductions (atomics). The
 * expected counts are derived in the comments from the SASS in
 * fixtures/kernels.sass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sass_fixture.h"

#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    cured_model_module *ptx;
    sass_module *sass;       /* nvdisasm -gp */
    sass_module *sass_g;     /* nvdisasm -g */
    sass_module *cuobjdump;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->ptx = fixture_ptx("kernels.ptx");
    f->sass = fixture_sass("kernels.sass");
    f->sass_g = fixture_sass("kernels_g.sass");
    f->cuobjdump = fixture_sass("kernels_cuobjdump.sass");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cured_model_module_free(f->ptx);
    sass_module_free(f->sass);
    sass_module_free(f->sass_g);
    sass_module_free(f->cuobjdump);
    free(f);
    return 0;
}

/* The pc of the k-th instruction of entry with opcode op in space sp. */
static int pc_of(const cured_model_module *m, const char *entry, ptx_opcode op,
                 ptx_space sp, int k)
{
    const ptx_function *fn = &m->functions[cured_model_find_function(m, entry)];
    for (int pc = 0; pc < fn->ncode; pc++)
        if (fn->code[pc].op == op && fn->code[pc].space == sp && k-- == 0)
            return pc;
    fail_msg("%s has no such instruction", entry);
    return -1;
}

/* Counters for entry, matched with sass (no run). */
static cured_model_counters *matched(const cured_model_module *m, const char *entry,
                               const sass_module *sass, cured_model_sass_summary *s)
{
    int fn = cured_model_find_function(m, entry);
    cured_model_counters *c = cured_model_counters_new(m, fn);
    assert_non_null(c);
    assert_int_equal(cured_model_sass_apply(m, fn, sass, c, s), 0);
    return c;
}

#define PAIRS "_Z5pairsPKfPf"
#define VEC "_Z10vec_unusedPK6float4Pf"
#define GUARDED "_Z7guardedPKfPfj"
#define ATOMICS "_Z7atomicsPKiPiPy"

/* s[2k] and s[2k+1] on one address register: LDS.64 on the first line,
 * nothing on the second, which is folded into the first. */
static void test_merge(void **state)
{
    fixture *f = *state;
    cured_model_sass_summary s;
    cured_model_counters *c = matched(f->ptx, PAIRS, f->sass, &s);
    int fn = cured_model_find_function(f->ptx, PAIRS);
    int first = pc_of(f->ptx, PAIRS, PTX_OP_LD, PTX_S_SHARED, 0);
    int second = pc_of(f->ptx, PAIRS, PTX_OP_LD, PTX_S_SHARED, 1);
    const cured_model_sass_fact *a = cured_model_counters_sass(c, fn, first);
    const cured_model_sass_fact *b = cured_model_counters_sass(c, fn, second);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->npieces, 1);
    assert_int_equal(a->width[0], 8);
    assert_int_equal(a->offset[0], 0);
    assert_int_equal(b->npieces, 0);
    assert_int_equal(cured_model_counters_sass_width(c, fn, second), 0);
    assert_int_equal(s.memory, 5);
    assert_int_equal(s.reshaped, 2);
    assert_int_equal(s.nnotes, 0);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);

    /* Run by 64 threads: one LDS.64 per warp, lanes t & 63 read words
       2t, 2t+1: a half-warp phase of 8 bytes per lane, 2 wavefronts a warp
       (PTX-level: two loads, one wavefront each). */
    fixture_launch l = {PAIRS, 1, 64, 0, 64, 0};
    c = fixture_run(f->ptx, f->sass, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD), 2);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 4);
    cured_model_counters_free(c);
    c = fixture_run(f->ptx, NULL, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD), 4);
    cured_model_counters_free(c);
}

/* ld.global.v4.f32 with .y and .w unused: two LDG.E at +0 and +8. One warp
 * over 32 float4 (512 bytes): each piece touches every 32-byte sector once,
 * 16 each, 2 requests; the PTX's one 16-byte load: 1 request, 16 sectors. */
static void test_vector_unused(void **state)
{
    fixture *f = *state;
    cured_model_sass_summary s;
    cured_model_counters *c = matched(f->ptx, VEC, f->sass, &s);
    int fn = cured_model_find_function(f->ptx, VEC);
    const cured_model_sass_fact *v =
        cured_model_counters_sass(c, fn, pc_of(f->ptx, VEC, PTX_OP_LD, PTX_S_GLOBAL, 0));
    assert_non_null(v);
    assert_int_equal(v->npieces, 2);
    assert_int_equal(v->width[0], 4);
    assert_int_equal(v->width[1], 4);
    assert_int_equal(v->offset[0] + v->offset[1], 8);
    assert_int_equal(v->offset[0] * v->offset[1], 0);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);

    fixture_launch l = {VEC, 1, 32, 0, 128, 0};
    c = fixture_run(f->ptx, f->sass, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD), 2);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS), 2);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 32);
    cured_model_counters_free(c);
    c = fixture_run(f->ptx, NULL, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS), 1);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD_SECTORS), 16);
    cured_model_counters_free(c);
}

/* guarded, one block of 128 threads (4 warps), n = 40.
 *  `t < n ? in[t] : 0`: @!P0 LDG issued by all 4 warps, 2 with lanes on:
 *    4 instructions, 2 requests (PTX-level: 2 and 2).
 *  `if (t < 64) s[t] += s[t + 64]`: @!P0 LDS, LDS, STS in every warp;
 *    warps 2 and 3 jump over it in the PTX. Loads 4 warps x 2 + the final
 *    s[0] = 9, stores 4 (s[t] = ...) + 4 = 8; wavefronts only where lanes
 *    are on: 2 x 2 + 1 = 5 and 4 + 2 = 6 (PTX-level: 5 and 6 instructions).
 *  `if (t == 0)`: kept as @P1 EXIT, so no extra loads there. */
static void test_if_converted(void **state)
{
    fixture *f = *state;
    fixture_launch l = {GUARDED, 1, 128, 0, 40, 0};
    cured_model_sass_summary s;
    cured_model_counters *c = fixture_run(f->ptx, f->sass, &l, &s);
    assert_int_equal(s.removed_branches, 2);
    assert_int_equal(s.skip_lists, 2);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD), 4 + 1);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD_REQUESTS), 2 + 1);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD), 9);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_ST), 8);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD_WAVEFRONTS), 5);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_ST_WAVEFRONTS), 6);
    /* the skipped loads count on their own rows, though no PTX instruction
       ran there in warps 2 and 3 */
    int fn = cured_model_find_function(f->ptx, GUARDED);
    int lds = pc_of(f->ptx, GUARDED, PTX_OP_LD, PTX_S_SHARED, 0);
    assert_int_equal(cured_model_counters_at(c, fn, lds)[CURED_MODEL_CTR_SHARED_LD], 4);
    assert_int_equal(cured_model_counters_at(c, fn, lds)[CURED_MODEL_CTR_INST], 2);
    const int32_t *pcs;
    int b = pc_of(f->ptx, GUARDED, PTX_OP_BRA, PTX_S_NONE, 1);
    assert_int_equal(cured_model_counters_sass_skips(c, fn, b, &pcs), 3);
    assert_int_equal(pcs[0], lds);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);

    c = fixture_run(f->ptx, NULL, &l, NULL);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_GLOBAL_LD), 2 + 1);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_LD), 5);
    assert_int_equal(cured_model_counters_total(c, CURED_MODEL_CTR_SHARED_ST), 6);
    cured_model_counters_free(c);
}

/* The same from nvdisasm -g: source lines give the same facts here (each
 * line's accesses look alike), and the same counts. */
static void test_source_lines(void **state)
{
    fixture *f = *state;
    cured_model_sass_summary s;
    cured_model_counters *c = matched(f->ptx, GUARDED, f->sass_g, &s);
    assert_int_equal(s.mode, CURED_MODEL_SASS_BY_SOURCE_LINE);
    assert_int_equal(s.removed_branches, 2);
    assert_int_equal(s.skip_lists, 2);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);
}

/* atomics: atom.global.add.u64 whose result is unused is a REDG in SASS,
 * and so is the last atomicAdd; both count as reductions. */
static void test_reductions(void **state)
{
    fixture *f = *state;
    cured_model_sass_summary s;
    cured_model_counters *c = matched(f->ptx, ATOMICS, f->sass, &s);
    int fn = cured_model_find_function(f->ptx, ATOMICS);
    int big = pc_of(f->ptx, ATOMICS, PTX_OP_ATOM, PTX_S_GLOBAL, 1);
    int counted = pc_of(f->ptx, ATOMICS, PTX_OP_ATOM, PTX_S_GLOBAL, 0);
    assert_true(cured_model_counters_sass(c, fn, big)->reduction);
    assert_false(cured_model_counters_sass(c, fn, counted)->reduction);
    assert_true(cured_model_counters_sass(c, fn, counted)->predicated);
    assert_int_equal(cured_model_counters_sass(c, fn, big)->width[0], 8);
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);
}

/* SASS without lines, and SASS of other kernels: PTX-level, with a note. */
static void test_unmatched(void **state)
{
    fixture *f = *state;
    cured_model_sass_summary s;
    cured_model_counters *c = matched(f->ptx, GUARDED, f->cuobjdump, &s);
    assert_int_equal(s.mode, CURED_MODEL_SASS_NONE);
    assert_int_equal(s.nnotes, 1);
    assert_non_null(strstr(s.notes[0].text, "no line annotations"));
    assert_null(cured_model_counters_sass(c, cured_model_find_function(f->ptx, GUARDED),
                                    pc_of(f->ptx, GUARDED, PTX_OP_LD, PTX_S_SHARED, 0)));
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);

    cured_model_module *other = fixture_ptx("classic_f32.ptx");
    c = matched(other, "_Z16divergent_kernelIfEvPKT_PS0_j", f->sass, &s);
    assert_int_equal(s.functions, 0);
    assert_int_equal(s.nnotes, 1);
    assert_non_null(strstr(s.notes[0].text, "has no instruction"));
    cured_model_sass_summary_free(&s);
    cured_model_counters_free(c);
    cured_model_module_free(other);
}

/* Corrupted SASS that still parses (lines pointing anywhere, widths and
 * guards changed) never crashes the matcher, for every kernel of the
 * fixture; it may only leave notes. */
static void test_corrupted_sass(void **state)
{
    fixture *f = *state;
    size_t len;
    char *text = fixture_text("kernels.sass", &len);
    char *copy = malloc(len);
    uint64_t seed = 99;
    int parsed = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(copy, text, len);
        for (int k = 0; k < 6; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(seed >> 33) % len;
            copy[at] = "0123456789@!P.LDSTG"[(seed >> 20) % 19];
        }
        sass_module *s = sass_parse(copy, len, NULL);
        if (s == NULL)
            continue;
        parsed++;
        for (int fn = 0; fn < f->ptx->nfunctions; fn++) {
            if (!f->ptx->functions[fn].is_entry)
                continue;
            cured_model_counters *c = cured_model_counters_new(f->ptx, fn);
            cured_model_sass_summary sum;
            assert_int_equal(cured_model_sass_apply(f->ptx, fn, s, c, &sum), 0);
            cured_model_sass_summary_free(&sum);
            cured_model_counters_free(c);
        }
        sass_module_free(s);
    }
    assert_true(parsed > 0);
    free(copy);
    free(text);
}

/* The counters' SASS API refuses what does not fit. */
static void test_fact_api(void **state)
{
    fixture *f = *state;
    int fn = cured_model_find_function(f->ptx, PAIRS);
    cured_model_counters *c = cured_model_counters_new(f->ptx, fn);
    int ld = pc_of(f->ptx, PAIRS, PTX_OP_LD, PTX_S_SHARED, 0);
    cured_model_sass_fact fact;
    memset(&fact, 0, sizeof fact);
    fact.npieces = 1;
    fact.width[0] = 0;
    assert_int_equal(cured_model_counters_set_sass(c, fn, ld, &fact), -1);
    fact.width[0] = 33;
    assert_int_equal(cured_model_counters_set_sass(c, fn, ld, &fact), -1);
    fact.width[0] = 4;
    fact.npieces = CURED_MODEL_SASS_MAX_PIECES + 1;
    assert_int_equal(cured_model_counters_set_sass(c, fn, ld, &fact), -1);
    fact.npieces = 1;
    assert_int_equal(cured_model_counters_set_sass(c, fn, -1, &fact), -1);
    assert_int_equal(cured_model_counters_set_sass(c, fn, 100000, &fact), -1);
    assert_int_equal(cured_model_counters_set_sass(c, fn, ld, &fact), 0);
    assert_int_equal(cured_model_counters_sass_width(c, fn, ld), 4);
    assert_int_equal(cured_model_counters_set_sass(c, fn, ld, NULL), 0);
    assert_null(cured_model_counters_sass(c, fn, ld));
    int32_t bad[1] = {100000};
    assert_int_equal(cured_model_counters_set_sass_skips(c, fn, 0, bad, 1), -1);
    assert_int_equal(cured_model_counters_set_sass_skips(c, fn, 0, NULL, 1), -1);
    int32_t good[1] = {ld};
    assert_int_equal(cured_model_counters_set_sass_skips(c, fn, 0, good, 1), 0);
    const int32_t *pcs;
    assert_int_equal(cured_model_counters_sass_skips(c, fn, 0, &pcs), 1);
    assert_int_equal(cured_model_counters_set_sass_skips(c, fn, 0, NULL, 0), 0);
    assert_int_equal(cured_model_counters_sass_skips(c, fn, 0, &pcs), 0);
    assert_null(cured_model_counters_sass_label(c));
    cured_model_counters_set_sass_label(c, "kernels.sass");
    assert_string_equal(cured_model_counters_sass_label(c), "kernels.sass");
    cured_model_counters_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_vector_unused),
        cmocka_unit_test(test_if_converted),
        cmocka_unit_test(test_source_lines),
        cmocka_unit_test(test_reductions),
        cmocka_unit_test(test_unmatched),
        cmocka_unit_test(test_corrupted_sass),
        cmocka_unit_test(test_fact_api),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
