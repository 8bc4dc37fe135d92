/* table.h - the report's tables (per GPU: every kernel at the reference
 * size, GFLOP/s by size, parameter grids), as Markdown and as LaTeX. */
#ifndef MMB_REPORT_TABLE_H
#define MMB_REPORT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* Writes every table of one GPU to both documents. Returns -1 when out of memory. */
int mmb_report_tables_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex);

#endif
