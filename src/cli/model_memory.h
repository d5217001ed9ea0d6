/* model_memory.h - `cured model`'s check that a run fits in host memory
 * before it starts.
 *
 * defines: cli_model_check_memory
 */
#ifndef CURED_CLI_MODEL_MEMORY_H
#define CURED_CLI_MODEL_MEMORY_H

#include <stdint.h>

/* Refuses a run that needs `need` bytes of host memory (the model's
 * estimate, cured_model_launch_bytes or _plan_bytes) when more than the
 * machine has free (cured_model_host_memory_free), unless `force`; with
 * force, or when the free memory cannot be read, lets it try. Returns 0,
 * or 2 after one line on stderr. */
int cli_model_check_memory(uint64_t need, int force);

#endif /* CURED_CLI_MODEL_MEMORY_H */
