/* report.h - `mmbench report`: every CSV of data/ (or those named) turned into
 * gnuplot figures, reports/README.md and reports/tables.tex, with no GPU and no
 * CUDA. Options: `mmbench report --help`. */
#ifndef MMB_CMD_REPORT_H
#define MMB_CMD_REPORT_H

/* argv[0] is "report". Returns the exit status: 0, 1 when writing or drawing
 * failed, 2 for bad input (options, a malformed CSV: "file:line: what"). */
int mmb_cmd_report(int argc, char **argv);

#endif
