/* plot_lines.c - line figures against matrix size: TFLOP/s and % of cuBLAS, one
 * table row per kind. Square sizes are lines against N on a log2 axis; other shapes
 * are open markers at the N of the same FLOP count, never joined to the squares; the
 * min-max spread is drawn where it exceeds 1%, and points under 30 us are marked as
 * latency-bound. A GPU's figure is one panel; the side-by-side figure is the same
 * panels on a y range every GPU shares. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/error.h"
#include "report/figures/gp.h"
#include "report/figures/panels.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "report/input/story.h"

/* A value and its range over the repeats (lo, hi NaN when the row has no spread). */
struct point {
    double y, lo, hi;
};

static struct point value_tflops(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    (void)d;
    double gf = mmb_report_row_gflops(r), t = r->r.time_ms_median;
    return (struct point){gf / 1000, gf * t / r->r.time_ms_max / 1000, gf * t / r->r.time_ms_min / 1000};
}

static struct point value_pct_cublas(const struct mmb_report_data *d, const struct mmb_report_row *r)
{
    struct point p = {NAN, NAN, NAN};
    if (d->cublas < 0 || (int)r->kernel == d->cublas)
        return p;
    const struct mmb_report_row *c = mmb_report_select_best(d, r->gpu, (size_t)d->cublas, (size_t)r->shape);
    if (!c)
        return p;
    p.y = 100.0 * c->r.time_ms_median / r->r.time_ms_median;
    p.lo = 100.0 * c->r.time_ms_min / r->r.time_ms_max;
    p.hi = 100.0 * c->r.time_ms_max / r->r.time_ms_min;
    return p;
}

enum ref_line { REF_PEAK_TFLOPS, REF_100_CUBLAS };

/* One row per figure kind drawn as one line per kernel against size. */
static const struct line_kind {
    const char *name;
    const char *short_name; /* in the README's list of figures left out */
    const char *title;
    const char *ylabel;
    const char *caption;
    const char *lacks;       /* why a GPU has no such figure */
    bool each;               /* a figure per GPU */
    bool gpus;               /* every GPU side by side */
    enum ref_line ref;
    struct point (*value)(const struct mmb_report_data *d, const struct mmb_report_row *r);
} line_kinds[] = {
    {"gflops", "TFLOP/s", "TFLOP/s against matrix size", "TFLOP/s (2MNK / median time)",
     "Throughput of each kernel's best configuration against N (log scale) beside cuBLAS (black) and the GPU's FP32 "
     "peak (dotted). Filled markers joined by lines: square problems N×N×N; open markers: the rectangular shapes named "
     "on the top axis, at the N of the same FLOP count. Grey bars: min-max over the timed launches where it exceeds 1%; "
     "grey squares: under 30 µs, launch- and latency-bound.",
     "no timed rows at two or more square sizes", true, true, REF_PEAK_TFLOPS, value_tflops},
    {"pct-cublas", "% of cuBLAS", "% of cuBLAS against matrix size", "% of cuBLAS (cuBLAS time / kernel time)",
     "Each kernel's speed relative to cuBLAS on the same GPU at the same size (100% is as fast as cuBLAS), markers as "
     "in the TFLOP/s figure. Below about 30 µs (grey squares) cuBLAS itself is latency-bound, so the percentages there "
     "say little; grey bars: min-max of both times where the spread exceeds 1%.",
     "no cuBLAS row at two or more square sizes", true, false, REF_100_CUBLAS, value_pct_cublas},
};

/* What one GPU's panel of a line kind has: the blocks of its .dat. */
struct line_panel {
    int square[MMB_REPORT_KERNELS_MAX]; /* per kernel: block of its square sizes, -1 none */
    int rect[MMB_REPORT_KERNELS_MAX];   /* per kernel: block of its other shapes, -1 none */
    int spread, small, l2;              /* blocks of error bars, small times, L2-resident points */
    size_t squares;                     /* square points */
};

