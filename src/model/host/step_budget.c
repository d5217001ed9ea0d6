/* step_budget.c - the default step limit of a launch, scaled to its size.
 *
 * defines: cured_model_step_budget, cured_model_args_elements
 *
 * The interpreter stops a launch after launch.step_limit warp
 * instructions, so an endless loop ends as a finding instead of a hang.
 * One fixed default cannot fit every launch: 2^32 let an endless loop in a
 * small launch run for a quarter of an hour, and anything much smaller
 * stops a large, healthy launch. So the default a host passes is a budget
 * per unit of the launch's size: per warp launched and per 32 elements of
 * its buffers (a grid-stride kernel's warps do more work as the data
 * grows). Every catalogue kernel needs at most about 130 warp instructions
 * per unit (divergent, blocks of 1024) and the grid-stride ones about 25,
 * so 1024 per unit leaves a wide margin (tests/model/host/test_step_budget.c
 * checks it at large n), and the floor keeps small launches from a limit
 * so low that a short serial loop hits it, while an endless loop in one
 * stops within seconds.
 */
#include "cured_model_host.h"

/* a * b, or UINT64_MAX when it does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* a + b, or UINT64_MAX when it does not fit. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

uint64_t cured_model_step_budget(cured_model_dim3 grid, cured_model_dim3 block,
                                 uint64_t elements)
{
    uint64_t blocks = mul_sat(mul_sat(grid.x, grid.y), grid.z);
    uint64_t threads = mul_sat(mul_sat(block.x, block.y), block.z);
    uint64_t warps_per_block = threads / CURED_MODEL_WARP_SIZE +
                               (threads % CURED_MODEL_WARP_SIZE != 0);
    uint64_t units = add_sat(mul_sat(blocks, warps_per_block),
                             elements / CURED_MODEL_WARP_SIZE +
                                 (elements % CURED_MODEL_WARP_SIZE != 0));
    uint64_t budget = mul_sat(units, CURED_MODEL_STEP_BUDGET_PER_UNIT);
    return budget > CURED_MODEL_STEP_BUDGET_FLOOR ? budget : CURED_MODEL_STEP_BUDGET_FLOOR;
}

uint64_t cured_model_args_elements(const cured_model_arg *args, int nargs)
{
    uint64_t sum = 0;
    for (int i = 0; i < nargs; i++)
        if (args[i].is_buffer)
            sum = add_sat(sum, args[i].count);
    return sum;
}
