/* viz_term.c - a story's frames in a terminal: rows of cells with values
 * and small bars, marks for each role (and Okabe-Ito colours when asked),
 * the pairs added, the caption, the counters, the executing source line and
 * the maths. Never wider than 120 columns.
 *
 * defines: viz_term_frame, viz_term_legend, viz_term_width
 *
 * Two layouts: with few rows (up to 8, two warps' worth of each kind) a row
 * of 32 cells takes two lines of 16, each cell a mark, a bar and the value;
 * with more (up to 1024 values) a row is one line of 32 cells of a bar
 * and a mark, and the values of the cells receiving a sum are listed under
 * the rows. Plain text (no escape sequence) without colour.
 */
#include "viz_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WIDTH 120
#define LABEL 7

/* Okabe-Ito, as 24-bit SGR colours. */
#define C_BLUE "\x1b[1;38;2;0;114;178m"     /* receives a sum now */
#define C_GREEN "\x1b[38;2;0;158;115m"      /* read from shared memory */
#define C_ORANGE "\x1b[38;2;230;159;0m"     /* read from another lane's register */
#define C_PURPLE "\x1b[38;2;204;121;167m"   /* own value back */
#define C_VERMILLION "\x1b[1;38;2;213;94;0m" /* a bank conflict */
#define C_GREY "\x1b[38;2;140;140;140m"
#define C_DIM "\x1b[2m"
#define C_BOLD "\x1b[1m"
#define C_OFF "\x1b[0m"

static const char *const bars[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

int viz_term_width(const char *s)
{
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && *p != '\n'; p++) {
        if (*p == 0x1b) {            /* CSI: ESC [ ... final byte */
            if (p[1] == '[') {
                p += 2;
                while (*p && !(*p >= 0x40 && *p <= 0x7e))
                    p++;
                if (!*p)
                    break;
            }
            continue;
        }
        if ((*p & 0xC0) != 0x80)
            w++;
    }
    return w;
}

static const char *color_of(char role)
{
    switch (role) {
    case VIZ_ROLE_DST: return C_BLUE;
    case VIZ_ROLE_SHARED: return C_GREEN;
    case VIZ_ROLE_REG: return C_ORANGE;
    case VIZ_ROLE_OWN: return C_PURPLE;
    case VIZ_ROLE_MASKED: return C_GREY;
    case VIZ_ROLE_IDLE: return C_DIM;
    default: return "";
    }
}

static char mark_of(char role)
{
    switch (role) {
    case VIZ_ROLE_DST: return '+';
    case VIZ_ROLE_SHARED: return '<';
    case VIZ_ROLE_REG: return '~';
    case VIZ_ROLE_OWN: return 'o';
    case VIZ_ROLE_MASKED: return '/';
    default: return ' ';
    }
}

/* ------------------------------------------------------------- a line */

/* A line being built, with its display width. */
typedef struct term_line {
    char text[4096];
    size_t len;
    int width;
} term_line;

static void put(term_line *l, const char *s, int width)
{
    size_t n = strlen(s);
    if (l->len + n + 1 >= sizeof l->text)
        return;
    memcpy(l->text + l->len, s, n + 1);
    l->len += n;
    l->width += width;
}

static void put_text(term_line *l, const char *s)
{
    put(l, s, viz_term_width(s));
}

static void put_color(term_line *l, const viz_term_options *o, const char *c)
{
    if (o->color && c[0])
        put(l, c, 0);
}

static int flush(FILE *out, term_line *l)
{
    fprintf(out, "%s\n", l->text);
    l->len = 0;
    l->text[0] = '\0';
    l->width = 0;
    return 0;
}

/* Prints text word-wrapped to width, each line after the first indented
 * by `indent`. */
static void wrap(FILE *out, const char *text, int width, int indent, const char *prefix)
{
    int col = fprintf(out, "%s", prefix);
    col = viz_term_width(prefix);
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        char word[512];
        size_t n = (size_t)(e - p) < sizeof word - 1 ? (size_t)(e - p) : sizeof word - 1;
        memcpy(word, p, n);
        word[n] = '\0';
        int ww = viz_term_width(word);
        if (col > indent && col + 1 + ww > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > viz_term_width(prefix)) {
            fputc(' ', out);
            col++;
        }
        fputs(word, out);
        col += ww;
        p = e;
    }
    fputc('\n', out);
}

