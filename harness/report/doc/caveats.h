/* caveats.h - the README's Caveats section. */
#ifndef MMB_REPORT_CAVEATS_H
#define MMB_REPORT_CAVEATS_H

#include <stdio.h>

#include "report/input/state.h"

/* Writes "## Caveats" and every caveat the data carries, or "None.". */
void mmb_report_caveats_write(FILE *f, const struct mmb_report *rep);

#endif
