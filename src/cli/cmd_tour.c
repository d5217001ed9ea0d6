/* cmd_tour.c - `cured tour`: the whole lesson in one run (the main job).
 *
 *   cured tour [--no-gpu] [--html FILE | --no-html]
 *
 * 1. the catalogue, in teaching order;
 * 2. the lesson's table, reproduced by running the four versions' PTX in
 *    the model (no GPU needed), with the hardware view beside it, what the
 *    columns mean, the maths of the tree and the commands to try next;
 * 3. one version (sequential) step by step, as `cured animate` draws it;
 * 4. the page of `cured animate --html` written (cured-lesson.html here by
 *    default), to open in a browser;
 * 5. on a machine with a GPU (CUDA builds), a short benchmark of every
 *    catalogue kernel against CUB and the read ceiling, each result checked
 *    against CUB's; without one, a line saying the GPU part was skipped.
 */
#include "animate.h"
#include "cli.h"
#include "cured.h"
#include "lesson_table.h"
#ifdef CURED_HAVE_CUDA
#include "bench.h"
#endif

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* Prints a section heading. Can't fail. */
static void heading(const char *title)
{
    printf("\n== %s ==\n\n", title);
    fflush(stdout);
}

#ifdef CURED_HAVE_CUDA
/* The GPU part: cured bench over 2^20..2^26, 20 runs each, every kernel
 * checked against CUB. Returns 0 when it ran with every check ok (or when
 * it could not start, no GPU: it says so and that it skipped this part),
 * 1 when a check failed. */
static int tour_gpu(void)
{
    char *argv[] = {"tour", "--min-log2", "20", "--max-log2", "26",
                    "--runs", "20", "--target-ms", "20", NULL};
    bench_options opts;
    char err[256];
    if (bench_parse_options(9, argv, &opts, err, sizeof err) != BENCH_PARSE_RUN) {
        cli_fail("tour", "internal bench options rejected: %s", err);
        return 1;
    }
    bench_results results;
    memset(&results, 0, sizeof results);
    int failed = bench_run(&opts, &results, err, sizeof err) != 0;
    if (failed && results.count == 0) {
        printf("skipped: %s.\nThe GPU part needs an NVIDIA GPU; parts 1 and 2 above "
               "ran in the model, on this CPU.\n", err);
        bench_results_free(&results);
        return 0;
    }
    bench_derive(&results);
    bench_print_table(stdout, &results);
    int mismatches = 0;
    for (int i = 0; i < results.count; i++) {
        const bench_result *r = &results.items[i];
        if ((r->check == BENCH_CHECK_MISMATCH && !r->is_exhibit) ||
            r->check == BENCH_CHECK_FAILED)
            mismatches++;
    }
    if (failed)
        printf("the benchmark stopped early: %s\n", err);
    printf("%d result(s) disagreed with CUB beyond the rounding bound\n", mismatches);
    bench_results_free(&results);
    return failed || mismatches ? 1 : 0;
}
#endif

/* Part 3: the sequential version as frames, its first tree step, a
 * middle one and the last. Returns 0, or the animate status. */
static int tour_frames(void)
{
    char *argv[] = {"animate", "sequential", "--no-color", NULL}, err[256];
    cli_animate_options o;
    if (cli_animate_parse(3, argv, &o, err, sizeof err) != CLI_ANIMATE_OK)
        return cli_fail("tour", "internal animate options rejected: %s", err);
    cured_model_source src;
    viz_story *story = NULL;
    int rc = cli_animate_load_catalogue(&src);
    if (rc != 0)
        return rc;
    rc = cli_animate_catalogue(&o, &src, "sequential", &story);
    cured_model_source_free(&src);
    if (rc != 0)
        return rc;
    viz_term_options vo = {.color = 0, .width = 120};
    int last = viz_story_frames(story) - 1;
    int frames[3] = {2, last / 2 + 1, last};
    for (int i = 0; i < 3; i++) {
        viz_term_frame(stdout, story, frames[i], &vo);
        putchar('\n');
    }
    viz_term_legend(stdout, &vo);
    viz_story_free(story);
    return 0;
}

int cmd_tour(int argc, char **argv)
{
    static const struct option options[] = {
        {"no-gpu", no_argument, NULL, 'n'},
        {"html", required_argument, NULL, 'p'},
        {"no-html", no_argument, NULL, 'x'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int gpu = 1, opt;
    const char *html = "cured-lesson.html";
    optind = 1;
    opterr = 0;   /* our own message, in the CLI's form */
    while ((opt = getopt_long(argc, argv, "nh", options, NULL)) != -1) {
        switch (opt) {
        case 'n': gpu = 0; break;
        case 'p': html = optarg; break;
        case 'x': html = NULL; break;
        case 'h':
            printf("usage: cured tour [--no-gpu] [--html FILE | --no-html]\n"
                   "The lesson in one run: the catalogue, the lesson's table from the\n"
                   "model with what its columns mean, one version step by step, the\n"
                   "page of cured animate (cured-lesson.html here unless --html FILE or\n"
                   "--no-html) and, with a GPU, a short benchmark.\n");
            return 0;
        default:
            return cli_fail("tour", "unknown option '%s' (see cured tour --help)",
                            argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_fail("tour", "unexpected argument '%s'", argv[optind]);

    printf("cured tour: summing an array on a GPU, from Harris's divergent tree\n"
           "to warp shuffles and single-pass grid reductions.\n");

    heading("1. The catalogue, in teaching order (cured list)");
    char *list_argv[] = {"list", NULL};
    int status = cmd_list(1, list_argv);

    heading("2. The lesson's table, from the model (cured model --lesson-table)");
    printf("Each version's PTX runs in the model, warp by warp, on this CPU.\n\n");
    fflush(stdout);
    int model_status = cli_lesson_table(0);
    if (model_status != 0)
        status = model_status;

    heading("3. One version step by step (cured animate sequential)");
    printf("The sequential tree as the model ran it: its first tree step, a middle\n"
           "one and the last (cured animate sequential --step shows every step).\n\n");
    fflush(stdout);
    int frames_status = tour_frames();
    if (frames_status != 0 && status == 0)
        status = frames_status;

    heading("4. The lesson as a web page (cured animate --html)");
    if (html != NULL) {
        char *page_argv[] = {"animate", "--html", (char *)html, NULL}, err[256];
        cli_animate_options o;
        int page_status = cli_animate_parse(3, page_argv, &o, err, sizeof err) ==
                                  CLI_ANIMATE_OK
                              ? cli_animate_write_page(&o)
                              : cli_fail("tour", "%s", err);
        if (page_status != 0 && status == 0)
            status = page_status;
    } else {
        printf("skipped (--no-html)\n");
    }

    heading("5. On the GPU (cured bench --min-log2 20 --max-log2 26)");
#ifdef CURED_HAVE_CUDA
    if (gpu) {
        fflush(stdout);
        if (tour_gpu() != 0 && status == 0)
            status = 1;
    } else {
        printf("skipped (--no-gpu)\n");
    }
#else
    (void)gpu;
    printf("skipped: this build has no CUDA support\n");
#endif
    return status;
}
