/* report_plot.c - writes the gnuplot data and script of every figure. Each figure
 * kind has one panel writer: a GPU's figure is one panel, and the side-by-side
 * figure is the same panels in a multiplot with ranges shared by every GPU, so the
 * two cannot drift apart. Styles are fixed per kernel and per GPU across figures,
 * and every line differs in dash and point type as well as colour, for greyscale. */
#include "report_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Okabe-Ito, without its yellow (invisible on white). */
static const char *const kernel_colors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                            "#E69F00", "#56B4E9", "#882255", "#44AA99"};
static const int kernel_dashes[] = {1, 2, 4, 5, 3};
static const int kernel_points[] = {5, 7, 9, 11, 13, 4, 6, 8, 10, 12};
/* light to dark, so that bars of neighbouring GPUs differ in grey too */
static const char *const gpu_colors[] = {"#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#882255"};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* PNG and SVG are drawn in pixels; the PDF has the same proportions at 200 px an
 * inch, with the font scaled to match. 20 pt on 1600 px stays readable when the
 * figure fills a slide and when it is half a page. */
#define FONT_PT 20
#define PX_PER_INCH 200.0

struct range {
    double lo, hi;
    bool log;
};

struct canvas {
    int w, h;
};

/* Where a panel sits: alone, or at idx of a side-by-side figure of n panels. */
struct pos {
    bool shared;
    size_t idx, n, cols, rows;
    struct canvas c;
};

static const struct pos alone = {false, 0, 1, 1, 1, {0, 0}};

/* ---- gnuplot text ---------------------------------------------------------------- */

static void gp_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

/* "plot " before the first term, a continued line before the others */
static void plot_term(FILE *f, int *n)
{
    fputs(*n ? ", \\\n         " : "    plot ", f);
    (*n)++;
}

static void script_begin(FILE *f, const struct mmb_report *rep, const char *name, const char *title,
                         struct canvas c)
{
    fprintf(f, "# %s.gp - %s\n", name, title);
    fprintf(f, "# Written by `mmbench report`. Redraw from this folder: gnuplot %s.gp\n", name);
    fputs("formats = \"", f);
    for (size_t i = 0; i < rep->nformats; i++)
        fprintf(f, "%s%s", i ? " " : "", rep->formats[i]);
    fputs("\"\n", f);
    fputs("do for [i = 1:words(formats)] {\n    fmt = word(formats, i)\n    reset\n    set encoding utf8\n", f);
    fprintf(f, "    if (fmt eq \"png\") { set terminal pngcairo size %d,%d noenhanced font \"Sans,%d\" linewidth 2 }\n",
            c.w, c.h, FONT_PT);
    fprintf(f, "    if (fmt eq \"svg\") { set terminal svg size %d,%d noenhanced font \"Sans,%d\" linewidth 2 background \"white\" }\n",
            c.w, c.h, FONT_PT);
    fprintf(f, "    if (fmt eq \"pdf\") { set terminal pdfcairo size %.2fin,%.2fin noenhanced font \"Sans,%.1f\" linewidth 1 }\n",
            c.w / PX_PER_INCH, c.h / PX_PER_INCH, FONT_PT * 72.0 / PX_PER_INCH);
    fprintf(f, "    set output \"../figures/%s.\".fmt\n", name);
}

static void script_end(FILE *f)
{
    fputs("    unset output\n}\n", f);
}

/* A panel starts from a clean slate inside a multiplot too. */
static void panel_begin(FILE *f, const struct mmb_report *rep)
{
    fputs("    unset label\n    unset object\n    unset arrow\n    unset logscale\n    unset title\n", f);
    fputs("    set border lw 1.5\n    set grid xtics ytics lc rgb \"#c4c4c4\" lw 1 dt 1\n", f);
    fputs("    set tics nomirror out\n    set xtics norotate\n", f);
    for (size_t k = 0; k < rep->data.nkernels; k++) {
        bool cublas = (int)k == rep->data.cublas;
        fprintf(f, "    set style line %zu lc rgb \"%s\" dt %d pt %d ps 2 lw 2.5\n", k + 1,
                cublas ? "#000000" : kernel_colors[k % COUNT(kernel_colors)],
                cublas ? 1 : kernel_dashes[k % COUNT(kernel_dashes)],
                cublas ? 6 : kernel_points[k % COUNT(kernel_points)]);
    }
}

/* Side by side, only the bottom panel of a column labels the shared x axis. */
static bool xlabel_here(const struct pos *p)
{
    return !p->shared || p->idx + p->cols >= p->n;
}

static void shapes_xtics(FILE *f, const struct mmb_report_data *d, const struct pos *pos)
{
    bool rect = false;
    fputs("    set xtics (", f);
    for (size_t s = 0; s < d->nshapes; s++) {
        char label[96];
        mmb_report_shape_label(&d->shapes[s], label, sizeof label);
        rect = rect || strchr(label, 'x');
        fprintf(f, "%s\"%s\" %zu", s ? ", " : "", label, s);
    }
    fputs(")\n", f);
    /* labels of rectangular shapes are long: slant them so that they do not collide */
    if (rect || d->nshapes > 8)
        fputs("    set xtics rotate by 30 right\n", f);
    fprintf(f, "    set xrange [-0.5:%zu.5]\n", d->nshapes ? d->nshapes - 1 : 0);
    if (!xlabel_here(pos))
        fputs("    unset xlabel\n", f);
    else if (pos->shared)
        fputs("    set xlabel \"Matrix size (N, or M x N x K)\"\n", f);
    else
        fputs("    set xlabel \"Matrix size: N for N x N x N, else M x N x K (by FLOP count)\"\n", f);
}

static void range_set(FILE *f, char axis, const struct range *r)
{
    if (r->log)
        fprintf(f, "    set logscale %c 10\n    set format %c \"%%.10g\"\n", axis, axis);
    fprintf(f, "    set %crange [%.6g:%.6g]\n", axis, r->lo, r->hi);
}

static void range_add(struct range *r, double v)
{
    if (!isfinite(v) || (r->log && v <= 0))
        return;
    if (!(r->lo <= v))
        r->lo = v;
    if (!(r->hi >= v))
        r->hi = v;
}

