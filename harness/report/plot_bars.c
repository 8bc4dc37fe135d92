/* plot_bars.c - bar figures: compute and memory utilisation per kernel, as
 * Nsight Compute's summary shows them, and every GPU's GFLOP/s next to each other
 * per kernel. */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/gp.h"
#include "report/out.h"
#include "report/panels.h"

/* ---- utilisation bars ------------------------------------------------------------ */

static void util_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                             const struct mmb_gp_pos *pos, const void *ctx)
{
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    fputs("    set title ", f);
    mmb_gp_string(f, title);
    fputc('\n', f);
    mmb_gp_ylabel(f, pos, "Utilisation (% of peak sustained)");
    mmb_gp_kernels_xtics(f, &rep->data, pos);
    fputs("    set yrange [0:112]\n    set ytics 0,20,100\n    set grid noxtics\n", f);
    if (!pos->shared)
        fputs("    set key outside below center horizontal samplen 2 height 1\n", f);
    fputs("    set boxwidth 0.36\n", f);
    fprintf(f, "    plot \"%s.dat\" using ($1-0.19):2 with boxes fs solid 0.9 border lc rgb \"#202020\" lc rgb \"#0072B2\" title \"Compute (SM %%)\", \\\n", dat);
    fputs("         \"\" using ($1+0.19):3 with boxes fs pattern 4 border lc rgb \"#202020\" lc rgb \"#D55E00\" title \"Memory (DRAM %)\", \\\n", f);
    /* labels of up to three digits over bars 0.38 kernel slots apart: smaller type
     * when many kernels share a panel, so that "100" and "98" never touch */
    size_t nk = rep->data.nkernels ? rep->data.nkernels : 1;
    double apart = (pos->shared ? 700.0 : 1350.0) / (double)nk * 0.38;
    int pt = MMB_GP_FONT_PT;
    while (pt > MMB_GP_FONT_PT - 8 && 3 * 0.6 * pt > 0.9 * apart)
        pt -= 2;
    fprintf(f, "         \"\" using ($1-0.19):2:(sprintf(\"%%.0f\", $2)) with labels offset 0,0.7 font F%d notitle, \\\n", pt);
    fprintf(f, "         \"\" using ($1+0.19):3:(sprintf(\"%%.0f\", $3)) with labels offset 0,0.7 font F%d notitle\n", pt);
}

static void util_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    mmb_gp_legend_begin(f, pos, 2);
    fputs("    plot NaN with boxes fs solid 0.9 border lc rgb \"#202020\" lc rgb \"#0072B2\" title \"Compute (SM %)\", \\\n", f);
    fputs("         NaN with boxes fs pattern 4 border lc rgb \"#202020\" lc rgb \"#D55E00\" title \"Memory (DRAM %)\"\n", f);
}

/* gnuplot/util-<GPU>.dat: a kernel a line. Sets has when some kernel has the
 * counters, else notes that the GPU has no utilisation bars. */
static int util_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                     size_t errlen)
{
    const char *ref = ctx; /* the reference size's label */
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: SM and DRAM throughput (%% of peak) at %s on %s\n# kernel-index sm-pct dram-pct  # kernel, params\n",
            name, ref, d->gpus[g].name);
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_best(d, g, k, (size_t)d->ref);
        if (r && mmb_report_has_util(r)) {
            fprintf(o.f, "%zu %.6g %.6g  # %s, %s\n", k, r->r.sm_util_pct, r->r.dram_util_pct, d->kernels[k],
                    r->r.params[0] ? r->r.params : "-");
            *has = true;
        }
    }
    if (!*has) {
        mmb_report_out_discard(&o);
        char why[160];
        snprintf(why, sizeof why, "no SM and DRAM throughput counters at %s", ref);
        mmb_report_omit_add(rep, (int)g, "utilisation bars", why);
        return 0;
    }
    return mmb_gp_commit(rep, &o, name, "dat", err, errlen);
}

int mmb_report_plot_util(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    char ref[96];
    mmb_report_shape_label(&d->shapes[d->ref], ref, sizeof ref);
    bool *has = calloc(d->ngpus ? d->ngpus : 1, sizeof *has);
    if (!has) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    const struct mmb_report_panels figs = {"util", has, util_data, util_panel_write, util_legend_write, ref};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    if (rc == 0) {
        char what[160], caption[640];
        snprintf(what, sizeof what, "compute and memory utilisation at %s", ref);
        snprintf(caption, sizeof caption,
                 "Compute (SM throughput) and memory (DRAM throughput) utilisation of each kernel's best configuration at %s, as the Nsight Compute screenshots of seed 000 show them.",
                 ref);
        rc = mmb_report_panels_each(rep, &figs, what, caption, (struct mmb_gp_canvas){1600, 900}, err, errlen);
    }
    if (rc == 0) {
        char sel[64], title[640];
        mmb_report_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: compute and memory utilisation at %s (%s)", ref, sel);
        rc = mmb_report_panels_gpus(rep, &figs, "gpus-util", title,
                                    "The utilisation bars of every GPU side by side, oldest generation first.", err,
                                    errlen);
    }
    free(has);
    return rc;
}


/* ---- GPUs next to each other, per kernel ------------------------------------------------ */

/* gnuplot/gpus-per-kernel.dat: a kernel a line, the GFLOP/s of each GPU of cols
 * in its own column. */
