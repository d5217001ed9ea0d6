/* cmd_list.c - `cured list` and `cured version`: what this build holds,
 * and the catalogue's numbering (a kernel by name or by its number).
 *
 *   cured list [--json]
 *
 * defines: cmd_list, cmd_version, cli_catalogue_find
 */
#include "cli.h"
#include "cured.h"
#include "json_out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CURED_VERSION
#define CURED_VERSION "unknown"
#endif

/* The edit distance between a and b (insertions, deletions,
 * substitutions), stopping at 9 for long words. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (strlen(a) > 40 || n > 40)
        return 9;
    int row[41];
    for (size_t j = 0; j <= n; j++)
        row[j] = (int)j;
    for (size_t i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= n; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

int cli_catalogue_find(const char *text, int *index, char *err, size_t cap)
{
    int count = cured_catalogue_count();
    if (cured_catalogue_find(text, index) == CURED_SUCCESS)
        return 0;
    if (text[0] >= '0' && text[0] <= '9') {
        char *end;
        long k = strtol(text, &end, 10);
        if (*end == '\0' && k >= 1 && k <= count) {
            *index = (int)k - 1;
            return 0;
        }
        snprintf(err, cap, "no kernel number %s: cured list numbers them 1 to %d",
                 text, count);
        return -1;
    }
    int best = -1, best_distance = 3;   /* a typo or two, not another word */
    for (int i = 0; i < count; i++) {
        int d = distance(text, cured_catalogue_entry(i)->name);
        if (d < best_distance) {
            best = i;
            best_distance = d;
        }
    }
    if (best >= 0)
        snprintf(err, cap, "unknown kernel '%s': did you mean '%s'? (cured list "
                 "shows all %d, by name and number)", text,
                 cured_catalogue_entry(best)->name, count);
    else
        snprintf(err, cap, "unknown kernel '%s' (cured list shows all %d, by name "
                 "and number)", text, count);
    return -1;
}

int cmd_list(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, opt;
    optind = 1;
    opterr = 0;   /* our own message, in the CLI's form */
    while ((opt = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
        switch (opt) {
        case 'j': json = 1; break;
        case 'h':
            printf("usage: cured list [--json]\n"
                   "Lists the catalogue of reduction kernels in teaching order,\n"
                   "numbered from 1 (--json: \"number\" is that number, \"index\"\n"
                   "the 0-based index libcured's cured_catalogue_entry takes).\n");
            return 0;
        default:
            return cli_fail("list", "unknown option '%s' (see cured list --help)",
                            argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_fail("list", "unexpected argument '%s'", argv[optind]);

    int count = cured_catalogue_count();
    if (json)
        printf("[\n");
    for (int i = 0; i < count; i++) {
        const cured_kernel_info *k = cured_catalogue_entry(i);
        const char *level = k->level == CURED_LEVEL_GRID ? "grid" : "block";
        if (json) {
            printf("  {\"number\": %d, \"index\": %d, \"name\": ", i + 1, i);
            cured_json_string(stdout, k->name);
            printf(", \"level\": \"%s\", \"max_n\": %llu, \"exhibit\": %s, "
                   "\"description\": ",
                   level, (unsigned long long)k->max_n,
                   k->is_exhibit ? "true" : "false");
            cured_json_string(stdout, k->description);
            printf("}%s\n", i + 1 < count ? "," : "");
        } else {
            printf("%2d  %-17s %-5s  %s\n", i + 1, k->name, level, k->description);
        }
    }
    if (json)
        printf("]\n");
    else
        printf("\n`cured model NAME` (or its number) runs one in the model, on this "
               "CPU;\n`cured bench` times them all on a GPU.\n");
    return 0;
}

int cmd_version(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: cured version\nPrints the version of this build.\n");
        return 0;
    }
    if (argc > 1)
        return cli_fail("version", "unexpected argument '%s' (cured version takes "
                        "none)", argv[1]);
    printf("cured %s\n", CURED_VERSION);
    return 0;
}
