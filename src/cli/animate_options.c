/* animate_options.c - parses `cured animate`'s options (getopt_long).
 *
 * defines: cli_animate_parse, cli_animate_usage
 */
#define _POSIX_C_SOURCE 200809L
#include "animate.h"
#include "numbers.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void cli_animate_usage(FILE *out)
{
    fprintf(out,
"usage: cured animate KERNEL [--n N] [--dtype T] [--seed S] [--block B] [options]\n"
"       cured animate --ptx FILE | --cu FILE [--entry NAME] --arg SPEC... [options]\n"
"       cured animate --html FILE [KERNEL | --ptx/--cu FILE ...] [--n N]\n"
"\n"
"Shows a reduction step by step, drawn from the model's run of the real\n"
"kernel (its PTX, executed warp by warp on the CPU): per warp a row of\n"
"cells with values and bars, the lanes adding highlighted, masked lanes\n"
"hatched, the pairs added, a caption per step and the lesson's counters.\n"
"\n"
"what to run:\n"
"  KERNEL            the lesson's versions: divergent, strided-index,\n"
"                    sequential, warp-shuffle; or any catalogue kernel\n"
"                    (cured list)\n"
"  --n N             values, 1 to %d (default 64), one block of N threads\n"
"                    rounded up to a power of two (32 at least)\n"
"  --dtype T         u32 (default: small whole numbers read well), f32 f64\n"
"                    i32 i64 u64\n"
"  --seed S          the seed of the random input (default 1)\n"
"  --block B         threads per block (catalogue: from --n)\n"
"  --ptx FILE        your kernel's PTX (nvcc -arch=sm_90 -ptx -lineinfo)\n"
"  --cu FILE         your kernel's CUDA, compiled with nvcc first\n"
"  --entry NAME      its entry (needed when the module has several)\n"
"  --arg SPEC        one kernel parameter, as `cured model --arg`\n"
"  --grid X[,Y,Z]    blocks (your kernel; default 1: block 0 is drawn)\n"
"  --shared BYTES    dynamic shared memory (your kernel)\n"
"  --step-limit N    stop after N warp instructions\n"
"how to show it:\n"
"  --speed X         0.25 to 4 (default 1: a step each 1.3 s)\n"
"  --step            one step per key: space or enter next, b back, q quit\n"
"  --no-color        plain text (also when stdout is not a terminal: then\n"
"                    every frame is printed, one after another)\n"
"  --html FILE       write one self-contained web page instead: the lesson's\n"
"                    four versions, the catalogue and your kernel, with\n"
"                    controls, counters, the CUDA source and the maths\n"
"\n"
"exit status: 0 shown, 1 the model stopped the kernel (an error finding),\n"
"2 bad usage or input. docs/animation.md explains what each mark means.\n",
            CLI_ANIMATE_MAX_N);
}

enum {
    OPT_PTX = 256, OPT_CU, OPT_SHARED, OPT_N, OPT_SEED, OPT_STEP_LIMIT, OPT_SPEED,
    OPT_STEP, OPT_NO_COLOR, OPT_HTML
};

/* The checks that need every option. */
static int check(const cli_animate_options *o, char *err, size_t cap)
{
    int sources = (o->kernel != NULL) + (o->ptx_path != NULL) + (o->cu_path != NULL);
    if (sources > 1) {
        snprintf(err, cap, "one of KERNEL, --ptx and --cu, not %s",
                 o->kernel ? "a KERNEL and a file" : "both files");
        return -1;
    }
    if (sources == 0 && o->html == NULL) {
        snprintf(err, cap, "what to animate? a KERNEL (divergent, strided-index, "
                 "sequential, warp-shuffle, or see cured list), --ptx FILE or --cu FILE");
        return -1;
    }
    if (o->have_n && o->n > CLI_ANIMATE_MAX_N) {
        snprintf(err, cap, "--n %llu: cured animate draws at most %d values (one block "
                 "of up to %d threads); cured model counts any n",
                 (unsigned long long)o->n, CLI_ANIMATE_MAX_N, CLI_ANIMATE_MAX_N);
        return -1;
    }
    int file = o->ptx_path || o->cu_path;
    if (file && (o->have_n || o->have_dtype || o->have_seed)) {
        snprintf(err, cap, "%s is for catalogue kernels: give your kernel its "
                 "arguments with --arg", o->have_n ? "--n" : o->have_dtype ? "--dtype"
                 : "--seed");
        return -1;
    }
    if (!file && (o->nargs || o->have_grid || o->have_shared || o->entry)) {
        snprintf(err, cap, "%s is for your own kernel (--ptx or --cu): a catalogue "
                 "kernel gets its launch from --n", o->nargs ? "--arg"
                 : o->have_grid ? "--grid" : o->have_shared ? "--shared" : "--entry");
        return -1;
    }
    if (!file && o->have_block && (o->block.y != 1 || o->block.z != 1)) {
        snprintf(err, cap, "the catalogue's blocks are one-dimensional");
        return -1;
    }
    if (o->html && o->step) {
        snprintf(err, cap, "--step plays in the terminal; the page of --html has "
                 "its own controls");
        return -1;
    }
    return 0;
}