/* One block of the data file per call: the points of kernel k (squares or the
 * others) on GPU g, or of every kernel whose row passes want. */
struct block_writer {
    FILE *f;
    int blocks;
};

static int block_open(struct block_writer *b, const char *what)
{
    fprintf(b->f, "%s# %s\n", b->blocks ? "\n\n" : "", what);
    return b->blocks++;
}

static void kernel_blocks(struct block_writer *b, const struct mmb_report *rep, const struct line_kind *lk, size_t g,
                          size_t k, struct line_panel *p, struct mmb_gp_range *y)
{
    const struct mmb_report_data *d = &rep->data;
    for (int rect = 0; rect < 2; rect++) {
        int *at = rect ? &p->rect[k] : &p->square[k];
        *at = -1;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
            struct point v = r ? lk->value(d, r) : (struct point){NAN, NAN, NAN};
            if (!isfinite(v.y) || mmb_gp_square(&d->shapes[s]) == (rect != 0))
                continue;
            if (*at < 0) {
                char what[160];
                snprintf(what, sizeof what, "%s, %s", d->kernels[k], rect ? "other shapes" : "square sizes");
                *at = block_open(b, what);
            }
            char label[96];
            mmb_report_shape_label(&d->shapes[s], label, sizeof label);
            fprintf(b->f, "%.6g %.6g  # %s, %s\n", mmb_gp_size_x(&d->shapes[s]), v.y, label,
                    r->r.params[0] ? r->r.params : "-");
            mmb_gp_range_add(y, v.y);
            p->squares += !rect;
        }
    }
}

/* The points of every kernel for which the mark holds: error bars (x y lo hi), small
 * times, outputs that stayed in L2. */
enum mark { MARK_SPREAD, MARK_SMALL, MARK_L2 };

static int marks_block(struct block_writer *b, const struct mmb_report *rep, const struct line_kind *lk, size_t g,
                       enum mark mark, struct mmb_gp_range *y)
{
    static const char *const what[] = {"min-max over the timed launches, where over 1%: x y lo hi",
                                       "under 30 us: latency-bound", "output stayed in L2"};
    const struct mmb_report_data *d = &rep->data;
    int at = -1;
    for (size_t k = 0; k < d->nkernels; k++)
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
            struct point v = r ? lk->value(d, r) : (struct point){NAN, NAN, NAN};
            if (!isfinite(v.y))
                continue;
            bool spread = isfinite(v.lo) && isfinite(v.hi) && (v.hi - v.lo) / v.y > mmb_report_story.spread_shown;
            bool on = mark == MARK_SPREAD ? spread
                    : mark == MARK_SMALL  ? r->r.time_ms_median < mmb_report_story.small_ms
                                          : r->l2_low;
            if (!on)
                continue;
            if (at < 0)
                at = block_open(b, what[mark]);
            fprintf(b->f, "%.6g %.6g", mmb_gp_size_x(&d->shapes[s]), v.y);
            if (mark == MARK_SPREAD) {
                fprintf(b->f, " %.6g %.6g", v.lo, v.hi);
                mmb_gp_range_add(y, v.hi);
            }
            fputc('\n', b->f);
        }
    return at;
}

static int line_data_write(struct mmb_report *rep, const struct line_kind *lk, size_t g, const char *name,
                           struct line_panel *p, struct mmb_gp_range *y, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %s on %s\n# x (N, or (MNK)^(1/3) for other shapes) value  # shape, parameters\n", name,
            lk->title, d->gpus[g].name);
    struct block_writer b = {o.f, 0};
    p->squares = 0;
    for (size_t k = 0; k < d->nkernels; k++)
        kernel_blocks(&b, rep, lk, g, k, p, y);
    p->spread = marks_block(&b, rep, lk, g, MARK_SPREAD, y);
    p->small = marks_block(&b, rep, lk, g, MARK_SMALL, y);
    p->l2 = -1;
    /* a panel needs a line: one size alone is in the ladder and the tables */
    bool line = false;
    for (size_t k = 0; k < d->nkernels; k++)
        for (size_t s = 0, n = 0; s < d->nshapes && !line; s++) {
            const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
            n += r && mmb_gp_square(&d->shapes[s]) && isfinite(lk->value(d, r).y);
            line = n >= 2;
        }
    if (!line) {
        p->squares = 0;
        mmb_report_out_discard(&o);
        return 0;
    }
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

