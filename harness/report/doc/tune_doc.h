/* tune_doc.h - the report's Tuning section, in README.md and tables.tex. */
#ifndef MMB_REPORT_TUNE_DOC_H
#define MMB_REPORT_TUNE_DOC_H

#include <stdio.h>

#include "report/input/state.h"

/* Writes "## Tuning" to md and its tables to tex; nothing without tuned rows.
 * Returns -1 when out of memory. */
int mmb_report_tune_doc_section(const struct mmb_report *rep, FILE *md, FILE *tex);

#endif
