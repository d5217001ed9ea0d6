/* bench_svg.c - the plot of `cured bench --api`: time per call against n,
 * log-log, one panel per dtype, as one self-contained SVG file.
 *
 * defines: bench_api_print_svg
 *
 * Written by hand (no library): a title, a legend, and per panel a frame,
 * grid lines at powers of two (n) and decades (us) with minor lines at 2..9,
 * and for cured, CUB and the launch floor one polyline per mode (warm calls
 * solid, cold dashed) with a dot per point. Colours are fixed per job so
 * that panels read alike; the text uses the system sans-serif font.
 */
#include "bench_api.h"

#include <math.h>
#include <string.h>

enum { PANEL_W = 470, PANEL_H = 300, MARGIN_L = 62, MARGIN_R = 18, MARGIN_T = 34,
       MARGIN_B = 44, TOP = 78, COLS = 2 };

/* The jobs plotted, their colours and legend names. */
static const struct {
    const char *job, *colour, *name;
} series[] = {
    {BENCH_API_CURED, "#1f5fbf", "cured_reduce (exact)"},
    {BENCH_API_CUB, "#d4502a", "CUB DeviceReduce::Sum"},
    {BENCH_API_LAUNCH, "#7a7a7a", "empty kernel (launch floor)"},
};
#define NSERIES (int)(sizeof series / sizeof *series)

/* Writes s with &, <, >, " escaped for XML text and attributes. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static int timed(const bench_api_row *row)
{
    return row->us.runs > 0 && row->us.median > 0 && isfinite(row->us.median);
}

/* Whether the row belongs to a plotted series. */
static int plotted(const bench_api_row *row)
{
    for (int s = 0; s < NSERIES; s++)
        if (strcmp(row->job, series[s].job) == 0)
            return timed(row);
    return 0;
}

/* A panel's scales. */
typedef struct frame {
    double x0, y0;     /* pixel origin of the plot area (top left) */
    double w, h;
    int xmin, xmax;    /* log2 n */
    int ymin, ymax;    /* log10 us */
} frame;

static double px(const frame *f, int log2n)
{
    if (f->xmax == f->xmin)
        return f->x0 + f->w / 2;
    return f->x0 + f->w * (log2n - f->xmin) / (double)(f->xmax - f->xmin);
}

static double py(const frame *f, double us)
{
    return f->y0 + f->h - f->h * (log10(us) - f->ymin) / (double)(f->ymax - f->ymin);
}

/* The grid, the axes' labels and the frame of a panel. */
static void draw_axes(FILE *out, const frame *f, const char *title)
{
    fprintf(out, "<g class=\"panel\">\n<text x=\"%.1f\" y=\"%.1f\" class=\"ptitle\">",
            f->x0, f->y0 - 10);
    xml_text(out, title);
    fputs("</text>\n", out);
    int step = f->xmax - f->xmin > 12 ? 4 : f->xmax - f->xmin > 6 ? 2 : 1;
    for (int k = f->xmin; k <= f->xmax; k++) {
        if ((k - f->xmin) % step != 0 && k != f->xmax)
            continue;
        double x = px(f, k);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                x, f->y0, x, f->y0 + f->h);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"xt\">2<tspan dy=\"-6\" "
                     "font-size=\"9\">%d</tspan></text>\n", x, f->y0 + f->h + 16, k);
    }
    for (int e = f->ymin; e <= f->ymax; e++) {
        double y = py(f, pow(10.0, e));
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                f->x0, y, f->x0 + f->w, y);
        char label[32];
        if (e >= 0 && e <= 6)
            snprintf(label, sizeof label, "%.0f", pow(10.0, e));
        else
            snprintf(label, sizeof label, "1e%d", e);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"yt\">%s</text>\n", f->x0 - 6,
                y + 4, label);
        for (int m = 2; m <= 9 && e < f->ymax; m++) {
            double ym = py(f, m * pow(10.0, e));
            fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "class=\"minor\"/>\n", f->x0, ym, f->x0 + f->w, ym);
        }
    }
    fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n",
            f->x0, f->y0, f->w, f->h);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"xl\">n (elements)</text>\n",
            f->x0 + f->w / 2, f->y0 + f->h + 36);
    fprintf(out, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" class=\"xl\">"
                 "us per call</text>\n</g>\n", f->x0 - 44, f->y0 + f->h / 2);
}

