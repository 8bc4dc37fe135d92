/* ladder_worklog.h - a ladder profile's worklog table: step, change, the counter that
 * motivated it, TFLOP/s, speed-ups, share of cuBLAS and the kernel file. */
#ifndef MMB_REPORT_LADDER_WORKLOG_H
#define MMB_REPORT_LADDER_WORKLOG_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* The worklog of profile p on GPU g at one size in dtype, to md and tex (either may be
 * NULL); nothing when no step has an ok row there; -1 without memory. */
int mmb_report_ladder_worklog(const struct mmb_report *rep, size_t p, size_t g, const char *dtype,
                              const struct mmb_report_shape *size, FILE *md, FILE *tex);

#endif