/* Whole decades on log axes; a little headroom on linear ones. */
static void range_finish(struct range *r)
{
    if (isnan(r->lo)) {
        r->lo = r->log ? 1 : 0;
        r->hi = r->log ? 10 : 1;
        return;
    }
    if (r->log) {
        /* from a whole decade, so that the lowest tic is labelled, to just above the top */
        r->lo = pow(10, floor(log10(r->lo)));
        r->hi = r->hi * 1.6;
    } else {
        r->lo = 0;
        double step = pow(10, floor(log10(r->hi * 1.1))) / 2;
        r->hi = step > 0 ? ceil(r->hi * 1.1 / step) * step : 1;
    }
}

static struct range range_new(bool log)
{
    return (struct range){NAN, NAN, log};
}

static int dat_open(const struct mmb_report *rep, struct mmb_report_out *o, char *err, size_t errlen)
{
    (void)rep;
    return mmb_report_out_open(o, err, errlen);
}

static int out_commit(const struct mmb_report *rep, struct mmb_report_out *o, const char *name, const char *ext,
                      char *err, size_t errlen)
{
    char file[256], path[4400];
    snprintf(file, sizeof file, "%s.%s", name, ext);
    if (mmb_report_path(rep, path, sizeof path, "gnuplot", file, err, errlen) != 0) {
        mmb_report_out_discard(o);
        return -1;
    }
    return mmb_report_out_commit(o, path, err, errlen);
}

/* Side by side: pixels around and between the plot boxes. Tic labels, axis
 * labels and titles live outside the boxes, so the gaps hold them: slanted size
 * labels under a box, the next row's title above it, the legend at the bottom. */
#define MP_LEFT 200
#define MP_RIGHT 50
#define MP_TOP 120
#define MP_GAP_X 130
#define MP_GAP_Y 250
#define MP_BOTTOM 200
#define MP_LEGEND 110
#define MP_BOX_W 700
#define MP_BOX_H 560

/* Up to three GPUs a row (four make a square). */
static struct pos multi_pos(size_t panels)
{
    struct pos p = {true, 0, panels, 0, 0, {0, 0}};
    p.cols = panels <= 3 ? panels : panels == 4 ? 2 : 3;
    p.rows = (panels + p.cols - 1) / p.cols;
    p.c.w = (int)(MP_LEFT + MP_RIGHT + p.cols * MP_BOX_W + (p.cols - 1) * MP_GAP_X);
    p.c.h = (int)(MP_TOP + MP_BOTTOM + MP_LEGEND + p.rows * MP_BOX_H + (p.rows - 1) * MP_GAP_Y);
    return p;
}

static void multiplot_begin(FILE *f, const char *title)
{
    fputs("    set multiplot title ", f);
    gp_string(f, title);
    fprintf(f, " font \",%d\"\n", FONT_PT + 2);
}

/* Fixes the plot box of a side-by-side panel, so that axes line up exactly. */
static void panel_box(FILE *f, const struct pos *p)
{
    if (!p->shared)
        return;
    size_t col = p->idx % p->cols, row = p->idx / p->cols;
    double x0 = MP_LEFT + (double)col * (MP_BOX_W + MP_GAP_X);
    double y0 = MP_TOP + (double)row * (MP_BOX_H + MP_GAP_Y);
    fprintf(f, "    set lmargin at screen %.4f\n    set rmargin at screen %.4f\n", x0 / p->c.w,
            (x0 + MP_BOX_W) / p->c.w);
    fprintf(f, "    set tmargin at screen %.4f\n    set bmargin at screen %.4f\n    unset key\n", 1.0 - y0 / p->c.h,
            1.0 - (y0 + MP_BOX_H) / p->c.h);
}

/* The legend of a side-by-side figure: an empty plot across the bottom strip
 * whose key lists what every panel draws; the caller adds NaN terms. */
static void legend_begin(FILE *f, const struct pos *p, size_t entries)
{
    /* about 270 px an entry: as few rows as the width allows */
    size_t per_row = (size_t)(p->c.w * 0.96 / 270);
    size_t rows = per_row ? (entries + per_row - 1) / per_row : 1;
    fprintf(f, "    set lmargin at screen 0.02\n    set rmargin at screen 0.98\n");
    fprintf(f, "    set bmargin at screen 0.005\n    set tmargin at screen %.4f\n", (double)MP_LEGEND / p->c.h);
    fputs("    unset border\n    unset tics\n    unset xlabel\n    unset ylabel\n    unset title\n    unset grid\n", f);
    fputs("    unset logscale\n    unset label\n    unset object\n    unset arrow\n    unset colorbox\n", f);
    fputs("    set xrange [0:1]\n    set yrange [0:1]\n", f);
    fprintf(f, "    set key center center horizontal maxrows %zu width 2 samplen 3 spacing 1.2\n", rows ? rows : 1);
}

/* Side by side, only the first column names the shared y axis. */
static void ylabel_set(FILE *f, const struct pos *pos, const char *label)
{
    if (pos->shared && pos->idx % pos->cols != 0) {
        fputs("    unset ylabel\n", f);
        return;
    }
    fputs("    set ylabel ", f);
    gp_string(f, label);
    fputc('\n', f);
}

/* ---- lines against size ---------------------------------------------------------------- */

static double value_gflops(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_gflops(r);
}

static double value_pct_cublas(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    if (d->cublas < 0 || (int)r->kernel == d->cublas)
        return NAN;
    const struct mmb_report_row *c = mmb_report_best(d, r->gpu, (size_t)d->cublas, (size_t)r->shape);
    return c ? 100.0 * c->r.time_ms_median / r->r.time_ms_median : NAN;
}

static double value_gbps(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_dram_gbps(r);
}

static double value_pct_peak(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    return mmb_report_dram_pct(r);
}

enum ref_line { REF_PEAK_GFLOPS, REF_PEAK_GBPS, REF_100_CUBLAS, REF_100_PEAK };

