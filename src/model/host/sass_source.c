/* sass_source.c - where a run gets its SASS and how it reports what
 * the SASS changed (cured_model_host.h).
 *
 * defines: cured_model_sass_source_catalogue, cured_model_sass_source_file, cured_model_sass_source_compile,
 *          cured_model_sass_source_none, cured_model_sass_source_apply, cured_model_sass_source_print, cured_model_sass_source_json,
 *          cured_model_sass_source_free
 */
#define _POSIX_C_SOURCE 200809L
#include "cured_model_host.h"
#include "ptx.h"
#include "sass.h"
#include "sass_match.h"
#include "counters.h"

#include "catalogue_sass.h"
#include "json_out.h"
#include "tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cured_model_sass_source_none(cured_model_sass_source *s, const char *reason)
{
    memset(s, 0, sizeof *s);
    snprintf(s->missing, sizeof s->missing, "%s", reason);
}

void cured_model_sass_source_catalogue(cured_model_sass_source *s)
{
    memset(s, 0, sizeof *s);
    s->text = cured_model_catalogue_sass(&s->len);
    if (s->text == NULL)
        snprintf(s->missing, sizeof s->missing, "%s",
                 cured_model_catalogue_sass_missing());
    else
        snprintf(s->label, sizeof s->label, "catalogue.sass (embedded, "
                 "ptxas -lineinfo + nvdisasm -gp)");
}

int cured_model_sass_source_file(cured_model_sass_source *s, const char *path, char *err, size_t cap)
{
    memset(s, 0, sizeof *s);
    char *text;
    if (host_read_file(path, &text, &s->len, err, cap) != 0)
        return -1;
    s->owned = text;
    s->text = text;
    snprintf(s->label, sizeof s->label, "%s", path);
    return 0;
}

/* "TOOL failed (exit N)" and the first line of its messages into out. */
static void tool_failed(char *out, size_t cap, const char *tool, int rc,
                        const char *messages)
{
    size_t n = messages ? strcspn(messages, "\n") : 0;
    snprintf(out, cap, "%s failed (%s %d)%s%.*s", tool, rc < 0 ? "status" : "exit",
             rc, n ? ": " : "", (int)(n > 200 ? 200 : n), messages ? messages : "");
}

void cured_model_sass_source_compile(cured_model_sass_source *s, const char *ptx_path,
                                     const char *arch, const char *label, int keep,
                                     FILE *log)
{
    memset(s, 0, sizeof *s);
    if (arch == NULL)
        arch = cured_model_default_arch();
    char ptxas[1024], nvdisasm[1024], err[1200];
    if (host_find_tool("ptxas", NULL, ptxas, sizeof ptxas) != 0 ||
        host_find_tool("nvdisasm", cured_model_build_nvdisasm(), nvdisasm,
                      sizeof nvdisasm) != 0) {
        snprintf(s->missing, sizeof s->missing, "no ptxas/nvdisasm found (PATH, "
                 "/usr/local/cuda/bin; pip install nvidia-cuda-nvdisasm)");
        return;
    }
    /* NAME.ptx -> NAME.cubin, NAME.sass */
    size_t stem = strlen(ptx_path);
    if (stem > 4 && strcmp(ptx_path + stem - 4, ".ptx") == 0)
        stem -= 4;
    char cubin[1100], sass[1100];
    snprintf(cubin, sizeof cubin, "%.*s.cubin", (int)stem, ptx_path);
    snprintf(sass, sizeof sass, "%.*s.sass", (int)stem, ptx_path);
    char arch_flag[64];
    snprintf(arch_flag, sizeof arch_flag, "-arch=%s", arch);
    char *as[] = {ptxas, arch_flag, "-lineinfo", (char *)ptx_path, "-o",
                  cubin, NULL};
    char *dis[] = {nvdisasm, "-gp", "-c", cubin, NULL};
    char *messages = NULL;
    int rc = host_run_tool(as, NULL, log, &messages);
    if (rc != 0)
        tool_failed(s->missing, sizeof s->missing, "ptxas", rc, messages);
    else {
        free(messages);
        rc = host_run_tool(dis, sass, log, &messages);
        if (rc != 0)
            tool_failed(s->missing, sizeof s->missing, "nvdisasm", rc, messages);
    }
    free(messages);
    char *text = NULL;
    if (rc == 0 && host_read_file(sass, &text, &s->len, err, sizeof err) != 0)
        snprintf(s->missing, sizeof s->missing, "%.300s", err);
    s->owned = text;
    s->text = text;
    if (text != NULL)
        snprintf(s->label, sizeof s->label, "%s (ptxas -lineinfo + nvdisasm -gp)",
                 label);
    if (!keep || text == NULL) {
        remove(cubin);
        remove(sass);
    }
}

