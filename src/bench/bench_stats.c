/* bench_stats.c - order statistics of timed runs: quantiles, median, noise.
 *
 * defines: bench_quantile, bench_summarize, bench_noise_pct
 *
 * Medians and quartiles rather than means: a run that a context switch or
 * a clock change slowed down moves the mean but barely the median.
 */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

double bench_quantile(const double *sorted, int count, double q)
{
    if (count < 1)
        return NAN;
    if (q <= 0)
        return sorted[0];
    if (q >= 1)
        return sorted[count - 1];
    double rank = q * (count - 1);
    int lo = (int)floor(rank);
    double frac = rank - lo;
    if (lo + 1 >= count)
        return sorted[count - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* qsort's comparison for doubles, ascending. */
static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_summarize(double *samples, int count, bench_summary *out)
{
    if (count > 1)
        qsort(samples, (size_t)count, sizeof *samples, compare_doubles);
    out->runs = count < 0 ? 0 : count;
    out->median = bench_quantile(samples, count, 0.5);
    out->q1 = bench_quantile(samples, count, 0.25);
    out->q3 = bench_quantile(samples, count, 0.75);
    out->min = count > 0 ? samples[0] : NAN;
    out->max = count > 0 ? samples[count - 1] : NAN;
}

double bench_noise_pct(const bench_summary *s)
{
    if (!(s->median > 0))
        return NAN;
    return 100.0 * (s->q3 - s->q1) / s->median;
}
