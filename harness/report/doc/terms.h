/* terms.h - the GPUs' specification table and the terms the report uses, written
 * before its figures (README) and after its findings (tables.tex). */
#ifndef MMB_REPORT_TERMS_H
#define MMB_REPORT_TERMS_H

#include <stdio.h>

#include "report/input/state.h"

void mmb_report_terms_md(FILE *f, const struct mmb_report *rep);
void mmb_report_terms_tex(FILE *f, const struct mmb_report *rep);

#endif
