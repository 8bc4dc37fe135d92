/* report_tune.h - the report's tuning section (report_tune.c): the spread figure of
 * each tuned kernel, and the README/LaTeX section with the best configurations. */
#ifndef MMB_REPORT_TUNE_H
#define MMB_REPORT_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include "report_out.h"

/* Writes gnuplot/tune-spread-<kernel>.{dat,gp} for every tuned kernel and size. */
int mmb_report_plot_tune(struct mmb_report *rep, char *err, size_t errlen);

/* Writes "## Tuning" to md and its tables to tex; nothing without tuned rows.
 * Returns -1 when out of memory. */
int mmb_report_tune_section(const struct mmb_report *rep, FILE *md, FILE *tex);

#endif
