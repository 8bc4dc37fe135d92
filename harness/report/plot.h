/* plot.h - the report's figures: gnuplot data files and scripts
 * (report_plot*.c, on report_gp.c), and gnuplot itself, found on PATH and run
 * (report_gnuplot.c). */
#ifndef MMB_REPORT_PLOT_H
#define MMB_REPORT_PLOT_H

#include <stddef.h>

#include "report/state.h"

/* Writes out/gnuplot/<figure>.dat and .gp for every figure the data allows,
 * registers them in rep->figs, and notes each figure it had to leave out. */
int mmb_report_plot_write(struct mmb_report *rep, char *err, size_t errlen);

/* Finds gnuplot (rep->gnuplot, else on PATH) and keeps the formats its terminals
 * support. Returns false, with rep->plot_state saying why, when there is none. */
bool mmb_report_gnuplot_find(struct mmb_report *rep);

/* Runs every script (several at once, one process each, in out/gnuplot). A script
 * that fails keeps its log, out/gnuplot/<figure>.log; returns -1 naming it. */
int mmb_report_gnuplot_run(struct mmb_report *rep, char *err, size_t errlen);

/* The figure writers mmb_report_plot_write calls, one file each. */
int mmb_report_plot_util(struct mmb_report *rep, char *err, size_t errlen);        /* report_plot_bars.c */
int mmb_report_plot_per_kernel(struct mmb_report *rep, char *err, size_t errlen);  /* report_plot_bars.c */
int mmb_report_plot_roofline(struct mmb_report *rep, char *err, size_t errlen);    /* report_plot_roofline.c */
int mmb_report_plot_heatmaps(struct mmb_report *rep, char *err, size_t errlen);    /* report_plot_heatmap.c */

#endif