/* One row per figure kind drawn as one line per kernel against size. */
static const struct line_kind {
    const char *name;
    const char *short_name; /* in the README's list of figures left out */
    const char *title;
    const char *ylabel;
    const char *caption;
    const char *lacks;       /* why a GPU has no such figure */
    bool log;
    bool circle_l2;          /* mark points whose output stayed in L2 */
    enum ref_line ref;
    double (*value)(const struct mmb_report_data *d, const struct mmb_report_row *r);
} line_kinds[] = {
    {"gflops", "GFLOP/s", "GFLOP/s against matrix size", "GFLOP/s (2MNK / median time)",
     "Throughput of each kernel's best configuration at every size, beside cuBLAS (black) and the GPU's FP32 peak (dotted); log scale.",
     "no timed rows", true, false, REF_PEAK_GFLOPS, value_gflops},
    {"pct-cublas", "% of cuBLAS", "% of cuBLAS against matrix size", "% of cuBLAS (cuBLAS time / kernel time)",
     "Each kernel's speed relative to cuBLAS on the same GPU at the same size; 100% is as fast as cuBLAS.",
     "no cuBLAS row at the sizes its kernels ran", false, false, REF_100_CUBLAS, value_pct_cublas},
    {"bandwidth", "DRAM bandwidth", "achieved DRAM bandwidth against matrix size", "DRAM bandwidth (GB/s, log scale)",
     "DRAM bandwidth that each kernel's best configuration achieves (DRAM byte counters over kernel time), under the GPU's peak (dotted), log scale; a circled point wrote less than half its output to DRAM because it stayed in L2.",
     "no DRAM counters (counter columns empty)", true, true, REF_PEAK_GBPS, value_gbps},
    {"bandwidth-pct", "DRAM bandwidth %", "DRAM bandwidth utilisation against matrix size", "DRAM bandwidth (% of peak, log scale)",
     "The same bandwidth as a percentage of the GPU's peak DRAM bandwidth (log scale), as the NvBench plots of seed 004 show it.",
     "no DRAM counters (counter columns empty)", true, true, REF_100_PEAK, value_pct_peak},
};

/* What one GPU's panel of a line kind has: the block of each kernel in its .dat. */
struct line_panel {
    int block[64];      /* per kernel: index in the .dat, -1 without points */
    int l2_block;       /* circled points, -1 when none */
    size_t points;
};

static int line_data_write(struct mmb_report *rep, const struct line_kind *lk, size_t g, const char *name,
                           struct line_panel *p, struct range *y, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (dat_open(rep, &o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %s on %s\n# shape-index value l2-low  # kernel, params, shape\n", name, lk->title,
            d->gpus[g].name);
    int blocks = 0;
    p->points = 0;
    p->l2_block = -1;
    size_t l2 = 0;
    for (size_t k = 0; k < d->nkernels && k < COUNT(p->block); k++) {
        p->block[k] = -1;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
            double v = r ? lk->value(d, r) : NAN;
            if (!isfinite(v))
                continue;
            if (p->block[k] < 0) {
                if (blocks)
                    fputs("\n\n", o.f);
                p->block[k] = blocks++;
            }
            char label[96];
            mmb_report_shape_label(&d->shapes[s], label, sizeof label);
            fprintf(o.f, "%zu %.9g %d  # %s, %s, %s\n", s, v, r->l2_low, d->kernels[k],
                    r->r.params[0] ? r->r.params : "-", label);
            range_add(y, v);
            p->points++;
            l2 += lk->circle_l2 && r->l2_low;
        }
    }
    if (l2) {
        fputs("\n\n# points whose DRAM writes stayed in L2\n", o.f);
        p->l2_block = blocks++;
        for (size_t k = 0; k < d->nkernels; k++)
            for (size_t s = 0; s < d->nshapes; s++) {
                const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
                double v = r ? lk->value(d, r) : NAN;
                if (isfinite(v) && r->l2_low)
                    fprintf(o.f, "%zu %.9g\n", s, v);
            }
    }
    if (p->points == 0) {
        mmb_report_out_discard(&o);
        return 0;
    }
    return out_commit(rep, &o, name, "dat", err, errlen);
}

static double ref_value(const struct line_kind *lk, const struct mmb_report_gpu *gpu)
{
    switch (lk->ref) {
    case REF_PEAK_GFLOPS:
        return gpu->peak_gflops;
    case REF_PEAK_GBPS:
        return gpu->peak_gbps;
    default:
        return 100.0;
    }
}

/* Short, so that the legend stays on one or two rows; the value is written on
 * the line itself (ref_label). */
static const char *ref_title(const struct line_kind *lk)
{
    switch (lk->ref) {
    case REF_PEAK_GFLOPS:
        return "FP32 peak";
    case REF_PEAK_GBPS:
        return "DRAM peak";
    case REF_100_CUBLAS:
        return "cuBLAS = 100%";
    default:
        return "peak = 100%";
    }
}

static void ref_label(FILE *f, const struct line_kind *lk, const struct mmb_report_gpu *gpu)
{
    if (lk->ref == REF_PEAK_GFLOPS && isfinite(gpu->peak_gflops))
        fprintf(f, "    set label \"%.1f TFLOP/s\" at graph 0.99, first %.9g right offset 0,0.8 tc rgb \"#404040\"\n",
                gpu->peak_gflops / 1000, gpu->peak_gflops);
    if (lk->ref == REF_PEAK_GBPS && isfinite(gpu->peak_gbps))
        fprintf(f, "    set label \"%.0f GB/s\" at graph 0.99, first %.9g right offset 0,0.8 tc rgb \"#404040\"\n",
                gpu->peak_gbps, gpu->peak_gbps);
}

static void line_panel_write(FILE *f, struct mmb_report *rep, const struct line_kind *lk, size_t g,
                             const char *dat, const struct line_panel *p, const struct range *y, const struct pos *pos)
{
    const struct mmb_report_data *d = &rep->data;
    char gpu[128], sel[64], title[512];
    mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_selection(rep, (int)g, sel, sizeof sel);
    panel_begin(f, rep);
    panel_box(f, pos);
    if (pos->shared)
        snprintf(title, sizeof title, "%s", gpu);
    else
        snprintf(title, sizeof title, "%s: %s (%s)", gpu, lk->title, sel);
    fputs("    set title ", f);
    gp_string(f, title);
    fputc('\n', f);
    ylabel_set(f, pos, lk->ylabel);
    shapes_xtics(f, d, pos);
    range_set(f, 'y', y);
    ref_label(f, lk, &d->gpus[g]);
    if (!pos->shared)
        fputs("    set key outside below center horizontal samplen 3 spacing 1.1 width 1 height 1\n", f);
    int n = 0;
    for (size_t k = 0; k < d->nkernels && k < COUNT(p->block); k++) {
        if (p->block[k] < 0)
            continue;
        plot_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu title ", dat, p->block[k], k + 1);
        gp_string(f, d->kernels[k]);
    }
    double ref = ref_value(lk, &d->gpus[g]);
    if (isfinite(ref)) {
        plot_term(f, &n);
        fprintf(f, "%.9g with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", ref);
        gp_string(f, ref_title(lk));
    }
    if (p->l2_block >= 0) {
        plot_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points pt 6 ps 4.5 lw 1.5 lc rgb \"#404040\" title \"output stayed in L2\"",
                dat, p->l2_block);
    }
    fputc('\n', f);
}

