/* model_options.c - parses `cured model`'s options (getopt_long).
 *
 * defines: cli_model_parse_options, cli_model_usage
 */
#define _POSIX_C_SOURCE 200809L
#include "model_options.h"

#include "numbers.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void cli_model_usage(FILE *out)
{
    fprintf(out,
"usage: cured model KERNEL [--dtype T] [--n N] [--seed S] [--whole-plan] [options]\n"
"       cured model --ptx FILE.ptx | --cu FILE.cu [--entry NAME] --arg SPEC... [options]\n"
"       cured model --lesson-table [--json]\n"
"       cured model --ncu-metrics\n"
"\n"
"Runs one kernel launch in the model (the PTX, executed warp by warp on the\n"
"CPU) and prints its hardware counters, the checks' findings and buffers;\n"
"with --whole-plan, every launch libcured would make, and the final sum.\n"
"\n"
"what to run:\n"
"  KERNEL               a catalogue kernel (cured list), from the embedded PTX;\n"
"                       its entry is the instance for --dtype and --block\n"
"  --dtype T            its element type: f32 (default) f64 i32 i64 u32 u64\n"
"  --n N                N values (default 1024): sizes the grid and, without\n"
"                       --arg, builds its standard arguments:\n"
"                       in (random), out, n [, partials, counter]\n"
"  --seed S             the seed of that random input (default 1)\n"
"  --device NAME        the GPU whose shape sizes the catalogue's grids: h200\n"
"                       (default), h100, a100\n"
"  --whole-plan         run every launch of the plan libcured's dispatch makes\n"
"                       on that GPU (passes, atomic's zeroing, single_pass's\n"
"                       counter), in order, and print each launch, the\n"
"                       counters summed over them and the final sum beside\n"
"                       its reference (float64 / exact integer); catalogue\n"
"                       kernels only, no --grid --shared --arg --entry\n"
"                       --print --out --steps\n"
"  --ptx FILE           a PTX file (nvcc -arch=sm_XX -ptx -lineinfo)\n"
"  --cu FILE            a CUDA file, compiled to PTX with nvcc first\n"
"  --arch sm_XX         the architecture nvcc and ptxas build --cu for\n"
"                       (default %s, this build's)\n"
"  --keep-ptx DIR       keep the PTX, cubin and SASS --cu made, in DIR\n"
"  --verbose            show the nvcc/ptxas/nvdisasm command lines and what\n"
"                       they print (their errors show without it)\n"
"  --entry NAME         the --ptx/--cu kernel to run (needed when the module\n"
"                       has several)\n"
"  --sass FILE          the kernel's SASS, `nvdisasm -gp -c` of a cubin from\n"
"                       `ptxas -arch=sm_XX -lineinfo` of the same PTX (or -g):\n"
"                       memory counts follow it (the catalogue and --cu get\n"
"                       theirs when the tools exist)\n"
"  --no-sass            count by the PTX alone\n"
"launch:\n"
"  --grid X[,Y,Z]       blocks (catalogue: from n and the block; else 1)\n"
"  --block X[,Y,Z]      threads per block (catalogue: 256; else 32)\n"
"  --cluster X[,Y,Z]    blocks per thread-block cluster, run together (each\n"
"                       divides the grid's; at most 16 blocks; default: the\n"
"                       kernel's __cluster_dims__, else none)\n"
"  --shared BYTES       dynamic shared memory (catalogue: what it needs)\n"
"  --arg SPEC           one kernel parameter, in order; repeat for each:\n"
"                         NAME=TYPE[COUNT]:INIT  a buffer (at most 4 GiB),\n"
"                           INIT one of random[@SEED] ones iota zeros uninit\n"
"                           file:PATH\n"
"                         TYPE:VALUE             a scalar (u32:5, s32:-1, f32:1.5)\n"
"                       TYPE: f32 f64 s8 s16 s32 s64 u8 u16 u32 u64; a float\n"
"                       for a float parameter, an integer for an integer one\n"
"  --step-limit N       stop after N warp instructions (an endless loop);\n"
"                       default: %d per warp launched and per 32 buffer\n"
"                       elements, at least %llu (a few seconds)\n"
"  --force              run even when the run's memory estimate is over the\n"
"                       memory free (refused otherwise)\n"
"output:\n"
"  --print NAME[:all]   print a buffer after the run (first/last values, or all)\n"
"  --out NAME=PATH      write a buffer's bytes to PATH\n"
"  --steps              add the step view: the tree steps counted by the\n"
"                       lesson's rules (docs/lesson.md)\n"
"  --json               everything as one JSON object (an error too:\n"
"                       {\"error\": ..., \"exit_status\": 2}, and its line on stderr)\n"
"  --strict             exit 1 on any finding, hazards too\n"
"  --compare-ncu FILE   beside the counters, Nsight Compute's values for the\n"
"                       same kernel and launch from FILE, the CSV of\n"
"                       `ncu --csv [--page raw] --metrics ...` (docs/model.md,\n"
"                       \"Against your own profile\"): per metric equal,\n"
"                       known (with the reason) or DIFFERENT; exit 1 when a\n"
"                       value differs without a reason\n"
"  --ncu-metrics        alone: print the metrics --compare-ncu reads, for\n"
"                       ncu --metrics\n"
"  --lesson-table       the lesson's table: divergent, strided, sequential\n"
"                       and shuffle on 64 values, one block of 64 threads;\n"
"                       takes no other option but --json\n"
"\n"
"Numbers are decimal (010 is ten) or hex after 0x. A run longer than a few\n"
"seconds shows its progress on stderr. When races or reads of unwritten\n"
"memory were found, the report ends with \"result not trustworthy\".\n"
"\n"
"exit status: 0 ran with no error findings (hazards such as a race are\n"
"reported, and the result called untrustworthy, but do not fail the run),\n"
"1 error findings (any finding with --strict; with --whole-plan also a sum\n"
"unlike its reference; with --compare-ncu a value unlike ncu's without a\n"
"known reason), 2 bad usage or input. docs/model.md has examples.\n\n",
            cured_model_default_arch(), CURED_MODEL_STEP_BUDGET_PER_UNIT,
            (unsigned long long)CURED_MODEL_STEP_BUDGET_FLOOR);
    cured_model_counters_print_legend(out);
}

