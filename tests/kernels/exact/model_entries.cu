/* model_entries.cu - cured_reduce's kernel bodies (src/kernels/exact) behind
 * entries with flat parameters, so that `cured model --ptx` can launch them
 * on the CPU (its --arg takes buffers and scalars, not a struct).
 *
 * defines: exact_f32, exact_bf16, exact_f16, exact_f64, argmin_f32,
 *          argmax_f16, sum_i32 (and each one's _one_trip kernel, for n
 *          within one trip of the grid)
 *
 * Every entry: (in, out, n, workspace, flags, offset): the kernel reduces
 * n elements starting `offset` bytes into `in` (a misaligned start), with
 * cured_reduce's flags, into out. The one difference from the library's
 * kernels: the model has no .u16x2/.s16x2 integer min/max, so the bf16
 * keys' two helpers are built in plain C here (CURED_REDUCE_SIMD16_C,
 * acc_narrow.cuh). The exact sums' cluster combine is the library's PTX:
 * the model runs a launch as a GPU runs one without clusters, every block
 * a cluster of one, so every block takes the global path.
 */
#define CURED_REDUCE_SIMD16_C 1
#include "reduce.cu"

#define ENTRY(name) \
    extern "C" __global__ void __launch_bounds__(1024, 1) name( \
        const void *in, void *out, unsigned long long n, void *ws, unsigned flags, \
        unsigned offset)

/* The kernels' one argument, from the flat parameters. */
__device__ static cured_reduce_kernel_args args(const void *in, void *out,
                                                unsigned long long n, void *ws,
                                                unsigned flags, unsigned offset,
                                                int op)
{
    cured_reduce_kernel_args a;
    a.in = (const char *)in + offset;
    a.out = out;
    a.n = n;
    a.workspace = ws;
    a.flags = flags;
    a.op = op;
    return a;
}

ENTRY(exact_f32)
{
    exact_sum_body<narrow_acc<false>, 4, XACC_F32, XACC_NDIG_F32, false>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_f32_one_trip)
{
    exact_sum_body<narrow_acc<false>, 4, XACC_F32, XACC_NDIG_F32, true>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_bf16)
{
    exact_sum_body<narrow_acc<true>, 2, XACC_F32, XACC_NDIG_F32, false>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_bf16_one_trip)
{
    exact_sum_body<narrow_acc<true>, 2, XACC_F32, XACC_NDIG_F32, true>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_f16)
{
    exact_sum_body<half_acc, 2, XACC_F16, XACC_NDIG_F16, false>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_f16_one_trip)
{
    exact_sum_body<half_acc, 2, XACC_F16, XACC_NDIG_F16, true>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_f64)
{
    exact_sum_body<wide_acc, 8, XACC_F64, XACC_NDIG_MAX, false>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(exact_f64_one_trip)
{
    exact_sum_body<wide_acc, 8, XACC_F64, XACC_NDIG_MAX, true>(
        args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(argmin_f32)
{
    minmax_body<CURED_F32, 4, false>(args(in, out, n, ws, flags, offset, CURED_OP_ARGMIN));
}

ENTRY(argmin_f32_one_trip)
{
    minmax_body<CURED_F32, 4, true>(args(in, out, n, ws, flags, offset, CURED_OP_ARGMIN));
}

ENTRY(argmax_f16)
{
    minmax_body<CURED_F16, 2, false>(args(in, out, n, ws, flags, offset, CURED_OP_ARGMAX));
}

ENTRY(argmax_f16_one_trip)
{
    minmax_body<CURED_F16, 2, true>(args(in, out, n, ws, flags, offset, CURED_OP_ARGMAX));
}

ENTRY(sum_i32)
{
    int_sum_body<4, true, false>(args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}

ENTRY(sum_i32_one_trip)
{
    int_sum_body<4, true, true>(args(in, out, n, ws, flags, offset, CURED_OP_SUM));
}
