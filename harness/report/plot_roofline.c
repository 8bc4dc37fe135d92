/* plot_roofline.c - the roofline of each GPU: every kernel at every size
 * placed by measured intensity and GFLOP/s under the DRAM and FP32 ceilings. */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/gp.h"
#include "report/out.h"
#include "report/panels.h"

/* What the panels share. */
struct roofline {
    int (*blocks)[64];        /* [GPU][kernel]: block of the .dat, -1 without points */
    struct mmb_gp_range x, y; /* shared by every GPU */
    bool seen[64];            /* [kernel]: drawn in some panel */
};

/* gnuplot/roofline-<GPU>.dat: one block per kernel, a point per size. Sets has
 * when the GPU has points, else notes why it has no roofline. */
static int roofline_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                         size_t errlen)
{
    struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: measured intensity (FLOP/DRAM byte) and GFLOP/s on %s\n", name, d->gpus[g].name);
    int nb = 0;
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        rl->blocks[g][k] = -1;
        for (size_t s = 0; s < d->nshapes; s++) {
            const struct mmb_report_row *r = mmb_report_best(d, g, k, s);
            if (!r || !mmb_report_has_roofline(r))
                continue;
            if (rl->blocks[g][k] < 0) {
                fprintf(o.f, "%s# %s\n", nb ? "\n\n" : "", d->kernels[k]);
                rl->blocks[g][k] = nb++;
            }
            char label[96];
            mmb_report_shape_label(&d->shapes[s], label, sizeof label);
            double in = mmb_report_intensity(r), gf = mmb_report_gflops(r);
            fprintf(o.f, "%.9g %.9g  # %s, %s\n", in, gf, label, r->r.params[0] ? r->r.params : "-");
            mmb_gp_range_add(&rl->x, in);
            mmb_gp_range_add(&rl->y, gf);
            rl->seen[k] = true;
        }
    }
    if (nb == 0) {
        mmb_report_out_discard(&o);
        mmb_report_omit_add(rep, (int)g, "roofline",
                            isfinite(d->gpus[g].peak_gbps) && isfinite(d->gpus[g].peak_gflops)
                                ? "no DRAM counters (counter columns empty)"
                                : "no peak_gbps or peak_gflops for this GPU");
        return 0;
    }
    *has = true;
    /* the whole roof, its slope included, even when every kernel sits right
     * of the ridge: the memory-bound side is what the figure teaches */
    double ridge = d->gpus[g].peak_gflops / d->gpus[g].peak_gbps;
    mmb_gp_range_add(&rl->x, ridge / 20);
    mmb_gp_range_add(&rl->y, d->gpus[g].peak_gflops / 20);
    mmb_gp_range_add(&rl->y, d->gpus[g].peak_gflops);
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

