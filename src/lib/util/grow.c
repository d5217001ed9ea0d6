/* grow.c - growing a realloc'd array geometrically.
 *
 * defines: cured_grow
 */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

int cured_grow(void **array, size_t *capacity, size_t need, size_t elem)
{
    if (need <= *capacity)
        return 0;
    size_t cap = *capacity ? *capacity : 8;
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    if (elem != 0 && cap > SIZE_MAX / elem)
        return -1;
    void *grown = realloc(*array, cap * elem);
    if (grown == NULL)
        return -1;
    *array = grown;
    *capacity = cap;
    return 0;
}
