/* whole_plan.c - a catalogue kernel's whole launch plan, run in the model.
 *
 * defines: cured_model_plan_run_catalogue, cured_model_plan_run_catalogue_at,
 *          cured_model_plan_run_watched, cured_model_plan_result_clear
 *
 * The launches, buffers and parameters mirror src/lib/run.cu (run_passes,
 * run_grid); the plan and the scratch layout come from the dispatch itself
 * (cured_dispatch_plan, cured_dispatch_layout), so a change there is run
 * here as it would run on a GPU.
 */
#include "cured_model_host.h"
#include "ptx.h"
#include "dispatch.h"

#include "catalogue_ptx.h"
#include "checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_PARAMS 5
#define PARAM_BLOCK_BYTES 64

/* Records why the plan could not run; returns -1. */
static int refuse(cured_model_plan_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error, sizeof r->error, fmt, ap);
    va_end(ap);
    return -1;
}

/* The poison byte of dtype's buffers: 0xFF makes a float NaN. */
static uint8_t poison_byte(cured_dtype dtype)
{
    return dtype == CURED_F32 || dtype == CURED_F64 ? 0xFF : 0xAB;
}

/* One launch's arguments, in parameter order, with the byte size each
 * parameter has in docs/kernels.md (8: a pointer or a .u64 n, 4: the
 * block-level kernels' .u32 n). */
typedef struct launch_args {
    uint64_t value[MAX_PARAMS];
    uint8_t size[MAX_PARAMS];
    int count;
} launch_args;

static void arg(launch_args *a, uint64_t value, uint8_t size)
{
    a->value[a->count] = value;
    a->size[a->count] = size;
    a->count++;
}

/* The addresses of one run's buffers (0 for a buffer it has none of). */
typedef struct run_buffers {
    uint64_t in, out, temp;
    cured_temp_layout layout;
} run_buffers;

/* Fills *a with launch k's arguments, as run.cu passes them: block-level
 * pass k reads the input (k == 0) or scratch buffer (k - 1) % 2 and writes
 * scratch buffer k % 2, the last pass *out; two_pass's first launch writes
 * scratch buffer 0 when a second launch sums it into *out; single_pass's
 * partials are scratch buffer 0 and its counter the scratch's first word.
 * Can't fail. */
static void launch_arguments(const char *name, int block_level,
                             const cured_plan *plan, int k,
                             const run_buffers *b, launch_args *a)
{
    const cured_launch *l = &plan->launch[k];
    uint64_t p0 = b->temp + b->layout.partials[0];
    memset(a, 0, sizeof *a);
    if (block_level) {
        uint64_t src = k == 0 ? b->in : b->temp + b->layout.partials[(k - 1) % 2];
        uint64_t dst = k == plan->launches - 1 ? b->out
                                               : b->temp + b->layout.partials[k % 2];
        arg(a, src, 8);
        arg(a, dst, 8);
        arg(a, (uint32_t)l->n, 4);
    } else if (strcmp(name, "single_pass") == 0) {
        arg(a, b->in, 8);
        arg(a, b->out, 8);
        arg(a, l->n, 8);
        arg(a, p0, 8);
        arg(a, b->temp, 8);
    } else if (strcmp(name, "two_pass") == 0 && plan->launches == 2) {
        arg(a, k == 0 ? b->in : p0, 8);
        arg(a, k == 0 ? p0 : b->out, 8);
        arg(a, l->n, 8);
    } else { /* atomic, or two_pass in one launch */
        arg(a, b->in, 8);
        arg(a, b->out, 8);
        arg(a, l->n, 8);
    }
}

/* Writes a's values into params at the offsets of f's .param symbols,
 * after checking that f has exactly a's parameters with a's sizes. Returns
 * 0, or -1 with r->error. */
static int pack_params(const cured_model_module *m, const ptx_function *f,
                       const launch_args *a, uint8_t *params, cured_model_plan_result *r)
{
    if (f->nparams != a->count)
        return refuse(r, "%s: %d parameters, docs/kernels.md says %d", f->name,
                      f->nparams, a->count);
    if (f->param_bytes > PARAM_BLOCK_BYTES)
        return refuse(r, "%s: %llu bytes of parameters", f->name,
                      (unsigned long long)f->param_bytes);
    memset(params, 0, PARAM_BLOCK_BYTES);
    for (int i = 0; i < a->count; i++) {
        const ptx_symbol *s = &m->symbols[f->params[i]];
        if (s->size != a->size[i] || s->offset + s->size > f->param_bytes)
            return refuse(r, "%s: parameter %d (%s) is %llu bytes, expected %u",
                          f->name, i, s->name, (unsigned long long)s->size,
                          a->size[i]);
        if (a->size[i] == 4) {
            uint32_t v = (uint32_t)a->value[i];
            memcpy(params + s->offset, &v, 4);
        } else {
            memcpy(params + s->offset, &a->value[i], 8);
        }
    }
    return 0;
}