/* One series of a panel: its points in order of n, a polyline and dots. */
static void draw_series(FILE *out, const frame *f, const bench_api_results *r,
                        cured_dtype d, int s, const char *mode)
{
    int any = 0;
    for (int k = f->xmin; k <= f->xmax; k++)
        for (int i = 0; i < r->count; i++) {
            const bench_api_row *row = &r->items[i];
            if (row->dtype != d || row->log2n != k || strcmp(row->mode, mode) != 0 ||
                strcmp(row->job, series[s].job) != 0 || !timed(row))
                continue;
            if (!any)
                fprintf(out, "<polyline class=\"%s\" stroke=\"%s\" points=\"", mode,
                        series[s].colour);
            fprintf(out, "%s%.1f,%.1f", any ? " " : "", px(f, k), py(f, row->us.median));
            any = 1;
        }
    if (!any)
        return;
    fputs("\"/>\n", out);
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *row = &r->items[i];
        if (row->dtype != d || strcmp(row->mode, mode) != 0 ||
            strcmp(row->job, series[s].job) != 0 || !timed(row))
            continue;
        fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.4\" fill=\"%s\"><title>%s %s %s "
                     "2^%d: %.2f us</title></circle>\n",
                px(f, row->log2n), py(f, row->us.median),
                strcmp(mode, BENCH_API_WARM) == 0 ? series[s].colour : "white",
                series[s].name, cured_dtype_name(d), mode, row->log2n, row->us.median);
    }
}

int bench_api_print_svg(FILE *out, const bench_api_results *r)
{
    /* the dtypes in order of first appearance, the common n range */
    cured_dtype dtypes[CURED_DTYPE_COUNT];
    int nd = 0, xmin = 1 << 30, xmax = -1;
    for (int i = 0; i < r->count; i++) {
        const bench_api_row *row = &r->items[i];
        if (!plotted(row))
            continue;
        int seen = 0;
        for (int j = 0; j < nd; j++)
            seen |= dtypes[j] == row->dtype;
        if (!seen && nd < CURED_DTYPE_COUNT)
            dtypes[nd++] = row->dtype;
        xmin = row->log2n < xmin ? row->log2n : xmin;
        xmax = row->log2n > xmax ? row->log2n : xmax;
    }
    if (nd == 0)
        return -1;
    int cols = nd < COLS ? nd : COLS, rows = (nd + COLS - 1) / COLS;
    int cell_w = MARGIN_L + PANEL_W + MARGIN_R, cell_h = MARGIN_T + PANEL_H + MARGIN_B;
    int width = cols * cell_w + 20, height = TOP + rows * cell_h + 10;
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", width, height,
            width, height);
    fputs("<style>\n"
          ".title{font-size:16px;font-weight:bold}.sub{font-size:11px;fill:#444}\n"
          ".ptitle{font-size:13px;font-weight:bold}.xt{font-size:11px;text-anchor:middle}\n"
          ".yt{font-size:11px;text-anchor:end}.xl{font-size:11px;text-anchor:middle;fill:#444}\n"
          ".grid{stroke:#d0d0d0;stroke-width:1}.minor{stroke:#eeeeee;stroke-width:1}\n"
          ".frame{fill:none;stroke:#333;stroke-width:1}.legend{font-size:12px}\n"
          "polyline{fill:none;stroke-width:2}.cold{stroke-dasharray:6 4}\n"
          "circle{stroke-width:1.2;stroke:#333}\n"
          "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
    fputs("<text x=\"16\" y=\"24\" class=\"title\">cured_reduce (exact) against CUB "
          "DeviceReduce::Sum: time per call</text>\n<text x=\"16\" y=\"42\" class=\"sub\">",
          out);
    xml_text(out, r->device[0] ? r->device : "(no device)");
    fputs("; solid: calls back to back (L2 warm), dashed: one call after an L2 flush; "
          "medians</text>\n", out);
    for (int s = 0; s < NSERIES; s++) {
        double x = 16 + 250.0 * s;
        fprintf(out, "<line x1=\"%.1f\" y1=\"60\" x2=\"%.1f\" y2=\"60\" stroke=\"%s\" "
                     "stroke-width=\"3\"/>\n<text x=\"%.1f\" y=\"64\" class=\"legend\">",
                x, x + 24, series[s].colour, x + 30);
        xml_text(out, series[s].name);
        fputs("</text>\n", out);
    }
    for (int p = 0; p < nd; p++) {
        frame f;
        f.x0 = (p % COLS) * cell_w + MARGIN_L + 10;
        f.y0 = TOP + (p / COLS) * cell_h + MARGIN_T;
        f.w = PANEL_W;
        f.h = PANEL_H;
        f.xmin = xmin;
        f.xmax = xmax;
        double lo = INFINITY, hi = 0;
        for (int i = 0; i < r->count; i++) {
            const bench_api_row *row = &r->items[i];
            if (row->dtype == dtypes[p] && plotted(row)) {
                lo = row->us.median < lo ? row->us.median : lo;
                hi = row->us.median > hi ? row->us.median : hi;
            }
        }
        f.ymin = (int)floor(log10(lo));
        f.ymax = (int)ceil(log10(hi));
        if (f.ymax <= f.ymin)
            f.ymax = f.ymin + 1;
        char title[64];
        snprintf(title, sizeof title, "%s sum", cured_dtype_name(dtypes[p]));
        draw_axes(out, &f, title);
        for (int s = 0; s < NSERIES; s++) {
            draw_series(out, &f, r, dtypes[p], s, BENCH_API_COLD);
            draw_series(out, &f, r, dtypes[p], s, BENCH_API_WARM);
        }
    }
    fputs("</svg>\n", out);
    return 0;
}
