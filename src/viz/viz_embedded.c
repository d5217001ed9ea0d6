/* viz_embedded.c - finds the files cmake/embed.cmake built into cured for
 * the renderers (viz_embedded.h says which).
 *
 * defines: viz_embedded_source, viz_page_css, viz_page_js
 */
#include "viz_embedded.h"

#include <string.h>

#define EMBEDDED(sym)                        \
    extern const unsigned char sym##_data[]; \
    extern const size_t sym##_size;
EMBEDDED(cured_src_classic_cu)
EMBEDDED(cured_src_grid_cu)
EMBEDDED(cured_src_block_cuh)
EMBEDDED(cured_src_warp_cuh)
EMBEDDED(cured_src_load_cuh)
EMBEDDED(cured_page_css)
EMBEDDED(cured_page_js)
#undef EMBEDDED

const char *viz_embedded_source(const char *name, size_t *size)
{
    const struct {
        const char *name;
        const unsigned char *data;
        const size_t *size;
    } files[] = {
        {"classic.cu", cured_src_classic_cu_data, &cured_src_classic_cu_size},
        {"grid.cu", cured_src_grid_cu_data, &cured_src_grid_cu_size},
        {"block.cuh", cured_src_block_cuh_data, &cured_src_block_cuh_size},
        {"warp.cuh", cured_src_warp_cuh_data, &cured_src_warp_cuh_size},
        {"load.cuh", cured_src_load_cuh_data, &cured_src_load_cuh_size},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i].name, name) == 0) {
            *size = *files[i].size;
            return (const char *)files[i].data;
        }
    return NULL;
}

const char *viz_page_css(void)
{
    return (const char *)cured_page_css_data;
}

const char *viz_page_js(void)
{
    return (const char *)cured_page_js_data;
}
