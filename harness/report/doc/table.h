/* table.h - the report's tables (per GPU: every kernel at the reference
 * size, GFLOP/s by size, parameter grids), as Markdown and as LaTeX. */
#ifndef MMB_REPORT_TABLE_H
#define MMB_REPORT_TABLE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/input/state.h"

/* Writes every table of one GPU to both documents. Returns -1 when out of memory. */
int mmb_report_tables_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex);
/* GPU g's tables of every configuration of the story's kernels over two parameters at
 * the reference size (the heatmaps' numbers), under a heading of the GPU's name, and
 * the section's heading before the first of all (*any false: none written yet; set
 * when one is); -1 without memory. */
int mmb_report_tables_grids_write(const struct mmb_report *rep, size_t g, FILE *md, FILE *tex, bool *any);

#endif
