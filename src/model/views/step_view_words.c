/* step_view_words.c - the words one thread read in the current barrier
 * interval (the step view's rule 5, docs/counting.md: a thread that writes
 * a word it read is adding): an open-addressing set of word + 1 (0 = empty), emptied lazily
 * when the epoch moves on.
 *
 * defines: step_words_add, step_words_contains
 */
#include "step_view_impl.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_word(uint32_t key, uint32_t cap)
{
    return (key * 2654435761u) & (cap - 1);
}

/* Empties the set if it belongs to an older epoch. */
static void set_touch(word_set *s, uint32_t epoch)
{
    if (s->epoch != epoch) {
        if (s->count)
            memset(s->keys, 0, s->cap * sizeof *s->keys);
        s->count = 0;
        s->epoch = epoch;
    }
}

int step_words_contains(word_set *s, uint32_t epoch, uint32_t word)
{
    set_touch(s, epoch);
    if (s->cap == 0)
        return 0;
    uint32_t key = word + 1;
    for (uint32_t i = hash_word(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == key)
            return 1;
        if (s->keys[i] == 0)
            return 0;
    }
}

int step_words_add(word_set *s, uint32_t epoch, uint32_t word)
{
    set_touch(s, epoch);
    if (step_words_contains(s, epoch, word))
        return 0;
    if (2 * (s->count + 1) > s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        uint32_t *keys = calloc(cap, sizeof *keys);
        if (keys == NULL)
            return -1;
        for (uint32_t i = 0; i < s->cap; i++) {
            uint32_t k = s->keys[i];
            if (k == 0)
                continue;
            uint32_t j = hash_word(k, cap);
            while (keys[j] != 0)
                j = (j + 1) & (cap - 1);
            keys[j] = k;
        }
        free(s->keys);
        s->keys = keys;
        s->cap = cap;
    }
    uint32_t key = word + 1;
    uint32_t j = hash_word(key, s->cap);
    while (s->keys[j] != 0)
        j = (j + 1) & (s->cap - 1);
    s->keys[j] = key;
    s->count++;
    return 0;
}
