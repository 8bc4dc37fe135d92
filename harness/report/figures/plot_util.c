/* plot_util.c - the Speed-of-Light (utilisation) bars: each kernel's use of the FP32 pipe, SM
 * throughput, the SM's issue rate, L1, L2 and DRAM, each a percentage of its own peak,
 * as Nsight Compute's summary shows them, with the 60% under which the limiter reads
 * latency. */
#include "report/figures/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/figures/gp.h"
#include "report/figures/panels.h"
#include "report/input/out.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "results/limiter.h"
#include "results/row.h"

/* ---- utilisation bars ------------------------------------------------------------ */

/* The bars of the Speed-of-Light view, each a percentage of its own peak: what the
 * FP32 pipe does, the busiest SM unit (which is not the same thing), L1, L2, DRAM. */
static const struct util_bar {
    const char *title;
    const char *color;
    const char *fill;
} util_bars[] = {
    {"FP32 pipe (% of FP32 peak)", "#0072B2", "solid 0.95"},
    {"SM throughput (busiest SM unit)", "#56B4E9", "pattern 5"},
    {"SM issue (instructions issued)", "#CC79A7", "pattern 2"},
    {"L1/TEX throughput", "#009E73", "solid 0.95"},
    {"L2 throughput", "#E69F00", "pattern 4"},
    {"DRAM throughput", "#D55E00", "solid 0.95"},
};
#define UTIL_BARS 6

static double util_value(const struct mmb_report_row *r, size_t bar)
{
    switch (bar) {
    case 0:
        return mmb_row_fp32_pct(&r->r);
    case 1:
        return r->r.sm_util_pct;
    case 2:
        return r->r.issue_pct;
    case 3:
        return r->r.l1_util_pct;
    case 4:
        return r->r.l2_util_pct;
    default:
        return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_row_dram_pct(r);
    }
}

/* Which bars some GPU has: L1 and L2 are left out, and said to be missing, in data
 * measured before they were counters. */
struct util {
    const char *ref;
    bool shown[UTIL_BARS];
};

static void util_panel_write(FILE *f, const struct mmb_report *rep, size_t g, const char *dat, const char *title,
                             const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct util *u = ctx;
    mmb_gp_panel_begin(f, rep);
    mmb_gp_panel_box(f, pos);
    fputs("    set title ", f);
    mmb_gp_string(f, title);
    fputc('\n', f);
    mmb_gp_ylabel(f, pos, "% of each unit's peak");
    mmb_gp_kernels_xtics(f, &rep->data, pos);
    fputs("    set yrange [0:112]\n    set ytics 0,20,100\n    set grid noxtics\n", f);
    if (!pos->shared)
        fputs("    set key outside below center horizontal maxrows 2 samplen 2 height 1\n", f);
    size_t nb = 0;
    for (size_t b = 0; b < UTIL_BARS; b++)
        nb += u->shown[b];
    double w = 0.84 / (double)(nb ? nb : 1);
    fprintf(f, "    set boxwidth %.4f\n", w * 0.92);
    /* the limiter's threshold: no unit at it, the kernel is latency-bound */
    fprintf(f, "    set arrow from graph 0, first %.0f to graph 1, first %.0f nohead dt 2 lw 2 lc rgb \"#606060\" back\n",
            MMB_LIMITER_NEAR_PEAK, MMB_LIMITER_NEAR_PEAK);
    if (!u->shown[3] && !u->shown[4])
        fprintf(f, "    set label \"L1 and L2 throughput: not in these CSVs (measure again with the default metrics)\" "
                   "at graph 0.5, graph 0.95 center font F%d tc rgb \"#505050\"\n",
                MMB_GP_FONT_PT - 6);
    /* labels of up to three digits over bars w kernel slots wide */
    size_t nk = rep->data.nstory ? rep->data.nstory : 1;
    double apart = (pos->shared ? 700.0 : 1350.0) / (double)nk * w;
    int pt = MMB_GP_FONT_PT - 4;
    /* a digit of the Sans face is about 0.8 pt wide in pixels: two must fit between bars */
    while (pt > MMB_GP_FONT_PT - 10 && 2 * 0.8 * pt > 0.95 * apart)
        pt -= 2;
    int n = 0;
    for (size_t b = 0, i = 0; b < UTIL_BARS; b++) {
        if (!u->shown[b])
            continue;
        double off = ((double)i++ - (double)(nb - 1) / 2.0) * w;
        mmb_gp_term(f, &n);
        fprintf(f, "\"%s.dat\" using ($1%+.4f):%zu with boxes fs %s border lc rgb \"#202020\" lc rgb \"%s\" ", dat, off,
                b + 2, util_bars[b].fill, util_bars[b].color);
        if (pos->shared)
            fputs("notitle", f);
        else {
            fputs("title ", f);
            mmb_gp_string(f, util_bars[b].title);
        }
        mmb_gp_term(f, &n);
        fprintf(f, "\"\" using ($1%+.4f):($%zu == $%zu ? $%zu : 2):($%zu == $%zu ? sprintf(\"%%.0f\", $%zu) : \"n/m\") "
                   "with labels offset 0,0.6 font F%d notitle",
                off, b + 2, b + 2, b + 2, b + 2, b + 2, b + 2, pt);
    }
    fputc('\n', f);
}

