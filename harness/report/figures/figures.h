/* figures.h - the figure writers, one family of figures each, in the plot_<family>.c
 * of this folder (below, in the order of plot.c's table, which calls them). Every
 * writer writes gnuplot/<figure>.dat and .gp for the figures the data allows,
 * registers them in rep->figs and notes the figures it had to leave out. */
#ifndef MMB_REPORT_FIGURES_H
#define MMB_REPORT_FIGURES_H

#include <stddef.h>

#include "report/input/state.h"

/* the story's kernels on each GPU and every GPU's speed-up over the first kernel, as bars */
int mmb_report_plot_kernels(struct mmb_report *rep, char *err, size_t errlen);
/* GFLOP/s, % of cuBLAS, DRAM bandwidth and its % of peak against matrix size */
int mmb_report_plot_lines(struct mmb_report *rep, char *err, size_t errlen);
/* each measured GPU's speed over the one before it, per kernel and size */
int mmb_report_plot_generations(struct mmb_report *rep, char *err, size_t errlen);
/* measured and declared bandwidth, seed 004's layout, traffic over compulsory bytes */
int mmb_report_plot_bandwidth(struct mmb_report *rep, char *err, size_t errlen);
/* Speed of Light per kernel at the reference size, as bars */
int mmb_report_plot_util(struct mmb_report *rep, char *err, size_t errlen);
/* each GPU's roofline */
int mmb_report_plot_roofline(struct mmb_report *rep, char *err, size_t errlen);
/* each ladder* profile's steps at two sizes, per GPU (the Kernel ladder section) */
int mmb_report_plot_ladder(struct mmb_report *rep, char *err, size_t errlen);
/* each GPU's precisions profile: TFLOP/s per element type against its pipe's peak */
int mmb_report_plot_precisions(struct mmb_report *rep, char *err, size_t errlen);
/* a kernel's time over two of its parameters */
int mmb_report_plot_heatmaps(struct mmb_report *rep, char *err, size_t errlen);
/* the spread of a tuned kernel's times */
int mmb_report_plot_tune(struct mmb_report *rep, char *err, size_t errlen);
/* time against energy over a tuned kernel's configurations, the Pareto front marked */
int mmb_report_plot_energy(struct mmb_report *rep, char *err, size_t errlen);

#endif
