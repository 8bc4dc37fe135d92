/* findings.h - the report's Key findings: sentences computed from the data, each
 * with its numbers (what each step of the kernel ladder gained, what limits each
 * kernel and why, the seeds' claims answered, GPU generations compared and why they
 * differ, what tuning found). Nothing in them is typed in: a finding whose data is
 * missing is left out, or says what is missing. */
#ifndef MMB_REPORT_FINDINGS_H
#define MMB_REPORT_FINDINGS_H

#include <stddef.h>
#include <stdio.h>

#include "report/input/state.h"

/* "## Key findings" and its list, in Markdown; \section*{Key findings} in LaTeX. */
void mmb_report_findings_md(FILE *f, const struct mmb_report *rep);
void mmb_report_findings_tex(FILE *f, const struct mmb_report *rep);
/* claims.json in the report's folder: every finding's lead and text, and its numbers'
 * claims, each with its formula, rows (file relative to the source root, line, and the
 * key cells kernel, params, dtype, m, n, k, cache) and text as printed
 * (findings_claims.c). -1 with err when it cannot be written. */
int mmb_report_findings_json(const struct mmb_report *rep, char *err, size_t errlen);

#endif
