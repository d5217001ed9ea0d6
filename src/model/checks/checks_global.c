/* checks_global.c - the global side of initcheck: reads of bytes nothing
 * wrote, through each buffer's cured_model_buffer.init shadow.
 *
 * defines: checks_global_access
 *
 * A buffer allocated uninitialised has a per-byte init shadow (1 = written).
 * The access callback comes before the instruction's values are stored, so
 * a load or atomic sees the shadow as it was before: a byte still 0 is a
 * CURED_MODEL_FIND_UNINIT_GLOBAL when the launch asks for the check. Stores and
 * atomics then mark their bytes (the interpreter does too when it stores;
 * marking here keeps the checks right on synthetic events as well).
 * Addresses outside every buffer are left to the out-of-bounds check.
 */
#include "checks_impl.h"

#include <stdio.h>

/* The buffer holding [addr, addr + len), or NULL. (The same lookup as
 * cured_model_memory_find, kept here so the checks do not depend on memory.c.) */
static cured_model_buffer *buffer_at(cured_model_memory *memory, uint64_t addr, uint64_t len)
{
    for (int i = 0; i < memory->nbuffers; i++) {
        cured_model_buffer *buf = &memory->buffers[i];
        if (addr >= buf->addr && addr - buf->addr <= buf->bytes &&
            len <= buf->bytes - (addr - buf->addr))
            return buf;
    }
    return NULL;
}

/* Reports lane `lane`'s read of the unwritten byte at addr in buf. */
static void report_uninit(cured_model_checks *c, const cured_model_access *a, int lane,
                          const cured_model_buffer *buf, uint64_t addr)
{
    char where[80], thread[40], msg[224];
    checks_where(a->event->module, a->event->function, a->event->pc, where, sizeof where);
    checks_thread_text(c, a->event->warp * CURED_MODEL_WARP_SIZE + (uint32_t)lane, thread,
                       sizeof thread);
    snprintf(msg, sizeof msg, "%s of %s+%llu by thread %s at %s: nothing wrote "
             "that byte", a->kind == CURED_MODEL_ATOMIC ? "atomic" : "read", buf->name,
             (unsigned long long)(addr - buf->addr), thread, where);
    checks_report(c, a->event, CURED_MODEL_FIND_UNINIT_GLOBAL, lane, addr, msg);
}

void checks_global_access(cured_model_checks *c, const cured_model_access *a)
{
    if (c->memory == NULL)
        return;
    int reported = 0;
    for (int lane = 0; lane < CURED_MODEL_WARP_SIZE; lane++) {
        if (!(a->mask >> lane & 1u))
            continue;
        cured_model_buffer *buf = buffer_at(c->memory, a->addr[lane], a->size);
        if (buf == NULL || buf->init == NULL)
            continue;
        uint8_t *init = buf->init + (a->addr[lane] - buf->addr);
        if (a->kind != CURED_MODEL_STORE && c->check_uninit_global && !reported) {
            for (uint32_t k = 0; k < a->size; k++) {
                if (!init[k]) {
                    report_uninit(c, a, lane, buf, a->addr[lane] + k);
                    reported = 1;
                    break;
                }
            }
        }
        if (a->kind != CURED_MODEL_LOAD)
            for (uint32_t k = 0; k < a->size; k++)
                init[k] = 1;
    }
}
