/* plot.h - the report's figures: gnuplot data files and scripts, written by the
 * figure writers (figures.h) in a fixed order. */
#ifndef MMB_REPORT_PLOT_H
#define MMB_REPORT_PLOT_H

#include <stddef.h>

#include "report/input/state.h"

/* Writes out/gnuplot/<figure>.dat and .gp for every figure the data allows,
 * registers them in rep->figs, and notes each figure it had to leave out. */
int mmb_report_plot_write(struct mmb_report *rep, char *err, size_t errlen);

#endif
