/* test_fidelity.c - the model against Nsight Compute on the fidelity set:
 * every case of cases.txt runs in the model, counted by the committed
 * kernels.sass, and every counter printed under an ncu name must equal
 * what ncu measured on the H200, or be listed in known.txt with its
 * measured reason.
 *
 *   ctest --test-dir build -R test_fidelity --output-on-failure
 *
 * The truth is docs/data/fidelity-* /ncu.csv (`case,run,metric,value`, two
 * runs of each case, written by scripts/gpu-fidelity.sh; a case may be
 * named fid.CASE; the catalogue's cases, cat.KERNEL.nN.bB, run as `cured
 * model KERNEL --n N --block B` does, counted by the embedded SASS): for
 * each case the newest directory (by name) that has it. The comparison is the one
 * `cured model --compare-ncu` makes (cured_model_ncu_compare), so its
 * verdicts are tested here on real measurements: a difference it calls
 * known must be listed as `inexact` (the SASS match marked the class
 * inexact), `runs` (ncu's two runs differ) or `arbitration` (ncu's extra
 * shared wavefronts are its conflicts); one it calls DIFFERENT must be
 * listed as `measured`, with what was found on the GPU. Each listed
 * entry carries the model's and ncu's values, so an entry that no longer
 * holds (the model changed, or ncu's value did) fails too. A case with no
 * truth yet (a new kernel the next GPU run records) is reported and
 * skipped; a metric ncu did not record is not compared.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cured_model.h"
#include "cured_model_host.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CASES 96
#define MAX_ARGS 16
#define MAX_KNOWN 256

/* One line of cases.txt. */
typedef struct fid_case {
    char name[64];
    char entry[64];
    int catalogue;           /* a catalogue case, cat.KERNEL.nN.bB */
    char kernel[32];         /* its kernel, n and block (f32, seed 1, an H200) */
    uint64_t n;
    int blockn;
    cured_model_dim3 grid, block;
    uint32_t shared;
    cured_model_arg args[MAX_ARGS];
    int nargs;
} fid_case;

/* One line of known.txt. */
typedef struct fid_known {
    char name[64];
    char metric[128];
    uint64_t model;
    double ncu;
    char kind[16];           /* inexact | runs | measured */
    int used;
} fid_known;

/* What every case's test reads. */
typedef struct fid_set {
    cured_model_source src;
    cured_model_sass_source sass;
    cured_model_source cat_src;          /* the embedded catalogue, when a */
    cured_model_sass_source cat_sass;    /* catalogue case has truth */
    int have_catalogue;
    fid_case cases[MAX_CASES];
    int ncases;
    fid_known known[MAX_KNOWN];
    int nknown;
    cured_model_ncu_kernel truth[MAX_CASES];   /* values only; name = case */
    char truth_dir[MAX_CASES][64];
} fid_set;

static fid_set set;

/* The whole of a small text file, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf != NULL) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

// ----------------------------------------------------------------------------
// cases.txt

/* Parses one case line (`CASE ENTRY OPTIONS... [| BUFFER...]`) into *c.
 * Returns 0, or -1 with err. */
static int parse_case(char *line, fid_case *c, char *err, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->grid = c->block = (cured_model_dim3){1, 1, 1};
    char *bar = strchr(line, '|');
    if (bar != NULL)
        *bar = '\0';
    char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
    if (tok == NULL)
        return 1;
    snprintf(c->name, sizeof c->name, "%s", tok);
    tok = strtok_r(NULL, " \t\n", &save);
    if (tok == NULL) {
        snprintf(err, cap, "%s: no entry", c->name);
        return -1;
    }
    snprintf(c->entry, sizeof c->entry, "%s", tok);
    while ((tok = strtok_r(NULL, " \t\n", &save)) != NULL) {
        char *v = strtok_r(NULL, " \t\n", &save);
        if (v == NULL) {
            snprintf(err, cap, "%s: %s without a value", c->name, tok);
            return -1;
        }
        if (strcmp(tok, "--grid") == 0 || strcmp(tok, "--block") == 0) {
            if (cured_model_dim3_parse(v, tok, tok[2] == 'g' ? &c->grid : &c->block, err,
                                       cap) != 0)
                return -1;
        } else if (strcmp(tok, "--shared") == 0) {
            c->shared = (uint32_t)strtoul(v, NULL, 10);
        } else if (strcmp(tok, "--arg") == 0 && c->nargs < MAX_ARGS) {
            if (cured_model_arg_parse(v, &c->args[c->nargs++], err, cap) != 0)
                return -1;
        } else {
            snprintf(err, cap, "%s: unknown option %s", c->name, tok);
            return -1;
        }
    }
    return 0;
}

