/* doc.h - the report's text: reports/README.md (tables, figures, commands,
 * data and caveats) and reports/tables.tex (the same tables for LaTeX slides). */
#ifndef MMB_REPORT_DOC_H
#define MMB_REPORT_DOC_H

#include <stddef.h>

#include "report/input/state.h"

/* Call after the figures were drawn (or not): links only files that exist. */
int mmb_report_doc_write(struct mmb_report *rep, char *err, size_t errlen);

#endif