/* --------------------------------------------------------------- cells */

/* Widest value any cell shows in any frame. */
static int value_width(const viz_story *s)
{
    int w = 1;
    char buf[48];
    for (uint32_t k = 0; k < s->nframes; k++)
        for (uint32_t c = 0; c < s->ncells; c++) {
            size_t i = (size_t)k * s->ncells + c;
            if (!s->known[i])
                continue;
            int n = (int)strlen(viz_format_value(s->values[i], s->value_kind, buf, sizeof buf));
            w = n > w ? n : w;
        }
    return w;
}

/* The largest |value| of frame k: bars are to the frame's scale, so the
 * sums growing stand out. */
static double frame_max(const viz_story *s, uint32_t k)
{
    double m = 0;
    for (uint32_t c = 0; c < s->ncells; c++) {
        size_t i = (size_t)k * s->ncells + c;
        if (s->known[i] && fabs(s->values[i]) > m)
            m = fabs(s->values[i]);
    }
    return m;
}

/* The bar glyph for v on a scale of max. */
static const char *bar_of(double max, double v, int known)
{
    if (!known || max <= 0)
        return " ";
    int level = (int)ceil(8.0 * fabs(v) / max);
    return bars[level < 0 ? 0 : level > 8 ? 8 : level];
}

/* 1 when cell c is known in some frame. */
static int ever_known(const viz_story *s, uint32_t c)
{
    for (uint32_t k = 0; k < s->nframes; k++)
        if (s->known[(size_t)k * s->ncells + c])
            return 1;
    return 0;
}

static void put_cell_detailed(term_line *l, const viz_story *s, uint32_t k, uint32_t c,
                              int w, double max, const viz_term_options *o)
{
    size_t i = (size_t)k * s->ncells + c;
    char role = s->roles[i], buf[48], cell[96];
    if (!ever_known(s, c)) {
        snprintf(cell, sizeof cell, "%*s", w + 3, "·");
        put_color(l, o, C_DIM);
        put(l, cell, w + 3);
        put_color(l, o, C_OFF);
        return;
    }
    const char *bar = role == VIZ_ROLE_MASKED ? "╱" : bar_of(max, s->values[i], s->known[i]);
    if (s->known[i])
        viz_format_value(s->values[i], s->value_kind, buf, sizeof buf);
    else
        buf[0] = '\0';
    put_color(l, o, color_of(role));
    snprintf(cell, sizeof cell, "%c%s%*s ", mark_of(role), bar, w, buf);
    put(l, cell, w + 3);
    put_color(l, o, C_OFF);
}

static void put_cell_compact(term_line *l, const viz_story *s, uint32_t k, uint32_t c,
                             double max, const viz_term_options *o)
{
    size_t i = (size_t)k * s->ncells + c;
    char role = s->roles[i], cell[32];
    if (!ever_known(s, c)) {
        put_color(l, o, C_DIM);
        put(l, " · ", 3);
        put_color(l, o, C_OFF);
        return;
    }
    const char *bar = role == VIZ_ROLE_MASKED ? "╱" : bar_of(max, s->values[i], s->known[i]);
    put_color(l, o, color_of(role));
    snprintf(cell, sizeof cell, "%s%s%c", bar, bar, mark_of(role));
    put(l, cell, 3);
    put_color(l, o, C_OFF);
}

static void print_rows(FILE *out, const viz_story *s, uint32_t k, int width,
                       const viz_term_options *o)
{
    int w = value_width(s);
    double max = frame_max(s, k);
    int detailed = s->nrows <= 8 && LABEL + 16 * (w + 3) <= width;
    term_line l = {.len = 0};
    l.text[0] = '\0';
    char label[32];
    for (uint32_t r = 0; r < s->nrows; r++) {
        const viz_row *row = &s->rows[r];
        int per_line = detailed ? 16 : 32;
        for (uint32_t start = 0; start < row->count; start += (uint32_t)per_line) {
            snprintf(label, sizeof label, "%-*.*s", LABEL - 1, LABEL - 1,
                     start == 0 ? row->label : "");
            put_text(&l, label);
            put_text(&l, " ");
            for (uint32_t c = start; c < row->count && c < start + (uint32_t)per_line; c++) {
                if (detailed)
                    put_cell_detailed(&l, s, k, row->first + c, w, max, o);
                else
                    put_cell_compact(&l, s, k, row->first + c, max, o);
            }
            /* trailing blanks off */
            while (l.len > 0 && l.text[l.len - 1] == ' ') {
                l.text[--l.len] = '\0';
                l.width--;
            }
            flush(out, &l);
        }
    }
}

