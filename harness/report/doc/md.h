/* md.h - what the report's documents are written with: text escaped for
 * Markdown and LaTeX, code spans, links to files of the source tree, and a
 * figure's entry in the README. */
#ifndef MMB_REPORT_MD_H
#define MMB_REPORT_MD_H

#include <stdio.h>

#include "report/input/state.h"

/* Text escaped for Markdown (outside code spans) and for LaTeX. */
void mmb_report_md_text(FILE *f, const char *s);
void mmb_report_md_tex(FILE *f, const char *s);
/* Markdown text with `code` spans (a note's sentence) as LaTeX: spans in \texttt. */
void mmb_report_md_tex_spans(FILE *f, const char *s);
/* A row's reason as a table shows it: its first line; a compiler's first error as
 * "line 17: identifier "i" is undefined", without the path, the tool's prefix and
 * the echo of the source line. */
void mmb_report_md_reason(const char *reason, char *out, size_t len);
/* A time in ms to about four significant digits, as every table writes times. */
void mmb_report_md_ms(double ms, char *out, size_t len);
/* A Markdown code span. */
void mmb_report_md_code(FILE *f, const char *s);

/* <root>/<rel> as the README shows it: a link (text, or rel when NULL) where the
 * report is written to <root>/reports and the file exists, else rel as code. */
void mmb_report_md_source(FILE *f, const struct mmb_report *rep, const char *rel, const char *text);
/* The whole text of <root>/<rel> (a regular file of at most 16 MiB), NULL when it
 * cannot be read; free it. */
char *mmb_report_md_source_read(const struct mmb_report *rep, const char *rel);

/* One figure's heading, caption, picture and links, in Markdown. */
void mmb_report_md_figure(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig);
/* The same, with a link to figure like (shown above, with the same caption) in place
 * of the caption; like NULL: the caption. */
void mmb_report_md_figure_as(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig,
                             const struct mmb_report_figure *like);

#endif
