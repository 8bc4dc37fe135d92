/* energy_doc.h - the Energy efficiency section of reports/README.md and its caveat
 * (energy_doc.c), and reports/energy.md. */
#ifndef MMB_REPORT_ENERGY_DOC_H
#define MMB_REPORT_ENERGY_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* Writes the section into f when any row has energy, up to its finding (doc.c writes
 * it: mmb_report_findings_energy_md); nothing otherwise. Returns 0, or -1 when out of
 * memory. */
int mmb_report_energy_doc_write(const struct mmb_report *rep, FILE *f);
/* The section's Pareto figures, after its finding. */
void mmb_report_energy_doc_figures(const struct mmb_report *rep, FILE *f);
/* reports/energy.md's text into f: the speed and energy table at every size. False,
 * nothing written, when the README's table leaves no size out. */
bool mmb_report_energy_doc_page(const struct mmb_report *rep, FILE *f);
/* The Caveats item for the ok rows a power or thermal limit throttled; returns the
 * items written (0 or 1). */
size_t mmb_report_energy_doc_caveats(FILE *f, const struct mmb_report *rep);

#endif