/* "adds: x[0]←x[1]=20 x[2]←x[3]=22 ... (32 in all)": the pairs and the
 * values received, fitted to width; "writes: out[0]=517" for cells written
 * with no pair. */
static void print_pairs(FILE *out, const viz_story *s, uint32_t k, int width)
{
    const viz_frame *f = &s->frames[k];
    const double *values = s->values + (size_t)k * s->ncells;
    char line[1024];
    if (f->narrows == 0) {
        /* no pair: the cells written, with their values */
        snprintf(line, sizeof line, "writes:");
        int col = viz_term_width(line), any = 0;
        uint32_t shown = 0, all = 0;
        for (uint32_t c = 0; c < s->ncells; c++) {
            if (s->roles[(size_t)k * s->ncells + c] != VIZ_ROLE_DST)
                continue;
            all++;
            char item[96], v[48];
            viz_format_value(values[c], s->value_kind, v, sizeof v);
            snprintf(item, sizeof item, " %s=%s", s->cells[c].name, v);
            int iw = viz_term_width(item);
            if (any && col + iw + 20 > width)
                continue;
            strncat(line, item, sizeof line - strlen(line) - 1);
            col += iw;
            shown++;
            any = 1;
        }
        if (all == 0)
            return;
        if (shown < all) {
            char more[48];
            snprintf(more, sizeof more, " ... (%u in all)", all);
            strncat(line, more, sizeof line - strlen(line) - 1);
        }
        fprintf(out, "%s\n", line);
        return;
    }
    snprintf(line, sizeof line, "%s:", f->adds ? "adds" : "moves");
    int col = viz_term_width(line);
    uint32_t shown = 0;
    for (uint32_t i = 0; i < f->narrows; i++) {
        const viz_arrow *a = &s->arrows[f->first_arrow + i];
        char item[128], v[48];
        viz_format_value(values[a->to], s->value_kind, v, sizeof v);
        snprintf(item, sizeof item, " %s←%s=%s", s->cells[a->to].name,
                 s->cells[a->from].name, v);
        int iw = viz_term_width(item);
        /* room for " ... (N in all)" unless this is the last pair */
        int reserve = i + 1 < f->narrows ? 20 : 0;
        if (col + iw + reserve > width)
            break;
        strncat(line, item, sizeof line - strlen(line) - 1);
        col += iw;
        shown++;
    }
    if (shown < f->narrows) {
        char more[48];
        snprintf(more, sizeof more, " ... (%u in all)", f->narrows);
        strncat(line, more, sizeof line - strlen(line) - 1);
    }
    fprintf(out, "%s\n", line);
}

static void print_counters(FILE *out, const viz_story *s, uint32_t k,
                           const viz_term_options *o)
{
    const viz_frame *f = &s->frames[k];
    char step[96] = "-";
    if (k > 0) {
        if (f->is_tree && f->step_degree > 1)
            snprintf(step, sizeof step, "%s%u-way conflict%s", o->color ? C_VERMILLION : "",
                     f->step_degree, o->color ? C_OFF : "");
        else if (f->step_divergent > 0)
            snprintf(step, sizeof step, "%u of %u warps diverge", f->step_divergent,
                     f->step_working);
        else
            snprintf(step, sizeof step, "clean");
    }
    char worst[16] = "-", first[32] = "-";
    if (f->worst_degree)
        snprintf(worst, sizeof worst, "%u-way", f->worst_degree);
    if (f->has_first)
        snprintf(first, sizeof first, "%u of %u", f->first_divergent, f->first_warps);
    fprintf(out, "counts: shared accesses %llu, __syncthreads %u, shuffles per warp %u\n"
            "this step: %s; worst bank conflict %s; divergent warps (first step) %s\n",
            (unsigned long long)f->accesses, f->syncs, f->shuffles_per_warp, step, worst,
            first);
}