static void read_cases(void)
{
    size_t len;
    char *text = slurp(FIDELITY_DIR "/cases.txt", &len);
    assert_non_null(text);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char err[600], copy[2048];
        snprintf(copy, sizeof copy, "%s", line);
        assert_true(set.ncases < MAX_CASES);
        int rc = parse_case(copy, &set.cases[set.ncases], err, sizeof err);
        if (rc < 0)
            fail_msg("cases.txt: %s", err);
        if (rc == 0)
            set.ncases++;
    }
    free(text);
}

// ----------------------------------------------------------------------------
// The truth: docs/data/fidelity-*/ncu.csv

/* The index of case `name` ("fid.NAME" as scripts/gpu-fidelity.sh names
 * it, or NAME), or -1. */
static int case_index(const char *name)
{
    if (strncmp(name, "fid.", 4) == 0)
        name += 4;
    for (int i = 0; i < set.ncases; i++)
        if (strcmp(set.cases[i].name, name) == 0)
            return i;
    return -1;
}

/* A catalogue case named in the truth (cat.KERNEL.nN.bB, the launch
 * `cured model KERNEL --n N --block B` runs), added when new. Returns its
 * index, or -1 for a name of another form. */
static int catalogue_case(const char *name)
{
    char kernel[32];
    unsigned long long n;
    int block, used = 0;
    if (strncmp(name, "cat.", 4) != 0 ||
        sscanf(name + 4, "%31[a-z_0-9].n%llu.b%d%n", kernel, &n, &block, &used) != 3 ||
        name[4 + used] != '\0')
        return -1;
    int i = case_index(name);
    if (i >= 0 || set.ncases == MAX_CASES)
        return i;
    fid_case *c = &set.cases[set.ncases];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->catalogue = 1;
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel);
    c->n = n;
    c->blockn = block;
    return set.ncases++;
}

/* Splits a CSV line of ncu.csv (case,run,metric,value; the value may be
 * quoted with thousands separators) into its four fields. */
static int csv4(char *line, char *f[4])
{
    int n = 0;
    char *p = line;
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
        line[--len] = '\0';                 /* the file has CRLF lines */
    while (n < 4 && p != NULL) {
        if (*p == '"') {
            f[n++] = ++p;
            p = strchr(p, '"');
            if (p == NULL)
                return -1;
            *p++ = '\0';
            p = *p == ',' ? p + 1 : NULL;
        } else {
            f[n++] = p;
            p = strchr(p, ',');
            if (p != NULL)
                *p++ = '\0';
        }
    }
    return n == 4 ? 0 : -1;
}

/* Reads one directory's ncu.csv: every case it has whose truth comes from
 * an older directory (or none) takes this one's. */
