/* lesson_legend.c - the legend under `cured model --lesson-table`: what a
 * new reader needs to read the table (docs/lesson.md says it at length),
 * with the numbers of the runs just made, and where to go next.
 *
 * defines: cli_lesson_legend
 *
 * Every number printed is measured: the initial stores, the barrier after
 * them and the final read that the counts leave out are the step view's;
 * the hardware's barriers and shared loads are the counters'; the maths is the
 * sequential run's beside the formula.
 */
#include "lesson_legend.h"

#include <inttypes.h>

int cli_lesson_legend(FILE *out, const cured_model_step_view *const views[4],
                      const cured_model_counters *const counters[4], uint32_t block)
{
    uint64_t hw_barriers = cured_model_counters_total(counters[0], CURED_MODEL_CTR_BARRIERS);
    uint64_t hw_loads = cured_model_counters_total(counters[0], CURED_MODEL_CTR_SHARED_LD);
    cured_model_step_summary tree = cured_model_step_view_summary(views[0]);
    cured_model_step_summary shfl = cured_model_step_view_summary(views[3]);
    cured_model_step_maths m = cured_model_step_view_maths(views[2], block);
    uint32_t warps = (block + 31) / 32;
    fprintf(out,
            "\nWhat the columns count (docs/lesson.md, \"The lesson table\"):\n"
            "- shared-memory accesses: per thread, 3 for each thread that adds in a tree\n"
            "  step (it reads its own word and its partner's and writes its own): %" PRIu64
            " additions x 3 = %" PRIu64 ".\n"
            "  Left out: the %" PRIu64 " initial stores of the values into shared memory, the "
            "%" PRIu64 " barrier after them\n"
            "  and the %" PRIu64 " final read of the block's sum (divergent's run).\n"
            "- __syncthreads(): one per tree step, %" PRIu64 " for log2 %" PRIu64 " levels. "
            "The hardware view counts the BAR\n"
            "  instruction once per warp and the barrier after the initial stores too: "
            "%" PRIu64 " = (%" PRIu64 " + %" PRIu64 ") x %u warps.\n"
            "- worst bank conflict: the most distinct words one bank receives in one warp's "
            "store, over the\n"
            "  tree steps; 1-way is none. The strided index writes x[2*s*tid]: lanes t and t' "
            "meet in a bank\n"
            "  when 2s(t - t') = 0 (mod 32), so every bank gets two words: 2-way.\n"
            "- divergent warps (first step), \"D of P\": of the P warps with lanes adding in "
            "the first tree step,\n"
            "  D have only some of their 32 lanes adding. \"0 of 1\": one warp adds with all "
            "its lanes and the\n"
            "  other sits the step out, which costs nothing; \"2 of 2\": both warps issue the "
            "step half idle.\n"
            "- warp shuffle: no tree in shared memory (\"-\", \"none\"): each warp adds its "
            "32 values with 5\n"
            "  __shfl_down_sync rounds in registers; lane 0 of each warp stores the warp's "
            "sum and the sums are\n"
            "  read back: %" PRIu64 " accesses, %" PRIu64 " barrier (the catalogue's warp 0 "
            "adds the sums with a second round\n"
            "  of shuffles: %u per warp at most).\n"
            "- the hardware view counts warp instructions, as Nsight Compute does: "
            "divergent issues %" PRIu64 " shared\n"
            "  loads where the lesson counts its accesses by thread (docs/model.md).\n",
            m.additions, tree.accesses, tree.initial_stores, tree.initial_barriers,
            tree.final_reads, tree.barriers, m.n, hw_barriers, tree.barriers,
            tree.initial_barriers, warps, shfl.accesses, shfl.barriers,
            shfl.shuffle_rounds, hw_loads);
    if (cured_model_step_view_print_maths(out, views[2], block) != 0)
        return -1;
    fprintf(out,
            "(the sequential run; every tree version makes the same additions)\n"
            "\nNext:\n"
            "  cured animate sequential                 the tree step by step, in this "
            "terminal\n"
            "  cured animate strided-index --step       a key per step: watch the 2-way "
            "conflict\n"
            "  cured animate --html lesson.html         the four versions in one page, "
            "for a browser\n"
            "  cured model sequential --n 64 --block 64 --steps   one kernel's steps and "
            "maths\n"
            "  cured list                               the whole catalogue, in teaching "
            "order\n");
    return ferror(out) ? -1 : 0;
}