static void roofline_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                                 const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct roofline *rl = ctx;
    const int *block = rl->blocks[g];
    const struct mmb_gp_range *x = &rl->x, *y = &rl->y;
    bool shared = pos->shared;
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_gpu *gp = &d->gpus[g];
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    if (mmb_gp_xlabel_here(pos))
        fputs("    set xlabel \"Arithmetic intensity (FLOP per DRAM byte)\"\n", f);
    else
        fputs("    unset xlabel\n", f);
    mmb_gp_ylabel(f, pos, "GFLOP/s");
    mmb_gp_range_set(f, 'x', x);
    mmb_gp_range_set(f, 'y', y);
    fputs("    set samples 800\n", f);
    /* %.1f: gnuplot divides integers as integers */
    fprintf(f, "    B = %.1f\n    P = %.1f\n    roof(x) = x * B < P ? x * B : P\n", gp->peak_gbps, gp->peak_gflops);
    fputs("    set arrow from P / B, graph 0 to P / B, P nohead dt 3 lw 1.5 lc rgb \"#707070\"\n", f);
    /* The ceilings are named on the roof itself, so that the legend stays short.
     * The peak label ends at the right edge, the ridge label at the ridge, both
     * above the roof: the ridge label goes only where the two cannot meet,
     * judged from the label widths (about 0.55 em a character). */
    double box_px = shared ? 700 : 1350, em = MMB_GP_FONT_PT * 0.55;
    char peak[64], ridge[64];
    snprintf(peak, sizeof peak, shared ? "%.1f TFLOP/s" : "FP32 peak %.1f TFLOP/s", gp->peak_gflops / 1000);
    snprintf(ridge, sizeof ridge, "ridge %.3g FLOP/B ", gp->peak_gflops / gp->peak_gbps);
    double at = log(gp->peak_gflops / gp->peak_gbps / x->lo) / log(x->hi / x->lo);
    bool ridge_fits = at - strlen(ridge) * em / box_px > 0.02 && at < 0.96 - strlen(peak) * em / box_px;
    char full[768];
    snprintf(full, sizeof full, "%s%s%s", title, ridge_fits ? "" : ", ", ridge_fits ? "" : ridge);
    fputs("    set title ", f);
    mmb_gp_string(f, full);
    fputs("\n    set label ", f);
    mmb_gp_string(f, peak);
    fputs(" at graph 0.98, first P * 1.25 right tc rgb \"#303030\"\n", f);
    if (ridge_fits) {
        fputs("    set label ", f);
        mmb_gp_string(f, ridge);
        fputs(" at P / B, P * 1.25 right tc rgb \"#404040\"\n", f);
    }
    /* right-aligned above the slope: the text runs left, where the roof is lower */
    fputs("    xr = P / B / 2.5\n", f);
    fprintf(f, "    if (xr > %.6g && xr * B * 1.9 < %.6g) { set label sprintf(\"%s%%.0f GB/s \", B) at xr, xr * B * 1.9 right tc rgb \"#303030\" }\n",
            x->lo * 6, y->hi, shared ? "" : "DRAM ");
    if (!shared)
        fputs("    set key outside below center horizontal samplen 2 spacing 1.1 height 1\n", f);
    int n = 0;
    mmb_gp_term(f, &n);
    fputs("roof(x) with lines lw 3.5 lc rgb \"#303030\" title \"roof\"", f);
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        if (block[k] < 0)
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "\"%s.dat\" index %d using 1:2 with points ls %zu lw 2 title ", dat, block[k], k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    fputc('\n', f);
}

static void roofline_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct roofline *rl = ctx;
    const struct mmb_report_data *d = &rep->data;
    size_t entries = 1;
    for (size_t k = 0; k < d->nkernels && k < 64; k++)
        entries += rl->seen[k];
    mmb_gp_legend_begin(f, pos, entries);
    int n = 0;
    mmb_gp_term(f, &n);
    fputs("NaN with lines lw 3.5 lc rgb \"#303030\" title \"roof\"", f);
    for (size_t k = 0; k < d->nkernels && k < 64; k++) {
        if (!rl->seen[k])
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "NaN with points ls %zu lw 2 title ", k + 1);
        mmb_gp_string(f, d->kernels[k]);
    }
    fputc('\n', f);
}

int mmb_report_plot_roofline(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    struct roofline rl = {calloc(d->ngpus ? d->ngpus : 1, sizeof *rl.blocks), mmb_gp_range_new(true),
                          mmb_gp_range_new(true), {false}};
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!rl.blocks || !has) {
        free(rl.blocks);
        free(has);
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    const struct mmb_report_panels figs = {"roofline", has, roofline_data, roofline_panel_write, roofline_legend_write,
                                           &rl};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    mmb_gp_range_finish(&rl.x);
    mmb_gp_range_finish(&rl.y);
    if (rc == 0)
        rc = mmb_report_panels_each(rep, &figs, "roofline",
                                    "Each kernel's best configuration at every size, placed by measured arithmetic intensity (FLOP per DRAM byte) and GFLOP/s under the GPU's DRAM-bandwidth and FP32 ceilings; points further right reuse more data from caches.",
                                    (struct mmb_gp_canvas){1600, 1000}, err, errlen);
    if (rc == 0) {
        char sel[64], title[640];
        mmb_report_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: roofline (%s, shared axes)", sel);
        rc = mmb_report_panels_gpus(rep, &figs, "gpus-roofline", title,
                                    "The rooflines of every GPU side by side on shared axes: the roof rises and its ridge moves right from one generation to the next.",
                                    err, errlen);
    }
    free(rl.blocks);
    free(has);
    return rc;
}