static void read_truth_dir(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/ncu.csv", FIDELITY_DATA, dir);
    size_t len;
    char *text = slurp(path, &len);
    if (text == NULL)
        return;
    /* first the cases this file has */
    uint8_t here[MAX_CASES] = {0};
    char *copy = strdup(text), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[4];
        if (csv4(line, f) != 0)
            continue;
        int c = case_index(f[0]);
        if (c < 0)
            c = catalogue_case(f[0]);
        if (c >= 0)
            here[c] = 1;
    }
    free(copy);
    for (int i = 0; i < set.ncases; i++)
        if (here[i]) {
            free(set.truth[i].values);
            memset(&set.truth[i], 0, sizeof set.truth[i]);
            snprintf(set.truth_dir[i], sizeof set.truth_dir[i], "%s", dir);
        }
    save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[4];
        int c;
        if (csv4(line, f) != 0 || (c = case_index(f[0])) < 0 || !here[c])
            continue;
        char clean[64];
        size_t o = 0;
        for (const char *v = f[3]; *v && o + 1 < sizeof clean; v++)
            if (*v != ',')
                clean[o++] = *v;
        clean[o] = '\0';
        char *end;
        double v = strtod(clean, &end);
        if (end == clean || (*end != '\0' && *end != ' '))
            continue;                        /* n/a, or "8 (8)" launch values */
        cured_model_ncu_kernel *k = &set.truth[c];
        cured_model_ncu_value *grown = realloc(k->values, (size_t)(k->nvalues + 1) *
                                                           sizeof *grown);
        assert_non_null(grown);
        k->values = grown;
        snprintf(k->values[k->nvalues].metric, sizeof k->values[0].metric, "%s", f[2]);
        k->values[k->nvalues++].value = v;
    }
    free(text);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_truth(void)
{
    DIR *d = opendir(FIDELITY_DATA);
    assert_non_null(d);
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64)
        if (strncmp(e->d_name, "fidelity-", 9) == 0)
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    for (int i = 0; i < n; i++) {            /* oldest first: newer ones win */
        read_truth_dir(names[i]);
        free(names[i]);
    }
}

// ----------------------------------------------------------------------------
// known.txt

static void read_known(void)
{
    size_t len;
    char *text = slurp(FIDELITY_DIR "/known.txt", &len);
    assert_non_null(text);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0')
            continue;
        assert_true(set.nknown < MAX_KNOWN);
        fid_known *k = &set.known[set.nknown];
        unsigned long long model;
        double ncu;
        int used = 0;
        /* metric names may hold a space: "sass__inst_executed_per_opcode [BAR]" */
        char m1[96], m2[24];
        if (sscanf(line, "%63s %95s %23s %llu %lf %15s%n", k->name, m1, m2, &model, &ncu,
                   k->kind, &used) == 6 && m2[0] == '[') {
            snprintf(k->metric, sizeof k->metric, "%s %s", m1, m2);
        } else if (sscanf(line, "%63s %95s %llu %lf %15s%n", k->name, m1, &model, &ncu,
                          k->kind, &used) == 5) {
            snprintf(k->metric, sizeof k->metric, "%s", m1);
        } else {
            fail_msg("known.txt: cannot read '%s'", line);
        }
        if (strcmp(k->kind, "inexact") != 0 && strcmp(k->kind, "runs") != 0 &&
            strcmp(k->kind, "arbitration") != 0 && strcmp(k->kind, "measured") != 0)
            fail_msg("known.txt: kind '%s' (inexact, runs, arbitration or measured) in "
                     "'%s'", k->kind, line);
        if (line[used] == '\0')
            fail_msg("known.txt: no reason after the kind in '%s'", line);
        k->model = model;
        k->ncu = ncu;
        set.nknown++;
    }
    free(text);
}

/* The entry of known.txt for (case, metric), or NULL. */
static fid_known *known_of(const char *name, const char *metric)
{
    for (int i = 0; i < set.nknown; i++)
        if (strcmp(set.known[i].name, name) == 0 && strcmp(set.known[i].metric, metric) == 0)
            return &set.known[i];
    return NULL;
}

// ----------------------------------------------------------------------------
// The cases