/* The shared legend: every kernel any panel draws, the reference line, the circles. */
static void line_legend_write(FILE *f, const struct mmb_report *rep, const struct line_kind *lk, const struct pos *pos,
                              const bool *seen, bool any_l2)
{
    const struct mmb_report_data *d = &rep->data;
    size_t entries = 1 + any_l2;
    for (size_t k = 0; k < d->nkernels && k < 64; k++)
        entries += seen[k];
    legend_begin(f, pos, entries);
    int n = 0;
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        if (!seen[k])
            continue;
        plot_term(f, &n);
        fprintf(f, "NaN with linespoints ls %zu title ", k + 1);
        gp_string(f, d->kernels[k]);
    }
    plot_term(f, &n);
    fputs("NaN with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", f);
    gp_string(f, ref_title(lk));
    if (any_l2) {
        plot_term(f, &n);
        fputs("NaN with points pt 6 ps 4.5 lw 1.5 lc rgb \"#404040\" title \"output stayed in L2\"", f);
    }
    fputc('\n', f);
}

static int line_kind_write(struct mmb_report *rep, const struct line_kind *lk, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    struct line_panel *panels = calloc(d->ngpus ? d->ngpus : 1, sizeof *panels);
    if (!panels) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    struct range y = range_new(lk->log);
    bool seen[64] = {false}, any_l2 = false;
    size_t drawn = 0;
    int rc = 0;
    char sel[64], gsel[64];
    mmb_report_selection(rep, -1, sel, sizeof sel);
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        char name[160];
        snprintf(name, sizeof name, "%s-%s", lk->name, d->gpus[g].slug);
        if (!mmb_report_gpu_has(d, g, NULL))
            continue;
        rc = line_data_write(rep, lk, g, name, &panels[g], &y, err, errlen);
        if (rc == 0 && panels[g].points == 0)
            mmb_report_omit_add(rep, (int)g, lk->short_name, lk->lacks);
        if (panels[g].points == 0)
            continue;
        drawn++;
        any_l2 = any_l2 || panels[g].l2_block >= 0;
        for (size_t k = 0; k < d->nkernels && k < COUNT(seen); k++)
            seen[k] = seen[k] || panels[g].block[k] >= 0;
        range_add(&y, ref_value(lk, &d->gpus[g]));
    }
    range_finish(&y);

    /* one figure per GPU, on the ranges every GPU shares */
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (panels[g].points == 0)
            continue;
        char name[160], gpu[128];
        snprintf(name, sizeof name, "%s-%s", lk->name, d->gpus[g].slug);
        mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
        struct mmb_report_out o;
        if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
            mmb_errorf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        mmb_report_selection(rep, (int)g, gsel, sizeof gsel);
        snprintf(fig->title, sizeof fig->title, "%s: %s (%s)", gpu, lk->title, gsel);
        snprintf(fig->caption, sizeof fig->caption, "%s", lk->caption);
        script_begin(o.f, rep, name, fig->title, (struct canvas){1600, 1000});
        line_panel_write(o.f, rep, lk, g, name, &panels[g], &y, &alone);
        script_end(o.f);
        rc = out_commit(rep, &o, name, "gp", err, errlen);
    }

    /* every GPU side by side */
    if (rc == 0 && drawn >= 2) {
        char name[160];
        snprintf(name, sizeof name, "gpus-%s", lk->name);
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_GPUS, -1);
        struct mmb_report_out o;
        if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
            mmb_errorf(err, errlen, "out of memory");
            free(panels);
            return -1;
        }
        snprintf(fig->title, sizeof fig->title, "Every GPU: %s (%s, shared axes)", lk->title, sel);
        snprintf(fig->caption, sizeof fig->caption,
                 "%s against matrix size for every GPU side by side, on shared axes, oldest generation first.",
                 lk->short_name);
        struct pos pos = multi_pos(drawn);
        script_begin(o.f, rep, name, fig->title, pos.c);
        multiplot_begin(o.f, fig->title);
        for (size_t g = 0; g < d->ngpus; g++) {
            if (panels[g].points == 0)
                continue;
            char dat[160];
            snprintf(dat, sizeof dat, "%s-%s", lk->name, d->gpus[g].slug);
            line_panel_write(o.f, rep, lk, g, dat, &panels[g], &y, &pos);
            pos.idx++;
        }
        line_legend_write(o.f, rep, lk, &pos, seen, any_l2);
        fputs("    unset multiplot\n", o.f);
        script_end(o.f);
        rc = out_commit(rep, &o, name, "gp", err, errlen);
    }
    free(panels);
    return rc;
}

/* ---- utilisation bars ------------------------------------------------------------ */

static void kernels_xtics(FILE *f, const struct mmb_report_data *d, const struct pos *pos)
{
    fputs("    set xtics (", f);
    for (size_t k = 0; k < d->nkernels; k++) {
        fprintf(f, "%s", k ? ", " : "");
        gp_string(f, d->kernels[k]);
        fprintf(f, " %zu", k);
    }
    fprintf(f, ")\n    set xrange [-0.6:%zu.6]\n", d->nkernels ? d->nkernels - 1 : 0);
    if (xlabel_here(pos))
        fputs("    set xlabel \"Kernel (best configuration at this size)\"\n", f);
    else
        fputs("    unset xlabel\n", f);
}

static void util_panel_write(FILE *f, struct mmb_report *rep, size_t g, const char *dat, const char *title,
                             const struct pos *pos)
{
    panel_begin(f, rep);
    panel_box(f, pos);
    fputs("    set title ", f);
    gp_string(f, title);
    fputc('\n', f);
    ylabel_set(f, pos, "Utilisation (% of peak sustained)");
    kernels_xtics(f, &rep->data, pos);
    fputs("    set yrange [0:112]\n    set ytics 0,20,100\n    set grid noxtics\n", f);
    if (!pos->shared)
        fputs("    set key outside below center horizontal samplen 2 height 1\n", f);
    fputs("    set boxwidth 0.36\n", f);
    fprintf(f, "    plot \"%s.dat\" using ($1-0.19):2 with boxes fs solid 0.9 border lc rgb \"#202020\" lc rgb \"#0072B2\" title \"Compute (SM %%)\", \\\n", dat);
    fputs("         \"\" using ($1+0.19):3 with boxes fs pattern 4 border lc rgb \"#202020\" lc rgb \"#D55E00\" title \"Memory (DRAM %)\", \\\n", f);
    fputs("         \"\" using ($1-0.19):2:(sprintf(\"%.0f\", $2)) with labels offset 0,0.7 notitle, \\\n", f);
    fputs("         \"\" using ($1+0.19):3:(sprintf(\"%.0f\", $3)) with labels offset 0,0.7 notitle\n", f);
    (void)g;
}

