/* test_bench_svg.c - the plot of `cured bench --api`: one SVG document with
 * balanced tags, a polyline per job and mode of each dtype with its points
 * left to right and higher for slower calls, escaped text, nothing for an
 * empty set.
 *
 * CPU only. Rows: f32 and f64, n = 2^10 .. 2^20 every 2, cured, CUB and
 * launch warm and cold (times growing with n), plus a read row (not
 * plotted) and an untimed cured row (left out).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_api.h"

static bench_api_row row(const char *job, const char *mode, cured_dtype d, int log2n,
                         double us)
{
    bench_api_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.job, sizeof r.job, "%s", job);
    snprintf(r.mode, sizeof r.mode, "%s", mode);
    r.dtype = d;
    r.out = d;
    r.log2n = log2n;
    r.n = (uint64_t)1 << log2n;
    r.us = (bench_summary){us, us, us, us, us, us > 0 ? 5 : 0};
    r.ulps = NAN;
    return r;
}

static char *svg_of(const bench_api_results *res, int *rc)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    *rc = bench_api_print_svg(f, res);
    fclose(f);
    return buf;
}

static int count(const char *s, const char *needle)
{
    int c = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        c++;
    return c;
}

/* Every element closed: <name ...> matched by </name>, or <name .../>;
 * checked with a stack of names. Returns 1 when balanced. */
static int balanced(const char *s)
{
    char stack[64][16];
    int depth = 0;
    for (const char *p = s; (p = strchr(p, '<')) != NULL;) {
        const char *end = strchr(p, '>');
        if (end == NULL)
            return 0;
        if (p[1] == '/') {
            char name[16] = "";
            sscanf(p + 2, "%15[a-z]", name);
            if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
                return 0;
            depth--;
        } else if (end[-1] != '/') {
            if (depth == 64)
                return 0;
            stack[depth][0] = '\0';
            sscanf(p + 1, "%15[a-z]", stack[depth]);
            depth++;
        }
        p = end + 1;
    }
    return depth == 0;
}

static void test_plot(void **state)
{
    (void)state;
    bench_api_results res;
    memset(&res, 0, sizeof res);
    snprintf(res.device, sizeof res.device, "GPU <A&B>");
    static const char *const jobs[] = {BENCH_API_CURED, BENCH_API_CUB, BENCH_API_LAUNCH};
    for (int d = 0; d < 2; d++)
        for (int k = 10; k <= 20; k += 2)
            for (int j = 0; j < 3; j++)
                for (int m = 0; m < 2; m++) {
                    double us = (j == 2 ? 3.0 : 4.0 + (1 << (k - 10)) * (1 + j)) * (1 + m);
                    bench_api_row r = row(jobs[j], m ? BENCH_API_COLD : BENCH_API_WARM,
                                          d ? CURED_F64 : CURED_F32, k, us);
                    bench_api_add(&res, &r);
                }
    bench_api_row extra = row(BENCH_API_READ, BENCH_API_WARM, CURED_F32, 12, 9999);
    bench_api_add(&res, &extra);
    extra = row(BENCH_API_CURED, BENCH_API_WARM, CURED_F32, 22, 0); /* untimed */
    bench_api_add(&res, &extra);

    int rc;
    char *s = svg_of(&res, &rc);
    assert_int_equal(rc, 0);
    assert_memory_equal(s, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39);
    assert_string_equal(s + strlen(s) - 7, "</svg>\n");
    assert_true(balanced(s));
    assert_non_null(strstr(s, "GPU &lt;A&amp;B&gt;"));
    assert_null(strstr(s, "<A&B>"));
    /* 2 panels x 3 jobs x 2 modes; a dot per timed, plotted row */
    assert_int_equal(count(s, "<polyline"), 12);
    assert_int_equal(count(s, "class=\"cold\""), 6);
    assert_int_equal(count(s, "<circle"), 2 * 6 * 6);
    assert_int_equal(count(s, "class=\"ptitle\">f32 sum<"), 1);
    assert_int_equal(count(s, "class=\"ptitle\">f64 sum<"), 1);
    assert_null(strstr(s, "9999"));  /* the read row is not plotted */
    assert_null(strstr(s, "2^22"));  /* nor an untimed one */
    /* the first polyline (f32 cured cold): 6 points, x rising, y falling
     * (slower calls higher up), inside the first panel */
    const char *p = strstr(strstr(s, "<polyline"), "points=\"") + 8;
    double lx = -1, ly = 1e9;
    for (int i = 0; i < 6; i++) {
        double x, y;
        assert_int_equal(sscanf(p, "%lf,%lf", &x, &y), 2);
        assert_true(x > lx && y < ly && x > 0 && y > 0);
        lx = x;
        ly = y;
        while (*p && *p != ' ' && *p != '"')
            p++;
        if (*p == ' ')
            p++;
    }
    assert_int_equal(*p, '"');
    /* the decades of the y axis: 1 .. 10^4 us covers 3 .. 6144 */
    assert_non_null(strstr(s, "class=\"yt\">1<"));
    assert_non_null(strstr(s, "class=\"yt\">10000<"));
    free(s);
    bench_api_free(&res);
}

static void test_empty(void **state)
{
    (void)state;
    bench_api_results res;
    memset(&res, 0, sizeof res);
    int rc;
    char *s = svg_of(&res, &rc);
    assert_int_equal(rc, -1);
    assert_string_equal(s, "");
    free(s);
    bench_api_row r = row(BENCH_API_READ, BENCH_API_WARM, CURED_F32, 10, 2); /* not plotted */
    bench_api_add(&res, &r);
    s = svg_of(&res, &rc);
    assert_int_equal(rc, -1);
    free(s);
    bench_api_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
