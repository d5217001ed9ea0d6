/* run_memory.c - how much host memory a run in the model takes, how much
 * the machine has free, and whether the one fits in the other.
 *
 * defines: cured_model_launch_bytes, cured_model_plan_bytes,
 *          cured_model_host_memory_free, cured_model_memory_fits
 *
 * The model keeps every buffer in host memory, with a shadow byte per byte
 * while any of it is unwritten, and the state of the blocks that run at
 * once (one, or a thread-block cluster's). A run
 * whose buffers do not fit is refused before it starts: otherwise it
 * pushes the machine into swap and crawls for most of an hour before the
 * allocation or the user gives up. The estimate is rough on purpose
 * (upper bounds of the small parts); the buffers dominate every large run.
 */
#define _GNU_SOURCE          /* sysconf(_SC_AVPHYS_PAGES) */
#include "cured_model_host.h"
#include "ptx.h"

#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* One block's state while it runs: the entry's registers and local frame
 * per thread and those of every device function (the interpreter keeps
 * the ones the entry reaches; all of them is the bound), the block's
 * shared memory and the checks' state for it. */
static uint64_t block_bytes(const cured_model_module *m, int function,
                            cured_model_dim3 block, uint32_t dynamic_shared)
{
    uint64_t per_thread = 64;               /* ids, call stack, params */
    for (int f = 0; f < m->nfunctions; f++) {
        const ptx_function *fn = &m->functions[f];
        if (fn->is_entry && f != function)
            continue;
        per_thread = add_sat(per_thread, mul_sat((uint64_t)(fn->nregs > 0 ? fn->nregs : 1), 8));
        per_thread = add_sat(per_thread, fn->local_bytes);
    }
    uint64_t threads = mul_sat(mul_sat(block.x, block.y), block.z);
    uint64_t shared = add_sat(m->functions[function].shared_static_bytes, dynamic_shared);
    return add_sat(mul_sat(threads, per_thread),
                   mul_sat(shared, 1 + cured_model_checks_bytes_per_shared_byte()));
}

uint64_t cured_model_launch_bytes(const cured_model_module *m, int function,
                                  const cured_model_arg *args, int nargs,
                                  cured_model_dim3 block, cured_model_dim3 cluster,
                                  uint32_t dynamic_shared)
{
    /* the blocks that run together: the launch's cluster, else the
     * kernel's (.reqnctapercluster), else one */
    const uint32_t *req = m->functions[function].reqnctapercluster;
    uint64_t ctas = cluster.x ? (uint64_t)cluster.x * (cluster.y ? cluster.y : 1) *
                                    (cluster.z ? cluster.z : 1)
                  : req[0] ? (uint64_t)req[0] * req[1] * req[2] : 1;
    uint64_t sum = add_sat(m->global_bytes,
                           mul_sat(ctas, block_bytes(m, function, block, dynamic_shared)));
    for (int i = 0; i < nargs; i++) {
        if (!args[i].is_buffer)
            continue;
        uint64_t bytes = mul_sat(args[i].count, cured_model_arg_elem_size(args[i].type));
        if (args[i].init == CURED_MODEL_ARG_FILE && args[i].count == 0) {
            struct stat st;                        /* its size, unread; not a
                                                      regular file: binding
                                                      says what it is */
            if (stat(args[i].path, &st) == 0 && S_ISREG(st.st_mode))
                bytes = (uint64_t)st.st_size;
        }
        /* a file's bytes are read, then copied in; an unwritten buffer's
         * shadow is one byte per byte */
        int copies = args[i].init == CURED_MODEL_ARG_FILE ||
                     args[i].init == CURED_MODEL_ARG_UNINIT ? 2 : 1;
        sum = add_sat(sum, mul_sat(bytes, (uint64_t)copies));
    }
    return sum;
}

uint64_t cured_model_plan_bytes(const cured_model_module *m, int kernel, cured_dtype dtype,
                                uint64_t n, int block)
{
    size_t temp = 0;
    if (cured_catalogue_temp_bytes(kernel, dtype, n, block, &temp) != CURED_SUCCESS)
        temp = 0;
    uint64_t es = cured_dtype_size(dtype);
    /* the input, *out and its guard (shadowed), the scratch (shadowed) */
    uint64_t sum = add_sat(mul_sat(n, es), 4 * es);
    sum = add_sat(sum, mul_sat(temp, 2));
    /* the largest block any launch runs (a last pass may have 1024
     * threads and 8 bytes of dynamic shared memory each) */
    uint64_t largest = 0;
    for (int f = 0; f < m->nfunctions; f++) {
        uint64_t b = m->functions[f].is_entry
                         ? block_bytes(m, f, (cured_model_dim3){1024, 1, 1}, 8 * 1024) : 0;
        largest = b > largest ? b : largest;
    }
    return add_sat(sum, add_sat(m->global_bytes, largest));
}

/* Reads one unsigned number from the file at path (a cgroup's limit or
 * usage). Returns 0, or -1 when there is none ("max", no file). */
static int read_number(const char *path, uint64_t *v)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    unsigned long long x;
    int ok = fscanf(f, "%llu", &x) == 1;
    fclose(f);
    if (!ok)
        return -1;
    *v = x;
    return 0;
}

/* The room left under a limit: limit - used, 0 when used is over it. */
static uint64_t room(uint64_t limit, uint64_t used)
{
    return used < limit ? limit - used : 0;
}

int cured_model_host_memory_free(uint64_t *bytes)
{
    uint64_t free_bytes = UINT64_MAX;
    int known = 0;
    /* the kernel's estimate of what can be had without swapping */
    FILE *f = fopen("/proc/meminfo", "r");
    if (f != NULL) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f) != NULL)
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                free_bytes = (uint64_t)kb * 1024;
                known = 1;
            }
        fclose(f);
    }
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (!known && pages > 0 && page > 0) {
        free_bytes = (uint64_t)pages * (uint64_t)page;
        known = 1;
    }
    /* a container's cgroup limit (v2, then v1) */
    uint64_t limit, used;
    if (read_number("/sys/fs/cgroup/memory.max", &limit) == 0 &&
        read_number("/sys/fs/cgroup/memory.current", &used) == 0) {
        free_bytes = room(limit, used) < free_bytes ? room(limit, used) : free_bytes;
        known = 1;
    } else if (read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes", &limit) == 0 &&
               read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes", &used) == 0) {
        free_bytes = room(limit, used) < free_bytes ? room(limit, used) : free_bytes;
        known = 1;
    }
    /* this process's address-space limit (ulimit -v) */
    struct rlimit rl;
    uint64_t vm_pages;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && page > 0 &&
        read_number("/proc/self/statm", &vm_pages) == 0) {
        uint64_t left = room((uint64_t)rl.rlim_cur, vm_pages * (uint64_t)page);
        free_bytes = left < free_bytes ? left : free_bytes;
        known = 1;
    }
    if (!known)
        return -1;
    *bytes = free_bytes;
    return 0;
}

int cured_model_memory_fits(uint64_t need, uint64_t available, char *err, size_t cap)
{
    if (need <= available)
        return 0;
    snprintf(err, cap, "this run needs about %.3g GiB of host memory (its buffers, "
             "their unwritten-byte shadows, the running blocks' state) and %.3g GiB is free",
             (double)need / (double)(1u << 30), (double)available / (double)(1u << 30));
    return -1;
}
