/* sum_gpu.h - `cured sum --device gpu`: one reduction of a host array on the
 * GPU, timed (CUDA builds only; sum_gpu.c).
 *
 * defines: sum_gpu_available, sum_gpu_run
 */
#ifndef CURED_SUM_GPU_H
#define CURED_SUM_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "cured.h"

/* 1 when a CUDA device is there. */
int sum_gpu_available(void);

/* Copies host[0..n) to the device, runs cured_reduce once to warm up and
 * once timed, copies the result to *out. *device_us: the timed call
 * between CUDA events; *total_us: copy in + call + copy out, host clock.
 * Returns CURED_SUCCESS, a cured_reduce status, or CURED_ERROR_CUDA with a
 * line in err. */
cured_status sum_gpu_run(cured_op op, cured_dtype dtype, const void *host,
                         uint64_t n, unsigned flags, void *out,
                         double *device_us, double *total_us, char *err,
                         size_t err_size);

#endif /* CURED_SUM_GPU_H */