int cured_model_sass_source_apply(cured_model_sass_source *s, const cured_model_module *module, int entry,
                   cured_model_counters *c, char *err, size_t cap)
{
    if (s->text == NULL)
        return 0;
    cured_model_sass_summary_free(&s->summary);
    sass_error serr;
    if (s->module == NULL)
        s->module = sass_parse(s->text, s->len, &serr);
    if (s->module == NULL) {
        const char *msg = serr.message;
        char prefix[32], where[24] = "";
        snprintf(prefix, sizeof prefix, "line %u: ", serr.line);
        if (strncmp(msg, prefix, strlen(prefix)) == 0)
            msg += strlen(prefix);
        if (serr.line > 0)
            snprintf(where, sizeof where, ":%u", serr.line);
        int ptx = strstr(s->text, ".version") != NULL && strstr(s->text, ".target") != NULL;
        snprintf(err, cap, "%s%s: %s%s", s->label, where, msg,
                 ptx ? " (this is PTX, not SASS: give it with --ptx)" : "");
        return -1;
    }
    if (s->facts == NULL)
        s->facts = cured_model_sass_facts_new(module, s->label);
    if (s->facts == NULL) {
        snprintf(err, cap, "out of memory matching the SASS");
        return -1;
    }
    if (cured_model_sass_facts_module(s->facts) != module) {
        snprintf(err, cap, "%s: its facts are of another PTX module", s->label);
        return -1;
    }
    if (cured_model_sass_match(s->facts, entry, s->module, &s->summary) != 0) {
        snprintf(err, cap, "out of memory matching the SASS");
        return -1;
    }
    s->applied = s->summary.mode != CURED_MODEL_SASS_NONE && s->summary.functions > 0;
    if (s->applied && cured_model_counters_use_sass(c, s->facts) != 0) {
        snprintf(err, cap, "%s: the counters count another PTX module", s->label);
        return -1;
    }
    return 0;
}

/* "file:line" of the note's instruction, or "" (into buf). */
static const char *note_where(const cured_model_sass_note *n, const cured_model_module *m,
                              char *buf, size_t cap)
{
    buf[0] = '\0';
    if (n->function < 0 || n->function >= m->nfunctions || n->pc < 0 ||
        n->pc >= m->functions[n->function].ncode)
        return buf;
    const ptx_instr *ins = &m->functions[n->function].code[n->pc];
    const char *file = ptx_source_file_name(m, ins->src_file);
    if (file != NULL && ins->src_line)
        snprintf(buf, cap, ", %s:%u", file, ins->src_line);
    return buf;
}

/* What the inexact bits say, for the `sass exact:` line: "every count
 * under an ncu name" when none is set. */
static const char *inexact_text(unsigned bits, char *buf, size_t cap)
{
    if (bits == 0)
        return "every count under an ncu name";
    snprintf(buf, cap, "all but %s%s%s%s%s (follow the PTX there; the notes say where)",
             bits & CURED_MODEL_SASS_INEXACT_MEMORY ? "memory instructions" : "",
             (bits & CURED_MODEL_SASS_INEXACT_MEMORY) &&
                 (bits & ~CURED_MODEL_SASS_INEXACT_MEMORY) ? ", " : "",
             bits & CURED_MODEL_SASS_INEXACT_BRANCHES ? "branch targets" : "",
             (bits & CURED_MODEL_SASS_INEXACT_BRANCHES) &&
                 (bits & CURED_MODEL_SASS_INEXACT_OPCODES) ? ", " : "",
             bits & CURED_MODEL_SASS_INEXACT_OPCODES ? "BAR/SHFL/VOTE" : "");
    return buf;
}