/* 1 when s reads as an architecture nvcc and ptxas take: sm_ and a
 * number, perhaps one lower-case letter after it (sm_90, sm_90a, sm_100f). */
static int is_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || s[3] < '0' || s[3] > '9')
        return 0;
    s += 3;
    while (*s >= '0' && *s <= '9')
        s++;
    if (*s >= 'a' && *s <= 'z')
        s++;
    return *s == '\0';
}

/* Fills an output from --print NAME[:all] or --out NAME=PATH. */
static int parse_output(const char *text, int is_out, cli_model_output *o,
                        char *err, size_t cap)
{
    memset(o, 0, sizeof *o);
    size_t n = strcspn(text, is_out ? "=" : ":");
    if (n == 0 || n >= sizeof o->buffer) {
        snprintf(err, cap, "bad %s '%s' (%s)", is_out ? "--out" : "--print",
                 text, is_out ? "NAME=PATH" : "NAME or NAME:all");
        return -1;
    }
    memcpy(o->buffer, text, n);
    o->name = o->buffer;
    const char *rest = text + n;
    if (is_out) {
        if (*rest != '=' || rest[1] == '\0') {
            snprintf(err, cap, "bad --out '%s' (NAME=PATH)", text);
            return -1;
        }
        o->path = rest + 1;
    } else if (*rest != '\0') {
        if (strcmp(rest, ":all") != 0) {
            snprintf(err, cap, "bad --print '%s' (NAME or NAME:all)", text);
            return -1;
        }
        o->all = 1;
    }
    return 0;
}

enum {
    OPT_PTX = 256, OPT_CU, OPT_SHARED, OPT_N, OPT_SEED, OPT_OUT, OPT_STEP_LIMIT,
    OPT_STEPS, OPT_LESSON_TABLE, OPT_JSON, OPT_STRICT, OPT_SASS, OPT_NO_SASS,
    OPT_WHOLE_PLAN, OPT_DEVICE, OPT_FORCE, OPT_ARCH, OPT_KEEP_PTX, OPT_VERBOSE,
    OPT_COMPARE_NCU, OPT_CLUSTER
};

