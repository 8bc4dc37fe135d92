/* gp.c - the pieces every gnuplot script of the report is made of: the
 * terminal loop over formats, styles fixed per kernel, axes over sizes and kernels,
 * ranges shared across GPUs, and the layout of side-by-side figures. Every line
 * differs in dash and point type as well as colour, so that it reads in greyscale. */
#include "report/figures/gp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/array.h"

/* Okabe-Ito, without its yellow (invisible on white). */
static const char *const kernel_colors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                            "#E69F00", "#56B4E9", "#882255", "#44AA99"};
static const int kernel_dashes[] = {1, 2, 4, 5, 3};
static const int kernel_points[] = {5, 7, 9, 11, 13, 4, 6, 8, 10, 12};
/* hues no kernel has (a GPU's line never reads as a kernel's), light to dark alternating
 * so that neighbouring GPUs differ in grey too */
static const char *const gpu_colors[] = {"#A6761D", "#5E3C99", "#808000", "#08306B", "#BF5B17", "#4D4D4D"};

const char *mmb_gp_gpu_color(size_t i)
{
    return gpu_colors[i % MMB_COUNT(gpu_colors)];
}

const char *mmb_gp_kernel_color(const struct mmb_report *rep, size_t k)
{
    return (int)k == rep->data.cublas ? "#000000" : kernel_colors[k % MMB_COUNT(kernel_colors)];
}

const struct mmb_gp_pos mmb_gp_alone = {false, 0, 1, 1, 1, {0, 0}};

/* ---- gnuplot text ---------------------------------------------------------------- */

void mmb_gp_string(FILE *f, const char *s)
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
void mmb_gp_term(FILE *f, int *n)
{
    fputs(*n ? ", \\\n         " : "    plot ", f);
    (*n)++;
}

/* The terminal of every format the report knows under one sizing, so that the script
 * draws any of them when its formats line is edited; then the font variables F8 ...
 * F22 (explicit font sizes that scale like the default one, none under the minimum;
 * gnuplot takes a font from a string variable, not from an expression). */
static void terminals(FILE *f, struct mmb_report_sizing z, const char *only)
{
    double base = MMB_GP_FONT_PT * z.font_scale;
    base = base < z.min_font_px ? z.min_font_px : base;
    for (const struct mmb_report_format_info *fi = mmb_report_format_table; fi->name; fi++) {
        if (only && strcmp(fi->name, only) != 0)
            continue;
        fprintf(f, "    if (fmt eq \"%s\") { set terminal %s ", only ? MMB_GP_DECK_FORMAT : fi->name, fi->terminal);
        fi->terminal_args(f, z.w, z.h, base, z.px_per_inch);
        fprintf(f, "; FK = %.4f; FMIN = %.2f }\n", z.font_scale, z.min_font_px);
    }
}

void mmb_gp_script_begin(FILE *f, const struct mmb_report *rep, const char *name, const char *title,
                         struct mmb_gp_canvas c)
{
    /* a slide of slides.tex, drawn where the PDF is (its terminal found, the format asked for) */
    bool deck = false, pdf = false;
    for (size_t i = 0; i < rep->nformats; i++)
        pdf = pdf || rep->formats[i] == MMB_REPORT_PDF;
    for (size_t i = 0; i < rep->nfigs && !deck && pdf; i++)
        deck = rep->figs[i].deck && !strcmp(rep->figs[i].name, name);
    fprintf(f, "# %s.gp - %s\n", name, title);
    fprintf(f, "# Written by `mmbench report`. Redraw from this folder: gnuplot %s.gp\n", name);
    fputs("formats = \"", f);
    for (size_t i = 0; i < rep->nformats; i++)
        fprintf(f, "%s%s", i ? " " : "", mmb_report_format_info(rep->formats[i])->name);
    /* a figure of slides.tex: also its slide, whatever the preset */
    fprintf(f, "%s\"\n", deck ? " " MMB_GP_DECK_FORMAT : "");
    fputs("do for [i = 1:words(formats)] {\n    fmt = word(formats, i)\n    reset\n    set encoding utf8\n", f);
    terminals(f, mmb_report_format_preset_sizing(rep->preset, c.w, c.h), NULL);
    if (deck)
        terminals(f, mmb_report_format_preset_sizing(MMB_REPORT_PRESET_SLIDES, c.w, c.h), "pdf");
    fputs("    LARGE = FMIN > 0\n", f); /* type with a floor: a figure may show less */
    for (int pt = MMB_GP_FONT_PT - 12; pt <= MMB_GP_FONT_PT + 2; pt += 2)
        fprintf(f, "    F%d = sprintf(\",%%g\", (%d * FK > FMIN ? %d * FK : FMIN) * FS)\n", pt, pt, pt);
    fprintf(f, "    set output (fmt eq \"%s\" ? \"../figures/%s-%s.pdf\" : \"../figures/%s.\".fmt)\n",
            MMB_GP_DECK_FORMAT, MMB_GP_DECK_FORMAT, name, name);
}

