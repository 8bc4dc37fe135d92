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

/* The summary's most words: one page with its figure. */
#define MMB_REPORT_SUMMARY_WORDS 250

/* "## Key findings" and its list, in Markdown; \section*{Key findings} in LaTeX;
 * without the tuning findings, which mmb_report_findings_tuning_md writes (for
 * reports/tuning.md), and the energy finding (mmb_report_findings_energy_md). */
void mmb_report_findings_md(FILE *f, const struct mmb_report *rep);
void mmb_report_findings_tex(FILE *f, const struct mmb_report *rep);
void mmb_report_findings_tuning_md(FILE *f, const struct mmb_report *rep);
/* The Energy efficiency section's finding (its numbers claimed as the Key findings'
 * are), in Markdown; nothing without energy. */
void mmb_report_findings_energy_md(FILE *f, const struct mmb_report *rep);
/* "## Summary": at most MMB_REPORT_SUMMARY_WORDS words computed from the data, then
 * the kernel ladder's figure (findings_summary.c); nothing when the data carries
 * neither. */
void mmb_report_findings_summary_md(FILE *f, const struct mmb_report *rep);
/* reports/slides.tex, a Beamer deck of the lecture's figures and tables, one a slide
 * with one sentence from the data (findings_summary.c). Returns 0, or -1 with err. */
int mmb_report_findings_summary_slides(struct mmb_report *rep, char *err, size_t errlen);
/* claims.json in the report's folder: every finding's lead and text, and its numbers'
 * claims, each with its formula, rows (file relative to the source root, line, and the
 * key cells kernel, params, dtype, m, n, k, cache) and text as printed
 * (findings_claims.c). -1 with err when it cannot be written. */
int mmb_report_findings_json(const struct mmb_report *rep, char *err, size_t errlen);

#endif