static double ref_value(const struct line_kind *lk, const struct mmb_report_gpu *gpu)
{
    return lk->ref == REF_PEAK_TFLOPS ? gpu->peak_gflops / 1000 : 100.0;
}

static const char *ref_title(const struct line_kind *lk)
{
    return lk->ref == REF_PEAK_TFLOPS ? "FP32 peak" : "cuBLAS = 100%";
}

/* What the panels of one line kind share. */
struct lines {
    const struct line_kind *lk;
    struct line_panel *panels;       /* [GPU] */
    struct mmb_gp_range y;           /* shared by every GPU */
    bool seen[MMB_REPORT_KERNELS_MAX];
    bool any_rect, any_spread, any_small;
};

static void marks_terms(FILE *f, const char *dat, const struct line_panel *p, int *n)
{
    if (p->spread >= 0) {
        mmb_gp_term(f, n);
        /* as vectors: yerrorbars would draw a point of its own over the kernel's */
        fprintf(f, "\"%s.dat\" index %d using 1:3:(0):($4-$3) with vectors nohead lw 2.5 lc rgb \"#606060\" title "
                   "\"min-max\"",
                dat, p->spread);
    }
    if (p->small >= 0) {
        mmb_gp_term(f, n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points pt 4 ps 3.6 * PS lw 2 lc rgb \"#909090\" title "
                   "\"under 30 µs\"",
                dat, p->small);
    }
}

static void line_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                             const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct lines *ls = ctx;
    const struct line_kind *lk = ls->lk;
    const struct line_panel *p = &ls->panels[g];
    const struct mmb_report_data *d = &rep->data;
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    mmb_gp_title(f, title, mmb_gp_size_axis(f, d, pos, !pos->shared));
    mmb_gp_ylabel(f, pos, lk->ylabel);
    mmb_gp_range_set(f, 'y', &ls->y);
    double ref = ref_value(lk, &d->gpus[g]);
    if (lk->ref == REF_PEAK_TFLOPS && isfinite(ref))
        fprintf(f, "    set label \"%.1f TFLOP/s\" at graph 0.02, first %.9g left offset 0,0.8 tc rgb \"#404040\"\n", ref,
                ref);
    if (!pos->shared)
        fputs("    set key outside below center horizontal maxrows 2 samplen 4 spacing 1.1 width 1 height 1\n", f);
    int n = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (p->square[k] >= 0) {
            mmb_gp_term(f, &n);
            fprintf(f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu title ", dat, p->square[k], k + 1);
            mmb_gp_string(f, d->kernels[k]);
        }
        if (p->rect[k] >= 0) {
            mmb_gp_term(f, &n);
            fprintf(f, "\"%s.dat\" index %d using 1:2 with points ls %zu pt %d lw 2.5 notitle", dat, p->rect[k], k + 1,
                    mmb_gp_open_point(rep, k));
        }
    }
    if (isfinite(ref)) {
        mmb_gp_term(f, &n);
        fprintf(f, "%.9g with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", ref);
        mmb_gp_string(f, ref_title(lk));
    }
    bool rect = false;
    for (size_t k = 0; k < d->nkernels; k++)
        rect = rect || p->rect[k] >= 0;
    if (rect && !pos->shared) {
        mmb_gp_term(f, &n);
        fputs("NaN with points pt 6 ps 2 * PS lw 2.5 lc rgb \"#404040\" title \"open: M×N×K (top axis)\"", f);
    }
    marks_terms(f, dat, p, &n);
    fputc('\n', f);
}