static void util_legend_write(FILE *f, const struct mmb_report *rep, const struct mmb_gp_pos *pos, const void *ctx)
{
    const struct util *u = ctx;
    size_t nb = 0;
    for (size_t b = 0; b < UTIL_BARS; b++)
        nb += u->shown[b];
    mmb_gp_legend_begin(f, pos, nb);
    int n = 0;
    for (size_t b = 0; b < UTIL_BARS; b++) {
        if (!u->shown[b])
            continue;
        mmb_gp_term(f, &n);
        fprintf(f, "NaN with boxes fs %s border lc rgb \"#202020\" lc rgb \"%s\" title ", util_bars[b].fill,
                util_bars[b].color);
        mmb_gp_string(f, util_bars[b].title);
    }
    fputc('\n', f);
}

/* gnuplot/util-<GPU>.dat: a kernel a line, a column per bar (NaN: not measured).
 * Sets has when some kernel has SM and DRAM counters, else notes that the GPU has
 * no utilisation bars. */
static int util_data(struct mmb_report *rep, size_t g, const char *name, bool *has, void *ctx, char *err,
                     size_t errlen)
{
    struct util *u = ctx;
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_out o;
    if (mmb_report_out_open(&o, err, errlen) != 0)
        return -1;
    fprintf(o.f, "# %s: %% of each unit's peak at %s on %s\n# kernel-index fp32 sm l1 l2 dram  # kernel, params\n",
            name, u->ref, d->gpus[g].name);
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_select_best(d, g, k, (size_t)d->ref);
        if (!r || !mmb_report_row_has_util(r))
            continue;
        fprintf(o.f, "%zu", k);
        for (size_t b = 0; b < UTIL_BARS; b++) {
            double v = util_value(r, b);
            fprintf(o.f, isfinite(v) ? " %.6g" : " NaN", v);
            u->shown[b] = u->shown[b] || isfinite(v);
        }
        fprintf(o.f, "  # %s, %s\n", d->kernels[k], r->r.params[0] ? r->r.params : "-");
        *has = true;
    }
    if (!*has) {
        mmb_report_out_discard(&o);
        char why[160];
        snprintf(why, sizeof why, "no SM and DRAM throughput counters at %s", u->ref);
        mmb_report_state_omit_add(rep, (int)g, "utilisation bars", why);
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
    struct util u = {ref, {false}};
    const struct mmb_report_panels figs = {"util", has, util_data, util_panel_write, util_legend_write, &u};
    int rc = mmb_report_panels_data(rep, &figs, err, errlen);
    /* FP32, SM and DRAM always: a missing one says "n/m" */
    u.shown[0] = u.shown[1] = u.shown[5] = true;
    if (rc == 0) {
        char what[160], caption[1024];
        snprintf(what, sizeof what, "Speed of Light at %s (%% of each unit's peak)", ref);
        snprintf(caption, sizeof caption,
                 "Each kernel's best configuration at %s, as Nsight Compute's Speed of Light reads it: the FP32 pipe's "
                 "use (achieved FLOP/s over the FP32 peak), SM throughput (sm__throughput, the busiest SM unit, "
                 "load/store and issue included: high SM with low FP32 means the SM is busy feeding the pipe), and "
                 "the SM's issue rate (sm__inst_issued, ncu's Issue Slots Busy), L1, L2 and DRAM throughput. The "
                 "limiter is the highest bar (SM throughput only when 2 points above FP32 and issue) if it reaches the "
                 "dashed line at 60%%, else latency: no unit is near its peak; n/m: not measured.%s",
                 ref, u.shown[3] || u.shown[4] ? "" : " L1 and L2 throughput are not in these CSVs (measured before "
                                                     "mmbench read them): measure again to see them.");
        rc = mmb_report_panels_each(rep, &figs, what, caption, (struct mmb_gp_canvas){1600, 950}, err, errlen);
    }
    if (rc == 0) {
        char sel[64], title[640];
        mmb_report_state_selection(rep, -1, sel, sizeof sel);
        snprintf(title, sizeof title, "Every GPU: Speed of Light at %s (%s)", ref, sel);
        rc = mmb_report_panels_gpus(rep, &figs, "gpus-util", title,
                                    "The Speed-of-Light bars of every GPU side by side, oldest generation first.", err,
                                    errlen);
    }
    free(has);
    return rc;
}