int cli_animate_parse(int argc, char **argv, cli_animate_options *o, char *err,
                      size_t cap)
{
    static const struct option options[] = {
        {"ptx", required_argument, NULL, OPT_PTX},
        {"cu", required_argument, NULL, OPT_CU},
        {"entry", required_argument, NULL, 'e'},
        {"dtype", required_argument, NULL, 'd'},
        {"n", required_argument, NULL, OPT_N},
        {"seed", required_argument, NULL, OPT_SEED},
        {"grid", required_argument, NULL, 'g'},
        {"block", required_argument, NULL, 'b'},
        {"shared", required_argument, NULL, OPT_SHARED},
        {"arg", required_argument, NULL, 'a'},
        {"step-limit", required_argument, NULL, OPT_STEP_LIMIT},
        {"speed", required_argument, NULL, OPT_SPEED},
        {"step", no_argument, NULL, OPT_STEP},
        {"no-color", no_argument, NULL, OPT_NO_COLOR},
        {"html", required_argument, NULL, OPT_HTML},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->dtype = "u32";
    o->n = 64;
    o->seed = CURED_MODEL_ARG_DEFAULT_SEED;
    o->speed = 1.0;
    o->color = 1;
    int opt;
    uint64_t v;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":e:d:g:b:a:h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_PTX: o->ptx_path = optarg; break;
        case OPT_CU: o->cu_path = optarg; break;
        case 'e': o->entry = optarg; break;
        case 'd': o->dtype = optarg; o->have_dtype = 1; break;
        case OPT_N:
            if (cured_number_unsigned("--n", optarg, 1, UINT64_MAX, &o->n, err,
                                      cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->have_n = 1;
            break;
        case OPT_SEED:
            if (cured_number_unsigned("--seed", optarg, 0, UINT64_MAX, &o->seed, err,
                                      cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->have_seed = 1;
            break;
        case 'g':
            if (cured_model_dim3_parse(optarg, "--grid", &o->grid, err, cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->have_grid = 1;
            break;
        case 'b':
            if (cured_model_dim3_parse(optarg, "--block", &o->block, err, cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->have_block = 1;
            break;
        case OPT_SHARED:
            if (cured_number_unsigned("--shared", optarg, 0, UINT32_MAX, &v, err,
                                      cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->shared = (uint32_t)v;
            o->have_shared = 1;
            break;
        case 'a':
            if (o->nargs == CLI_ANIMATE_MAX_ARGS) {
                snprintf(err, cap, "more than %d --arg", CLI_ANIMATE_MAX_ARGS);
                return CLI_ANIMATE_ERROR;
            }
            if (cured_model_arg_parse(optarg, &o->args[o->nargs], err, cap) != 0)
                return CLI_ANIMATE_ERROR;
            o->nargs++;
            break;
        case OPT_STEP_LIMIT:
            if (cured_number_unsigned("--step-limit", optarg, 1, UINT64_MAX,
                                      &o->step_limit, err, cap) != 0)
                return CLI_ANIMATE_ERROR;
            break;
        case OPT_SPEED: {
            char *end;
            errno = 0;
            o->speed = strtod(optarg, &end);
            if (*end || errno || !(o->speed >= 0.25 && o->speed <= 4.0)) {
                snprintf(err, cap, "bad --speed '%s' (0.25 to 4)", optarg);
                return CLI_ANIMATE_ERROR;
            }
            break;
        }
        case OPT_STEP: o->step = 1; break;
        case OPT_NO_COLOR: o->color = 0; break;
        case OPT_HTML: o->html = optarg; break;
        case 'h': return CLI_ANIMATE_HELP;
        case ':':
            snprintf(err, cap, "%s needs a value", argv[optind - 1]);
            return CLI_ANIMATE_ERROR;
        default:
            snprintf(err, cap, "unknown option '%s' (see cured animate --help)",
                     argv[optind - 1]);
            return CLI_ANIMATE_ERROR;
        }
    }
    if (optind < argc)
        o->kernel = argv[optind++];
    if (optind < argc) {
        snprintf(err, cap, "unexpected argument '%s'", argv[optind]);
        return CLI_ANIMATE_ERROR;
    }
    return check(o, err, cap) == 0 ? CLI_ANIMATE_OK : CLI_ANIMATE_ERROR;
}