static int per_kernel_data_write(struct mmb_report *rep, const size_t *cols, size_t ng, const char *ref,
                                 const char *sel, struct mmb_gp_range *y, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
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
            mmb_gp_range_add(y, v);
        }
        fprintf(o.f, "  # %s\n", d->kernels[k]);
    }
    mmb_gp_range_finish(y);
    return mmb_gp_commit(rep, &o, "gpus-per-kernel", "dat", err, errlen);
}

/* One bar per GPU in each kernel's slot, labelled with its value. */
static void per_kernel_bars(FILE *f, const struct mmb_report *rep, const size_t *cols, size_t ng, bool upright,
                            int label_pt)
{
    const struct mmb_report_data *d = &rep->data;
    double w = 0.8 / (double)ng;
    fprintf(f, "    set boxwidth %.4f\n", w * 0.95);
    int n = 0;
    for (size_t j = 0; j < ng; j++) {
        const struct mmb_report_gpu *gp = &d->gpus[cols[j]];
        double off = ((double)j - (double)(ng - 1) / 2.0) * w;
        char gpu[128];
        mmb_report_gpu_label(rep, cols[j], gpu, sizeof gpu);
        mmb_gp_term(f, &n);
        fprintf(f, "\"gpus-per-kernel.dat\" using ($1%+.4f):%zu with boxes fs %s border lc rgb \"#202020\" lc rgb \"%s\" title ",
                off, j + 2, gp->all_published ? "pattern 4" : "solid 0.9",
                gp->all_published ? "#404040" : mmb_gp_gpu_color(j));
        mmb_gp_string(f, gpu);
        mmb_gp_term(f, &n);
        /* 51.7k, not 51706: five digits over each of three adjacent bars run together. */
        fprintf(f, "\"\" using ($1%+.4f):%zu:(column(%zu) >= 10000 ? sprintf(\"%%.1fk\", column(%zu) / 1000) : "
                   "sprintf(\"%%.0f\", column(%zu))) with labels %s font F%d notitle",
                off, j + 2, j + 2, j + 2, j + 2, upright ? "rotate by 90 left offset 0,0.4" : "offset 0,0.6", label_pt);
    }
    fputc('\n', f);
}

static int per_kernel_script_write(struct mmb_report *rep, const size_t *cols, size_t ng, const char *ref,
                                   const char *sel, struct mmb_gp_range *y, char *err, size_t errlen)
{
    const struct mmb_report_data *d = &rep->data;
    /* bar labels ("51.7k", at most five characters) over bars 0.8 / ng kernel slots
     * apart: smaller type when bars are narrow, standing on end when even that
     * would touch (room above the tallest bar for them then) */
    double apart = 1350.0 / (double)(d->nkernels ? d->nkernels : 1) * 0.8 / (double)ng;
    int label_pt = MMB_GP_FONT_PT - 4;
    while (label_pt > MMB_GP_FONT_PT - 8 && 5 * 0.6 * label_pt > 0.9 * apart)
        label_pt -= 2;
    bool upright = 5 * 0.6 * label_pt > 0.9 * apart;
    if (upright)
        y->hi *= 3;
    struct mmb_report_figure *fig = mmb_report_figure_add(rep, "gpus-per-kernel", MMB_REPORT_GROUP_GPUS, -1);
    struct mmb_report_out o;
    if (!fig)
        return mmb_failf(err, errlen, "out of memory");
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    snprintf(fig->title, sizeof fig->title, "Every GPU per kernel: GFLOP/s at %s (%s, best configuration)", ref, sel);
    snprintf(fig->caption, sizeof fig->caption,
             "Each kernel's best GFLOP/s at %s on every GPU, next to each other (log scale, oldest generation left); hatched bars are published figures, not measured by mmbench.",
             ref);
    mmb_gp_script_begin(o.f, rep, "gpus-per-kernel", fig->title, (struct mmb_gp_canvas){1600, 900});
    mmb_gp_panel_begin(o.f, rep);
    fputs("    set title ", o.f);
    mmb_gp_string(o.f, fig->title);
    fputs("\n    set ylabel \"GFLOP/s (log scale)\"\n    set format y \"%g\"\n", o.f);
    mmb_gp_kernels_xtics(o.f, d, &mmb_gp_alone);
    fputs("    set grid noxtics\n", o.f);
    mmb_gp_range_set(o.f, 'y', y);
    fputs("    set key outside below center horizontal samplen 2 spacing 1.1 height 1\n", o.f);
    per_kernel_bars(o.f, rep, cols, ng, upright, label_pt);
    mmb_gp_script_end(o.f);
    return mmb_gp_commit(rep, &o, "gpus-per-kernel", "gp", err, errlen);
}

int mmb_report_plot_per_kernel(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_data *d = &rep->data;
    if (d->ref < 0)
        return 0;
    size_t *cols = calloc(d->ngpus ? d->ngpus : 1, sizeof *cols);
    if (!cols) {
        mmb_errorf(err, errlen, "out of memory");
        return -1;
    }
    /* the GPUs with a row at the reference size */
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
    int rc = 0;
    if (ng < 2) {
        if (d->ngpus >= 2) {
            char why[160];
            snprintf(why, sizeof why, "fewer than two GPUs have rows at %s", ref);
            mmb_report_omit_add(rep, -1, "GPUs per kernel", why);
        }
    } else {
        struct mmb_gp_range y = mmb_gp_range_new(true);
        rc = per_kernel_data_write(rep, cols, ng, ref, sel, &y, err, errlen);
        if (rc == 0)
            rc = per_kernel_script_write(rep, cols, ng, ref, sel, &y, err, errlen);
    }
    free(cols);
    return rc;
}
