/* model_compare.c - `cured model --compare-ncu FILE`: Nsight Compute's CSV
 * of the same kernel and launch, read and checked before the run, and
 * after it each counter beside ncu's value with the difference and its
 * known reason (cured_model_ncu_compare).
 *
 * defines: cli_model_compare_load, cli_model_compare_find,
 *          cli_model_compare_report, cli_model_ncu_metrics
 */
#include "model_compare.h"

#include "cli.h"
#include "json_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CMD "model"

/* The whole file at path, NUL-terminated; NULL after a line on stderr. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        cli_fail(CMD, "--compare-ncu: cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        if (cap >= ((size_t)1 << 30)) {       /* a CSV of a GiB is not ncu's */
            free(buf);
            buf = NULL;
            break;
        }
        char *grown = realloc(buf, cap * 2);
        if (grown == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf == NULL || bad) {
        free(buf);
        cli_fail(CMD, "--compare-ncu: reading '%s' failed", path);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int cli_model_compare_load(const char *path, cured_model_ncu_report *r)
{
    size_t len;
    char err[300];
    char *text = read_all(path, &len);
    if (text == NULL)
        return 2;
    int rc = cured_model_ncu_report_parse(text, len, r, err, sizeof err);
    free(text);
    if (rc != 0)
        return cli_fail(CMD, "--compare-ncu: %s: %s", path, err);
    return 0;
}

/* "(4,2,1)" */
static const char *dim_text(cured_model_dim3 d, char *buf, size_t cap)
{
    snprintf(buf, cap, "(%u,%u,%u)", d.x, d.y, d.z);
    return buf;
}

int cli_model_compare_find(const char *path, const cured_model_ncu_report *r,
                           const char *entry, const cured_model_launch *l, int *kernel)
{
    int named;
    *kernel = cured_model_ncu_find(r, entry, l->grid, l->block, &named);
    if (*kernel >= 0)
        return 0;
    char g[48], b[48];
    if (named > 0) {
        const cured_model_ncu_kernel *k = NULL;
        for (int i = 0; i < r->nkernels && k == NULL; i++)
            if (cured_model_ncu_find(&(cured_model_ncu_report){&r->kernels[i], 1}, entry,
                                     r->kernels[i].grid, r->kernels[i].block, NULL) == 0)
                k = &r->kernels[i];
        char kg[48], kb[48];
        return cli_fail(CMD, "--compare-ncu: %s profiled %s with grid %s and block %s; "
                        "the model runs grid %s and block %s: not the same launch",
                        path, entry, k ? dim_text(k->grid, kg, sizeof kg) : "?",
                        k ? dim_text(k->block, kb, sizeof kb) : "?",
                        dim_text(l->grid, g, sizeof g), dim_text(l->block, b, sizeof b));
    }
    char list[600];
    size_t o = 0;
    list[0] = '\0';
    for (int i = 0; i < r->nkernels && o + 80 < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%.70s", i ? ", " : "",
                              r->kernels[i].name);
    return cli_fail(CMD, "--compare-ncu: %s has no kernel %s (it has: %s)", path, entry,
                    list);
}

int cli_model_compare_report(FILE *out, const char *path, const cured_model_ncu_report *r,
                             int kernel, const cured_model_launch *l,
                             const cured_model_counters *c, unsigned inexact, int json,
                             int *different)
{
    const cured_model_ncu_kernel *k = &r->kernels[kernel];
    cured_model_ncu_row rows[CURED_MODEL_CTR_COUNT];
    uint64_t blocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    int n = cured_model_ncu_compare(c, inexact, blocks, k, rows);
    int measured = 0;
    for (int i = 0; i < n; i++)
        measured += rows[i].verdict != CURED_MODEL_NCU_NOT_MEASURED &&
                    rows[i].verdict != CURED_MODEL_NCU_OWN;
    if (measured == 0)
        return cli_fail(CMD, "--compare-ncu: %s has none of the model's metrics for %s: "
                        "profile with --metrics (docs/model.md, \"Against your own "
                        "profile\")", path, k->name);
    if (json) {
        fprintf(out, "{\"file\": ");
        cured_json_string(out, path);
        fprintf(out, ", \"id\": ");
        cured_json_string(out, k->id);
        fprintf(out, ", \"kernel\": ");
        cured_json_string(out, k->name);
        fprintf(out, ", \"comparison\": ");
        *different = cured_model_ncu_print(out, rows, n, 1);
        fputc('}', out);
    } else {
        char g[48], b[48];
        fprintf(out, "\nNsight Compute: %s, ID %s, %s, grid %s, block %s\n", path, k->id,
                k->name, dim_text(k->grid, g, sizeof g), dim_text(k->block, b, sizeof b));
        *different = cured_model_ncu_print(out, rows, n, 0);
    }
    return 0;
}

void cli_model_ncu_metrics(FILE *out)
{
    const char *seen[CURED_MODEL_CTR_COUNT];
    int n = 0;
    for (int id = 0; id < CURED_MODEL_CTR_COUNT; id++) {
        const char *m = cured_model_ncu_metric_of((cured_model_counter)id);
        if (m == NULL)
            continue;
        size_t len = strcspn(m, " ");             /* "NAME [BAR]" is NAME */
        int dup = 0;
        for (int i = 0; i < n && !dup; i++)
            dup = strcspn(seen[i], " ") == len && strncmp(seen[i], m, len) == 0;
        if (dup)
            continue;
        fprintf(out, "%s%.*s", n ? "," : "", (int)len, m);
        seen[n++] = m;
    }
    fputc('\n', out);
}
