/* precisions_doc.h - the Precisions section (profiles of role precisions), in
 * README.md and tables.tex. */
#ifndef MMB_REPORT_PRECISIONS_DOC_H
#define MMB_REPORT_PRECISIONS_DOC_H

#include <stdio.h>

#include "report/input/state.h"

/* "## Precisions" with each GPU's figure, findings and table, and the GPUs side by
 * side; nothing without a precisions profile's ok rows. -1 without memory. */
int mmb_report_precisions_doc_section(const struct mmb_report *rep, FILE *md, FILE *tex);

#endif
