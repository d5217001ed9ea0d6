/* model_memory.c - `cured model` refuses a run that does not fit in host
 * memory, before it starts.
 *
 * defines: cli_model_check_memory
 *
 * A run over the machine's free memory does not fail fast: it swaps and
 * crawls (divergent over 2^32 values once ran 40 minutes at 17 GB). So it
 * is refused with what it needs and what there is; --force runs it anyway,
 * for a user who knows better than the estimate.
 */
#include "model_memory.h"

#include "cli.h"
#include "cured_model_host.h"

int cli_model_check_memory(uint64_t need, int force)
{
    uint64_t available;
    char err[300];
    if (force || cured_model_host_memory_free(&available) != 0 ||
        cured_model_memory_fits(need, available, err, sizeof err) == 0)
        return 0;
    return cli_fail("model", "%s; --force runs it anyway", err);
}
