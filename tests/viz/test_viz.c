/* test_viz.c - the renderers (src/viz) on traced runs of real PTX: the
 * lesson's counts at the last frame, the captions, the terminal's width
 * and plain text, the page's self-containment, and "no second model":
 * the same tree walked the other way is drawn the other way.
 *
 *   ctest --test-dir build -R test_viz
 *
 * Fixtures: tests/model/views/seed_kernels.ptx (the lesson's four versions,
 * in[i] = i + 1 as floats, sum 2080) and tests/viz/fixtures/trees.ptx
 * (trees.cu: tree_forward, tree_reversed, warp_only; in[i] = i as u32,
 * sum 2016).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_files.h"
#include "viz.h"

/* Runs `kernel` of dir/file on one block of 64 threads with a trace and
 * returns its story; in[i] = i + 1 (floats) or i (u32). */
static viz_story *story_of(const char *dir, const char *file, const char *kernel,
                           uint32_t dynamic_shared, int u32, uint32_t outs)
{
    cured_model_module *m = test_parse_ptx_file(dir, file);
    int fn = cured_model_find_function(m, kernel);
    assert_true(fn >= 0);
    cured_model_trace *t = cured_model_trace_new(m, fn);
    cured_model_memory *mem = cured_model_memory_new();
    cured_model_buffer *in = cured_model_memory_alloc(mem, "in", 256, 1);
    cured_model_buffer *out = cured_model_memory_alloc(mem, "out", 4 * outs, 1);
    for (uint32_t i = 0; i < 64; i++) {
        if (u32) {
            memcpy(in->data + 4 * i, &i, 4);
        } else {
            float x = (float)(i + 1);
            memcpy(in->data + 4 * i, &x, 4);
        }
    }
    uint64_t params[3] = {in->addr, out->addr, 64};
    cured_model_observer obs = cured_model_trace_observer(t);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = m;
    l.function = fn;
    l.grid = (cured_model_dim3){1, 1, 1};
    l.block = (cured_model_dim3){64, 1, 1};
    l.dynamic_shared_bytes = dynamic_shared;
    l.params = params;
    l.params_size = u32 ? 20 : 16;   /* trees.cu kernels take n (u32) too */
    l.memory = mem;
    l.observers = &obs;
    l.nobservers = 1;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&l, &res), 0);
    assert_int_equal(res.findings.count, 0);
    viz_story_info info = {.id = kernel, .label = kernel, .group = "lesson"};
    viz_story *s = NULL;
    char err[256];
    int rc = viz_story_build(t, mem, &info, &s, err, sizeof err);
    if (rc != 0)
        fail_msg("%s: %s", kernel, err);
    cured_model_findings_clear(&res.findings);
    cured_model_memory_free(mem);
    cured_model_trace_free(t);
    cured_model_module_free(m);
    return s;
}

static viz_story *seed(const char *kernel)
{
    return story_of(SEED_FIXTURES, "seed_kernels.ptx", kernel,
                    strcmp(kernel, "seed_shuffle") ? 256 : 0, 0, 1);
}

static viz_story *tree(const char *kernel, uint32_t outs)
{
    return story_of(VIZ_FIXTURES, "trees.ptx", kernel,
                    strcmp(kernel, "warp_only") ? 256 : 0, 1, outs);
}

/* Frame k of s as the terminal shows it (malloc'd). */
static char *frame_text(const viz_story *s, int k, int color)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    viz_term_options o = {.color = color, .width = 120};
    assert_int_equal(viz_term_frame(f, s, k, &o), 0);
    fclose(f);
    return text;
}

/* text with each line break and the indent after it made one space, so a
 * wrapped caption reads in one piece. */
static char *flat(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            *o++ = ' ';
            continue;
        }
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

/* 1 when text, flattened, holds want. */
static int strstr_flat(const char *text, const char *want)
{
    char *f = flat(text);
    int found = strstr(f, want) != NULL;
    free(f);
    return found;
}

/* Every line of text is at most `width` columns. */
static void assert_fits(const char *text, int width)
{
    for (const char *p = text; *p;) {
        int w = viz_term_width(p);
        if (w > width)
            fail_msg("a line of %d columns: %.80s", w, p);
        const char *nl = strchr(p, '\n');
        if (nl == NULL)
            break;
        p = nl + 1;
    }
}

/* ------------------------------------------------------------ the tests */

static void test_lesson_rows(void **state)
{
    (void)state;
    static const struct {
        const char *kernel;
        uint64_t accesses;
        uint32_t syncs, worst, first_div, first_warps;
        int has_first;
        uint32_t frames;
    } k[4] = {
        {"seed_divergent", 189, 6, 1, 2, 2, 1, 9},
        {"seed_strided", 189, 6, 2, 0, 1, 1, 9},
        {"seed_sequential", 189, 6, 1, 0, 1, 1, 9},
        {"seed_shuffle", 4, 1, 0, 0, 0, 0, 0},
    };
    for (int i = 0; i < 4; i++) {
        viz_story *s = seed(k[i].kernel);
        viz_final f = viz_story_final(s);
        assert_int_equal(f.accesses, k[i].accesses);
        assert_int_equal(f.syncs, k[i].syncs);
        assert_int_equal(f.worst_degree, k[i].worst);
        assert_int_equal(f.has_first_step, k[i].has_first);
        assert_int_equal(f.first_divergent, k[i].first_div);
        assert_int_equal(f.first_warps, k[i].first_warps);
        assert_int_equal(f.n, 64);
        assert_int_equal(f.additions, 63);
        assert_int_equal(f.depth, 6);
        if (k[i].frames)
            assert_int_equal(viz_story_frames(s), k[i].frames);
        assert_int_equal(f.shuffles_per_warp, i == 3 ? 5 : 0);
        viz_story_free(s);
    }
}

