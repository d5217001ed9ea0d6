/* viz_embedded.h - files built into cured for the renderers: the
 * catalogue's CUDA sources (the source panel: the same text nvcc compiled)
 * and the HTML page's stylesheet and script (src/viz/page/), each embedded
 * by cmake/embed.cmake as bytes with a NUL after them.
 *
 * defines: viz_embedded_source, viz_page_css, viz_page_js
 */
#ifndef CURED_VIZ_EMBEDDED_H
#define CURED_VIZ_EMBEDDED_H

#include <stddef.h>

/* The text of catalogue source `name` ("classic.cu", "warp.cuh"), NUL
 * ended, its length in *size; NULL for a name that is not one. */
const char *viz_embedded_source(const char *name, size_t *size);

/* src/viz/page/page.css and page.js, NUL ended. */
const char *viz_page_css(void);
const char *viz_page_js(void);

#endif /* CURED_VIZ_EMBEDDED_H */
