/* plot.c - the report's figures: every figure writer, in the order the
 * figures are written (and listed in the README within each group). */
#include "report/figures/plot.h"

#include "core/file.h"
#include "report/figures/figures.h"

static int (*const figure_writers[])(struct mmb_report *rep, char *err, size_t errlen) = {
    mmb_report_plot_kernels,      /* kernels, gpus-speedup */
    mmb_report_plot_util,        /* util, gpus-util */
    mmb_report_plot_lines,       /* gflops, gpus-gflops, pct-cublas */
    mmb_report_plot_generations, /* gpus-ratio */
    mmb_report_plot_bandwidth,   /* bandwidth, traffic, gpus-bandwidth-<kernel> */
    mmb_report_plot_roofline,    /* roofline, gpus-roofline */
    mmb_report_plot_heatmaps,    /* heatmap */
    mmb_report_plot_tune,        /* tune-spread, tune-pair, tune-occupancy */
    mmb_report_plot_ladder,      /* <ladder profile>-<gpu> */
    mmb_report_plot_precisions,  /* precisions-<gpu> */
    mmb_report_plot_energy,      /* pareto-<kernel>-<gpu> */
    NULL,
};

int mmb_report_plot_write(struct mmb_report *rep, char *err, size_t errlen)
{
    char dir[4400];
    if (mmb_report_state_path(rep, dir, sizeof dir, NULL, "gnuplot", err, errlen) != 0 ||
        mmb_mkdir_p(dir, err, errlen) != 0 ||
        mmb_report_state_path(rep, dir, sizeof dir, NULL, "figures", err, errlen) != 0 ||
        mmb_mkdir_p(dir, err, errlen) != 0)
        return -1;
    for (size_t i = 0; figure_writers[i]; i++)
        if (figure_writers[i](rep, err, errlen) != 0)
            return -1;
    return 0;
}
