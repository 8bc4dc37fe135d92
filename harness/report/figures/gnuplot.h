/* gnuplot.h - gnuplot itself: found on PATH (or named), checked for the
 * terminals of the report's formats, and run on every script. */
#ifndef MMB_REPORT_GNUPLOT_H
#define MMB_REPORT_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/state.h"

/* Finds gnuplot (rep->gnuplot, else on PATH) and keeps the formats its terminals
 * support. Returns false, with rep->plot_state saying why, when there is none. */
bool mmb_report_gnuplot_find(struct mmb_report *rep);

/* Runs every script (several at once, one process each, in out/gnuplot). A script
 * that fails keeps its log, out/gnuplot/<figure>.log; returns -1 naming it. */
int mmb_report_gnuplot_run(struct mmb_report *rep, char *err, size_t errlen);

#endif
