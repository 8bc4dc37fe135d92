/* tune_top.h - the fastest configurations of a tuned space, as a table. */
#ifndef MMB_REPORT_TUNE_TOP_H
#define MMB_REPORT_TUNE_TOP_H

#include <stdio.h>

#include "report/input/state.h"
#include "report/input/tune_groups.h"

/* The ten fastest ok configurations of g (none when fewer than five ran), with time,
 * x the best, TFLOP/s, registers, shared memory and occupancy, in both documents. */
void mmb_report_tune_top_table(FILE *md, FILE *tex, const struct mmb_report *rep, const struct mmb_report_tune_group *g);

#endif