void mmb_gp_script_end(FILE *f)
{
    fputs("    unset output\n}\n", f);
}

/* A panel starts from a clean slate inside a multiplot too. */
void mmb_gp_panel_begin(FILE *f, const struct mmb_report *rep)
{
    fputs("    unset label\n    unset object\n    unset arrow\n    unset logscale\n    unset title\n", f);
    fputs("    unset y2tics\n    unset y2label\n    unset x2tics\n", f);
    fputs("    set border lw 1.5\n    set grid xtics ytics lc rgb \"#c4c4c4\" lw 1 dt 1\n", f);
    fputs("    set tics nomirror out\n    set xtics norotate\n", f);
    for (size_t k = 0; k < rep->data.nkernels; k++) {
        bool cublas = (int)k == rep->data.cublas;
        fprintf(f, "    set style line %zu lc rgb \"%s\" dt %d pt %d ps 2 * PS lw 2.5\n", k + 1,
                cublas ? "#000000" : kernel_colors[k % MMB_COUNT(kernel_colors)],
                cublas ? 1 : kernel_dashes[k % MMB_COUNT(kernel_dashes)],
                cublas ? 7 : kernel_points[k % MMB_COUNT(kernel_points)]);
    }
}

/* Side by side, only the bottom panel of a column labels the shared x axis. */
bool mmb_gp_xlabel_here(const struct mmb_gp_pos *p)
{
    return !p->shared || p->idx + p->cols >= p->n;
}

void mmb_gp_shapes_xtics(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos)
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
    /* a panel is half as wide as a figure: smaller labels keep them apart */
    if (pos->shared && d->nshapes > 6)
        fprintf(f, "    set xtics font F%d\n", MMB_GP_FONT_PT - 4);
    fprintf(f, "    set xrange [-0.5:%zu.5]\n", d->nshapes ? d->nshapes - 1 : 0);
    if (!mmb_gp_xlabel_here(pos))
        fputs("    unset xlabel\n", f);
    else if (pos->shared)
        fputs("    set xlabel \"Matrix size (N, or M x N x K)\"\n", f);
    else
        fputs("    set xlabel \"Matrix size: N for N x N x N, else M x N x K (by FLOP count)\"\n", f);
}

bool mmb_gp_square(const struct mmb_report_shape *s)
{
    return s->m == s->n && s->n == s->k;
}

double mmb_gp_size_x(const struct mmb_report_shape *s)
{
    return mmb_gp_square(s) ? (double)s->m : cbrt((double)s->m * (double)s->n * (double)s->k);
}

bool mmb_gp_size_axis(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos, bool named)
{
    double lo = INFINITY, hi = 0;
    fputs("    set logscale x 2\n    set xtics (", f);
    int n = 0;
    for (size_t s = 0; s < d->nshapes; s++) {
        double x = mmb_gp_size_x(&d->shapes[s]);
        lo = fmin(lo, x), hi = fmax(hi, x);
        if (mmb_gp_square(&d->shapes[s]))
            fprintf(f, "%s\"%lld\" %lld", n++ ? ", " : "", d->shapes[s].m, d->shapes[s].m);
    }
    fputs(")\n", f);
    if (!(hi > 0))
        lo = 1, hi = 2;
    fprintf(f, "    set xrange [%.6g:%.6g]\n", lo / 1.45, hi * 1.45);
    if (pos->shared && d->nshapes > 6)
        fprintf(f, "    set xtics font F%d\n", MMB_GP_FONT_PT - 4);
    n = 0;
    for (size_t s = 0; s < d->nshapes && named; s++) {
        if (mmb_gp_square(&d->shapes[s]))
            continue;
        char label[96];
        mmb_report_shape_label(&d->shapes[s], label, sizeof label);
        if (!n++)
            fprintf(f, "    set logscale x2 2\n    set x2range [%.6g:%.6g]\n    set x2tics (", lo / 1.45, hi * 1.45);
        else
            fputs(", ", f);
        fprintf(f, "\"%s\" %.6g", label, mmb_gp_size_x(&d->shapes[s]));
    }
    if (n)
        fprintf(f, ") out nomirror rotate by 25 left font F%d\n", MMB_GP_FONT_PT - 6);
    if (!mmb_gp_xlabel_here(pos))
        fputs("    unset xlabel\n", f);
    else
        fputs("    set xlabel \"Matrix size N (N×N×N, log scale)\"\n", f);
    return n > 0;
}

