/* cmd_list.c - `cured list` and `cured version`: what this build holds.
 *
 *   cured list [--json]
 */
#include "cli.h"
#include "cured.h"
#include "json_out.h"

#include <getopt.h>
#include <stdio.h>

#ifndef CURED_VERSION
#define CURED_VERSION "unknown"
#endif

int cmd_list(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
        switch (opt) {
        case 'j': json = 1; break;
        case 'h':
            printf("usage: cured list [--json]\n"
                   "Lists the catalogue of reduction kernels in teaching order.\n");
            return 0;
        default: return 2;
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
            printf("  {\"index\": %d, \"name\": ", i);
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
    return 0;
}

int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("cured %s\n", CURED_VERSION);
    return 0;
}
