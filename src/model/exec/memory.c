/* memory.c - the model's global memory: caller-provided buffers at device
 * addresses, with unmapped gaps between them.
 *
 * defines: cured_model_memory_new, cured_model_memory_free, cured_model_memory_alloc,
 *          cured_model_memory_find, cured_model_memory_find_named, cured_model_memory_module_image
 *
 * Buffers are placed upwards from 0x7000'0000'0000 (below the generic
 * windows the interpreter gives shared and local memory), 256-byte
 * aligned, with at least 64 KiB unmapped after each one, so an access a
 * little past the end of a buffer is inside no buffer and is caught.
 * Addresses only grow, so the buffer array stays sorted and a lookup is a
 * binary search.
 */
#include "cured_model.h"
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

#define MEMORY_FIRST_ADDR 0x700000000000ull
#define MEMORY_GAP (64ull * 1024)
#define MEMORY_ALIGN 256ull
/* Room reserved on the first allocation: pointers returned by
 * cured_model_memory_alloc stay valid while the memory holds at most this many
 * buffers (past that the array may move; look buffers up again). */
#define MEMORY_STABLE_BUFFERS 1024
/* Names of the per-module data images. */
#define MEMORY_IMAGE_NAME "module .global/.const data"

cured_model_memory *cured_model_memory_new(void)
{
    cured_model_memory *m = calloc(1, sizeof *m);
    if (m != NULL)
        m->next_addr = MEMORY_FIRST_ADDR;
    return m;
}

void cured_model_memory_free(cured_model_memory *memory)
{
    if (memory == NULL)
        return;
    for (int i = 0; i < memory->nbuffers; i++) {
        free(memory->buffers[i].data);
        free(memory->buffers[i].init);
    }
    free(memory->buffers);
    free(memory);
}

/* Makes room for one more buffer. Returns 0, or -1 out of host memory. */
static int memory_reserve(cured_model_memory *memory)
{
    if (memory->nbuffers < memory->capacity)
        return 0;
    int cap = memory->capacity ? memory->capacity * 2 : MEMORY_STABLE_BUFFERS;
    cured_model_buffer *b = realloc(memory->buffers, (size_t)cap * sizeof *b);
    if (b == NULL)
        return -1;
    memory->buffers = b;
    memory->capacity = cap;
    return 0;
}

cured_model_buffer *cured_model_memory_alloc(cured_model_memory *memory, const char *name,
                                 uint64_t bytes, int initialised)
{
    if (memory == NULL || memory_reserve(memory) != 0)
        return NULL;
    /* calloc(0) may return NULL: keep one byte so data is never NULL */
    size_t host = bytes ? (size_t)bytes : 1;
    if ((uint64_t)host != (bytes ? bytes : 1))
        return NULL;
    uint8_t *data = calloc(1, host);
    uint8_t *init = NULL;
    if (data == NULL)
        return NULL;
    if (!initialised) {
        init = calloc(1, host);
        if (init == NULL) {
            free(data);
            return NULL;
        }
    }
    cured_model_buffer *b = &memory->buffers[memory->nbuffers++];
    memset(b, 0, sizeof *b);
    if (name != NULL) {
        strncpy(b->name, name, sizeof b->name - 1);
        b->name[sizeof b->name - 1] = '\0';
    }
    b->addr = memory->next_addr;
    b->bytes = bytes;
    b->data = data;
    b->init = init;
    uint64_t end = b->addr + bytes + MEMORY_GAP;
    memory->next_addr = (end + MEMORY_ALIGN - 1) / MEMORY_ALIGN * MEMORY_ALIGN;
    return b;
}

cured_model_buffer *cured_model_memory_find_named(const cured_model_memory *memory,
                                                  const char *name)
{
    if (memory == NULL || name == NULL)
        return NULL;
    for (int i = 0; i < memory->nbuffers; i++)
        if (strcmp(memory->buffers[i].name, name) == 0)
            return &memory->buffers[i];
    return NULL;
}

cured_model_buffer *cured_model_memory_find(const cured_model_memory *memory, uint64_t addr,
                                uint64_t len)
{
    if (memory == NULL || memory->nbuffers == 0)
        return NULL;
    int lo = 0, hi = memory->nbuffers - 1;
    while (lo < hi) {           /* the last buffer starting at or below addr */
        int mid = (lo + hi + 1) / 2;
        if (memory->buffers[mid].addr <= addr)
            lo = mid;
        else
            hi = mid - 1;
    }
    cured_model_buffer *b = &memory->buffers[lo];
    if (addr < b->addr || addr - b->addr > b->bytes || len > b->bytes - (addr - b->addr))
        return NULL;
    return b;
}

cured_model_buffer *cured_model_memory_module_image(cured_model_memory *memory,
                                        const cured_model_module *module)
{
    if (memory == NULL || module == NULL)
        return NULL;
    for (int i = 0; i < memory->nbuffers; i++)
        if (memory->buffers[i].module == module)
            return &memory->buffers[i];
    cured_model_buffer *b = cured_model_memory_alloc(memory, MEMORY_IMAGE_NAME,
                                         module->global_bytes, 1);
    if (b == NULL)
        return NULL;
    b->module = module;
    for (int i = 0; i < module->nsymbols; i++) {
        const ptx_symbol *s = &module->symbols[i];
        if ((s->space == PTX_S_GLOBAL || s->space == PTX_S_CONST) && s->init != NULL &&
            s->offset <= module->global_bytes && s->size <= module->global_bytes - s->offset)
            memcpy(b->data + s->offset, s->init, (size_t)s->size);
    }
    return b;
}