void mmb_gp_title(FILE *f, const char *title, bool named)
{
    fputs("    set title ", f);
    mmb_gp_string(f, title);
    /* the top axis's slanted names take the room the title would have: lift it */
    fputs(named ? "\n    set tmargin 8\n" : "\n", f);
}

void mmb_gp_l2_mark(FILE *f, double l2_mib, double elem_size, const char *color, const char *label, int tag)
{
    /* several GPUs' lines lie close together: their labels step down */
    if (!(l2_mib > 0))
        return;
    double edge = sqrt(l2_mib * 1048576.0 / (3.0 * elem_size));
    fprintf(f, "    set arrow %d from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 2 lc rgb \"%s\" back\n", tag, edge, edge,
            color);
    fputs("    set label ", f);
    mmb_gp_string(f, label);
    fprintf(f, " at %.6g, graph %.3f right offset -0.5,0 tc rgb \"%s\" font F%d\n", edge, 0.97 - 0.06 * (tag - 1), color,
            MMB_GP_FONT_PT - 6);
}

int mmb_gp_open_point(const struct mmb_report *rep, size_t k)
{
    if ((int)k == rep->data.cublas)
        return 6;
    int pt = kernel_points[k % MMB_COUNT(kernel_points)];
    return pt % 2 ? pt - 1 : pt;
}

void mmb_gp_range_set(FILE *f, char axis, const struct mmb_gp_range *r)
{
    if (r->log)
        fprintf(f, "    set logscale %c 10\n    set format %c \"%%.10g\"\n", axis, axis);
    fprintf(f, "    set %crange [%.6g:%.6g]\n", axis, r->lo, r->hi);
}

/* The multiples m[0..nm) of the powers of ten that fall in [lo, hi], into v (at most
 * vmax); returns how many. */
static size_t decade_multiples(const double *m, size_t nm, double lo, double hi, double *v, size_t vmax)
{
    size_t n = 0;
    for (int e = (int)floor(log10(lo)); e <= (int)ceil(log10(hi)); e++)
        for (size_t i = 0; i < nm && n < vmax; i++)
            if (m[i] * pow(10, e) >= lo && m[i] * pow(10, e) <= hi)
                v[n++] = m[i] * pow(10, e);
    return n;
}

/* Labelled tics on a log axis over [lo, hi]: 1, 2 and 5 times the powers of ten; where
 * fewer than three of those fall inside, 1, 1.5, 2, 3, 4, 5, 6 and 8 times them; where
 * still fewer than three, evenly spaced round numbers (a range of less than a decade
 * would otherwise show one number or none). */
void mmb_gp_log_tics(FILE *f, char axis, double lo, double hi)
{
    static const double coarse[] = {1, 2, 5}, fine[] = {1, 1.5, 2, 3, 4, 5, 6, 8};
    if (!(lo > 0) || !(hi > lo) || !isfinite(hi))
        return;
    double v[64];
    size_t n = decade_multiples(coarse, MMB_COUNT(coarse), lo, hi, v, MMB_COUNT(v));
    if (n < 3)
        n = decade_multiples(fine, MMB_COUNT(fine), lo, hi, v, MMB_COUNT(v));
    if (n < 3) { /* a narrow range: a round step that gives three to eight */
        const double unit = pow(10, floor(log10((hi - lo) / 3)));
        static const double steps[] = {5, 2, 1, 0.5};
        double step = unit;
        for (size_t i = 0; i < MMB_COUNT(steps); i++)
            if ((hi - lo) / (steps[i] * unit) >= 3) {
                step = steps[i] * unit;
                break;
            }
        n = 0;
        for (double t = ceil(lo / step) * step; t <= hi && n < MMB_COUNT(v); t += step)
            v[n++] = t;
    }
    fprintf(f, "    set %ctics (", axis);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"%.6g\" %.6g", i ? ", " : "", v[i], v[i]);
    fputs(")\n", f);
}

void mmb_gp_range_add(struct mmb_gp_range *r, double v)
{
    if (!isfinite(v) || (r->log && v <= 0))
        return;
    if (!(r->lo <= v))
        r->lo = v;
    if (!(r->hi >= v))
        r->hi = v;
}

/* Whole decades on log axes; a little headroom on linear ones. */
void mmb_gp_range_finish(struct mmb_gp_range *r)
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
        double step = pow(10, floor(log10(r->hi * 1.1))) / 5;
        r->hi = step > 0 ? ceil(r->hi * 1.1 / step) * step : 1;
    }
}