static void test_captions_and_width(void **state)
{
    (void)state;
    viz_story *s = seed("seed_divergent");
    char *t = frame_text(s, 2, 0);
    assert_true(strstr_flat(t, "stride 1: threads 0, 2, 4, ..., 62 add x[tid + 1] into "
                              "x[tid] (32 threads); no bank conflict; both warps diverge"));
    assert_true(strstr_flat(t, "shared accesses 96, __syncthreads 1"));
    assert_null(strchr(t, '\x1b'));
    assert_fits(t, 120);
    free(t);
    t = frame_text(s, 1, 0);
    assert_true(strstr_flat(t, "64 initial stores"));
    free(t);
    t = frame_text(s, 8, 1);
    assert_non_null(strchr(t, '\x1b'));          /* colours asked for */
    assert_true(strstr_flat(t, "copies x[0] = 2080 to out[0]"));
    assert_fits(t, 120);
    free(t);
    viz_story_free(s);

    s = seed("seed_strided");
    t = frame_text(s, 2, 0);
    assert_true(strstr_flat(t, "threads 0-31 add x[2*tid + 1] into x[2*tid]"));
    assert_true(strstr_flat(t, "2-way bank conflict: lanes 0 and 16 of warp 0 write x[0] "
                              "and x[32], both in bank 0"));
    free(t);
    viz_story_free(s);

    s = seed("seed_shuffle");
    t = frame_text(s, 2, 0);
    assert_true(strstr_flat(t, "shfl.down by 16 in 2 warps"));
    assert_true(strstr_flat(t, "32 additions count (lanes 0-15 of each warp)"));
    assert_true(strstr_flat(t, "lanes 16-31 read past the warp's end"));
    assert_true(strstr_flat(t, "w0.v[0]←w0.v[16]=18"));
    free(t);
    viz_story_free(s);
}

/* No second model: the tree walked the other way is drawn the other way. */
static void test_reversed_tree(void **state)
{
    (void)state;
    viz_story *fw = tree("tree_forward", 1), *rv = tree("tree_reversed", 1);
    assert_int_equal(viz_story_frames(fw), viz_story_frames(rv));
    char *a = frame_text(fw, 2, 0), *b = frame_text(rv, 2, 0);
    assert_true(strstr_flat(a, "threads 0-31 add x[tid + 32] into x[tid]"));
    assert_true(strstr_flat(b, "threads 32-63 add x[tid - 32] into x[tid]"));
    free(a);
    free(b);
    int last = viz_story_frames(fw) - 1;
    a = frame_text(fw, last, 0);
    b = frame_text(rv, last, 0);
    assert_true(strstr_flat(a, "copies x[0] = 2016 to out[0]"));
    assert_true(strstr_flat(b, "copies x[63] = 2016 to out[0]"));
    free(a);
    free(b);
    viz_final f = viz_story_final(rv);
    assert_int_equal(f.accesses, 189);
    assert_int_equal(f.additions, 63);
    viz_story_free(fw);
    viz_story_free(rv);
}

/* No shared memory: registers and global memory are drawn. */
static void test_no_shared(void **state)
{
    (void)state;
    viz_story *s = tree("warp_only", 2);
    char *t = frame_text(s, 2, 0);
    assert_true(strstr_flat(t, "w0 v"));
    assert_null(strstr(t, "x[0]"));
    assert_true(strstr_flat(t, "shfl.down by 16"));
    free(t);
    t = frame_text(s, viz_story_frames(s) - 1, 0);
    assert_true(strstr_flat(t, "out[0]←w0.v[0]=496"));     /* 0 + ... + 31 */
    assert_true(strstr_flat(t, "out[1]←w1.v[0]=1520"));    /* 32 + ... + 63 */
    free(t);
    viz_final f = viz_story_final(s);
    assert_int_equal(f.accesses, 0);
    assert_int_equal(f.additions, 62);
    viz_story_free(s);
}

static void test_html(void **state)
{
    (void)state;
    viz_story *s[2] = {seed("seed_divergent"), seed("seed_shuffle")};
    char *text = NULL, err[128];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(viz_html_write(f, s, 2, 1, err, sizeof err), 0);
    fclose(f);
    assert_non_null(strstr(text, "Content-Security-Policy\" content=\"default-src 'none'"));
    assert_null(strstr(text, "http://"));
    assert_null(strstr(text, "https://"));
    assert_null(strstr(text, " src="));
    assert_null(strstr(text, "<link"));
    assert_non_null(strstr(text, "\"initial\":1"));
    assert_non_null(strstr(text, "\"id\":\"seed_divergent\""));
    assert_non_null(strstr(text, "aria-live=\"polite\""));
    /* the data cannot end its script early: two scripts, two ends */
    int ends = 0;
    for (const char *p = text; (p = strstr(p, "</script>")) != NULL; p++)
        ends++;
    assert_int_equal(ends, 2);
    free(text);
    viz_story_free(s[0]);
    viz_story_free(s[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_rows),
        cmocka_unit_test(test_captions_and_width),
        cmocka_unit_test(test_reversed_tree),
        cmocka_unit_test(test_no_shared),
        cmocka_unit_test(test_html),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
