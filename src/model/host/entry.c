/* entry.c - which kernel of a module to run: by the name it has in the
 * PTX, by the name it has in the CUDA source, or the only one there is;
 * never one the model cannot run (cured_model_function_unusable).
 *
 * defines: cured_model_find_entry, cured_model_entry_count,
 *          cured_model_entry_name, cured_model_entry_block,
 *          cured_model_entry_params
 *
 * nvcc mangles a C++ kernel's name (`__global__ void k(float *, unsigned)`
 * is `_Z1kPfj` in the PTX), so the name a user knows is found through its
 * demangled form (ptx_mangled_name): the innermost name ("k") or the
 * qualified one ("ns::k"). An extern "C" kernel keeps its name.
 */
#include "cured_model_host.h"
#include "ptx.h"

#include <stdio.h>
#include <string.h>

/* 1 when entry `fn` is called `name` in the CUDA source. */
static int source_name_is(const ptx_function *fn, const char *name)
{
    char qualified[256];
    size_t inner;
    if (ptx_mangled_name(fn->name, qualified, sizeof qualified, &inner, NULL) < 0)
        return 0;
    return strcmp(qualified, name) == 0 || strcmp(qualified + inner, name) == 0;
}

/* Appends "NAME (SOURCE NAME)" of every entry of m (or, with `name`, of
 * those source_name_is matches), comma separated, to err after its text;
 * "..." when they do not all fit. */
static void list_entries(const cured_model_module *m, const char *name,
                         char *err, size_t cap)
{
    size_t used = strlen(err);
    int first = 1;
    for (int i = 0; i < m->nfunctions; i++) {
        const ptx_function *fn = &m->functions[i];
        if (!fn->is_entry || (name != NULL && !source_name_is(fn, name)))
            continue;
        char qualified[256], item[600];
        const char *mark = fn->unusable ? " [cannot run in the model]" : "";
        if (ptx_mangled_name(fn->name, qualified, sizeof qualified, NULL, NULL) >= 0)
            snprintf(item, sizeof item, "%s%s (%s)%s", first ? "" : ", ", qualified,
                     fn->name, mark);
        else
            snprintf(item, sizeof item, "%s%s%s", first ? "" : ", ", fn->name, mark);
        first = 0;
        size_t len = strlen(item);
        if (used + len + 4 >= cap) {
            if (used + 4 < cap)
                strcpy(err + used, " ...");
            return;
        }
        strcpy(err + used, item);
        used += len;
    }
}

/* Returns entry i, or -1 with one line in err when the model cannot run
 * it: where its unsupported instruction is (the user's source line when
 * the PTX has one, else the PTX line), what it is, and the entries that
 * can run instead. */
static int usable_entry(const cured_model_module *m, int i, const char *label,
                        char *err, size_t cap)
{
    uint32_t ptx_line, line;
    const char *file;
    const char *why = cured_model_function_unusable(m, i, &ptx_line, &file, &line);
    if (why == NULL)
        return i;
    char where[1100];
    if (file != NULL)
        snprintf(where, sizeof where, "%.200s:%u", file, line);
    else
        snprintf(where, sizeof where, "%.1000s:%u", label, ptx_line);
    int usable = 0;
    for (int k = 0; k < m->nfunctions; k++)
        usable += m->functions[k].is_entry && m->functions[k].unusable == NULL;
    snprintf(err, cap, "%s: kernel '%s' cannot run in the model: %s (PTX line %u)%s",
             where, m->functions[i].name, why, ptx_line,
             usable ? "; the kernels it holds: " : "; no other kernel it holds can "
             "run either");
    if (usable)
        list_entries(m, NULL, err, cap);
    return -1;
}

int cured_model_find_entry(const cured_model_module *module, const char *name,
                           const char *label, char *err, size_t cap)
{
    int found = -1, count = 0;
    for (int i = 0; i < module->nfunctions; i++) {
        const ptx_function *fn = &module->functions[i];
        if (!fn->is_entry)
            continue;
        if (name != NULL && strcmp(fn->name, name) == 0)
            return usable_entry(module, i, label, err, cap);   /* the PTX's name */
        if (name == NULL || source_name_is(fn, name)) {
            found = found < 0 ? i : found;
            count++;
        }
    }
    if (count == 1)
        return usable_entry(module, found, label, err, cap);
    if (name != NULL && count > 1) {
        snprintf(err, cap, "%s: '%s' names %d kernel entries (overloads or "
                 "template instances): name one by its PTX name: ", label, name,
                 count);
        list_entries(module, name, err, cap);
        return -1;
    }
    int entries = 0;
    for (int i = 0; i < module->nfunctions; i++)
        entries += module->functions[i].is_entry;
    if (entries == 0)
        snprintf(err, cap, "%s has no kernel (no .entry: a __global__ function)",
                 label);
    else if (name != NULL)
        snprintf(err, cap, "%s has no kernel entry '%s'; its entries: ", label, name);
    else
        snprintf(err, cap, "%s has %d kernel entries: ", label, entries);
    if (entries > 0)
        list_entries(module, NULL, err, cap);
    return -1;
}

int cured_model_entry_count(const cured_model_module *module)
{
    int n = 0;
    for (int i = 0; module != NULL && i < module->nfunctions; i++)
        n += module->functions[i].is_entry;
    return n;
}

const char *cured_model_entry_name(const cured_model_module *module, int entry)
{
    if (module == NULL || entry < 0 || entry >= module->nfunctions)
        return NULL;
    return module->functions[entry].name;
}

cured_model_dim3 cured_model_entry_block(const cured_model_module *module, int entry)
{
    cured_model_dim3 block = {32, 1, 1};
    if (module == NULL || entry < 0 || entry >= module->nfunctions)
        return block;
    const uint32_t *req = module->functions[entry].reqntid;
    if (req[0])
        block = (cured_model_dim3){req[0], req[1] ? req[1] : 1, req[2] ? req[2] : 1};
    return block;
}

int cured_model_entry_params(const cured_model_module *module, int entry,
                             cured_model_param *out, int cap, size_t *bytes)
{
    if (module == NULL || entry < 0 || entry >= module->nfunctions)
        return -1;
    const ptx_function *fn = &module->functions[entry];
    for (int i = 0; i < fn->nparams && i < cap; i++) {
        const ptx_symbol *p = &module->symbols[fn->params[i]];
        out[i].offset = (size_t)p->offset;
        out[i].size = (size_t)p->size;
    }
    if (bytes != NULL)
        *bytes = (size_t)fn->param_bytes;
    return fn->nparams;
}
