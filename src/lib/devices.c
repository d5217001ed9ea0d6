/* devices.c - the GPUs libcured knows by name: their shapes, for plans made
 * without a GPU (the model runs them on the CPU as they would run there).
 *
 * defines: cured_device_presets, cured_device_preset_find
 *
 * Shapes are the CUDA device attributes the dispatch reads on a real GPU
 * (cudaDevAttrMultiProcessorCount, MaxThreadsPerMultiProcessor,
 * MaxBlocksPerMultiprocessor) as NVIDIA documents them for each part.
 */
#include "cured.h"

#include <ctype.h>
#include <stddef.h>

static const cured_device_preset presets[] = {
    {"h200", "NVIDIA H200 (sm_90, 132 SMs)", {132, 2048, 32}},
    {"h100", "NVIDIA H100 SXM (sm_90, 132 SMs)", {132, 2048, 32}},
    {"a100", "NVIDIA A100 (sm_80, 108 SMs)", {108, 2048, 32}},
};

const cured_device_preset *cured_device_presets(int *count)
{
    if (count != NULL)
        *count = (int)(sizeof presets / sizeof presets[0]);
    return presets;
}

/* 1 when a and b are equal ignoring ASCII case. */
static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const cured_device_preset *cured_device_preset_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (same_name(presets[i].name, name))
            return &presets[i];
    return NULL;
}