struct mmb_gp_range mmb_gp_range_new(bool log)
{
    return (struct mmb_gp_range){NAN, NAN, log};
}

int mmb_gp_commit(const struct mmb_report *rep, struct mmb_report_out *o, const char *name, const char *ext,
                      char *err, size_t errlen)
{
    char file[256], path[4400];
    snprintf(file, sizeof file, "%s.%s", name, ext);
    if (mmb_report_state_path(rep, path, sizeof path, "gnuplot", file, err, errlen) != 0) {
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
struct mmb_gp_pos mmb_gp_multi_pos(size_t panels)
{
    struct mmb_gp_pos p = {true, 0, panels, 0, 0, {0, 0}};
    p.cols = panels <= 3 ? panels : panels == 4 ? 2 : 3;
    p.rows = (panels + p.cols - 1) / p.cols;
    p.c.w = (int)(MP_LEFT + MP_RIGHT + p.cols * MP_BOX_W + (p.cols - 1) * MP_GAP_X);
    p.c.h = (int)(MP_TOP + MP_BOTTOM + MP_LEGEND + p.rows * MP_BOX_H + (p.rows - 1) * MP_GAP_Y);
    return p;
}

void mmb_gp_multiplot_begin(FILE *f, const char *title)
{
    fputs("    set multiplot title ", f);
    mmb_gp_string(f, title);
    fprintf(f, " font F%d\n", MMB_GP_FONT_PT + 2);
}

/* Fixes the plot box of a side-by-side panel, so that axes line up exactly. */
void mmb_gp_panel_box(FILE *f, const struct mmb_gp_pos *p)
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
void mmb_gp_legend_begin(FILE *f, const struct mmb_gp_pos *p, size_t entries)
{
    mmb_gp_legend_strip(f, p, entries, MP_LEGEND);
}

void mmb_gp_legend_strip(FILE *f, const struct mmb_gp_pos *p, size_t entries, int height)
{
    /* about 270 px an entry: as few rows as the width allows */
    size_t per_row = (size_t)(p->c.w * 0.96 / 270);
    size_t rows = per_row ? (entries + per_row - 1) / per_row : 1;
    fprintf(f, "    set lmargin at screen 0.02\n    set rmargin at screen 0.98\n");
    fprintf(f, "    set bmargin at screen 0.005\n    set tmargin at screen %.4f\n", (double)height / p->c.h);
    fputs("    unset border\n    unset tics\n    unset xlabel\n    unset ylabel\n    unset title\n    unset grid\n", f);
    fputs("    unset logscale\n    unset label\n    unset object\n    unset arrow\n    unset colorbox\n", f);
    fputs("    unset y2tics\n    unset y2label\n    unset x2tics\n", f);
    fputs("    set xrange [0:1]\n    set yrange [0:1]\n", f);
    fprintf(f, "    set key center center horizontal maxrows %zu width 2 samplen 3 spacing 1.2\n", rows ? rows : 1);
}

/* Side by side, only the first column names the shared y axis. */
void mmb_gp_ylabel(FILE *f, const struct mmb_gp_pos *pos, const char *label)
{
    if (pos->shared && pos->idx % pos->cols != 0) {
        fputs("    unset ylabel\n", f);
        return;
    }
    fputs("    set ylabel ", f);
    mmb_gp_string(f, label);
    fputc('\n', f);
}

void mmb_gp_kernels_xtics(FILE *f, const struct mmb_report_data *d, const struct mmb_gp_pos *pos)
{
    /* the story's kernels: the other profiles' have their own sections */
    size_t n = d->nstory;
    fputs("    set xtics (", f);
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "%s", k ? ", " : "");
        mmb_gp_string(f, d->kernels[k]);
        fprintf(f, " %zu", k);
    }
    fprintf(f, ")\n    set xrange [-0.6:%zu.6]\n", n ? n - 1 : 0);
    /* slant the names when they would touch (about 0.55 em a character) */
    size_t longest = 0;
    for (size_t k = 0; k < n; k++)
        longest = strlen(d->kernels[k]) > longest ? strlen(d->kernels[k]) : longest;
    double slot = (pos->shared ? 700.0 : 1350.0) / (double)(n ? n : 1);
    if ((double)longest * MMB_GP_FONT_PT * 0.55 > 0.85 * slot)
        fputs("    set xtics rotate by 30 right\n", f);
    if (mmb_gp_xlabel_here(pos))
        fputs("    set xlabel \"Kernel (best configuration at this size)\"\n", f);
    else
        fputs("    unset xlabel\n", f);
}

