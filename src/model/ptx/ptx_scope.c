/* ptx_scope.c - names in nested scopes: module, function, `{ }` blocks.
 *
 * defines: ptx_scope_push, ptx_scope_pop, ptx_scope_find, ptx_scope_bind,
 *          ptx_scope_free
 *
 * A hash table maps each name to its innermost binding; a binding
 * remembers the one it shadows, so closing a scope walks its bindings
 * backwards and puts the shadowed ones back (a call sequence's `param0`
 * hides nothing outside, a block's `%p1` hides the function's %p1).
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

#define SLOT_EMPTY (-1)
#define SLOT_DELETED (-2)

/* FNV-1a over the name's bytes. */
static uint32_t hash_name(const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)name[i];
        h *= 16777619u;
    }
    return h;
}

/* The slot holding name's binding, or, when absent, the slot where it
 * would go (the first deleted slot met, else the empty one ending the
 * probe). *found says which. The table must have an empty slot. */
static size_t probe(const ptx_scope *s, const char *name, size_t len,
                    int *found)
{
    size_t mask = s->table_cap - 1;
    size_t i = hash_name(name, len) & mask;
    size_t insert_at = SIZE_MAX;
    for (;;) {
        int32_t b = s->table[i];
        if (b == SLOT_EMPTY) {
            *found = 0;
            return insert_at != SIZE_MAX ? insert_at : i;
        }
        if (b == SLOT_DELETED) {
            if (insert_at == SIZE_MAX)
                insert_at = i;
        } else {
            const ptx_binding *e = &s->bindings[b];
            if (e->len == len && memcmp(e->name, name, len) == 0) {
                *found = 1;
                return i;
            }
        }
        i = (i + 1) & mask;
    }
}

/* Rebuilds the table with `cap` slots from the live bindings (later
 * bindings of a name win, as they are the innermost). Returns 0 or -1. */
static int rehash(ptx_scope *s, size_t cap)
{
    int32_t *table = malloc(cap * sizeof *table);
    if (table == NULL)
        return -1;
    for (size_t i = 0; i < cap; i++)
        table[i] = SLOT_EMPTY;
    free(s->table);
    s->table = table;
    s->table_cap = cap;
    s->table_used = 0;
    for (size_t b = 0; b < s->nbindings; b++) {
        int found;
        size_t slot = probe(s, s->bindings[b].name, s->bindings[b].len, &found);
        if (!found)
            s->table_used++;
        s->table[slot] = (int32_t)b;
    }
    return 0;
}

int ptx_scope_push(ptx_scope *s)
{
    if (cured_grow((void **)&s->marks, &s->marks_cap, s->nmarks + 1,
                 sizeof *s->marks) != 0)
        return -1;
    s->marks[s->nmarks++] = s->nbindings;
    return 0;
}

void ptx_scope_pop(ptx_scope *s)
{
    if (s->nmarks == 0)
        return;
    size_t mark = s->marks[--s->nmarks];
    while (s->nbindings > mark) {
        size_t b = --s->nbindings;
        int found;
        size_t slot = probe(s, s->bindings[b].name, s->bindings[b].len, &found);
        if (found && s->table[slot] == (int32_t)b) {
            int32_t shadowed = s->bindings[b].shadowed;
            s->table[slot] = shadowed >= 0 ? shadowed : SLOT_DELETED;
        }
    }
}

const ptx_binding *ptx_scope_find(const ptx_scope *s, const char *name,
                                  size_t len)
{
    if (s->table_cap == 0)
        return NULL;
    int found;
    size_t slot = probe(s, name, len, &found);
    return found ? &s->bindings[s->table[slot]] : NULL;
}

int ptx_scope_bind(ptx_scope *s, const char *name, size_t len, uint8_t kind,
                   int32_t index)
{
    if (s->nbindings >= INT32_MAX || len > UINT32_MAX)
        return -1;
    /* keep the table at most half full, counting deleted slots */
    if ((s->table_used + 1) * 2 > s->table_cap) {
        size_t cap = s->table_cap ? s->table_cap : 64;
        while ((s->nbindings + 1) * 2 > cap / 2)
            cap *= 2;
        if (rehash(s, cap) != 0)
            return -1;
    }
    int found;
    size_t slot = probe(s, name, len, &found);
    uint16_t depth = (uint16_t)(s->nmarks > UINT16_MAX ? UINT16_MAX : s->nmarks);
    int32_t shadowed = -1;
    if (found) {
        shadowed = s->table[slot];
        if (s->bindings[shadowed].depth == depth)
            return 1;
    }
    if (cured_grow((void **)&s->bindings, &s->bindings_cap, s->nbindings + 1,
                 sizeof *s->bindings) != 0)
        return -1;
    ptx_binding *e = &s->bindings[s->nbindings];
    e->name = name;
    e->len = (uint32_t)len;
    e->kind = kind;
    e->depth = depth;
    e->index = index;
    e->shadowed = shadowed;
    if (!found && s->table[slot] == SLOT_EMPTY)
        s->table_used++;
    s->table[slot] = (int32_t)s->nbindings++;
    return 0;
}

void ptx_scope_free(ptx_scope *s)
{
    free(s->bindings);
    free(s->table);
    free(s->marks);
    memset(s, 0, sizeof *s);
}
