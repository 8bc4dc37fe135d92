/* plot_generations.c - one GPU generation against the next: for each pair of
 * measured GPUs in order, the newer one's speed over the older one's per kernel
 * against N (log2), each kernel at the older GPU's best configuration measured on
 * both, with `mmbench compare`'s 95% interval of the ratio where it is wider than the
 * spread shown (report/input/pairs.h), a line at 1, and where A, B and C outgrow each
 * GPU's L2 (where a larger L2 is the only difference that can show). */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "report/figures/gp.h"
#include "report/input/labels.h"
#include "report/input/out.h"
#include "report/input/pairs.h"
#include "report/input/select.h"
#include "report/input/story.h"

/* gnuplot/gpus-ratio-<a>-<b>.dat: per kernel a block of squares and one of the other
 * shapes (x ratio lo hi), then the points under 30 us. Returns the points drawn. */
static size_t ratio_data(struct mmb_report *rep, size_t a, size_t b, const char *name, int (*blocks)[2], int *small,
                         double *top, double *bottom, char *err, size_t errlen, int *rc)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    *rc = mmb_report_out_open(&o, err, errlen);
    if (*rc != 0)
        return 0;
    fprintf(o.f, "# %s: speed on %s over speed on %s (time there / time here)\n# x ratio lo hi  # shape\n", name,
            d->gpus[b].name, d->gpus[a].name);
    size_t points = 0, squares = 0;
    int nb = 0;
    for (size_t k = 0; k < d->nkernels; k++)
        for (int rect = 0; rect < 2; rect++) {
            blocks[k][rect] = -1;
            for (size_t s = 0; s < d->nshapes; s++) {
                const struct mmb_report_row *ra = mmb_report_select_best(d, a, k, s),
                                            *rb = ra ? mmb_report_pairs_match(d, ra, b) : NULL;
                if (!ra || !rb || mmb_gp_square(&d->shapes[s]) == (rect != 0))
                    continue;
                if (blocks[k][rect] < 0) {
                    fprintf(o.f, "%s# %s, %s\n", nb ? "\n\n" : "", d->kernels[k], rect ? "other shapes" : "squares");
                    blocks[k][rect] = nb++;
                }
                /* speed on b over speed on a: the inverse of compare's time ratio b / a */
                struct mmb_comparison cmp;
                mmb_report_pairs_compare(d, ra, rb, &cmp);
                double q = 1.0 / cmp.ratio.ratio, lo = 1.0 / cmp.ratio.hi, hi = 1.0 / cmp.ratio.lo;
                if (!isfinite(lo) || !isfinite(hi) || (hi - lo) / q < mmb_report_story.spread_shown)
                    lo = hi = q;
                char label[96];
                mmb_report_shape_label(&d->shapes[s], label, sizeof label);
                fprintf(o.f, "%.6g %.6g %.6g %.6g  # %s\n", mmb_gp_size_x(&d->shapes[s]), q, lo, hi, label);
                /* the axis spans every ratio, and the spread of the times past launch latency: a
                 * 30 µs kernel's spread would flatten the rest (its bar is clipped at the edge) */
                bool latency = fmin(ra->r.time_ms_median, rb->r.time_ms_median) < mmb_report_story.small_ms;
                *top = fmax(*top, latency ? q : hi);
                *bottom = fmin(*bottom, latency ? q : lo);
                points++;
                squares += !rect;
            }
        }
    *small = -1;
    for (size_t k = 0; k < d->nkernels; k++)
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *ra = mmb_report_select_best(d, a, k, s),
                                        *rb = ra ? mmb_report_pairs_match(d, ra, b) : NULL;
            if (!ra || !rb || fmin(ra->r.time_ms_median, rb->r.time_ms_median) >= mmb_report_story.small_ms)
                continue;
            if (*small < 0) {
                fputs("\n\n# under 30 us on either GPU: latency-bound\n", o.f);
                *small = nb++;
            }
            fprintf(o.f, "%.6g %.6g\n", mmb_gp_size_x(&d->shapes[s]), ra->r.time_ms_median / rb->r.time_ms_median);
        }
    if (squares < 2) {
        mmb_report_out_discard(&o);
        return 0;
    }
    *rc = mmb_gp_commit(rep, &o, name, "dat", err, errlen);
    return points;
}

