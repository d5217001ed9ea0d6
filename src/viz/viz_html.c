/* viz_html.c - the stories as one self-contained web page: the markup,
 * the stylesheet and the player (src/viz/page/, built into cured) and the
 * stories as JSON, all inline. A Content-Security-Policy forbids the page
 * any request: nothing outside the file is fetched or needed.
 *
 * defines: viz_html_write
 *
 * The JSON per story: its labels, rows, cell names, the source excerpts,
 * the formula for its n, and per frame the values that changed ("d"), one
 * role character per cell ("r"), the arrows ("a": from, to, kind), the
 * caption ("c"), the counts ("k"), the maths ("m"), the conflict example
 * ("x") and the source lines it runs ("l"). page.js says how it draws them.
 */
#define _POSIX_C_SOURCE 200809L
#include "viz_impl.h"
#include "viz_embedded.h"

#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char page_head[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
    "<meta name=\"color-scheme\" content=\"light dark\">\n"
    "<title>cured: a reduction, step by step</title>\n<style>\n";

static const char page_body[] =
    "</style>\n</head>\n<body>\n<main>\n"
    "<header>\n<h1>Summing values on a GPU, step by step</h1>\n"
    "<p class=\"lede\">Each picture is drawn from cured's model running the kernel's "
    "real PTX, warp by warp: the values, the lanes that work and the counts are what "
    "that run did. Pick a version, then play it or step through it.</p>\n</header>\n"
    "<section class=\"panel\" aria-labelledby=\"stage-title\">\n"
    "<h2 id=\"stage-title\" class=\"sr-only\">The animation</h2>\n"
    "<div class=\"pick\">\n<div class=\"seg\" id=\"lesson-versions\" role=\"group\" "
    "aria-label=\"The lesson's four versions\"></div>\n"
    "<label class=\"sr-only\" for=\"version\">Version</label>\n"
    "<select id=\"version\" aria-label=\"Version\"></select>\n</div>\n"
    "<p class=\"summary\" id=\"summary\"></p>\n"
    "<figure>\n<svg id=\"stage\" role=\"img\" aria-label=\"\"></svg>\n"
    "<figcaption class=\"legend\">"
    "<span><i class=\"sw D\"></i>receives a value now</span>"
    "<span><i class=\"sw S\"></i>read from shared memory</span>"
    "<span><i class=\"sw R\"></i>read from another lane's register</span>"
    "<span><i class=\"sw M\"></i>masked lane of a working warp</span>"
    "<span><i class=\"sw O\"></i>shuffle past the warp's end: own value back</span>"
    "<span><i class=\"sw I\"></i>idle warp</span>"
    "<span>bar height = value; an arrow per addition</span></figcaption>\n"
    "<p class=\"note mono\" id=\"note\"></p>\n</figure>\n"
    "<div class=\"controls\" role=\"group\" aria-label=\"Player\">\n"
    "<button type=\"button\" id=\"btn-reset\" aria-label=\"reset\" title=\"Reset (Home)\">"
    "Reset</button>\n"
    "<button type=\"button\" id=\"btn-back\" aria-label=\"step back\" "
    "title=\"Step back (left arrow)\">&#x25C0;</button>\n"
    "<button type=\"button\" id=\"btn-play\" class=\"primary\" aria-label=\"play\" "
    "title=\"Play or pause (space)\">Play</button>\n"
    "<button type=\"button\" id=\"btn-forward\" aria-label=\"step forward\" "
    "title=\"Step forward (right arrow)\">&#x25B6;</button>\n"
    "<label class=\"sr-only\" for=\"speed\">Speed</label>\n"
    "<select id=\"speed\" title=\"Speed\"><option value=\"0.25\">0.25x</option>"
    "<option value=\"0.5\">0.5x</option><option value=\"1\" selected>1x</option>"
    "<option value=\"2\">2x</option><option value=\"4\">4x</option></select>\n"
    "<div class=\"scrub\"><label class=\"sr-only\" for=\"scrub\">Step</label>"
    "<input type=\"range\" id=\"scrub\" min=\"0\" max=\"0\" value=\"0\">"
    "<span id=\"step-label\">step 0/0</span></div>\n</div>\n"
    "<p class=\"caption\" id=\"caption\" aria-live=\"polite\"></p>\n"
    "<div class=\"cards\">\n"
    "<div class=\"card\"><div class=\"k\">Shared-memory accesses</div>"
    "<div class=\"v\" data-k=\"accesses\"></div></div>\n"
    "<div class=\"card\"><div class=\"k\">__syncthreads()</div>"
    "<div class=\"v\" data-k=\"syncs\"></div></div>\n"
    "<div class=\"card\"><div class=\"k\">Shuffles per warp</div>"
    "<div class=\"v\" data-k=\"shuffles\"></div></div>\n"
    "<div class=\"card\"><div class=\"k\">Worst bank conflict</div>"
    "<div class=\"v\" data-k=\"worst\"></div></div>\n"
    "<div class=\"card\"><div class=\"k\">Divergent warps, first step</div>"
    "<div class=\"v\" data-k=\"first\"></div></div>\n"
    "<div class=\"card\"><div class=\"k\">This step</div>"
    "<div class=\"v\" data-k=\"step\"></div></div>\n"
    "</div>\n</section>\n"
    "<div class=\"columns\">\n"
    "<section class=\"panel\" aria-labelledby=\"src-title\">\n"
    "<h2 id=\"src-title\">The CUDA source, the lines this step runs highlighted</h2>\n"
    "<div id=\"source\"></div>\n</section>\n"
    "<section class=\"panel\" aria-labelledby=\"maths-title\">\n"
    "<h2 id=\"maths-title\">The maths, measured beside the formula</h2>\n"
    "<p class=\"mathsnote\">A tree over n values makes n - 1 additions in log2 n "
    "levels (its depth); with one thread per value, level k has n / 2^k adders, so "
    "on average (1 - 1/n) / log2 n of the threads are busy.</p>\n"
    "<div id=\"maths\"></div>\n</section>\n</div>\n"
    "<footer>Made by <span class=\"mono\">cured animate --html</span>. The counts follow "
    "the lesson's rules (docs/lesson.md): 3 shared accesses per adding thread per "
    "step, one __syncthreads() per step; the initial stores, the barrier after them and "
    "the final read are not counted. Keys: space plays or pauses, the arrows step, "
    "Home and End jump.</footer>\n"
    "</main>\n<script type=\"application/json\" id=\"cured-data\">";