static int util_write(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    char ref[96], sel[64], gsel[64];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_selection(rep, -1, sel, sizeof sel);
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!has) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    size_t drawn = 0;
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!mmb_report_gpu_has(d, g, NULL))
            continue;
        char name[160], gpu[128];
        snprintf(name, sizeof name, "util-%s", d->gpus[g].slug);
        mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
        struct mmb_report_out o;
        if (mmb_report_out_open(&o, err, errlen) != 0) {
            rc = -1;
            break;
        }
        fprintf(o.f, "# %s: SM and DRAM throughput (%% of peak) at %s on %s\n# kernel-index sm-pct dram-pct  # kernel, params\n",
                name, ref, d->gpus[g].name);
        for (size_t k = 0; k < d->nkernels; k++) {
            const struct mmb_report_row *r = mmb_report_best(d, g, k, (size_t)d->ref);
            if (r && mmb_report_has_util(r)) {
                fprintf(o.f, "%zu %.6g %.6g  # %s, %s\n", k, r->r.sm_util_pct, r->r.dram_util_pct, d->kernels[k],
                        r->r.params[0] ? r->r.params : "-");
                has[g] = true;
            }
        }
        if (!has[g]) {
            mmb_report_out_discard(&o);
            char why[160];
            snprintf(why, sizeof why, "no SM and DRAM throughput counters at %s", ref);
            mmb_report_omit_add(rep, (int)g, "utilisation bars", why);
            continue;
        }
        drawn++;
        if ((rc = out_commit(rep, &o, name, "dat", err, errlen)) != 0)
            break;
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
        if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
            rc = -1;
            break;
        }
        mmb_report_selection(rep, (int)g, gsel, sizeof gsel);
        snprintf(fig->title, sizeof fig->title, "%s: compute and memory utilisation at %s (%s)", gpu, ref, gsel);
        snprintf(fig->caption, sizeof fig->caption,
                 "Compute (SM throughput) and memory (DRAM throughput) utilisation of each kernel's best configuration at %s, as the Nsight Compute screenshots of seed 000 show them.",
                 ref);
        script_begin(o.f, rep, name, fig->title, (struct canvas){1600, 900});
        util_panel_write(o.f, rep, g, name, fig->title, &alone);
        script_end(o.f);
        rc = out_commit(rep, &o, name, "gp", err, errlen);
    }
    if (rc == 0 && drawn >= 2) {
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, "gpus-util", MMB_REPORT_GROUP_GPUS, -1);
        struct mmb_report_out o;
        if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
            free(has);
            return -1;
        }
        snprintf(fig->title, sizeof fig->title, "Every GPU: compute and memory utilisation at %s (%s)", ref, sel);
        snprintf(fig->caption, sizeof fig->caption,
                 "The utilisation bars of every GPU side by side, oldest generation first.");
        struct pos pos = multi_pos(drawn);
        script_begin(o.f, rep, "gpus-util", fig->title, pos.c);
        multiplot_begin(o.f, fig->title);
        for (size_t g = 0; g < d->ngpus; g++) {
            if (!has[g])
                continue;
            char dat[160], gpu[128];
            snprintf(dat, sizeof dat, "util-%s", d->gpus[g].slug);
            mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
            util_panel_write(o.f, rep, g, dat, gpu, &pos);
            pos.idx++;
        }
        legend_begin(o.f, &pos, 2);
        fputs("    plot NaN with boxes fs solid 0.9 border lc rgb \"#202020\" lc rgb \"#0072B2\" title \"Compute (SM %)\", \\\n", o.f);
        fputs("         NaN with boxes fs pattern 4 border lc rgb \"#202020\" lc rgb \"#D55E00\" title \"Memory (DRAM %)\"\n", o.f);
        fputs("    unset multiplot\n", o.f);
        script_end(o.f);
        rc = out_commit(rep, &o, "gpus-util", "gp", err, errlen);
    }
    free(has);
    return rc;
}

/* ---- roofline ------------------------------------------------------------------------ */

static void roofline_panel_write(FILE *f, struct mmb_report *rep, size_t g, const char *dat, const char *title,
                                 const int *block, const struct range *x, const struct range *y,
                                 const struct pos *pos)
{
    bool shared = pos->shared;
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_gpu *gp = &d->gpus[g];
    panel_begin(f, rep);
    panel_box(f, pos);
    fputs("    set title ", f);
    gp_string(f, title);
    fputc('\n', f);
    if (xlabel_here(pos))
        fputs("    set xlabel \"Arithmetic intensity (FLOP per DRAM byte)\"\n", f);
    else
        fputs("    unset xlabel\n", f);
    ylabel_set(f, pos, "GFLOP/s");
    range_set(f, 'x', x);
    range_set(f, 'y', y);
    fputs("    set samples 800\n", f);
    /* %.1f: gnuplot divides integers as integers */
    fprintf(f, "    B = %.1f\n    P = %.1f\n    roof(x) = x * B < P ? x * B : P\n", gp->peak_gbps, gp->peak_gflops);
    fputs("    set arrow from P / B, graph 0 to P / B, P nohead dt 3 lw 1.5 lc rgb \"#707070\"\n", f);
    fputs("    set label sprintf(\"ridge %.3g FLOP/B \", P / B) at P / B, P * 1.25 right tc rgb \"#404040\"\n", f);
    /* the ceilings named on the roof itself, so that the legend stays short */
    fputs("    set label sprintf(\"FP32 peak %.1f TFLOP/s\", P / 1000) at graph 0.98, first P * 1.25 right tc rgb \"#303030\"\n", f);
    /* right-aligned above the slope: the text runs left, where the roof is lower */
    fputs("    xr = P / B / 2.5\n", f);
    fprintf(f, "    if (xr > %.6g && xr * B * 1.9 < %.6g) { set label sprintf(\"DRAM %%.0f GB/s \", B) at xr, xr * B * 1.9 right tc rgb \"#303030\" }\n",
            x->lo * 6, y->hi);
    if (!shared)
        fputs("    set key outside below center horizontal samplen 2 spacing 1.1 height 1\n", f);
    int n = 0;
    plot_term(f, &n);
    fputs("roof(x) with lines lw 3.5 lc rgb \"#303030\" title \"roof\"", f);
    (void)shared;
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        if (block[k] < 0)
            continue;
        plot_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points ls %zu lw 2 title ", dat, block[k], k + 1);
        gp_string(f, d->kernels[k]);
    }
    fputc('\n', f);
}

