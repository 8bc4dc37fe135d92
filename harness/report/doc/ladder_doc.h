/* ladder_doc.h - the Kernel ladder section of a profile (ladder*), in README.md and
 * tables.tex. */
#ifndef MMB_REPORT_LADDER_DOC_H
#define MMB_REPORT_LADDER_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* The section of profile p (first: the first ladder profile); -1 without memory. */
int mmb_report_ladder_doc_section(const struct mmb_report *rep, size_t p, bool first, FILE *md, FILE *tex);

#endif
