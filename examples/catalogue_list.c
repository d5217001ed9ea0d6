/* catalogue_list.c - libcured on a machine with or without a GPU: the
 * catalogue, one kernel's launch plan for an H200, and what the device
 * calls answer here.
 *
 *   cc catalogue_list.c $(pkg-config --cflags --libs cured) -o catalogue_list
 *   ./catalogue_list [KERNEL]            (default two_pass)
 *
 * or with CMake: find_package(cured) and cured::cured (examples/CMakeLists.txt).
 * The listing and the plan are pure C and work everywhere; the device call
 * needs a GPU, and without one (or in a libcured built without CUDA) it
 * returns a status a program can act on, as every libcured call does.
 * Exit 0: every call answered as documented; 1: one did not; 2: bad usage.
 */
#include <cured.h>

#include <stdint.h>
#include <stdio.h>

/* Prints the catalogue, in teaching order. */
static void list_catalogue(void)
{
    int count = cured_catalogue_count();
    printf("catalogue: %d kernels\n", count);
    for (int i = 0; i < count; i++) {
        const cured_kernel_info *k = cured_catalogue_entry(i);
        printf("%2d  %-16s %-5s %s%s\n", i + 1, k->name,
               k->level == CURED_LEVEL_GRID ? "grid" : "block", k->description,
               k->is_exhibit ? " (exhibit: unsafe)" : "");
    }
}

/* Prints the launches of a plan, one per line. */
static void print_plan(const cured_plan *plan)
{
    if (plan->zero_output)
        printf("  zero *out first\n");
    for (int k = 0; k < plan->launches; k++) {
        const cured_launch *l = &plan->launch[k];
        printf("  launch %d: n %llu, grid %llu, block %d, shared %zu bytes\n",
               k + 1, (unsigned long long)l->n, (unsigned long long)l->grid,
               l->block, l->shared_bytes);
    }
}

/* What libcured makes of `kernel` over n floats in blocks of 256 on an
 * H200, without one: the plan and the scratch space. Returns 0, or 1 when
 * a call failed. */
static int plan_for_h200(int kernel, uint64_t n)
{
    const cured_device_preset *h200 = cured_device_presets(NULL);
    cured_plan plan;
    size_t temp = 0;
    cured_status st = cured_catalogue_plan_on(kernel, CURED_F32, n, 256,
                                              &h200->shape, &plan);
    if (st == CURED_SUCCESS)
        st = cured_catalogue_temp_bytes(kernel, CURED_F32, n, 256, &temp);
    if (st != CURED_SUCCESS) {
        fprintf(stderr, "catalogue_list: plan: %s\n", cured_status_string(st));
        return 1;
    }
    printf("plan for %s (f32, n %llu, block 256) on %s: %d launches, "
           "scratch %zu bytes\n", cured_catalogue_entry(kernel)->name,
           (unsigned long long)n, h200->description, plan.launches, temp);
    print_plan(&plan);
    return 0;
}

/* The device side: the plan on this machine's GPU, the call a program makes
 * (after cudaMalloc) before cured_catalogue_run. Without a GPU it answers
 * CURED_ERROR_CUDA; a libcured built without CUDA answers
 * CURED_ERROR_NO_CUDA. A program with a GPU would run its sum here. Returns
 * 0 when the answer is one of those, else 1. */
static int plan_on_this_gpu(int kernel, uint64_t n)
{
    cured_plan plan;
    cured_status st = cured_catalogue_plan(kernel, CURED_F32, n, 256, &plan);
    printf("on this machine's GPU: %s\n", cured_status_string(st));
    if (st == CURED_SUCCESS) {
        print_plan(&plan);
        return 0;
    }
    return st == CURED_ERROR_CUDA || st == CURED_ERROR_NO_CUDA ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "two_pass";
    int kernel;
    if (argc > 2 || cured_catalogue_find(name, &kernel) != CURED_SUCCESS) {
        fprintf(stderr, "usage: catalogue_list [KERNEL] (a kernel of the "
                "catalogue; '%s' is not)\n", name);
        return 2;
    }
    const uint64_t n = (uint64_t)1 << 24;
    list_catalogue();
    return plan_for_h200(kernel, n) | plan_on_this_gpu(kernel, n);
}