static int roofline_write(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    int (*blocks)[64] = calloc(d->ngpus ? d->ngpus : 1, sizeof *blocks);
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!blocks || !has) {
        free(blocks);
        free(has);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    struct range x = range_new(true), y = range_new(true);
    bool seen[64] = {false};
    size_t drawn = 0;
    int rc = 0;
    char sel[64], gsel[64];
    mmb_report_selection(rep, -1, sel, sizeof sel);
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!mmb_report_gpu_has(d, g, NULL))
            continue;
        char name[160];
        snprintf(name, sizeof name, "roofline-%s", d->gpus[g].slug);
        struct mmb_report_out o;
        if ((rc = mmb_report_out_open(&o, err, errlen)) != 0)
            break;
        fprintf(o.f, "# %s: measured intensity (FLOP/DRAM byte) and GFLOP/s on %s\n", name, d->gpus[g].name);
        int nb = 0;
        for (size_t k = 0; k < d->nkernels && k < 64; k++) {
            blocks[g][k] = -1;
            for (size_t s = 0; s < d->nshapes; s++) {
                const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
                if (!r || !mmb_report_has_roofline(r))
                    continue;
                if (blocks[g][k] < 0) {
                    fprintf(o.f, "%s# %s\n", nb ? "\n\n" : "", d->kernels[k]);
                    blocks[g][k] = nb++;
                }
                char label[96];
                mmb_report_shape_label(&d->shapes[s], label, sizeof label);
                double in = mmb_report_intensity(r), gf = mmb_report_gflops(r);
                fprintf(o.f, "%.9g %.9g  # %s, %s\n", in, gf, label, r->r.params[0] ? r->r.params : "-");
                range_add(&x, in);
                range_add(&y, gf);
                seen[k] = true;
            }
        }
        if (nb == 0) {
            mmb_report_out_discard(&o);
            mmb_report_omit_add(rep, (int)g, "roofline",
                                isfinite(d->gpus[g].peak_gbps) && isfinite(d->gpus[g].peak_gflops)
                                    ? "no DRAM counters (counter columns empty)"
                                    : "no peak_gbps or peak_gflops for this GPU");
            continue;
        }
        has[g] = true;
        drawn++;
        /* the whole roof, its slope included, even when every kernel sits right
         * of the ridge: the memory-bound side is what the figure teaches */
        double ridge = d->gpus[g].peak_gflops / d->gpus[g].peak_gbps;
        range_add(&x, ridge / 20);
        range_add(&y, d->gpus[g].peak_gflops / 20);
        range_add(&y, d->gpus[g].peak_gflops);
        rc = out_commit(rep, &o, name, "dat", err, errlen);
    }
    range_finish(&x);
    range_finish(&y);
    for (size_t g = 0; g < d->ngpus && rc == 0; g++) {
        if (!has[g])
            continue;
        char name[160], gpu[128];
        snprintf(name, sizeof name, "roofline-%s", d->gpus[g].slug);
        mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
        struct mmb_report_out o;
        if (!fig || (rc = mmb_report_out_open(&o, err, errlen)) != 0) {
            rc = -1;
            break;
        }
        mmb_report_selection(rep, (int)g, gsel, sizeof gsel);
        snprintf(fig->title, sizeof fig->title, "%s: roofline (%s)", gpu, gsel);
        snprintf(fig->caption, sizeof fig->caption,
                 "Each kernel's best configuration at every size, placed by measured arithmetic intensity (FLOP per DRAM byte) and GFLOP/s under the GPU's DRAM-bandwidth and FP32 ceilings; points further right reuse more data from caches.");
        script_begin(o.f, rep, name, fig->title, (struct canvas){1600, 1000});
        roofline_panel_write(o.f, rep, g, name, fig->title, blocks[g], &x, &y, &alone);
        script_end(o.f);
        rc = out_commit(rep, &o, name, "gp", err, errlen);
    }
    if (rc == 0 && drawn >= 2) {
        struct mmb_report_figure *fig = mmb_report_figure_add(rep, "gpus-roofline", MMB_REPORT_GROUP_GPUS, -1);
        struct mmb_report_out o;
        if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
            rc = -1;
        } else {
            snprintf(fig->title, sizeof fig->title, "Every GPU: roofline (%s, shared axes)", sel);
            snprintf(fig->caption, sizeof fig->caption,
                     "The rooflines of every GPU side by side on shared axes: the roof rises and its ridge moves right from one generation to the next.");
            struct pos pos = multi_pos(drawn);
            script_begin(o.f, rep, "gpus-roofline", fig->title, pos.c);
            multiplot_begin(o.f, fig->title);
            for (size_t g = 0; g < d->ngpus; g++) {
                if (!has[g])
                    continue;
                char dat[160], gpu[128];
                snprintf(dat, sizeof dat, "roofline-%s", d->gpus[g].slug);
                mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
                roofline_panel_write(o.f, rep, g, dat, gpu, blocks[g], &x, &y, &pos);
                pos.idx++;
            }
            size_t entries = 1;
            for (size_t k = 0; k < d->nkernels && k < 64; k++)
                entries += seen[k];
            legend_begin(o.f, &pos, entries);
            int n = 0;
            plot_term(o.f, &n);
            fputs("NaN with lines lw 3.5 lc rgb \"#303030\" title \"roof\"", o.f);
            for (size_t k = 0; k < d->nkernels && k < 64; k++) {
                if (!seen[k])
                    continue;
                plot_term(o.f, &n);
                fprintf(o.f, "NaN with points ls %zu lw 2 title ", k + 1);
                gp_string(o.f, d->kernels[k]);
            }
            fputs("\n    unset multiplot\n", o.f);
            script_end(o.f);
            rc = out_commit(rep, &o, "gpus-roofline", "gp", err, errlen);
        }
    }
    free(blocks);
    free(has);
    return rc;
}

