/* step_view_maths.c - the maths of a tree (docs/lesson.md, "Why a tree"):
 * its formulas for n values, and what a step view measured of the same.
 *
 * defines: cured_model_tree_formula_of, cured_model_tree_level_busy,
 *          cured_model_step_view_maths, cured_model_step_view_print_maths,
 *          cured_model_step_view_write_maths_json
 *
 * A tree over n values has n - 1 additions and depth log2 n (rounded up);
 * with one thread per value, level k has n / 2^k adders, so the average
 * share of busy threads over the levels is (1 - 1/n) / log2 n. Measured:
 * the depth is the tree steps of a block, the additions its adding threads,
 * n the values that entered the tree (the initial stores), the share the
 * additions over depth * threads.
 */
#include "step_view.h"

#include <math.h>
#include <string.h>

cured_model_tree_formula cured_model_tree_formula_of(uint64_t n)
{
    cured_model_tree_formula f;
    memset(&f, 0, sizeof f);
    if (n < 2)
        return f;
    while (((uint64_t)1 << f.depth) < n)
        f.depth++;
    f.additions = n - 1;
    f.busy = (1.0 - 1.0 / (double)n) / log2((double)n);
    return f;
}

double cured_model_tree_level_busy(uint64_t n, uint32_t k, uint32_t threads)
{
    cured_model_tree_formula f = cured_model_tree_formula_of(n);
    if (threads == 0 || k == 0 || k > f.depth)
        return 0.0;
    uint64_t adders = n >> k;
    if (adders == 0)
        adders = 1;
    return (double)adders / (double)threads;
}

cured_model_step_maths cured_model_step_view_maths(const cured_model_step_view *v,
                                                   uint32_t threads)
{
    cured_model_step_maths m;
    memset(&m, 0, sizeof m);
    cured_model_step_summary s = cured_model_step_view_summary(v);
    uint32_t blocks = s.blocks ? s.blocks : 1;
    const cured_model_step *steps;
    int n = cured_model_step_view_steps(v, &steps);
    uint64_t adding = 0;
    for (int i = 0; i < n; i++)
        adding += steps[i].adding_threads;
    m.n = s.initial_stores / blocks;
    m.threads = threads;
    m.depth = (uint32_t)(n / (int)blocks);
    m.additions = adding / blocks;
    if (m.depth > 0 && threads > 0)
        m.busy = (double)m.additions / ((double)m.depth * threads);
    m.formula = cured_model_tree_formula_of(m.n);
    return m;
}

int cured_model_step_view_print_maths(FILE *out, const cured_model_step_view *v,
                                      uint32_t threads)
{
    cured_model_step_maths m = cured_model_step_view_maths(v, threads);
    if (m.depth == 0) {
        fprintf(out, "\nthe maths of a tree: no tree in shared memory to measure "
                "(docs/lesson.md, \"Why a tree\"); cured animate draws and counts the "
                "additions of shuffle rounds too\n");
        return ferror(out) ? -1 : 0;
    }
    fprintf(out, "\nThe maths of the tree (docs/lesson.md), per block: n = %llu "
            "values entered it, %u threads\n\n| | measured | formula |\n|---|---|---|\n",
            (unsigned long long)m.n, m.threads);
    fprintf(out, "| depth | %u tree steps | log2 n = %u |\n", m.depth, m.formula.depth);
    fprintf(out, "| additions | %llu | n - 1 = %llu |\n", (unsigned long long)m.additions,
            (unsigned long long)m.formula.additions);
    fprintf(out, "| busy share | %.1f %% | (1 - 1/n) / log2 n = %.1f %% |\n",
            100.0 * m.busy, 100.0 * m.formula.busy);
    const cured_model_step *steps;
    int n = cured_model_step_view_steps(v, &steps);
    for (uint32_t k = 1; k <= m.depth && (int)k <= n; k++)
        fprintf(out, "| busy share, step %u | %u of %u threads: %.1f %% | n / 2^%u of %u: "
                "%.1f %% |\n", k, steps[k - 1].adding_threads, threads,
                threads ? 100.0 * steps[k - 1].adding_threads / threads : 0.0, k,
                threads, 100.0 * cured_model_tree_level_busy(m.n, k, threads));
    return ferror(out) ? -1 : 0;
}

int cured_model_step_view_write_maths_json(FILE *out, const cured_model_step_view *v,
                                           uint32_t threads)
{
    cured_model_step_maths m = cured_model_step_view_maths(v, threads);
    const cured_model_step *steps;
    int n = cured_model_step_view_steps(v, &steps);
    fprintf(out, "{\"n\": %llu, \"threads\": %u, \"depth\": %u, \"additions\": %llu, "
            "\"busy\": %.6f, \"per_step_busy\": [", (unsigned long long)m.n, m.threads,
            m.depth, (unsigned long long)m.additions, m.busy);
    for (uint32_t k = 0; k < m.depth && (int)k < n; k++)
        fprintf(out, "%s%.6f", k ? ", " : "",
                threads ? (double)steps[k].adding_threads / threads : 0.0);
    fprintf(out, "], \"formula\": {\"depth\": %u, \"additions\": %llu, \"busy\": %.6f}}",
            m.formula.depth, (unsigned long long)m.formula.additions, m.formula.busy);
    return ferror(out) ? -1 : 0;
}