/* The most observers a watch may add to a launch. */
#define MAX_WATCH_OBSERVERS 7

/* Runs launch k of the plan (launch l of function fn, with the packed
 * params) with fresh checks and the watch's observers attached, into
 * r->launch[k]; its findings join r's. Returns 1 when it completed with no
 * error finding, 0 when it ran but stopped or raised an error, -1 when the
 * model refused it or host memory ran out (r->error says which). */
static int run_launch(const cured_model_module *m, int fn, int k, const cured_launch *l,
                      const uint8_t *params, cured_model_memory *mem,
                      const cured_model_plan_watch *w, cured_model_plan_result *r)
{
    cured_model_plan_launch *rec = &r->launch[k];
    rec->function = fn;
    r->launches_started = k + 1;
    cured_model_checks *checks = cured_model_checks_new(&rec->findings);
    if (checks == NULL)
        return refuse(r, "out of host memory (checks)");
    cured_model_observer obs[1 + MAX_WATCH_OBSERVERS];
    int nobs = 0;
    obs[nobs++] = cured_model_checks_observer(checks);
    for (int i = 0; w != NULL && i < w->nobservers; i++)
        obs[nobs++] = w->observers[i];
    cured_model_launch launch = {
        .module = m, .function = fn, .grid = {(uint32_t)l->grid, 1, 1},
        .block = {(uint32_t)l->block, 1, 1},
        .dynamic_shared_bytes = (uint32_t)l->shared_bytes, .params = params,
        .params_size = (size_t)m->functions[fn].param_bytes, .memory = mem,
        .step_limit = w != NULL && w->step_limit != 0
                          ? w->step_limit
                          : cured_model_step_budget((cured_model_dim3){(uint32_t)l->grid, 1, 1},
                                                    (cured_model_dim3){(uint32_t)l->block, 1, 1},
                                                    l->n + l->grid),
        .observers = obs, .nobservers = nobs, .check_uninit_global = 1};
    cured_model_result result;
    memset(&result, 0, sizeof result);
    int rc = cured_model_run(&launch, &result);
    cured_model_checks_free(checks);
    rec->warp_instructions = result.warp_instructions;
    rec->thread_instructions = result.thread_instructions;
    r->thread_instructions += result.thread_instructions;
    if (rc != 0)
        refuse(r, "the model refused launch %d (%s): %s", k, m->functions[fn].name,
               result.findings.count ? result.findings.items[0].message : "");
    else if (cured_model_findings_merge(&rec->findings, &result.findings) != 0 ||
             cured_model_findings_merge(&r->findings, &rec->findings) != 0)
        rc = refuse(r, "out of host memory (findings)");
    rec->completed = rc == 0 && result.completed && rec->findings.errors == 0;
    cured_model_findings_clear(&result.findings);
    return rc != 0 ? -1 : rec->completed;
}

/* Allocates the run's buffers in mem and fills *b: the input (copied from
 * host, in_offset bytes into a 256-byte aligned buffer), *out and its
 * guard element (poisoned, unwritten), the scratch space of
 * cured_catalogue_temp_bytes bytes (state area zero and written, the rest
 * poisoned and unwritten). Returns 0, or -1 with r->error. */
static int make_buffers(cured_model_memory *mem, int kernel, cured_dtype dtype,
                        const void *in, uint64_t n, size_t in_offset, int block,
                        run_buffers *b, cured_model_buffer **out, cured_model_buffer **temp,
                        cured_model_plan_result *r)
{
    size_t es = cured_dtype_size(dtype);
    uint8_t poison = poison_byte(dtype);
    size_t temp_bytes = 0;
    cured_status st = cured_catalogue_temp_bytes(kernel, dtype, n, block, &temp_bytes);
    if (st != CURED_SUCCESS)
        return refuse(r, "temp_bytes: %s", cured_status_string(st));
    memset(b, 0, sizeof *b);
    *temp = NULL;
    uint64_t in_bytes = 0;
    if (cured_model_buffer_bytes("in", cured_dtype_name(dtype), n, (unsigned)es,
                                 &in_bytes, r->error, sizeof r->error) != 0)
        return -1;
    if (n > 0) {
        cured_model_buffer *ib = cured_model_memory_alloc(mem, "in", in_offset + in_bytes, 1);
        if (ib == NULL)
            return refuse(r, "out of host memory (in)");
        memcpy(ib->data + in_offset, in, (size_t)in_bytes);
        b->in = ib->addr + in_offset;
    }
    *out = cured_model_memory_alloc(mem, "out", 2 * es, 0);
    if (*out == NULL)
        return refuse(r, "out of host memory (out)");
    memset((*out)->data, poison, 2 * es);
    b->out = (*out)->addr;
    if (temp_bytes > 0) {
        *temp = cured_model_memory_alloc(mem, "temp", temp_bytes, 0);
        if (*temp == NULL)
            return refuse(r, "out of host memory (temp)");
        size_t state = temp_bytes < CURED_TEMP_STATE_BYTES ? temp_bytes
                                                           : CURED_TEMP_STATE_BYTES;
        memset((*temp)->init, 1, state); /* zero-filled once, as a caller does */
        memset((*temp)->data + state, poison, temp_bytes - state);
        b->temp = (*temp)->addr;
    }
    return 0;
}

