/* ncu.h - the README's caveat on how mmbench's counters compare with Nsight
 * Compute's, from data/<gpu>/bench/ncu-compare*.txt. */
#ifndef MMB_REPORT_NCU_H
#define MMB_REPORT_NCU_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* Writes one caveat line for GPU g when its comparison file exists; returns the
 * number of lines written (0 or 1). */
size_t mmb_report_ncu_caveat(FILE *f, const struct mmb_report *rep, size_t g);

#endif
