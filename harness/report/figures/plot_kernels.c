/* plot_kernels.c - the story's kernels, the lecture's figure: each GPU's kernels in the
 * main profile's order at the reference size as bars of TFLOP/s on a linear axis, each
 * labelled with its speed-up over the step before it, its share of the FP32 peak and
 * of cuBLAS; and every GPU's speed-up over the first kernel side by side, which
 * compares the steps across generations (the GTX TITAN X's tiles gave 2.7x, Hopper's
 * 1.4x) whatever their absolute speed. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/error.h"
#include "report/figures/gp.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "results/row.h"

/* GPUs told apart by lightness and hatch, not by the colours the kernels have. */
static const char *const gpu_greys[] = {"#c8c8c8", "#505050", "#8c8c8c", "#252525", "#e0e0e0", "#6e6e6e"};
static const char *const gpu_fills[] = {"solid 1.0", "solid 1.0", "pattern 2", "solid 1.0", "pattern 5", "pattern 1"};

/* ---- each GPU's kernels ------------------------------------------------------------------------- */

static int ladder_write(struct mmb_report *rep, size_t g, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    char name[160], ref[96], gpu[128], sel[64];
    snprintf(name, sizeof name, "kernels-%s", d->gpus[g].slug);
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    const struct mmb_report_row *cub =
            d->cublas >= 0 ? mmb_report_select_best(d, g, (size_t)d->cublas, (size_t)d->ref) : NULL;
    size_t bars = 0;
    double top = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_select_best(d, g, k, (size_t)d->ref);
        if (r) {
            top = fmax(top, mmb_report_row_gflops(r) / 1000);
            bars++;
        }
    }
    if (bars < 2)
        return 0;

    /* the labels as text, so that the script needs no conditionals */
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: TFLOP/s of each kernel's best configuration at %s on %s\n"
                 "# kernel-index TFLOP/s label colour short-label  # kernel, params\n",
            name, ref, d->gpus[g].name);
    const struct mmb_report_row *prev = NULL;
    size_t shown[MMB_REPORT_KERNELS_MAX], nshown = 0; /* a bar for each kernel this GPU has: no empty slots */
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_select_best(d, g, k, (size_t)d->ref);
        if (!r)
            continue;
        shown[nshown] = k;
        double tf = mmb_report_row_gflops(r) / 1000, fp = mmb_row_fp32_pct(&r->r);
        char label[160] = "", part[64];
        snprintf(label, sizeof label, tf < 1 ? "%.2f" : "%.1f", tf);
        if (prev) {
            snprintf(part, sizeof part, "\\n×%.2f", prev->r.time_ms_median / r->r.time_ms_median);
            strncat(label, part, sizeof label - strlen(label) - 1);
        }
        if (isfinite(fp)) {
            snprintf(part, sizeof part, "\\n%.0f%% FP32", fp);
            strncat(label, part, sizeof label - strlen(label) - 1);
        }
        if (cub && (int)k != d->cublas) {
            snprintf(part, sizeof part, ", %.0f%% cuBLAS", 100 * cub->r.time_ms_median / r->r.time_ms_median);
            strncat(label, part, sizeof label - strlen(label) - 1);
        }
        /* large type (LARGE): TFLOP/s and % cuBLAS only */
        char brief[64];
        snprintf(brief, sizeof brief, tf < 1 ? "%.2f" : "%.1f", tf);
        if (cub && (int)k != d->cublas)
            snprintf(brief + strlen(brief), sizeof brief - strlen(brief), "\\n(%.0f%%)",
                     100 * cub->r.time_ms_median / r->r.time_ms_median);
        fprintf(o.f, "%zu %.6g \"%s\" 0x%s \"%s\"  # %s, %s\n", nshown++, tf, label, mmb_gp_kernel_color(rep, k) + 1,
                brief, d->kernels[k], r->r.params[0] ? r->r.params : "-");
        prev = r;
    }
    if (mmb_gp_commit(rep, &o, name, "dat", err, errlen) != 0)
        return -1;

    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, name, MMB_REPORT_GROUP_GPU, (int)g);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    fig->deck = true; /* a slide of slides.tex */
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    mmb_report_state_selection(rep, (int)g, sel, sizeof sel);
    snprintf(fig->title, sizeof fig->title, "%s: the %s kernels at %s (%s)", gpu, d->profiles[d->main].name, ref, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each kernel of profile %s at its best configuration at %s, in the profile's order, TFLOP/s on a linear "
             "axis; over each bar its TFLOP/s, its speed-up over the bar before (×), and its share of the FP32 peak "
             "(dotted) and of cuBLAS. The configurations are in the speed table.",
             d->profiles[d->main].name, ref);
    double peak = d->gpus[g].peak_gflops / 1000;
    mmb_gp_script_begin(o.f, rep, name, fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    char brief[700];
    snprintf(brief, sizeof brief, "%s: the %s kernels at %s, TFLOP/s (%% of cuBLAS)", gpu,
             d->main >= 0 ? d->profiles[d->main].name : "story's", ref);
    fputs("    set title (LARGE ? ", o.f);
    mmb_gp_string(o.f, brief);
    fputs(" : ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs(")\n    set ylabel \"TFLOP/s (2MNK / median time)\"\n", o.f);
    mmb_gp_kernels_xtics(o.f, d, &mmb_gp_alone);
    fputs("    set xtics (", o.f); /* only the kernels this GPU has */
    for (size_t j = 0; j < nshown; j++) {
        fputs(j ? ", " : "", o.f);
        mmb_gp_string(o.f, d->kernels[shown[j]]);
        fprintf(o.f, " %zu", j);
    }
    fprintf(o.f, ")\n    set xrange [-0.6:%zu.6]\n", nshown - 1);
    fputs("    set grid noxtics\n    unset key\n    set boxwidth 0.6\n", o.f);
    /* room above the tallest bar for its three lines of label, and for the peak */
    double hi = fmax(top * 1.45, isfinite(peak) ? peak * 1.08 : 0);
    fprintf(o.f, "    set yrange [0:%.6g]\n", hi);
    if (isfinite(peak) && peak < hi)
        fprintf(o.f, "    set arrow from graph 0, first %.6g to graph 1, first %.6g nohead dt 3 lw 2.5 lc rgb \"#404040\"\n"
                     "    set label \"FP32 peak %.1f TFLOP/s\" at graph 0.01, first %.6g left offset 0,0.7 tc rgb \"#404040\"\n",
                peak, peak, peak, peak);
    /* published figures hatched, as in every figure */
    fprintf(o.f, "    plot \"%s.dat\" using 1:2:4 with boxes fs %s border lc rgb \"#202020\" lc rgb variable, \\\n",
            name, d->gpus[g].all_published ? "pattern 4" : "solid 0.9");
    fprintf(o.f, "         \"\" using 1:2:(LARGE ? strcol(5) : strcol(3)) with labels offset 0,%s font F%d notitle\n",
            "2.2", MMB_GP_FONT_PT - 4);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, name, "gp", err, errlen);
}

