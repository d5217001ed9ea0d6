/* catalogue_sass.c - the embedded catalogue SASS (catalogue_sass.h).
 *
 * defines: cured_model_catalogue_sass, cured_model_catalogue_sass_missing,
 *          cured_model_build_nvdisasm
 *
 * With CURED_HAVE_CATALOGUE_SASS the build links a generated source
 * (cmake/embed.cmake) defining cured_catalogue_sass_data/_size; without
 * it, CURED_CATALOGUE_SASS_MISSING says why (set by src/model/CMakeLists).
 * CURED_NVDISASM_PATH is the nvdisasm configure found, if any.
 */
#include "catalogue_sass.h"

#ifdef CURED_HAVE_CATALOGUE_SASS
extern const unsigned char cured_catalogue_sass_data[];
extern const size_t cured_catalogue_sass_size;
#endif

const char *cured_model_catalogue_sass(size_t *len)
{
#ifdef CURED_HAVE_CATALOGUE_SASS
    *len = cured_catalogue_sass_size;
    return (const char *)cured_catalogue_sass_data;
#else
    *len = 0;
    return NULL;
#endif
}

const char *cured_model_catalogue_sass_missing(void)
{
#if defined(CURED_HAVE_CATALOGUE_SASS)
    return NULL;
#elif defined(CURED_CATALOGUE_SASS_MISSING)
    return CURED_CATALOGUE_SASS_MISSING;
#else
    return "this build embeds no catalogue SASS";
#endif
}

const char *cured_model_build_nvdisasm(void)
{
#ifdef CURED_NVDISASM_PATH
    return CURED_NVDISASM_PATH;
#else
    return NULL;
#endif
}