int cured_model_plan_run_catalogue(const cured_model_module *m, int kernel, cured_dtype dtype,
                           const void *in, uint64_t n, int block,
                           const cured_device_shape *dev, cured_model_plan_result *r)
{
    return cured_model_plan_run_watched(m, kernel, dtype, in, n, 0, block, dev, NULL, r);
}

int cured_model_plan_run_catalogue_at(const cured_model_module *m, int kernel,
                              cured_dtype dtype, const void *in, uint64_t n,
                              size_t in_offset, int block,
                              const cured_device_shape *dev, cured_model_plan_result *r)
{
    return cured_model_plan_run_watched(m, kernel, dtype, in, n, in_offset, block, dev,
                                NULL, r);
}

int cured_model_plan_run_watched(const cured_model_module *m, int kernel, cured_dtype dtype,
                         const void *in, uint64_t n, size_t in_offset,
                         int block, const cured_device_shape *dev,
                         const cured_model_plan_watch *watch, cured_model_plan_result *r)
{
    memset(r, 0, sizeof *r);
    if (watch != NULL && (watch->nobservers < 0 ||
                          watch->nobservers > MAX_WATCH_OBSERVERS))
        return refuse(r, "%d observers (at most %d)", watch->nobservers,
                      MAX_WATCH_OBSERVERS);
    cured_status st = cured_dispatch_check_shape(kernel, dtype, n, block);
    if (st != CURED_SUCCESS)
        return refuse(r, "dispatch: %s", cured_status_string(st));
    const cured_kernel_info *info = cured_catalogue_entry(kernel);
    int block_level = info->level == CURED_LEVEL_BLOCK;
    size_t es = cured_dtype_size(dtype);
    cured_dispatch_plan(kernel, dtype, n, block, dev, &r->plan);

    cured_model_memory *mem = cured_model_memory_new();
    cured_model_buffer *out = NULL, *temp = NULL;
    run_buffers b;
    int rc = mem != NULL ? 0 : refuse(r, "out of host memory");
    if (rc == 0)
        rc = make_buffers(mem, kernel, dtype, in, n, in_offset, block, &b, &out,
                          &temp, r);
    if (rc == 0) {
        cured_dispatch_layout(kernel, dtype, &r->plan, &b.layout);
        if (r->plan.zero_output) { /* cudaMemsetAsync(d_out, 0, sizeof(T)) */
            memset(out->data, 0, es);
            memset(out->init, 1, es);
        }
        r->completed = 1;
    }
    for (int k = 0; rc == 0 && k < r->plan.launches; k++) {
        const cured_launch *l = &r->plan.launch[k];
        char entry[256];
        int found = cured_model_catalogue_entry_name(m, info->name, cured_dtype_name(dtype),
                                               l->block, entry, sizeof entry);
        int fn = found == CURED_MODEL_CATALOGUE_OK ? cured_model_find_function(m, entry) : -1;
        if (fn < 0) {
            rc = refuse(r, "no entry for %s %s block %d (%d)", info->name,
                        cured_dtype_name(dtype), l->block, found);
            break;
        }
        launch_args a;
        uint8_t params[PARAM_BLOCK_BYTES];
        launch_arguments(info->name, block_level, &r->plan, k, &b, &a);
        rc = pack_params(m, &m->functions[fn], &a, params, r);
        if (rc != 0)
            break;
        if (watch != NULL && watch->before_launch != NULL &&
            watch->before_launch(watch->ctx, k, fn, r->error, sizeof r->error) != 0) {
            rc = -1;
            break;
        }
        int ok = run_launch(m, fn, k, l, params, mem, watch, r);
        if (ok < 0)
            rc = -1;
        else if (ok)
            r->launches_run++;
        else
            r->completed = 0;
        if (ok <= 0)
            break;
    }
    if (rc == 0) {
        memcpy(r->value, out->data, es);
        for (size_t i = es; i < 2 * es; i++)
            r->wrote_past_out |= out->data[i] != poison_byte(dtype);
        for (size_t i = 0; temp != NULL && i < CURED_TEMP_STATE_BYTES &&
                           i < temp->bytes; i++)
            r->state_dirty |= temp->data[i] != 0;
    } else {
        r->completed = 0;
    }
    cured_model_memory_free(mem);
    return rc;
}

void cured_model_plan_result_clear(cured_model_plan_result *r)
{
    for (int k = 0; k < r->launches_started; k++)
        cured_model_findings_clear(&r->launch[k].findings);
    cured_model_findings_clear(&r->findings);
}