/* ---- every GPU's speed-up over the first kernel ---------------------------------------------------- */

static int speedup_write(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    size_t cols[MMB_REPORT_GPUS_MAX], ng = 0;
    size_t first = 0; /* the first kernel: every step is measured from it */
    for (size_t g = 0; g < d->ngpus; g++)
        if (mmb_report_select_best(d, g, first, (size_t)d->ref)) {
            size_t n = 0;
            for (size_t k = 0; k < d->nkernels; k++)
                n += mmb_report_select_best(d, g, k, (size_t)d->ref) != NULL;
            if (n >= 2)
                cols[ng++] = g;
        }
    if (ng < 2)
        return 0;
    char ref[96], sel[64];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    mmb_report_state_selection(rep, -1, sel, sizeof sel);
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# gpus-speedup: each kernel's speed over %s's on the same GPU at %s (%s)\n# kernel-index", d->kernels[first],
            ref, sel);
    for (size_t j = 0; j < ng; j++)
        fprintf(o.f, " \"%s\"", d->gpus[cols[j]].name);
    fputc('\n', o.f);
    double top = 1;
    for (size_t k = 0; k < d->nkernels; k++) {
        fprintf(o.f, "%zu", k);
        for (size_t j = 0; j < ng; j++) {
            const struct mmb_report_row *base = mmb_report_select_best(d, cols[j], first, (size_t)d->ref);
            const struct mmb_report_row *r = mmb_report_select_best(d, cols[j], k, (size_t)d->ref);
            double v = r ? base->r.time_ms_median / r->r.time_ms_median : NAN;
            fprintf(o.f, isfinite(v) ? " %.6g" : " NaN", v);
            top = isfinite(v) ? fmax(top, v) : top;
        }
        fprintf(o.f, "  # %s\n", d->kernels[k]);
    }
    if (mmb_gp_commit(rep, &o, "gpus-speedup", "dat", err, errlen) != 0)
        return -1;
    struct mmb_report_figure *fig = mmb_report_state_figure_add(rep, "gpus-speedup", MMB_REPORT_GROUP_GPUS, -1);
    if (!fig || mmb_report_out_open(&o, err, errlen) != 0)
        return mmb_failf(err, errlen, "out of memory");
    fig->deck = true; /* a slide of slides.tex */
    snprintf(fig->title, sizeof fig->title, "Every GPU: each kernel's speed-up over %s at %s (%s)", d->kernels[first], ref,
             sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each kernel's best configuration against the best %s on the same GPU at %s, a bar per GPU (oldest "
             "left; hatched: published figures), linear axis: how much each step gains on each generation, whatever "
             "the GPUs' absolute speeds (those are in each GPU's kernels figure and the tables).",
             d->kernels[first], ref);
    mmb_gp_script_begin(o.f, rep, "gpus-speedup", fig->title, (struct mmb_gp_canvas){1600, 1000});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fprintf(o.f, "\n    set ylabel \"speed over %s (×)\"\n", d->kernels[first]);
    mmb_gp_kernels_xtics(o.f, d, &mmb_gp_alone);
    fprintf(o.f, "    set grid noxtics\n    set yrange [0:%.6g * (LARGE ? 1.3 : 1)]\n", top * 1.15);
    fputs("    set key outside below center horizontal samplen 2 spacing 1.1\n", o.f);
    fputs("    set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb \"#404040\"\n", o.f);
    double w = 0.8 / (double)ng;
    fprintf(o.f, "    set boxwidth %.4f\n", w * 0.95);
    int n = 0;
    size_t measured = 0;
    for (size_t j = 0; j < ng; j++) {
        const struct mmb_report_gpu *gp = &d->gpus[cols[j]];
        size_t style = gp->all_published ? 0 : measured++;
        double off = ((double)j - (double)(ng - 1) / 2.0) * w;
        char gpu[128];
        mmb_report_state_gpu_label(rep, cols[j], gpu, sizeof gpu);
        mmb_gp_term(o.f, &n);
        fprintf(o.f, "\"gpus-speedup.dat\" using ($1%+.4f):%zu with boxes fs %s border lc rgb \"#202020\" lc rgb \"%s\" title ",
                off, j + 2, gp->all_published ? "pattern 4" : gpu_fills[style % MMB_COUNT(gpu_fills)],
                gp->all_published ? "#404040" : gpu_greys[style % MMB_COUNT(gpu_greys)]);
        mmb_gp_string(o.f, gpu);
        mmb_gp_term(o.f, &n);
        /* large type: one decimal, standing up, so that neighbouring bars' values stay apart */
        fprintf(o.f, "\"\" using ($1%+.4f):%zu:($1 > 0 ? sprintf(LARGE ? \"%%.1f\" : \"×%%.2f\", column(%zu)) : \"\") "
                     "with labels center rotate by (LARGE ? 90 : 0) offset 0,(LARGE ? 1.6 : 0.7) font F%d notitle",
                off, j + 2, j + 2, MMB_GP_FONT_PT - (ng > 2 ? 8 : 4));
    }
    fputc('\n', o.f);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, "gpus-speedup", "gp", err, errlen);
}

int mmb_report_plot_kernels(struct mmb_report *rep, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    for (size_t g = 0; g < d->ngpus; g++)
        if (ladder_write(rep, g, err, errlen) != 0)
            return -1;
    return speedup_write(rep, err, errlen);
}
