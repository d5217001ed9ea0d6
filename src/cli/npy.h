/* npy.h - reading an array for `cured sum`: a NumPy .npy file (versions 1 to
 * 3, little- or big-endian, C order) or a raw file of one dtype.
 *
 * defines: npy_array, npy_read, npy_free
 */
#ifndef CURED_NPY_H
#define CURED_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "cured.h"

typedef struct npy_array {
    cured_dtype dtype;
    uint64_t n;    /* elements: the product of the shape */
    void *data;    /* n elements, native byte order, 16-byte aligned */
    int is_npy;    /* 1: read from .npy, 0: raw */
} npy_array;

/* Reads `path`: .npy when it starts with the .npy magic, else raw elements
 * of raw_dtype (raw_dtype < 0 refuses raw files). Returns 0, or -1 with
 * one line (no newline) in err: unreadable file, bad magic or header,
 * unsupported dtype, Fortran order, truncated data, a raw file whose size
 * is not a multiple of the element size, out of memory. */
int npy_read(const char *path, int raw_dtype, npy_array *out, char *err,
             size_t err_size);

/* Frees what npy_read allocated. NULL-safe. */
void npy_free(npy_array *a);

#endif /* CURED_NPY_H */
