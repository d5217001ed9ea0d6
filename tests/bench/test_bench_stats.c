/* test_bench_stats.c - medians, quartiles and noise of timed runs.
 *
 * CPU only. Quantiles interpolate linearly between closest ranks (numpy's
 * default); the expected values below were worked out by hand.
 */
#include "bench_test.h"

#include "bench.h"

static void test_median_of_odd_count_is_the_middle_value(void **state)
{
    (void)state;
    double s[] = {5, 1, 3};
    bench_summary sum;
    bench_summarize(s, 3, &sum);
    assert_near(sum.median, 3.0, 0);
    assert_near(sum.min, 1.0, 0);
    assert_near(sum.max, 5.0, 0);
    assert_int_equal(sum.runs, 3);
    /* sorted in place */
    assert_near(s[0], 1.0, 0);
    assert_near(s[1], 3.0, 0);
    assert_near(s[2], 5.0, 0);
    /* ranks 0.5 and 1.5 */
    assert_near(sum.q1, 2.0, 1e-12);
    assert_near(sum.q3, 4.0, 1e-12);
}

static void test_median_of_even_count_averages_the_middle_pair(void **state)
{
    (void)state;
    double s[] = {4, 1, 3, 2};
    bench_summary sum;
    bench_summarize(s, 4, &sum);
    assert_near(sum.median, 2.5, 1e-12);
    /* rank 0.75 -> 1 + 0.75; rank 2.25 -> 3 + 0.25 */
    assert_near(sum.q1, 1.75, 1e-12);
    assert_near(sum.q3, 3.25, 1e-12);
}

static void test_quartiles_and_noise_of_one_to_eight(void **state)
{
    (void)state;
    double s[] = {8, 7, 6, 5, 4, 3, 2, 1};
    bench_summary sum;
    bench_summarize(s, 8, &sum);
    assert_near(sum.median, 4.5, 1e-12);
    assert_near(sum.q1, 2.75, 1e-12); /* rank 1.75 */
    assert_near(sum.q3, 6.25, 1e-12); /* rank 5.25 */
    /* (6.25 - 2.75) / 4.5 = 77.78 % */
    assert_near(bench_noise_pct(&sum), 100.0 * 3.5 / 4.5, 1e-9);
}

static void test_an_outlier_moves_the_max_not_the_median(void **state)
{
    (void)state;
    double s[] = {10, 10.2, 9.8, 10.1, 9.9, 500};
    bench_summary sum;
    bench_summarize(s, 6, &sum);
    assert_near(sum.median, 10.05, 1e-12);
    assert_near(sum.max, 500, 0);
    assert_true(bench_noise_pct(&sum) < 5);
}

static void test_one_sample_and_none(void **state)
{
    (void)state;
    double one[] = {7.5};
    bench_summary sum;
    bench_summarize(one, 1, &sum);
    assert_near(sum.median, 7.5, 0);
    assert_near(sum.q1, 7.5, 0);
    assert_near(sum.q3, 7.5, 0);
    assert_near(bench_noise_pct(&sum), 0.0, 0);

    bench_summarize(one, 0, &sum);
    assert_int_equal(sum.runs, 0);
    assert_true(isnan(sum.median));
    assert_true(isnan(sum.min));
    assert_true(isnan(bench_noise_pct(&sum)));
}

static void test_quantile_ends_and_interpolation(void **state)
{
    (void)state;
    const double sorted[] = {1, 2, 4, 8, 16};
    assert_near(bench_quantile(sorted, 5, 0.0), 1, 0);
    assert_near(bench_quantile(sorted, 5, 1.0), 16, 0);
    assert_near(bench_quantile(sorted, 5, 0.5), 4, 0);
    assert_near(bench_quantile(sorted, 5, 0.9), 8 + 0.6 * 8, 1e-12);
    assert_true(isnan(bench_quantile(sorted, 0, 0.5)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_of_odd_count_is_the_middle_value),
        cmocka_unit_test(test_median_of_even_count_averages_the_middle_pair),
        cmocka_unit_test(test_quartiles_and_noise_of_one_to_eight),
        cmocka_unit_test(test_an_outlier_moves_the_max_not_the_median),
        cmocka_unit_test(test_one_sample_and_none),
        cmocka_unit_test(test_quantile_ends_and_interpolation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