void cured_model_sass_source_print(FILE *out, const cured_model_sass_source *s, const cured_model_module *module)
{
    const cured_model_sass_summary *r = &s->summary;
    if (!s->applied) {
        fprintf(out, "sass: none (%s): memory instruction counts are PTX-level\n",
                s->missing[0] ? s->missing
                : r->nnotes ? r->notes[0].text : "no function matched");
        return;
    }
    fprintf(out, "sass: %s, matched by %s: %d memory instructions (%d "
            "predicated, %d merged/split/narrowed), %d branches removed by "
            "ptxas (%d with accesses warps still issue)\n", s->label,
            cured_model_sass_mode_name(r->mode), r->memory, r->predicated,
            r->reshaped, r->removed_branches, r->skip_lists);
    char what[200];
    fprintf(out, "sass exact: %s\n", inexact_text(r->inexact, what, sizeof what));
    for (int i = 0; i < r->nnotes; i++) {
        char where[128];
        fprintf(out, "sass note: PTX line %u%s: %s\n", r->notes[i].ptx_line,
                note_where(&r->notes[i], module, where, sizeof where),
                r->notes[i].text);
    }
    if (r->notes_left_out)
        fprintf(out, "sass note: %d more notes left out\n", r->notes_left_out);
}

void cured_model_sass_source_json(FILE *out, const cured_model_sass_source *s, const cured_model_module *module)
{
    const cured_model_sass_summary *r = &s->summary;
    fprintf(out, "{\"used\": %s, \"source\": ", s->applied ? "true" : "false");
    if (s->applied)
        cured_json_string(out, s->label);
    else
        fputs("null", out);
    fprintf(out, ", \"missing\": ");
    if (s->applied)
        fputs("null", out);
    else
        cured_json_string(out, s->missing[0] ? s->missing : "no function matched");
    fprintf(out, ", \"matched_by\": ");
    cured_json_string(out, cured_model_sass_mode_name(r->mode));
    fprintf(out, ", \"memory_instructions\": %d, \"predicated\": %d, "
            "\"reshaped\": %d, \"removed_branches\": %d, \"skip_lists\": %d, "
            "\"exact\": {\"memory\": %s, \"branches\": %s, \"opcodes\": %s}, "
            "\"notes\": [", r->memory, r->predicated, r->reshaped,
            r->removed_branches, r->skip_lists,
            s->applied && !(r->inexact & CURED_MODEL_SASS_INEXACT_MEMORY) ? "true" : "false",
            s->applied && !(r->inexact & CURED_MODEL_SASS_INEXACT_BRANCHES) ? "true" : "false",
            s->applied && !(r->inexact & CURED_MODEL_SASS_INEXACT_OPCODES) ? "true" : "false");
    for (int i = 0; i < r->nnotes; i++) {
        char where[128];
        fprintf(out, "%s{\"ptx_line\": %u, \"where\": ", i ? ", " : "",
                r->notes[i].ptx_line);
        const char *w = note_where(&r->notes[i], module, where, sizeof where);
        cured_json_string(out, w[0] ? w + 2 : "");
        fprintf(out, ", \"text\": ");
        cured_json_string(out, r->notes[i].text);
        fputc('}', out);
    }
    fprintf(out, "], \"notes_left_out\": %d}", r->notes_left_out);
}

void cured_model_sass_source_free(cured_model_sass_source *s)
{
    sass_module_free(s->module);
    cured_model_sass_facts_free(s->facts);
    cured_model_sass_summary_free(&s->summary);
    free(s->owned);
    memset(s, 0, sizeof *s);
}
