/* ptx_text.c - what a module's text says where: a line of the PTX text as
 * one tidy line, the name of a .file a .loc points to, whether that file
 * is the CUDA toolkit's.
 *
 * defines: ptx_line_text, ptx_source_file_name, ptx_toolkit_file
 */
#include "ptx.h"

#include <string.h>

void ptx_line_text(const char *text, size_t len, uint32_t line,
                          char *out, size_t cap)
{
    size_t i = 0;
    out[0] = '\0';
    if (line == 0 || cap == 0)
        return;
    for (uint32_t l = 1; l < line && i < len; i++)
        if (text[i] == '\n')
            l++;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    size_t end = i;
    while (end < len && text[end] != '\n' && text[end] != '\r' &&
           !(text[end] == '/' && end + 1 < len && text[end + 1] == '/'))
        end++;
    while (end > i && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        end--;
    size_t n = 0;                     /* runs of blanks become one space */
    for (; i < end && n + 1 < cap; i++) {
        int blank = text[i] == ' ' || text[i] == '\t';
        if (blank && n > 0 && out[n - 1] == ' ')
            continue;
        out[n++] = blank ? ' ' : text[i];
    }
    out[n] = '\0';
}

const char *ptx_source_file_name(const cured_model_module *module, uint16_t file)
{
    if (file == 0 || file >= module->nfiles || module->files[file] == NULL)
        return NULL;
    const char *slash = strrchr(module->files[file], '/');
    return slash ? slash + 1 : module->files[file];
}

/* 1 when the file name (no folder) is one of the toolkit's headers whose
 * device functions nvcc inlines: sm_NN_intrinsics.h(pp),
 * *_atomic_functions.h(pp), device_functions.h(pp), cuda_fp16/bf16. */
static int toolkit_header_name(const char *name)
{
    static const char *prefixes[] = {"device_functions.", "device_atomic_functions.",
                                     "cuda_fp16.", "cuda_bf16.", "math_functions."};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    if (strncmp(name, "sm_", 3) == 0 &&
        (strstr(name, "_intrinsics.") != NULL || strstr(name, "_atomic_functions.") != NULL))
        return 1;
    return 0;
}

int ptx_toolkit_file(const cured_model_module *module, uint16_t file)
{
    if (file == 0 || file >= module->nfiles || module->files[file] == NULL)
        return 0;
    const char *p = module->files[file];
    if (strstr(p, "/targets/") != NULL || strstr(p, "/cuda/include/") != NULL ||
        (strstr(p, "/cuda") != NULL && strstr(p, "/include/") != NULL))
        return 1;
    return toolkit_header_name(ptx_source_file_name(module, file));
}
