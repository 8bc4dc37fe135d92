/* generations.h - the tables of two GPUs at one configuration (generations.c). */
#ifndef MMB_REPORT_GENERATIONS_H
#define MMB_REPORT_GENERATIONS_H

#include <stdio.h>

#include "report/input/state.h"

/* For each measured GPU and the next, at the reference size: each kernel at the
 * older GPU's best configuration on both, with compare's verdict and both GPUs'
 * counters, under one heading, to both documents. Returns 0, or -1 without memory. */
int mmb_report_generations_write(const struct mmb_report *rep, FILE *md, FILE *tex);

#endif