/* The shared legend: every kernel any panel draws, the reference line, the marks. */
static void line_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct lines *ls = ctx;
    const struct mmb_report_data *d = &rep->data;
    size_t entries = 1 + ls->any_rect + ls->any_spread + ls->any_small;
    for (size_t k = 0; k < d->nkernels; k++)
        entries += ls->seen[k];
    mmb_gp_legend_begin(f, pos, entries);
    int n = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (!ls->seen[k])
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "NaN with linespoints ls %zu title ", k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    mmb_gp_term(f, &n);
    fputs("NaN with lines lc rgb \"#404040\" dt 3 lw 2.5 title ", f);
    mmb_gp_string(f, ref_title(ls->lk));
    if (ls->any_rect) {
        mmb_gp_term(f, &n);
        fputs("NaN with points pt 6 ps 2 * PS lw 2.5 lc rgb \"#404040\" title \"open: M×N×K shapes\"", f);
    }
    if (ls->any_spread) {
        mmb_gp_term(f, &n);
        fputs("NaN with lines lw 2.5 lc rgb \"#606060\" title \"min-max\"", f);
    }
    if (ls->any_small) {
        mmb_gp_term(f, &n);
        fputs("NaN with points pt 4 ps 3.6 * PS lw 2 lc rgb \"#909090\" title \"under 30 µs\"", f);
    }
    fputc('\n', f);
}

/* GPU g's data file; a GPU with a line adds its reference to the range. */
static int line_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                     size_t errlen)
{
    struct lines *ls = ctx;
    struct line_panel *p = &ls->panels[g];
    int rc = line_data_write(rep, ls->lk, g, name, p, &ls->y, err, errlen);
    if (rc == 0 && p->squares == 0)
        mmb_report_state_omit_add(rep, (int)g, ls->lk->short_name, ls->lk->lacks);
    if (p->squares == 0)
        return rc;
    *has = true;
    for (size_t k = 0; k < rep->data.nkernels; k++) {
        ls->seen[k] = ls->seen[k] || p->square[k] >= 0;
        ls->any_rect = ls->any_rect || p->rect[k] >= 0;
    }
    ls->any_spread = ls->any_spread || p->spread >= 0;
    ls->any_small = ls->any_small || p->small >= 0;
    mmb_gp_range_add(&ls->y, ref_value(ls->lk, &rep->data.gpus[g]));
    return rc;
}

static int line_kind_write(struct mmb_report *rep, const struct line_kind *lk, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    struct line_panel *panels = calloc(d->ngpus ? d->ngpus : 1, sizeof *panels);
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!panels || !has) {
        free(panels);
        free(has);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    struct lines ls = {.lk = lk, .panels = panels, .y = mmb_gp_range_new(false)};
    const struct mmb_report_panels figs = {lk->name, has, line_data, line_panel_write, line_legend_write, &ls};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    mmb_gp_range_finish(&ls.y);
    if (rc == 0 && lk->each)
        rc = mmb_report_panels_each(rep, &figs, lk->title, lk->caption, (struct mmb_gp_canvas){1600, 1100}, err,
                                    errlen);
    if (rc == 0 && lk->gpus) {
        char name[160], sel[64], title[640], caption[640];
        snprintf(name, sizeof name, "gpus-%s", lk->name);
        mmb_report_state_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: %s (%s, shared axes)", lk->title, sel);
        snprintf(caption, sizeof caption,
                 "%s against N for every GPU with two or more sizes side by side, on a shared axis, oldest generation "
                 "first; markers as in each GPU's figure.",
                 lk->short_name);
        rc = mmb_report_panels_gpus(rep, &figs, name, title, caption, err, errlen);
    }
    free(panels);
    free(has);
    return rc;
}

int mmb_report_plot_lines(struct mmb_report *rep, char *err, size_t errlen)
{
    for (size_t i = 0; i < MMB_COUNT(line_kinds); i++)
        if (line_kind_write(rep, &line_kinds[i], err, errlen) != 0)
            return -1;
    return 0;
}