static const char page_tail_open[] = "</script>\n<script>\n";
static const char page_tail_close[] = "</script>\n</body>\n</html>\n";

/* ------------------------------------------------------------- JSON */

static void json_value(FILE *out, const viz_story *s, double v)
{
    char buf[48];
    if (s->value_kind == CURED_MODEL_TRACE_FLOAT)
        snprintf(buf, sizeof buf, "%.7g", v);
    else
        snprintf(buf, sizeof buf, "%.0f", v);
    if (strstr(buf, "nan") || strstr(buf, "inf"))
        snprintf(buf, sizeof buf, "null");
    fputs(buf, out);
}

static const char *kind_name(uint8_t kind)
{
    return kind == VIZ_CELL_SHARED ? "shared" : kind == VIZ_CELL_REG ? "regs" : "global";
}

static void write_frame(FILE *out, const viz_story *s, uint32_t k)
{
    const viz_frame *f = &s->frames[k];
    size_t nc = s->ncells;
    const double *v = s->values + k * nc;
    const uint8_t *known = s->known + k * nc;
    fputs("{\"d\":[", out);
    int first = 1;
    for (size_t c = 0; c < nc; c++) {
        int changed = known[c] && (k == 0 || !s->known[(k - 1) * nc + c] ||
                                   s->values[(k - 1) * nc + c] != v[c]);
        if (!changed)
            continue;
        fprintf(out, "%s[%zu,", first ? "" : ",", c);
        json_value(out, s, v[c]);
        fputc(']', out);
        first = 0;
    }
    fputs("],\"r\":\"", out);
    fwrite(s->roles + k * nc, 1, nc, out);
    fputs("\",\"a\":[", out);
    for (uint32_t i = 0; i < f->narrows; i++) {
        const viz_arrow *a = &s->arrows[f->first_arrow + i];
        fprintf(out, "%s[%u,%u,%u]", i ? "," : "", a->from, a->to, a->kind);
    }
    fputs("],\"c\":", out);
    cured_json_string(out, f->caption);
    fprintf(out, ",\"k\":[%llu,%u,%u,%u,%u,%u,%d,%u,%d,%u,%u]",
            (unsigned long long)f->accesses, f->syncs, f->shuffles_per_warp, f->step_degree,
            f->step_working, f->step_divergent, f->is_tree, f->worst_degree, f->has_first,
            f->first_divergent, f->first_warps);
    fprintf(out, ",\"m\":[%u,%u,%u,%llu,%u,%d,%d],\"x\":", f->adds, f->level, f->levels,
            (unsigned long long)f->total_adds, f->depth, f->offset, f->coef);
    cured_json_string(out, f->conflict);
    fputs(",\"l\":[", out);
    for (uint32_t i = 0; i < f->nlines; i++) {
        const viz_line *l = &s->lines[f->first_line + i];
        fprintf(out, "%s[%u,%u]", i ? "," : "", l->source, l->line);
    }
    fputs("]}", out);
}

