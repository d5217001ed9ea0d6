/* ptx_text.c - what a module's text says where: a line of the PTX text as
 * one tidy line, the name of a .file a .loc points to.
 *
 * defines: ptx_line_text, ptx_source_file_name
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