static const struct option options[] = {
    {"dtype", required_argument, NULL, 'd'},
    {"ptx", required_argument, NULL, OPT_PTX},
    {"cu", required_argument, NULL, OPT_CU},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"keep-ptx", required_argument, NULL, OPT_KEEP_PTX},
    {"verbose", no_argument, NULL, OPT_VERBOSE},
    {"entry", required_argument, NULL, 'e'},
    {"sass", required_argument, NULL, OPT_SASS},
    {"no-sass", no_argument, NULL, OPT_NO_SASS},
    {"grid", required_argument, NULL, 'g'},
    {"block", required_argument, NULL, 'b'},
    {"cluster", required_argument, NULL, OPT_CLUSTER},
    {"shared", required_argument, NULL, OPT_SHARED},
    {"arg", required_argument, NULL, 'a'},
    {"n", required_argument, NULL, OPT_N},
    {"seed", required_argument, NULL, OPT_SEED},
    {"print", required_argument, NULL, 'p'},
    {"out", required_argument, NULL, OPT_OUT},
    {"step-limit", required_argument, NULL, OPT_STEP_LIMIT},
    {"steps", no_argument, NULL, OPT_STEPS},
    {"lesson-table", no_argument, NULL, OPT_LESSON_TABLE},
    {"whole-plan", no_argument, NULL, OPT_WHOLE_PLAN},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"json", no_argument, NULL, OPT_JSON},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"force", no_argument, NULL, OPT_FORCE},
    {"compare-ncu", required_argument, NULL, OPT_COMPARE_NCU},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
#define SHORT_OPTIONS ":d:e:g:b:a:p:h"

/* The options given, by code, in the order given (repeats too), so a mode
 * can name the first one that does not apply to it. */
typedef struct given_options {
    int code[512];
    int count;
    char name[32];           /* the last name option_name wrote */
} given_options;

/* "--NAME" of option code `code`, written into g->name. */
static const char *option_name(given_options *g, int code)
{
    snprintf(g->name, sizeof g->name, "?");
    for (size_t i = 0; options[i].name != NULL; i++)
        if (options[i].val == code)
            snprintf(g->name, sizeof g->name, "--%s", options[i].name);
    return g->name;
}

/* The name of the first given option whose code is not in `allowed` (a
 * list ending in 0), or NULL. */
static const char *first_not_allowed(given_options *g, const int *allowed)
{
    for (int i = 0; i < g->count; i++) {
        int ok = 0;
        for (const int *a = allowed; *a != 0; a++)
            ok |= *a == g->code[i];
        if (!ok)
            return option_name(g, g->code[i]);
    }
    return NULL;
}

/* The name of the first given option whose code is in `codes` (a list
 * ending in 0), or NULL. */
static const char *first_given(given_options *g, const int *codes)
{
    for (int i = 0; i < g->count; i++)
        for (const int *c = codes; *c != 0; c++)
            if (*c == g->code[i])
                return option_name(g, *c);
    return NULL;
}

/* 1 when --json is among argv, by the same table and rules the parse
 * uses (an option's value that reads "--json" is not it; "--js" is). A
 * usage error is then reported as JSON too, wherever --json stands. */
static int wants_json(int argc, char **argv)
{
    int json = 0, opt;
    optind = 0;                /* a full re-initialisation (glibc, musl) */
    opterr = 0;
    while ((opt = getopt_long(argc, argv, SHORT_OPTIONS, options, NULL)) != -1)
        json |= opt == OPT_JSON;
    return json;
}

/* Checks that every option given applies to the mode the options chose:
 * the lesson table, a whole plan, a catalogue kernel's launch or a
 * --ptx/--cu kernel's. Returns CLI_MODEL_PARSE_OK, or _ERROR with one line
 * in err naming the first option that does not. */
