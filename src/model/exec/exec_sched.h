/* exec_sched.h - the scheduler's bookkeeping: which lanes of a warp issue
 * next (the current group, min-PC) and which are parked. A service for the
 * step loop, the instruction families and the waits (exec_wait.c); it
 * calls none of them.
 *
 * defines: exec_sched_select, exec_sched_repark, exec_sched_park,
 *          exec_sched_wake, exec_sched_next, exec_sched_check,
 *          exec_sched_set_fn
 *
 * The current group is kept apart from the parked lanes so that the common
 * case, a converged warp, costs one compare per instruction. All of it is
 * inline: the step loop runs it at every instruction. How min-PC
 * reconvergence behaves: docs/interpreter.md, "Execution".
 */
#ifndef CURED_MODEL_EXEC_SCHED_H
#define CURED_MODEL_EXEC_SCHED_H

#include "exec_internal.h"

/* Points w's code and register window at the function of cur_key. */
static inline void exec_sched_set_fn(exec_warp *w)
{
    uint32_t fn = exec_key_fn(w->cur_key);
    if (fn != w->fn || w->code == NULL) {
        w->fn = fn;
        w->code = w->functions[fn].code;
        w->ncode = (uint32_t)w->functions[fn].ncode;
        w->R = w->regs[fn];
    }
}

/* Makes the min-key group of the parked lanes the current group (cur = 0
 * when none is runnable). */
static inline void exec_sched_select(exec_warp *w)
{
    uint32_t p = w->parked;
    if (p == 0) {
        w->cur = 0;
        return;
    }
    uint64_t mk = UINT64_MAX;
    EXEC_LANES(p, l, if (w->key[l] < mk) mk = w->key[l];);
    uint32_t grp = 0;
    uint64_t second = UINT64_MAX;
    EXEC_LANES(p, l, {
        if (w->key[l] == mk)
            grp |= 1u << l;
        else if (w->key[l] < second)
            second = w->key[l];
    });
    w->cur = grp;
    w->cur_key = mk;
    w->parked = p & ~grp;
    w->parked_min = second;
    exec_sched_set_fn(w);
}

/* Puts the current group back among the parked lanes (at cur_key) and
 * selects again. */
static inline void exec_sched_repark(exec_warp *w)
{
    EXEC_LANES(w->cur, l, w->key[l] = w->cur_key;);
    w->parked |= w->cur;
    w->cur = 0;
    exec_sched_select(w);
}

/* After cur_key changed: merges parked lanes at the same key into cur, or
 * switches to a parked group with a smaller key. */
static inline void exec_sched_check(exec_warp *w)
{
    if (w->parked && w->parked_min <= w->cur_key)
        exec_sched_repark(w);
}

/* Parks `lanes` (runnable, not in cur) at key k. */
static inline void exec_sched_park(exec_warp *w, uint32_t lanes, uint64_t k)
{
    if (lanes == 0)
        return;
    EXEC_LANES(lanes, l, w->key[l] = k;);
    if (w->parked == 0 || k < w->parked_min)
        w->parked_min = k;
    w->parked |= lanes;
}

/* Parks `lanes` released from a wait (their keys already set, mk the
 * smallest of them) and, when no group is current, selects one. */
static inline void exec_sched_wake(exec_warp *w, uint32_t lanes, uint64_t mk)
{
    if (w->parked == 0 || mk < w->parked_min)
        w->parked_min = mk;
    w->parked |= lanes;
    if (w->cur == 0)
        exec_sched_select(w);
}

/* The current group moves on to the next instruction. */
static inline void exec_sched_next(exec_warp *w)
{
    w->cur_key++;
    exec_sched_check(w);
}

#endif /* CURED_MODEL_EXEC_SCHED_H */