static int group_setup(void **state)
{
    (void)state;
    char err[1200];
    if (cured_model_source_ptx_file(&set.src, FIDELITY_DIR "/kernels.ptx", err,
                                    sizeof err) != 0 ||
        cured_model_source_parse(&set.src, err, sizeof err) != 0) {
        print_error("%s\n", err);
        return -1;
    }
    if (cured_model_sass_source_file(&set.sass, FIDELITY_DIR "/kernels.sass", err,
                                     sizeof err) != 0) {
        print_error("%s\n", err);
        return -1;
    }
    for (int i = 0; i < set.ncases && !set.have_catalogue; i++)
        set.have_catalogue = set.cases[i].catalogue;
    if (set.have_catalogue) {
        cured_model_sass_source_catalogue(&set.cat_sass);
        if (cured_model_source_catalogue(&set.cat_src, err, sizeof err) != 0 ||
            cured_model_source_parse(&set.cat_src, err, sizeof err) != 0 ||
            set.cat_sass.text == NULL)
            set.have_catalogue = 0;           /* its cases skip */
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < set.ncases; i++)
        free(set.truth[i].values);
    cured_model_sass_source_free(&set.sass);
    cured_model_source_free(&set.src);
    cured_model_sass_source_free(&set.cat_sass);
    cured_model_source_free(&set.cat_src);
    return 0;
}

/* Runs case c in the model: its counters follow kernels.sass. */
static cured_model_counters *run_case(const fid_case *c, unsigned *inexact, uint64_t *blocks)
{
    char err[1200], entry[256];
    cured_model_source *src = c->catalogue ? &set.cat_src : &set.src;
    cured_model_sass_source *sass = c->catalogue ? &set.cat_sass : &set.sass;
    cured_model_arg args[MAX_ARGS];
    int nargs = c->nargs;
    cured_model_dim3 grid = c->grid, block = c->block;
    uint32_t shared = c->shared;
    memcpy(args, c->args, sizeof args);
    snprintf(entry, sizeof entry, "%s", c->entry);
    if (c->catalogue) {                      /* as `cured model KERNEL --n N --block B` */
        int kernel;
        cured_model_catalogue_launch plan;
        assert_int_equal(cured_catalogue_find(c->kernel, &kernel), CURED_SUCCESS);
        if (cured_model_catalogue_launch_make(kernel, CURED_F32, c->n, c->blockn,
                                              CURED_MODEL_ARG_DEFAULT_SEED,
                                              &cured_device_presets(NULL)->shape, &plan, err,
                                              sizeof err) != 0)
            fail_msg("%s: %s", c->name, err);
        assert_int_equal(cured_model_catalogue_entry_name(src->module, c->kernel, "f32",
                                                          c->blockn, entry, sizeof entry),
                         CURED_MODEL_CATALOGUE_OK);
        memcpy(args, plan.args, (size_t)plan.nargs * sizeof plan.args[0]);
        nargs = plan.nargs;
        grid = plan.grid;
        block = plan.block;
        shared = plan.dynamic_shared;
    }
    int fn = cured_model_find_function(src->module, entry);
    assert_true(fn >= 0);
    cured_model_memory *mem = cured_model_memory_new();
    uint8_t *params = NULL;
    size_t params_size = 0;
    if (cured_model_args_bind(src->module, fn, args, nargs, mem, &params, &params_size, err,
                              sizeof err) != 0)
        fail_msg("%s: %s", c->name, err);
    cured_model_counters *counters = cured_model_counters_new(src->module, fn);
    assert_non_null(counters);
    if (cured_model_sass_source_apply(sass, src->module, fn, counters, err, sizeof err) != 0)
        fail_msg("%s: %s", c->name, err);
    assert_true(sass->applied);
    *inexact = sass->summary.inexact;
    cured_model_observer obs = cured_model_counters_observer(counters);
    cured_model_launch l;
    memset(&l, 0, sizeof l);
    l.module = src->module;
    l.function = fn;
    l.grid = grid;
    l.block = block;
    l.dynamic_shared_bytes = shared;
    *blocks = (uint64_t)grid.x * grid.y * grid.z;
    l.params = params;
    l.params_size = params_size;
    l.memory = mem;
    l.observers = &obs;
    l.nobservers = 1;
    cured_model_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(cured_model_run(&l, &res), 0);
    assert_true(res.completed);
    cured_model_findings_clear(&res.findings);
    free(params);
    cured_model_memory_free(mem);
    return counters;
}