static int check_mode(const cli_model_options *o, given_options *g, char *err,
                      size_t cap)
{
    static const int lesson[] = {OPT_LESSON_TABLE, OPT_JSON, 0};
    static const int whole[] = {OPT_WHOLE_PLAN, 'd', OPT_N, OPT_SEED, 'b', OPT_DEVICE,
                                OPT_SASS, OPT_NO_SASS, OPT_STEP_LIMIT, OPT_STRICT,
                                OPT_JSON, OPT_FORCE, 0};
    static const int catalogue_only[] = {'d', OPT_N, OPT_SEED, OPT_DEVICE, 0};
    static const int files_only[] = {'e', 0};
    const char *which;
    if (o->lesson_table) {
        if (o->kernel != NULL) {
            snprintf(err, cap, "--lesson-table runs its own four kernels on 64 values: "
                     "it takes no KERNEL ('%s')", o->kernel);
            return CLI_MODEL_PARSE_ERROR;
        }
        if ((which = first_not_allowed(g, lesson)) != NULL) {
            snprintf(err, cap, "--lesson-table runs its own four kernels on 64 values "
                     "and takes only --json: not %s", which);
            return CLI_MODEL_PARSE_ERROR;
        }
        return CLI_MODEL_PARSE_OK;
    }
    int sources = (o->kernel != NULL) + (o->ptx_path != NULL) + (o->cu_path != NULL);
    if (sources == 0) {
        snprintf(err, cap, "what to run? a catalogue KERNEL (cured list), "
                 "--ptx FILE or --cu FILE (see cured model --help)");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (sources > 1) {
        snprintf(err, cap, "one of KERNEL, --ptx and --cu, not %s",
                 o->kernel ? "a KERNEL and a file" : "both files");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->arch && o->cu_path == NULL) {
        snprintf(err, cap, "--arch is the architecture nvcc builds --cu for: "
                 "%s", o->ptx_path ? "a --ptx file is already compiled"
                 : "the catalogue's PTX is built in");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->keep_ptx && o->cu_path == NULL) {
        snprintf(err, cap, "--keep-ptx keeps what nvcc makes of a --cu file: "
                 "use it with --cu FILE");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->whole_plan && o->kernel == NULL) {
        snprintf(err, cap, "--whole-plan runs a catalogue KERNEL's launch plan, "
                 "not %s (see cured list)", o->ptx_path ? "--ptx" : "--cu");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->compare_ncu && o->whole_plan) {
        snprintf(err, cap, "--compare-ncu compares one launch with its profile: "
                 "not a --whole-plan (several launches summed)");
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->whole_plan && (which = first_not_allowed(g, whole)) != NULL) {
        snprintf(err, cap, "--whole-plan runs the dispatch's own launches "
                 "and buffers: it takes no %s", which);
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->kernel == NULL && (which = first_given(g, catalogue_only)) != NULL) {
        snprintf(err, cap, "%s is for catalogue kernels: give a --ptx/--cu "
                 "kernel its arguments with --arg", which);
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->kernel != NULL && (which = first_given(g, files_only)) != NULL) {
        snprintf(err, cap, "%s picks a kernel of a --ptx/--cu module: the catalogue "
                 "runs %s's own entry for --dtype and --block", which, o->kernel);
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->steps && o->have_cluster &&
        (uint64_t)o->cluster.x * o->cluster.y * o->cluster.z > 1) {
        snprintf(err, cap, "--steps follows one block at a time (docs/lesson.md): "
                 "not blocks that run together in clusters of %u,%u,%u",
                 o->cluster.x, o->cluster.y, o->cluster.z);
        return CLI_MODEL_PARSE_ERROR;
    }
    static const int seed[] = {OPT_SEED, 0};
    if (o->kernel != NULL && o->nargs > 0 && first_given(g, seed) != NULL) {
        snprintf(err, cap, "--seed is for the input --n builds: with --arg, "
                 "give the input's own random@SEED");
        return CLI_MODEL_PARSE_ERROR;
    }
    return CLI_MODEL_PARSE_OK;
}

int cli_model_parse_options(int argc, char **argv, cli_model_options *o,
                            char *err, size_t cap)
{
    memset(o, 0, sizeof *o);
    o->dtype = "f32";
    o->n = 1024;
    o->seed = CURED_MODEL_ARG_DEFAULT_SEED;
    o->device = cured_device_presets(NULL);
    o->json = wants_json(argc, argv);
    given_options given;
    given.count = 0;
    int opt;
    uint64_t v;
    optind = 0;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, SHORT_OPTIONS, options, NULL)) != -1) {
        if (given.count == (int)(sizeof given.code / sizeof given.code[0])) {
            snprintf(err, cap, "more than %d options", given.count);
            return CLI_MODEL_PARSE_ERROR;
        }
        given.code[given.count++] = opt;
        switch (opt) {
        case 'd': o->dtype = optarg; break;
        case OPT_PTX: o->ptx_path = optarg; break;
        case OPT_CU: o->cu_path = optarg; break;
        case OPT_ARCH:
            if (!is_arch(optarg)) {
                snprintf(err, cap, "bad --arch '%s' (sm_ and a number: sm_90, "
                         "sm_90a)", optarg);
                return CLI_MODEL_PARSE_ERROR;
            }
            o->arch = optarg;
            break;
        case OPT_KEEP_PTX: o->keep_ptx = optarg; break;
        case OPT_VERBOSE: o->verbose = 1; break;
        case 'e': o->entry = optarg; break;
        case OPT_SASS: o->sass_path = optarg; break;
        case OPT_NO_SASS: o->no_sass = 1; break;
        case 'g':
            if (cured_model_dim3_parse(optarg, "--grid", &o->grid, err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->have_grid = 1;
            break;
        case 'b':
            if (cured_model_dim3_parse(optarg, "--block", &o->block, err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->have_block = 1;
            break;
        case OPT_CLUSTER:
            if (cured_model_dim3_parse(optarg, "--cluster", &o->cluster, err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->have_cluster = 1;
            break;
        case OPT_SHARED:
            if (cured_number_unsigned("--shared", optarg, 0, UINT32_MAX, &v, err,
                                      cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->shared = (uint32_t)v;
            o->have_shared = 1;
            break;
        case 'a':
            if (o->nargs == CLI_MODEL_MAX_ARGS) {
                snprintf(err, cap, "more than %d --arg", CLI_MODEL_MAX_ARGS);
                return CLI_MODEL_PARSE_ERROR;
            }
            if (cured_model_arg_parse(optarg, &o->args[o->nargs], err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->nargs++;
            break;
        case OPT_N:
            if (cured_number_unsigned("--n", optarg, 1, UINT64_MAX, &o->n, err,
                                      cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            o->have_n = 1;
            break;
        case OPT_SEED:
            if (cured_number_unsigned("--seed", optarg, 0, UINT64_MAX, &o->seed, err,
                                      cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            break;
        case 'p':
        case OPT_OUT: {
            int is_out = opt == OPT_OUT;
            int *count = is_out ? &o->nouts : &o->nprints;
            if (*count == CLI_MODEL_MAX_OUTPUTS) {
                snprintf(err, cap, "more than %d %s", CLI_MODEL_MAX_OUTPUTS,
                         is_out ? "--out" : "--print");
                return CLI_MODEL_PARSE_ERROR;
            }
            cli_model_output *dst = is_out ? &o->outs[*count] : &o->prints[*count];
            if (parse_output(optarg, is_out, dst, err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            (*count)++;
            break;
        }
        case OPT_STEP_LIMIT:
            if (cured_number_unsigned("--step-limit", optarg, 1, UINT64_MAX,
                                      &o->step_limit, err, cap) != 0)
                return CLI_MODEL_PARSE_ERROR;
            break;
        case OPT_STEPS: o->steps = 1; break;
        case OPT_LESSON_TABLE: o->lesson_table = 1; break;
        case OPT_WHOLE_PLAN: o->whole_plan = 1; break;
        case OPT_DEVICE:
            o->device = cured_device_preset_find(optarg);
            if (o->device == NULL) {
                snprintf(err, cap, "unknown --device '%s' (h200 h100 a100)", optarg);
                return CLI_MODEL_PARSE_ERROR;
            }
            break;
        case OPT_JSON: o->json = 1; break;
        case OPT_STRICT: o->strict = 1; break;
        case OPT_FORCE: o->force = 1; break;
        case OPT_COMPARE_NCU: o->compare_ncu = optarg; break;
        case 'h': return CLI_MODEL_PARSE_HELP;
        case ':':
            snprintf(err, cap, "%s needs a value", argv[optind - 1]);
            return CLI_MODEL_PARSE_ERROR;
        default:
            snprintf(err, cap, "unknown option '%s' (see cured model --help)",
                     argv[optind - 1]);
            return CLI_MODEL_PARSE_ERROR;
        }
    }
    if (optind < argc)
        o->kernel = argv[optind++];
    if (optind < argc) {
        snprintf(err, cap, "unexpected argument '%s'", argv[optind]);
        return CLI_MODEL_PARSE_ERROR;
    }
    if (o->sass_path && o->no_sass) {
        snprintf(err, cap, "--sass and --no-sass: one or the other");
        return CLI_MODEL_PARSE_ERROR;
    }
    return check_mode(o, &given, err, cap);
}