static void print_source(FILE *out, const viz_story *s, uint32_t k, int width)
{
    const viz_frame *f = &s->frames[k];
    for (uint32_t i = 0; i < f->nlines && i < 2; i++) {
        const viz_line *ln = &s->lines[f->first_line + i];
        const viz_source *src = &s->sources[ln->source];
        if (ln->line < src->first || ln->line - src->first >= src->count)
            continue;
        const char *text = src->lines[ln->line - src->first];
        while (*text == ' ')
            text++;
        char line[512];
        snprintf(line, sizeof line, "%s %s:%u  %s", i == 0 ? "line" : "    ", src->name,
                 ln->line, text);
        /* cut to width, on a character boundary */
        int col = 0;
        char *p = line;
        for (; *p; p++) {
            if ((*(unsigned char *)p & 0xC0) != 0x80 && ++col > width)
                break;
        }
        *p = '\0';
        fprintf(out, "%s\n", line);
    }
    if (f->nlines > 2)
        fprintf(out, "      (and %u more line%s)\n", f->nlines - 2, f->nlines == 3 ? "" : "s");
}

static void print_maths(FILE *out, const viz_story *s, uint32_t k, int width)
{
    const viz_frame *f = &s->frames[k];
    cured_model_tree_formula fm = cured_model_tree_formula_of(s->n);
    char text[600];
    int last = k + 1 == s->nframes;
    if (last) {
        double busy = f->levels && s->threads
                          ? (double)f->total_adds / ((double)f->levels * s->threads)
                          : 0.0;
        snprintf(text, sizeof text,
                 "maths, n = %llu: depth %u (log2 n = %u), additions %llu (n - 1 = %llu), "
                 "busy share %.1f %% over %u levels ((1 - 1/n) / log2 n = %.1f %%)",
                 (unsigned long long)s->n, f->depth, fm.depth,
                 (unsigned long long)f->total_adds, (unsigned long long)fm.additions,
                 100.0 * busy, f->levels, 100.0 * fm.busy);
    } else if (f->adds > 0) {
        snprintf(text, sizeof text,
                 "maths, n = %llu: level %u, %u of %u threads add (%.1f %%; n / 2^%u of %u: "
                 "%.1f %%); depth so far %u of log2 n = %u; additions %llu of n - 1 = %llu",
                 (unsigned long long)s->n, f->level, f->adds, s->threads,
                 s->threads ? 100.0 * f->adds / s->threads : 0.0, f->level, s->threads,
                 100.0 * cured_model_tree_level_busy(s->n, f->level, s->threads), f->depth,
                 fm.depth, (unsigned long long)f->total_adds,
                 (unsigned long long)fm.additions);
    } else {
        return;
    }
    wrap(out, text, width, 7, "");
}

int viz_term_frame(FILE *out, const viz_story *s, int k, const viz_term_options *o)
{
    if (k < 0 || (uint32_t)k >= s->nframes)
        return -1;
    int width = o->width > 0 && o->width < MAX_WIDTH ? o->width : MAX_WIDTH;
    char head[512];
    snprintf(head, sizeof head, "step %d/%u  %s", k, s->nframes - 1, s->title);
    if (o->color)
        fputs(C_BOLD, out);
    wrap(out, head, width, 2, "");
    if (o->color)
        fputs(C_OFF, out);
    fputc('\n', out);
    print_rows(out, s, (uint32_t)k, width, o);
    fputc('\n', out);
    print_pairs(out, s, (uint32_t)k, width);
    wrap(out, s->frames[k].caption, width, 2, "");
    print_counters(out, s, (uint32_t)k, o);
    print_source(out, s, (uint32_t)k, width);
    print_maths(out, s, (uint32_t)k, width);
    return ferror(out) ? -1 : 0;
}

int viz_term_legend(FILE *out, const viz_term_options *o)
{
    if (o->color)
        fprintf(out, "%s+ receives a value now%s  %s< read from shared memory%s  "
                "%s~ read from another lane's register%s  %s╱ masked lane%s\n"
                "%so own value back (shuffle source past the warp's end)%s  "
                "%sdim: idle warp%s  · never touched; bar height = value\n",
                C_BLUE, C_OFF, C_GREEN, C_OFF, C_ORANGE, C_OFF, C_GREY, C_OFF, C_PURPLE,
                C_OFF, C_DIM, C_OFF);
    else
        fprintf(out, "+ receives a value now  < read from shared memory  "
                "~ read from another lane's register  ╱ (/) masked lane\n"
                "o own value back (shuffle source past the warp's end)  "
                "· never touched; bar height = value\n");
    return ferror(out) ? -1 : 0;
}
