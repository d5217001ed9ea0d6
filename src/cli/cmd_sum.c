/* cmd_sum.c - `cured sum`: reduce an array from a file with cured_reduce,
 * on the GPU where there is one, else on the CPU (the same bits).
 *
 *   cured sum FILE [--op sum|min|max|argmin|argmax] [--device cpu|gpu]
 *             [--dtype T] [--f64] [--widen] [--json] [--time] [--threads N]
 *
 * FILE is a .npy (f2 f4 f8 i4 i8 u4 u8, any shape, C order) or raw
 * elements of --dtype (f16 bf16 f32 f64 i32 i64 u32 u64). The result is
 * printed so that it reads back to the same bits: floats with 9 (f32) or
 * 17 (f64) significant digits, nan, inf, -inf.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */

#include "cli.h"
#include "cured.h"
#include "json_out.h"
#include "npy.h"
#ifdef CURED_HAVE_CUDA
#include "sum_gpu.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *out)
{
    fprintf(out,
"usage: cured sum FILE [options]\n"
"Reduces the array in FILE (.npy, or raw elements with --dtype) with\n"
"cured_reduce: float sums correctly rounded (the same bits on any GPU and\n"
"on the CPU), integer sums exact modulo 2^bits.\n"
"\n"
"  --op OP          sum (default), min, max, argmin, argmax\n"
"  --device D       gpu (default where there is one) or cpu\n"
"  --dtype T        element type of a raw file: f16 bf16 f32 f64 i32 i64 u32 u64\n"
"  --f64            float sums of f16/bf16/f32 rounded to f64 (default f32)\n"
"  --widen          integer sums as 64 bits instead of wrapping\n"
"  --threads N      CPU threads (default: one per core)\n"
"  --json           one JSON object: op, dtype, n, device, result_dtype, result\n"
"  --time           also the time: us and GB/s (device time and end to end)\n"
"  -h, --help       this help\n");
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

/* Formats the result (bits of dtype rt) into buf; JSON wants the specials
 * quoted. */
static void format_result(cured_dtype rt, const unsigned char *bits, int json,
                          char *buf, size_t size)
{
    double v = 0;
    int is_float = 1, digits = 9;
    switch (rt) {
    case CURED_F32: { float f; memcpy(&f, bits, 4); v = f; break; }
    case CURED_F64: { memcpy(&v, bits, 8); digits = 17; break; }
    case CURED_F16: {
        uint16_t h;
        memcpy(&h, bits, 2);
        int e = h >> 10 & 31, f = h & 1023;
        v = e == 31 ? (f ? NAN : INFINITY) : e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
        if (h >> 15)
            v = -v;
        break;
    }
    case CURED_BF16: {
        uint16_t h;
        memcpy(&h, bits, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        v = f;
        break;
    }
    default: is_float = 0; break;
    }
    if (is_float) {
        if (isnan(v))
            snprintf(buf, size, json ? "\"nan\"" : "nan");
        else if (isinf(v))
            snprintf(buf, size, json ? (v > 0 ? "\"inf\"" : "\"-inf\"") : (v > 0 ? "inf" : "-inf"));
        else
            snprintf(buf, size, "%.*g", digits, v);
        return;
    }
    if (rt == CURED_I32) {
        int32_t x;
        memcpy(&x, bits, 4);
        snprintf(buf, size, "%" PRId32, x);
    } else if (rt == CURED_U32) {
        uint32_t x;
        memcpy(&x, bits, 4);
        snprintf(buf, size, "%" PRIu32, x);
    } else if (rt == CURED_I64) {
        int64_t x;
        memcpy(&x, bits, 8);
        snprintf(buf, size, "%" PRId64, x);
    } else {
        uint64_t x;
        memcpy(&x, bits, 8);
        snprintf(buf, size, "%" PRIu64, x);
    }
}

int cmd_sum(int argc, char **argv)
{
    static const struct option options[] = {
        {"op", required_argument, NULL, 'o'},
        {"device", required_argument, NULL, 'D'},
        {"dtype", required_argument, NULL, 'd'},
        {"f64", no_argument, NULL, 'F'},
        {"widen", no_argument, NULL, 'W'},
        {"threads", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"time", no_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cured_op op = CURED_OP_SUM;
    int raw_dtype = -1, json = 0, timed = 0, threads = 0, opt;
    unsigned flags = 0;
    const char *device = NULL;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            if (cured_op_from_name(optarg, &op) != CURED_SUCCESS)
                return cli_fail("sum", "--op: unknown operation '%s' (sum min max argmin argmax)",
                                optarg);
            break;
        case 'D':
            if (strcmp(optarg, "cpu") != 0 && strcmp(optarg, "gpu") != 0)
                return cli_fail("sum", "--device: '%s' is not cpu or gpu", optarg);
            device = optarg;
            break;
        case 'd': {
            cured_dtype d;
            if (cured_dtype_from_name(optarg, &d) != CURED_SUCCESS)
                return cli_fail("sum", "--dtype: unknown type '%s' (f16 bf16 f32 f64 i32 i64 u32 u64)",
                                optarg);
            raw_dtype = (int)d;
            break;
        }
        case 'F': flags |= CURED_REDUCE_F64; break;
        case 'W': flags |= CURED_REDUCE_WIDEN; break;
        case 't': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end != '\0' || end == optarg || v < 1 || v > 64)
                return cli_fail("sum", "--threads: '%s' is not an integer in [1, 64]", optarg);
            threads = (int)v;
            break;
        }
        case 'j': json = 1; break;
        case 'T': timed = 1; break;
        case 'h': usage(stdout); return 0;
        case ':': return cli_fail("sum", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_fail("sum", "unrecognized option '%s' (see cured sum --help)",
                            argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cli_fail("sum", optind >= argc ? "no FILE (see cured sum --help)"
                                              : "one FILE only, got '%s' too",
                        optind < argc ? argv[optind + 1] : "");

    int use_gpu = 0;
#ifdef CURED_HAVE_CUDA
    if (device == NULL || strcmp(device, "gpu") == 0) {
        use_gpu = sum_gpu_available();
        if (!use_gpu && device != NULL)
            return cli_fail("sum", "--device gpu: no CUDA device");
    }
#else
    if (device != NULL && strcmp(device, "gpu") == 0)
        return cli_fail("sum", "--device gpu: this build has no CUDA");
#endif

    double t_start = now_us();
    npy_array a;
    char err[512];
    if (npy_read(argv[optind], raw_dtype, &a, err, sizeof err) != 0)
        return cli_fail("sum", "%s", err);
    if (a.is_npy && raw_dtype >= 0 && (cured_dtype)raw_dtype != a.dtype) {
        npy_free(&a);
        return cli_fail("sum", "--dtype %s: '%s' is a .npy of %s", cured_dtype_name((cured_dtype)raw_dtype),
                        argv[optind], cured_dtype_name(a.dtype));
    }
    cured_dtype rt;
    cured_status st = cured_reduce_result_dtype(op, a.dtype, flags, &rt);
    if (st != CURED_SUCCESS) {
        npy_free(&a);
        return cli_fail("sum", "%s of %s%s: %s", cured_op_name(op), cured_dtype_name(a.dtype),
                        flags & CURED_REDUCE_F64 ? " with --f64" : flags ? " with --widen" : "",
                        cured_status_string(st));
    }
    unsigned char result[16] = {0};
    double device_us = 0, total_us = 0;
    if (use_gpu) {
#ifdef CURED_HAVE_CUDA
        st = sum_gpu_run(op, a.dtype, a.data, a.n, flags, result, &device_us, &total_us,
                         err, sizeof err);
#endif
    } else {
        double t0 = now_us();
        st = cured_reduce_cpu(op, a.dtype, a.n ? a.data : NULL, a.n, result, flags, threads);
        device_us = now_us() - t0;
        total_us = now_us() - t_start;
        snprintf(err, sizeof err, "%s", cured_status_string(st));
    }
    uint64_t n = a.n;
    npy_free(&a);
    if (st != CURED_SUCCESS) {
        fprintf(stderr, "cured sum: %s\n", err);
        return 1;
    }
    char text[64];
    format_result(rt, result, json, text, sizeof text);
    if (json) {
        printf("{\"op\": \"%s\", \"dtype\": \"%s\", \"n\": %" PRIu64
               ", \"device\": \"%s\", \"result_dtype\": \"%s\", \"result\": %s",
               cured_op_name(op), cured_dtype_name(a.dtype), n, use_gpu ? "gpu" : "cpu",
               cured_dtype_name(rt), text);
    } else {
        printf("%s\n", text);
    }
    if (timed) {
        double in_bytes = (double)n * (double)cured_dtype_size(a.dtype);
        double dev_gbps = device_us > 0 ? in_bytes / (device_us * 1e3) : 0;
        double e2e_gbps = total_us > 0 ? in_bytes / (total_us * 1e3) : 0;
        if (json)
            printf(", \"us\": %.2f, \"gbps\": %.2f, \"end_to_end_us\": %.2f, "
                   "\"end_to_end_gbps\": %.2f",
                   device_us, dev_gbps, total_us, e2e_gbps);
        else
            fprintf(stderr, "%s: %.2f us (%.2f GB/s); end to end %.2f us (%.2f GB/s)\n",
                    use_gpu ? "gpu" : "cpu", device_us, dev_gbps, total_us, e2e_gbps);
    }
    if (json)
        printf("}\n");
    return 0;
}
