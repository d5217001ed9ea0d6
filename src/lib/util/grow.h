/* grow.h - growing a realloc'd array geometrically, shared by every part
 * of cured that collects rows or records of unknown count (the PTX
 * parser's tables, the SASS reader, the bench's results).
 *
 * defines: cured_grow
 *
 * Internal to the project (not part of the public API in include/cured.h).
 */
#ifndef CURED_GROW_H
#define CURED_GROW_H

#include <stddef.h>

/* Makes room for at least `need` elements of `elem` bytes in *array, whose
 * capacity is *capacity (both updated; growth is geometric, from 8).
 * Returns 0, or -1 when the size would overflow or memory runs out
 * (*array and *capacity unchanged). */
int cured_grow(void **array, size_t *capacity, size_t need, size_t elem);

#endif /* CURED_GROW_H */
