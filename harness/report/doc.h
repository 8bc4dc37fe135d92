/* doc.h - the report's text: reports/README.md (tables, figures, commands,
 * data and caveats) and reports/tables.tex (the same tables for LaTeX slides). */
#ifndef MMB_REPORT_DOC_H
#define MMB_REPORT_DOC_H

#include <stddef.h>
#include <stdio.h>

#include "report/state.h"

/* Call after the figures were drawn (or not): links only files that exist. */
int mmb_report_doc_write(struct mmb_report *rep, char *err, size_t errlen);

/* One figure's heading, caption, picture and links, in Markdown. */
void mmb_report_md_figure(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig);

/* <root>/<rel> as the README shows it: a link (text, or rel when NULL) where the
 * report is written to <root>/reports and the file exists, else rel as code. */
void mmb_report_md_source(FILE *f, const struct mmb_report *rep, const char *rel, const char *text);
/* The whole text of <root>/<rel>, NULL when it cannot be read; free it. */
char *mmb_report_source_read(const struct mmb_report *rep, const char *rel);

#endif
