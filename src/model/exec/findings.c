/* findings.c - the list of problems a model run found.
 *
 * defines: cured_model_findings_add, cured_model_findings_merge, cured_model_findings_clear,
 *          cured_model_finding_kind_name
 */
#include "cured_model.h"

#include <stdlib.h>
#include <string.h>

int cured_model_findings_add(cured_model_findings *list, const cured_model_finding *f)
{
    for (int i = 0; i < list->count; i++) {
        const cured_model_finding *g = &list->items[i];
        if (g->kind == f->kind && g->function == f->function && g->pc == f->pc &&
            g->function >= 0) {
            list->repeats[i]++;
            return 0;
        }
    }
    if (list->count == list->capacity) {
        int cap = list->capacity ? list->capacity * 2 : 16;
        cured_model_finding *items = realloc(list->items, (size_t)cap * sizeof *items);
        if (items == NULL)
            return -1;
        list->items = items;
        uint32_t *repeats = realloc(list->repeats, (size_t)cap * sizeof *repeats);
        if (repeats == NULL)
            return -1;
        list->repeats = repeats;
        list->capacity = cap;
    }
    list->items[list->count] = *f;
    list->repeats[list->count] = 0;
    list->count++;
    if (f->severity == CURED_MODEL_ERROR)
        list->errors++;
    return 0;
}

int cured_model_findings_merge(cured_model_findings *dst, const cured_model_findings *src)
{
    for (int i = 0; i < src->count; i++) {
        const cured_model_finding *f = &src->items[i];
        int before = dst->count;
        if (cured_model_findings_add(dst, f) != 0)
            return -1;
        int at = dst->count - 1;
        if (dst->count == before)         /* merged into an earlier one */
            for (at = 0; at < dst->count; at++) {
                const cured_model_finding *g = &dst->items[at];
                if (g->kind == f->kind && g->function == f->function && g->pc == f->pc)
                    break;
            }
        if (at < dst->count)
            dst->repeats[at] += src->repeats[i];
    }
    return 0;
}

void cured_model_findings_clear(cured_model_findings *list)
{
    free(list->items);
    free(list->repeats);
    memset(list, 0, sizeof *list);
}

const char *cured_model_finding_kind_name(cured_model_finding_kind kind)
{
    switch (kind) {
    case CURED_MODEL_FIND_OOB_GLOBAL: return "out-of-bounds global access";
    case CURED_MODEL_FIND_OOB_SHARED: return "out-of-bounds shared access";
    case CURED_MODEL_FIND_OOB_LOCAL: return "out-of-bounds local access";
    case CURED_MODEL_FIND_OOB_PARAM: return "out-of-bounds param/const access";
    case CURED_MODEL_FIND_MISALIGNED: return "misaligned access";
    case CURED_MODEL_FIND_UNINIT_SHARED: return "read of unwritten shared memory";
    case CURED_MODEL_FIND_UNINIT_GLOBAL: return "read of unwritten global memory";
    case CURED_MODEL_FIND_RACE_SHARED: return "shared-memory race";
    case CURED_MODEL_FIND_BAD_MASK: return "bad warp-synchronous mask";
    case CURED_MODEL_FIND_BARRIER_DIVERGENCE: return "barrier not reached by every thread";
    case CURED_MODEL_FIND_STEP_LIMIT: return "step limit reached";
    case CURED_MODEL_FIND_UNSUPPORTED: return "unsupported instruction";
    case CURED_MODEL_FIND_TRAP: return "trap";
    case CURED_MODEL_FIND_BAD_LAUNCH: return "bad launch";
    }
    return "unknown finding";
}
