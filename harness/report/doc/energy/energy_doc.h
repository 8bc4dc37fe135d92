/* energy_doc.h - the Energy efficiency section of reports/README.md and its caveat
 * (energy_doc.c). */
#ifndef MMB_REPORT_ENERGY_DOC_H
#define MMB_REPORT_ENERGY_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* Writes the section into f when any row has energy; nothing otherwise. Returns 0, or
 * -1 when out of memory. */
int mmb_report_energy_doc_write(const struct mmb_report *rep, FILE *f);
/* The Caveats item for the ok rows a power or thermal limit throttled; returns the
 * items written (0 or 1). */
size_t mmb_report_energy_doc_caveats(FILE *f, const struct mmb_report *rep);

#endif
