/* model_sum.c - a sum on the CPU, as libcured would make it on a GPU: one
 * catalogue kernel's whole launch plan run in the model, and the sum it
 * leaves beside the reference.
 *
 *   cc model_sum.c $(pkg-config --cflags --libs cured-model) -o model_sum
 *   ./model_sum [KERNEL [N [DTYPE]]]     (default two_pass 100000 f32)
 *
 * or with CMake: find_package(cured) and cured::model (examples/CMakeLists.txt).
 * The model executes the kernels' PTX (embedded in libcured_model.a when it
 * was built with CUDA) warp by warp, with its checks watching every
 * launch. Exit 0: the sum matches the reference (integers exactly, floats
 * within the bound of the plan's additions); 1: it does not, or the run
 * failed; 2: bad usage, or a model built without the catalogue's PTX.
 */
#include <cured.h>
#include <cured_model_host.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* x[i] of n values of dtype d: small values of both signs (unsigned ones
 * wrap), the same on every machine. */
static void fill(cured_dtype d, void *x, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)(i * 7919 % 1000) - 500;
        switch (d) {
        case CURED_F32: ((float *)x)[i] = (float)v / 256.0f; break;
        case CURED_F64: ((double *)x)[i] = (double)v / 256.0; break;
        case CURED_I32: case CURED_U32: ((int32_t *)x)[i] = (int32_t)v; break;
        default: ((int64_t *)x)[i] = v; break;
        }
    }
}

/* The exact sum of x[0, n) (the values fill makes are multiples of 2^-8
 * below 2^9 in magnitude: a double holds their sum exactly for n < 2^35),
 * and sum |x|. Integers wrap as the kernels' adds do. */
static double exact_sum(cured_dtype d, const void *x, uint64_t n, double *sum_abs,
                        uint64_t *wrapped)
{
    double s = 0, a = 0;
    uint64_t w = 0;
    for (uint64_t i = 0; i < n; i++) {
        double v;
        switch (d) {
        case CURED_F32: v = ((const float *)x)[i]; break;
        case CURED_F64: v = ((const double *)x)[i]; break;
        case CURED_I32: case CURED_U32: v = ((const int32_t *)x)[i]; break;
        default: v = (double)((const int64_t *)x)[i]; break;
        }
        s += v;
        a += v < 0 ? -v : v;
        w += (uint64_t)(int64_t)v;
    }
    *sum_abs = a;
    *wrapped = w;
    return s;
}

/* The value of dtype d at p as text. */
static void value_text(cured_dtype d, const uint8_t *p, char *out, size_t cap)
{
    union { float f; double g; int32_t i; uint32_t u; int64_t l; uint64_t q; } v;
    memcpy(&v, p, cured_dtype_size(d));
    switch (d) {
    case CURED_F32: snprintf(out, cap, "%.9g", v.f); break;
    case CURED_F64: snprintf(out, cap, "%.17g", v.g); break;
    case CURED_I32: snprintf(out, cap, "%d", v.i); break;
    case CURED_U32: snprintf(out, cap, "%u", v.u); break;
    case CURED_I64: snprintf(out, cap, "%lld", (long long)v.l); break;
    default: snprintf(out, cap, "%llu", (unsigned long long)v.q); break;
    }
}

/* Runs the plan and prints it; returns the exit status. */
static int run(const cured_model_module *m, int kernel, cured_dtype d,
               const void *in, uint64_t n)
{
    const cured_device_preset *h200 = cured_device_presets(NULL);
    cured_model_plan_result r;
    if (cured_model_plan_run_catalogue(m, kernel, d, in, n, 256, &h200->shape,
                                       &r) != 0) {
        fprintf(stderr, "model_sum: %s\n", r.error);
        return 1;
    }
    printf("%s (%s, n %llu) on %s, in the model: %d of %d launches ran\n",
           cured_catalogue_entry(kernel)->name, cured_dtype_name(d),
           (unsigned long long)n, h200->description, r.launches_run,
           r.plan.launches);
    int status = 1;
    if (r.completed) {
        double sum_abs;
        uint64_t wrapped;
        double exact = exact_sum(d, in, n, &sum_abs, &wrapped);
        char sum[64], want[64];
        value_text(d, r.value, sum, sizeof sum);
        int ok;
        if (d == CURED_F32 || d == CURED_F64) {
            /* h additions in the element type round by at most
             * gamma_h sum|x| (cured_catalogue_chain_length). */
            double got, u = d == CURED_F32 ? 0x1p-24 : 0x1p-53;
            if (d == CURED_F32) {
                float f;
                memcpy(&f, r.value, 4);
                got = f;
            } else {
                memcpy(&got, r.value, 8);
            }
            double hu = (double)cured_catalogue_chain_length(kernel, &r.plan) * u;
            double bound = hu < 1 ? hu / (1 - hu) * sum_abs : 1e300;
            snprintf(want, sizeof want, "%.17g", exact);
            ok = got - exact <= bound && exact - got <= bound;
        } else {
            uint8_t bits[8];
            memcpy(bits, &wrapped, 8);  /* little-endian, as the model's */
            value_text(d, bits, want, sizeof want);
            ok = memcmp(r.value, bits, cured_dtype_size(d)) == 0;
        }
        printf("sum: %s (reference %s): %s\n", sum, want,
               !ok ? "DIFFERENT" : d == CURED_F32 || d == CURED_F64
               ? "within the bound" : "equal");
        status = ok ? 0 : 1;
    } else {
        printf("sum: none (the plan stopped in launch %d of %d)\n",
               r.launches_started, r.plan.launches);
    }
    printf("findings: %d\n", r.findings.count);
    cured_model_plan_result_clear(&r);
    return status;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "two_pass";
    const char *dtype_name = argc > 3 ? argv[3] : "f32";
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000;
    int kernel;
    cured_dtype d;
    if (argc > 4 || n == 0 || cured_catalogue_find(name, &kernel) != CURED_SUCCESS ||
        cured_dtype_from_name(dtype_name, &d) != CURED_SUCCESS) {
        fprintf(stderr, "usage: model_sum [KERNEL [N [DTYPE]]]: a catalogue "
                "kernel, N >= 1, f32 f64 i32 i64 u32 u64\n");
        return 2;
    }
    printf("the model's architecture: %s\n", cured_model_default_arch());

    /* The catalogue's PTX, as the build embedded it. */
    cured_model_source src;
    char err[512];
    if (cured_model_source_catalogue(&src, err, sizeof err) != 0) {
        fprintf(stderr, "model_sum: %s\n", err);
        return 2;
    }
    if (cured_model_source_parse(&src, err, sizeof err) != 0) {
        fprintf(stderr, "model_sum: %s\n", err);
        cured_model_source_free(&src);
        return 1;
    }
    void *in = malloc(n * cured_dtype_size(d));
    if (in == NULL) {
        fprintf(stderr, "model_sum: out of memory\n");
        cured_model_source_free(&src);
        return 1;
    }
    fill(d, in, n);
    int status = run(src.module, kernel, d, in, n);
    free(in);
    cured_model_source_free(&src);
    return status;
}
