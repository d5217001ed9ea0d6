/* grid_dependency.cuh - programmatic dependent launch (sm_90) for
 * cured_reduce's kernels: a call launched right behind another kernel in
 * its stream may start its blocks while that kernel ends, and waits for it
 * before it touches memory.
 *
 * defines: grid_dependency_begin
 *
 * The host launches every cured_reduce kernel with the programmatic stream
 * serialization attribute (src/lib/reduce.cu), which lets the launch begin
 * once every block of the kernel before it has signalled (or exited), not
 * when that kernel has finished. So each kernel waits for the grids it
 * depends on, completed and their memory visible, before its first global
 * load or store (the input, the workspace the last call re-armed), and then
 * signals that the launch after it may begin: its blocks take SM slots only
 * as this grid's blocks leave, and wait here in turn. Without the attribute,
 * or before sm_90, both are no-ops. docs/exact.md, "Back-to-back calls".
 */
#ifndef CURED_GRID_DEPENDENCY_CUH
#define CURED_GRID_DEPENDENCY_CUH

/* Waits until the grids this one depends on have completed and their
 * memory operations are visible, then lets the next dependent launch
 * begin. Every thread calls it before its first global memory access. */
__device__ inline void grid_dependency_begin()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

#endif /* CURED_GRID_DEPENDENCY_CUH */
