/* bench_device.cu - what both timing loops of `cured bench` need from the
 * machine: the device opened (or one clear line saying there is none) and
 * a monotonic clock.
 *
 * defines: bench_open_device, bench_now_ms
 */
#include "bench_device.h"

#include <stdio.h>
#include <time.h>

/* 1 when e says CUDA found nothing to run on: no GPU, no driver (the
 * runtime then reports an "insufficient" one), a stub driver library, or
 * devices that cannot be used. */
static int no_device_error(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
           e == cudaErrorStubLibrary || e == cudaErrorDevicesUnavailable ||
           e == cudaErrorSystemNotReady || e == cudaErrorSystemDriverMismatch;
}

/* The error line for a machine where CUDA finds no device (e, or
 * cudaSuccess with a count of 0): one clear message, "no GPU found: ...",
 * rather than the runtime's, which says "CUDA driver version is
 * insufficient" when there is no driver at all. A driver that is there
 * but too old for this build's runtime is named as such. */
static void no_device(cudaError_t e, char *err, size_t err_size)
{
    int driver = 0, runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess)
        runtime = 0;
    if (e == cudaErrorInsufficientDriver && driver > 0)
        snprintf(err, err_size, "no GPU found: the NVIDIA driver supports "
                 "CUDA %d.%d, this build needs %d.%d: update the driver",
                 driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    else
        snprintf(err, err_size, "no GPU found: this machine has no NVIDIA GPU "
                 "or no NVIDIA driver (`cured model` runs the kernels on the CPU)");
}

int bench_open_device(cudaDeviceProp *prop, char *err, size_t err_size)
{
    int count = 0, dev = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if ((e == cudaSuccess && count == 0) || no_device_error(e)) {
        no_device(e, err, err_size);
        return 0;
    }
    if (e == cudaSuccess)
        e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(prop, dev);
    if (e != cudaSuccess) {
        snprintf(err, err_size, "opening the GPU: %s", cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

double bench_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