/* ---- GPUs next to each other, per kernel ------------------------------------------------ */

static int per_kernel_write(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    size_t *cols = calloc(d->ngpus ? d->ngpus : 1, sizeof *cols);
    if (!cols) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    size_t ng = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        bool any = false;
        for (size_t k = 0; k < d->nkernels; k++)
            any = any || mmb_report_best(d, g, k, (size_t)d->ref);
        if (any)
            cols[ng++] = g;
    }
    char ref[96], sel[64];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_selection(rep, -1, sel, sizeof sel);
    if (ng < 2) {
        free(cols);
        if (d->ngpus >= 2) {
            char why[160];
            snprintf(why, sizeof why, "fewer than two GPUs have rows at %s", ref);
            mmb_report_omit_add(rep, -1, "GPUs per kernel", why);
        }
        return 0;
    }
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0) {
        free(cols);
        return -1;
    }
    struct range y = range_new(true);
    fprintf(o.f, "# gpus-per-kernel: best GFLOP/s of each kernel at %s (%s)\n# kernel-index", ref, sel);
    for (size_t j = 0; j < ng; j++)
        fprintf(o.f, " \"%s\"", d->gpus[cols[j]].name);
    fputc('\n', o.f);
    for (size_t k = 0; k < d->nkernels; k++) {
        fprintf(o.f, "%zu", k);
        for (size_t j = 0; j < ng; j++) {
            const struct mmb_report_row *r = mmb_report_best(d, cols[j], k, (size_t)d->ref);
            double v = r ? mmb_report_gflops(r) : NAN;
            fprintf(o.f, isfinite(v) ? " %.6g" : " NaN", v);
            range_add(&y, v);
        }
        fprintf(o.f, "  # %s\n", d->kernels[k]);
    }
    range_finish(&y);
    int rc = out_commit(rep, &o, "gpus-per-kernel", "dat", err, errlen);
    struct mmb_report_figure *fig = rc == 0 ? mmb_report_figure_add(rep, "gpus-per-kernel", MMB_REPORT_GROUP_GPUS, -1) : NULL;
    if (rc == 0 && (!fig || mmb_report_out_open(&o, err, errlen) != 0))
        rc = -1;
    if (rc != 0) {
        free(cols);
        return -1;
    }
    snprintf(fig->title, sizeof fig->title, "Every GPU per kernel: GFLOP/s at %s (%s, best configuration)", ref, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each kernel's best GFLOP/s at %s on every GPU, next to each other (log scale, oldest generation left); hatched bars are published figures, not measured by mmbench.",
             ref);
    script_begin(o.f, rep, "gpus-per-kernel", fig->title, (struct canvas){1600, 900});
    panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    gp_string(o.f, fig->title);
    fputs("\n    set ylabel \"GFLOP/s (log scale)\"\n    set format y \"%g\"\n", o.f);
    kernels_xtics(o.f, d, &alone);
    fputs("    set grid noxtics\n", o.f);
    range_set(o.f, 'y', &y);
    fputs("    set key outside below center horizontal samplen 2 spacing 1.1 height 1\n", o.f);
    double w = 0.8 / (double)ng;
    fprintf(o.f, "    set boxwidth %.4f\n", w * 0.95);
    int n = 0;
    for (size_t j = 0; j < ng; j++) {
        const struct mmb_report_gpu *gp = &d->gpus[cols[j]];
        double off = ((double)j - (double)(ng - 1) / 2.0) * w;
        char gpu[128];
        mmb_report_gpu_label(rep, cols[j], gpu, sizeof gpu);
        plot_term(o.f, &n);
        fprintf(o.f, "\"gpus-per-kernel.dat\" using ($1%+.4f):%zu with boxes fs %s border lc rgb \"#202020\" lc rgb \"%s\" title ",
                off, j + 2, gp->all_published ? "pattern 4" : "solid 0.9",
                gp->all_published ? "#404040" : gpu_colors[j % COUNT(gpu_colors)]);
        gp_string(o.f, gpu);
        plot_term(o.f, &n);
        fprintf(o.f, "\"\" using ($1%+.4f):%zu:(sprintf(\"%%.0f\", column(%zu))) with labels offset 0,0.6 font \",%d\" notitle",
                off, j + 2, j + 2, ng > 3 ? FONT_PT - 6 : FONT_PT - 4);
    }
    fputc('\n', o.f);
    script_end(o.f);
    rc = out_commit(rep, &o, "gpus-per-kernel", "gp", err, errlen);
    free(cols);
    return rc;
}

/* ---- tuning heatmaps ------------------------------------------------------------------------ */

static void cell_text(double ms, char *out, size_t len)
{
    snprintf(out, len, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : ms >= 1 ? "%.2f" : "%.3f", ms);
}

static void grid_tics(FILE *f, char axis, const double *v, size_t n)
{
    fprintf(f, "    set %ctics (", axis);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"%g\" %zu", i ? ", " : "", v[i], i);
    fprintf(f, ")\n    set %crange [-0.5:%zu.5]\n", axis, n - 1);
}