static int pair_write(struct mmb_report *rep, size_t a, size_t b, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[200], na[96], nb[96], sel[64];
    snprintf(name, sizeof name, "gpus-ratio-%s-%s", d->gpus[b].slug, d->gpus[a].slug);
    int blocks[MMB_REPORT_KERNELS_MAX][2], small, rc = 0;
    double top = 1, bottom = 1;
    if (!ratio_data(rep, a, b, name, blocks, &small, &top, &bottom, err, errlen, &rc))
        return rc;
    mmb_report_label_gpu(d->gpus[a].name, na, sizeof na);
    mmb_report_label_gpu(d->gpus[b].name, nb, sizeof nb);
    mmb_report_state_selection(rep, -1, sel, sizeof sel);
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_GPUS, -1);
    struct mmb_report_out o;
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    snprintf(fig->title, sizeof fig->title, "%s against %s: speed ratio per kernel (%s)", nb, na, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each kernel's speed on the %s over its speed on the %s (the %s's time over the %s's) at the %s's best "
             "configuration, measured on both, against N; above 1 the %s is faster. Bars: the ratio's 95%% interval "
             "as mmbench compare gives it (from every launch's time where the rows have them, else from their min "
             "and max) where wider than 1%%; grey squares: under 30 µs on either GPU; dashed lines: where A, B and C "
             "outgrow each GPU's L2.",
             nb, na, na, nb, na, nb);
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 1050});
    mmb_gp_panel_begin(o.f, rep);
    mmb_gp_title(o.f, fig->title, mmb_gp_size_axis(o.f, d, &mmb_gp_alone, true));
    fprintf(o.f, "    set ylabel \"speed on the %s / speed on the %s\"\n", nb, na);
    double span = fmax(top - 1, 1 - bottom);
    span = span < 0.05 ? 0.05 : span * 1.25;
    fprintf(o.f, "    set yrange [%.6g:%.6g]\n", 1 - span, 1 + span);
    fputs("    set arrow 9 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb \"#404040\" back\n", o.f);
    enum mmb_dtype t;
    double size = mmb_dtype_parse(d->dtype, &t) ? (double)mmb_dtype_info(t)->size : 4;
    char l2[128];
    snprintf(l2, sizeof l2, "%s L2 %.0f MiB", na, rep->devices[a].l2_mib);
    mmb_gp_l2_mark(o.f, rep->devices[a].l2_mib, size, mmb_gp_gpu_color(a), l2, 1);
    snprintf(l2, sizeof l2, "%s L2 %.0f MiB", nb, rep->devices[b].l2_mib);
    mmb_gp_l2_mark(o.f, rep->devices[b].l2_mib, size, mmb_gp_gpu_color(b), l2, 2);
    fputs("    set key outside below center horizontal maxrows 3 samplen 4 spacing 1.1 width 1\n", o.f);
    int n = 0;
    bool rect = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (blocks[k][0] >= 0) {
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "\"%s.dat\" index %d using 1:2 with linespoints ls %zu title ", name, blocks[k][0], k + 1);
            mmb_gp_string(o.f, d->kernels[k]);
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "\"%s.dat\" index %d using 1:3:(0):($4-$3) with vectors nohead lw 2 lc rgb \"%s\" notitle", name,
                    blocks[k][0], mmb_gp_kernel_color(rep, k));
        }
        if (blocks[k][1] >= 0) {
            rect = true;
            mmb_gp_term(o.f, &n);
            fprintf(o.f, "\"%s.dat\" index %d using 1:2 with points ls %zu pt %d lw 2.5 notitle", name, blocks[k][1], k + 1,
                    mmb_gp_open_point(rep, k));
        }
    }
    if (rect) {
        mmb_gp_term(o.f, &n);
        fputs("NaN with points pt 6 ps 2 * PS lw 2.5 lc rgb \"#404040\" title \"open: M×N×K (top axis)\"", o.f);
    }
    if (small >= 0) {
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"%s.dat\" index %d using 1:2 with points pt 4 ps 3.6 * PS lw 2 lc rgb \"#909090\" title "
                     "\"under 30 µs\"",
                name, small);
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

int mmb_report_plot_generations(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t prev = d->ngpus;
    for (size_t g = 0; g < d->ngpus; g++) {
        if (d->gpus[g].all_published || !mmb_report_select_gpu_has(d, g, NULL))
            continue;
        if (prev < d->ngpus && pair_write(rep, prev, g, err, errlen) != 0)
            return -1;
        prev = g;
    }
    return 0;
}
