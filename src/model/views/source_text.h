/* source_text.h - the text of a module's source lines, read from the files
 * its .file directives name, for reports that show a line beside its
 * counts. Private to src/model/views.
 *
 * defines: source_text, source_text_new, source_text_line, source_text_free
 */
#ifndef CURED_MODEL_SOURCE_TEXT_H
#define CURED_MODEL_SOURCE_TEXT_H

#include "ptx.h"

#include <stddef.h>
#include <stdint.h>

/* The files of one module, each read the first time a line of it is asked
 * for (and remembered as missing when it cannot be read). */
typedef struct source_text source_text;

/* A new, empty reader for `module`'s files (the module must outlive it).
 * Returns NULL when out of host memory. */
source_text *source_text_new(const cured_model_module *module);

/* The text of line `line` of .file `file`, without its indentation and
 * trailing blanks, tabs made spaces, cut to cap - 1 bytes, into out; 1
 * when the file could be read and has that line, else 0 (out is then "").
 * A file over 64 MiB or one that is not a regular file counts as
 * unreadable. Can't fail otherwise. */
int source_text_line(source_text *s, uint16_t file, uint32_t line, char *out,
                     size_t cap);

/* Frees the reader and what it read. NULL is fine. */
void source_text_free(source_text *s);

#endif /* CURED_MODEL_SOURCE_TEXT_H */