static int heatmap_write(struct mmb_report *rep, size_t g, size_t k, const struct mmb_report_grid *grid, char *err,
                         size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], kslug[MMB_REPORT_NAME_MAX], ref[96], gpu[128], sel[64];
    mmb_gpu_slug(d->kernels[k], kslug, sizeof kslug);
    snprintf(name, sizeof name, "heatmap-%s-%s", d->gpus[g].slug, kslug);
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_selection(rep, (int)g, sel, sizeof sel);

    double lo = INFINITY, hi = -INFINITY;
    for (size_t iy = 0; iy < grid->ny; iy++)
        for (size_t ix = 0; ix < grid->nx; ix++)
            if (!isnan(grid->ms[iy][ix])) {
                lo = fmin(lo, grid->ms[iy][ix]);
                hi = fmax(hi, grid->ms[iy][ix]);
            }
    /* a slow corner (block_size_x=8, block_size_y=1) would wash the rest out */
    bool logcb = lo > 0 && hi / lo > 3;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: median time (ms) of %s over %s x %s at %s on %s\n# x-index y-index ms label dark-cell\n", name,
            d->kernels[k], grid->xname, grid->yname, ref, d->gpus[g].name);
    for (size_t iy = 0; iy < grid->ny; iy++)
        for (size_t ix = 0; ix < grid->nx; ix++) {
            double ms = grid->ms[iy][ix];
            if (isnan(ms))
                continue;
            char t[32];
            cell_text(ms, t, sizeof t);
            /* white text on the dark half of the palette */
            double at = logcb ? log(ms / lo) / log(hi / lo) : hi > lo ? (ms - lo) / (hi - lo) : 0;
            bool dark = at < 0.55;
            fprintf(o.f, "%zu %zu %.9g \"%s\" %d\n", ix, iy, ms, t, dark);
        }
    if (grid->failed) {
        fputs("\n\n# configurations that did not run: status\n", o.f);
        for (size_t iy = 0; iy < grid->ny; iy++)
            for (size_t ix = 0; ix < grid->nx; ix++)
                if (grid->why[iy][ix])
                    fprintf(o.f, "%zu %zu \"%s\"\n", ix, iy, grid->why[iy][ix]);
    }
    if (out_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;

    struct mmb_report_figure *fig = mmb_report_figure_add(rep, name, MMB_REPORT_GROUP_TUNING, (int)g);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(fig->title, sizeof fig->title, "%s: %s at %s (%s), median time over %s x %s", gpu, d->kernels[k], ref,
             sel, grid->xname, grid->yname);
    snprintf(fig->caption, sizeof fig->caption,
             "Median time (ms) of %s over %s and %s at %s%s%s; the boxed cell is the fastest configuration%s.",
             d->kernels[k], grid->xname, grid->yname, ref, grid->fixed[0] ? ", with " : "", grid->fixed,
             grid->failed ? ", grey cells did not run (their status is written in them)" : "");
    int h = 900;
    script_begin(o.f, rep, name, fig->title, (struct canvas){1600, h});
    panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    char title[1024];
    snprintf(title, sizeof title, "%s: %s at %s (%s)%s%s, median time (ms), fastest boxed", gpu, d->kernels[k], ref,
             sel, grid->fixed[0] ? ", " : "", grid->fixed);
    gp_string(o.f, title);
    fputs("\n    set xlabel ", o.f);
    gp_string(o.f, grid->xname);
    fputs("\n    set ylabel ", o.f);
    gp_string(o.f, grid->yname);
    fputs("\n    set grid noxtics noytics\n    set tics scale 0\n", o.f);
    grid_tics(o.f, 'x', grid->xs, grid->nx);
    grid_tics(o.f, 'y', grid->ys, grid->ny);
    /* viridis: monotone in lightness, so it reads in greyscale too */
    fputs("    set palette defined (0 \"#440154\", 1 \"#3b528b\", 2 \"#21918c\", 3 \"#5ec962\", 4 \"#fde725\")\n", o.f);
    fprintf(o.f, "    set cbrange [%.9g:%.9g]\n", lo, hi > lo ? hi : lo * 1.01 + 1e-9);
    fprintf(o.f, "    set cblabel \"median time (ms%s)\"\n    set colorbox\n    unset key\n", logcb ? ", log scale" : "");
    if (logcb) {
        /* decades alone may leave a single tic: label a few steps of each,
         * finer when the range is narrow */
        static const double fine[] = {1, 1.5, 2, 3, 5, 7}, coarse[] = {1, 2, 5};
        bool narrow = hi / lo < 30;
        const double *steps = narrow ? fine : coarse;
        size_t nsteps = narrow ? COUNT(fine) : COUNT(coarse);
        fputs("    set logscale cb\n    set cbtics (", o.f);
        int tics = 0;
        for (double dec = pow(10, floor(log10(lo))); dec <= hi; dec *= 10)
            for (size_t i = 0; i < nsteps; i++)
                if (steps[i] * dec >= lo && steps[i] * dec <= hi)
                    fprintf(o.f, "%s%.10g", tics++ ? ", " : "", steps[i] * dec);
        fputs(")\n", o.f);
    }
    fprintf(o.f, "    set object 1 rect from %zu - 0.5, %zu - 0.5 to %zu + 0.5, %zu + 0.5 front fillstyle empty border lc rgb \"#e4002b\" lw 4\n",
            grid->best_x, grid->best_y, grid->best_x, grid->best_y);
    int font = grid->nx > 6 ? FONT_PT - 6 : FONT_PT - 2;
    fprintf(o.f, "    plot \"%s.dat\" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc palette, \\\n", name);
    fprintf(o.f, "         \"\" index 0 using 1:2:($5 > 0 ? stringcolumn(4) : \"\") with labels font \",%d\" tc rgb \"white\", \\\n", font);
    fprintf(o.f, "         \"\" index 0 using 1:2:($5 > 0 ? \"\" : stringcolumn(4)) with labels font \",%d\" tc rgb \"black\"", font);
    if (grid->failed) {
        fputs(", \\\n         \"\" index 1 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder lc rgb \"#e0e0e0\"", o.f);
        fprintf(o.f, ", \\\n         \"\" index 1 using 1:2:3 with labels font \",%d\" tc rgb \"#505050\"", FONT_PT - 8);
    }
    fputc('\n', o.f);
    script_end(o.f);
    return out_commit(rep, &o, name, "gp", err, errlen);
}

static int heatmaps_write(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    struct mmb_report_grid *grid = malloc(sizeof *grid);
    if (!grid) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t g = 0; g < d->ngpus && rc == 0; g++)
        for (size_t k = 0; k < d->nkernels && rc == 0; k++)
            if (mmb_report_grid_build(d, g, k, (size_t)d->ref, grid))
                rc = heatmap_write(rep, g, k, grid, err, errlen);
    free(grid);
    return rc;
}

/* ---- all ----------------------------------------------------------------------------------- */

int mmb_report_plot_write(struct mmb_report *rep, char *err, size_t errlen)
{
    char dir[4400];
    if (mmb_report_path(rep, dir, sizeof dir, NULL, "gnuplot", err, errlen) != 0 ||
        mmb_mkdir_p(dir, err, errlen) != 0 ||
        mmb_report_path(rep, dir, sizeof dir, NULL, "figures", err, errlen) != 0 ||
        mmb_mkdir_p(dir, err, errlen) != 0)
        return -1;
    if (per_kernel_write(rep, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < COUNT(line_kinds); i++)
        if (line_kind_write(rep, &line_kinds[i], err, errlen) != 0)
            return -1;
    if (util_write(rep, err, errlen) != 0 || roofline_write(rep, err, errlen) != 0 ||
        heatmaps_write(rep, err, errlen) != 0)
        return -1;
    return 0;
}
