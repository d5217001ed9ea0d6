/* cmd_animate.c - `cured animate`: a reduction step by step, drawn from the
 * model's run of the real kernel, in the terminal or as one web page.
 *
 *   cured animate KERNEL [--n N] [--step | --speed X] [--no-color]
 *   cured animate --ptx FILE | --cu FILE [--entry NAME] --arg SPEC...
 *   cured animate --html FILE [KERNEL | --ptx/--cu FILE ...] [--n N]
 *
 * Runs the kernel in the model with a trace watching (animate_run.c), makes
 * the trace a story (src/viz) and plays it (animate_term.c), or writes the
 * page with the lesson's four versions, the rest of the catalogue and the
 * user's kernel (src/viz/viz_html.c). Exit 0: shown or written; 1: the
 * model stopped a kernel (an error finding) or a write failed; 2: bad
 * usage or input.
 */
#include "animate.h"

#include "cli.h"
#include "cured.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "animate"
#define MAX_STORIES 32

/* The page's stories: the lesson's versions, the catalogue's other
 * kernels, the user's. Returns 0 or the exit status after a line on
 * stderr; *count stories are made either way (the caller frees them). */
static int page_stories(const cli_animate_options *o, viz_story **stories, int *count,
                        int *initial)
{
    static const char *const lesson_names[] = {"divergent", "strided-index", "sequential",
                                               "warp-shuffle"};
    const char *label, *code, *group, *want = NULL;
    if (o->kernel != NULL) {
        want = cli_animate_lesson(o->kernel, &label, &code, &group);
        if (want == NULL)
            return cli_fail(CMD, "unknown kernel '%s' (the lesson's versions: divergent, "
                            "strided-index, sequential, warp-shuffle; the catalogue: "
                            "cured list)", o->kernel);
    }
    *count = 0;
    *initial = 0;
    cured_model_source src;
    int rc = cli_animate_load_catalogue(&src);
    if (rc != 0 && o->ptx_path == NULL && o->cu_path == NULL)
        return rc;
    if (rc == 0) {
        /* the lesson's four versions, then the catalogue's other kernels */
        for (int i = 0; i < 4 && rc == 0; i++)
            rc = cli_animate_catalogue(o, &src, lesson_names[i], &stories[(*count)++]);
        for (int i = 0; i < cured_catalogue_count() && rc == 0; i++) {
            const char *name = cured_catalogue_entry(i)->name;
            const char *kernel = cli_animate_lesson(name, &label, &code, &group);
            int in_lesson = strcmp(kernel, "divergent") == 0 ||
                            strcmp(kernel, "strided") == 0 ||
                            strcmp(kernel, "sequential") == 0 ||
                            strcmp(kernel, "shuffle") == 0;
            if (!in_lesson && *count < MAX_STORIES - 1)
                rc = cli_animate_catalogue(o, &src, name, &stories[(*count)++]);
        }
        cured_model_source_free(&src);
        if (rc != 0) {
            (*count)--;
            return rc;
        }
    } else {
        fprintf(stderr, "cured %s: the page has only your kernel\n", CMD);
    }
    if (o->ptx_path || o->cu_path) {
        rc = cli_animate_file(o, &stories[*count]);
        if (rc != 0)
            return rc;
        *initial = (*count)++;
    }
    for (int i = 0; want != NULL && i < *count; i++)
        if (strcmp(viz_story_id(stories[i]), want) == 0) {
            *initial = i;
            break;
        }
    return 0;
}

int cli_animate_write_page(const cli_animate_options *o)
{
    viz_story *stories[MAX_STORIES] = {0};
    int count = 0, initial = 0;
    int rc = page_stories(o, stories, &count, &initial);
    if (rc == 0) {
        char err[256];
        FILE *f = fopen(o->html, "w");
        if (f == NULL) {
            rc = cli_fail(CMD, "cannot write '%s': %s", o->html, strerror(errno));
        } else {
            int bad = viz_html_write(f, stories, count, initial, err, sizeof err);
            long bytes = ftell(f);
            if (fclose(f) != 0 || bad) {
                fprintf(stderr, "cured %s: writing '%s' failed%s%s\n", CMD, o->html,
                        bad ? ": " : "", bad ? err : "");
                rc = 1;
            } else {
                printf("wrote %s: %d version%s of the reduction, %ld KB; open it in a "
                       "browser (it needs no network)\n", o->html, count,
                       count == 1 ? "" : "s", (bytes + 1023) / 1024);
            }
        }
    }
    for (int i = 0; i < count; i++)
        viz_story_free(stories[i]);
    return rc;
}

int cmd_animate(int argc, char **argv)
{
    cli_animate_options o;
    char err[512];
    int p = cli_animate_parse(argc, argv, &o, err, sizeof err);
    if (p == CLI_ANIMATE_HELP) {
        cli_animate_usage(stdout);
        return 0;
    }
    if (p != CLI_ANIMATE_OK)
        return cli_fail(CMD, "%s", err);
    if (o.html)
        return cli_animate_write_page(&o);

    viz_story *story = NULL;
    int rc;
    if (o.ptx_path || o.cu_path) {
        rc = cli_animate_file(&o, &story);
    } else {
        const char *label, *code, *group;
        if (cli_animate_lesson(o.kernel, &label, &code, &group) == NULL)
            return cli_fail(CMD, "unknown kernel '%s' (the lesson's versions: divergent, "
                            "strided-index, sequential, warp-shuffle; the catalogue: "
                            "cured list)", o.kernel);
        cured_model_source src;
        rc = cli_animate_load_catalogue(&src);
        if (rc == 0) {
            rc = cli_animate_catalogue(&o, &src, o.kernel, &story);
            cured_model_source_free(&src);
        }
    }
    if (rc == 0)
        rc = cli_animate_play(&o, story);
    viz_story_free(story);
    return rc;
}