static void test_case(void **state)
{
    const fid_case *c = *state;
    int ci = (int)(c - set.cases);
    if (set.truth[ci].nvalues == 0) {
        print_message("%s: no ncu truth yet under docs/data/fidelity-*: not compared "
                      "(the next GPU run records it)\n", c->name);
        skip();
    }
    if (c->catalogue && !set.have_catalogue) {
        print_message("%s: this build has no embedded catalogue PTX and SASS\n", c->name);
        skip();
    }
    unsigned inexact;
    uint64_t blocks;
    cured_model_counters *counters = run_case(c, &inexact, &blocks);
    cured_model_ncu_row rows[CURED_MODEL_CTR_COUNT];
    int n = cured_model_ncu_compare(counters, inexact, blocks, &set.truth[ci], rows);
    int bad = 0, equal = 0, known = 0;
    for (int i = 0; i < n; i++) {
        const cured_model_ncu_row *r = &rows[i];
        if (r->verdict == CURED_MODEL_NCU_EQUAL)
            equal++;
        if (r->verdict != CURED_MODEL_NCU_KNOWN && r->verdict != CURED_MODEL_NCU_DIFFERENT)
            continue;
        fid_known *k = known_of(c->name, r->metric);
        const char *why = r->verdict == CURED_MODEL_NCU_DIFFERENT ? "measured"
                        : strncmp(r->reason, "ncu's own runs differ", 21) == 0 ? "runs"
                        : strncmp(r->reason, "ncu's extra wavefronts", 22) == 0 ? "arbitration"
                        : "inexact";
        double ncu = r->ncu_lo;
        if (k == NULL) {
            print_error("%s: %s: model %llu, ncu %.0f..%.0f, %s%s%s: not in known.txt "
                        "(as `%s %s %llu %.0f %s WHY`)\n", c->name, r->metric,
                        (unsigned long long)r->model, r->ncu_lo, r->ncu_hi,
                        cured_model_ncu_verdict_name(r->verdict), r->reason[0] ? ": " : "",
                        r->reason, c->name, r->metric, (unsigned long long)r->model, ncu,
                        why);
            bad++;
            continue;
        }
        k->used = 1;
        if (k->model != r->model || k->ncu != ncu || strcmp(k->kind, why) != 0) {
            print_error("%s: %s: known.txt says model %llu, ncu %.0f (%s); now model %llu, "
                        "ncu %.0f (%s)\n", c->name, r->metric, (unsigned long long)k->model,
                        k->ncu, k->kind, (unsigned long long)r->model, ncu, why);
            bad++;
            continue;
        }
        known++;
    }
    /* an entry for this case that no difference used no longer holds */
    for (int i = 0; i < set.nknown; i++)
        if (strcmp(set.known[i].name, c->name) == 0 && !set.known[i].used) {
            print_error("%s: %s: known.txt lists a difference that is gone (model and ncu "
                        "agree now, or ncu did not record it): remove the entry\n",
                        c->name, set.known[i].metric);
            bad++;
        }
    print_message("%s (truth %s): %d equal, %d known\n", c->name, set.truth_dir[ci], equal,
                  known);
    cured_model_counters_free(counters);
    assert_int_equal(bad, 0);
}

/* Every known.txt entry names a case of cases.txt. */
static void test_known_cases_exist(void **state)
{
    (void)state;
    for (int i = 0; i < set.nknown; i++)
        if (case_index(set.known[i].name) < 0)
            fail_msg("known.txt: no case '%s' in cases.txt", set.known[i].name);
}

int main(void)
{
    read_cases();
    read_known();
    read_truth();                  /* may add the catalogue's cases */
    struct CMUnitTest tests[MAX_CASES + 1];
    int n = 0;
    for (int i = 0; i < set.ncases; i++)
        tests[n++] = (struct CMUnitTest){set.cases[i].name, test_case, NULL, NULL,
                                         &set.cases[i]};
    tests[n++] = (struct CMUnitTest){"known_cases_exist", test_known_cases_exist, NULL,
                                     NULL, NULL};
    return _cmocka_run_group_tests("fidelity", tests, (size_t)n, group_setup,
                                   group_teardown);
}