static void write_story(FILE *out, const viz_story *s)
{
    cured_model_tree_formula fm = cured_model_tree_formula_of(s->n);
    fputs("{\"id\":", out);
    cured_json_string(out, s->id);
    fputs(",\"label\":", out);
    cured_json_string(out, s->label);
    fputs(",\"code\":", out);
    cured_json_string(out, s->code);
    fputs(",\"group\":", out);
    cured_json_string(out, s->group);
    fputs(",\"title\":", out);
    cured_json_string(out, s->title);
    fprintf(out, ",\"valueKind\":\"%c\",\"n\":%llu,\"threads\":%u,\"warps\":%u,"
            "\"blocks\":%u,\"formula\":{\"depth\":%u,\"additions\":%llu,\"busy\":%.6f}",
            s->value_kind == CURED_MODEL_TRACE_FLOAT    ? 'f'
            : s->value_kind == CURED_MODEL_TRACE_SIGNED ? 's'
                                                        : 'u',
            (unsigned long long)s->n, s->threads, s->warps, s->blocks, fm.depth,
            (unsigned long long)fm.additions, fm.busy);
    fputs(",\"rows\":[", out);
    for (uint32_t r = 0; r < s->nrows; r++) {
        const viz_row *row = &s->rows[r];
        fprintf(out, "%s{\"label\":", r ? "," : "");
        cured_json_string(out, row->label);
        fprintf(out, ",\"kind\":\"%s\",\"warp\":%d,\"first\":%u,\"count\":%u}",
                kind_name(row->kind), row->warp, row->first, row->count);
    }
    fputs("],\"cells\":[", out);
    for (uint32_t c = 0; c < s->ncells; c++) {
        if (c)
            fputc(',', out);
        cured_json_string(out, s->cells[c].name);
    }
    fputs("],\"sources\":[", out);
    for (uint32_t i = 0; i < s->nsources; i++) {
        const viz_source *src = &s->sources[i];
        fprintf(out, "%s{\"name\":", i ? "," : "");
        cured_json_string(out, src->name);
        fprintf(out, ",\"first\":%u,\"lines\":[", src->first);
        for (uint32_t j = 0; j < src->count; j++) {
            if (j)
                fputc(',', out);
            cured_json_string(out, src->lines[j]);
        }
        fputs("]}", out);
    }
    fputs("],\"frames\":[", out);
    for (uint32_t k = 0; k < s->nframes; k++) {
        if (k)
            fputs(",\n", out);
        write_frame(out, s, k);
    }
    fputs("]}", out);
}

/* Writes text to out with every "</" as "<\/", so no string in the data
 * can close the script element it sits in. */
static void write_script_safe(FILE *out, const char *text, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i + 1 < len; i++)
        if (text[i] == '<' && text[i + 1] == '/') {
            fwrite(text + from, 1, i + 1 - from, out);
            fputc('\\', out);
            from = i + 1;
        }
    fwrite(text + from, 1, len - from, out);
}

int viz_html_write(FILE *out, viz_story *const *stories, int count, int initial,
                   char *err, size_t cap)
{
    char *json = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&json, &len);
    if (mem == NULL) {
        snprintf(err, cap, "out of host memory");
        return -1;
    }
    fprintf(mem, "{\"initial\":%d,\"stories\":[\n", initial);
    for (int i = 0; i < count; i++) {
        if (i)
            fputs(",\n", mem);
        write_story(mem, stories[i]);
    }
    fputs("]}", mem);
    if (fclose(mem) != 0 || json == NULL) {
        free(json);
        snprintf(err, cap, "out of host memory");
        return -1;
    }
    fputs(page_head, out);
    fputs(viz_page_css(), out);
    fputs(page_body, out);
    write_script_safe(out, json, len);
    fputs(page_tail_open, out);
    fputs(viz_page_js(), out);
    fputs(page_tail_close, out);
    free(json);
    if (ferror(out)) {
        snprintf(err, cap, "write error");
        return -1;
    }
    return 0;
}
