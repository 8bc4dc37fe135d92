/* tabular.h - the report's tables as a neutral model (a title, a label, a head and
 * rows of cells, a footnote and a note), rendered as Markdown and as LaTeX by one
 * call, so that README.md and tables.tex carry the same numbers. Every table of the
 * report is written here. */
#ifndef MMB_REPORT_TABULAR_H
#define MMB_REPORT_TABULAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MMB_REPORT_TCOLS 24

struct mmb_report_cell {
    char text[640];  /* "" is a missing value */
    char tex[64];    /* the LaTeX cell when it says it otherwise ("7 / 0 / 0" for "7 ok (7)"); "": text */
    bool bold;       /* the best of its table */
    bool mark;       /* a published figure */
};

/* How the Markdown names a table: its title in bold above it, nothing (the document's
 * own heading and text lead to it), or a heading with a paragraph (intro). */
enum mmb_report_title { MMB_REPORT_TITLE_BOLD, MMB_REPORT_TITLE_NONE, MMB_REPORT_TITLE_HEADING };

struct mmb_report_table {
    char title[1024];
    char label[160];
    size_t ncols, nrows, caprows;
    char head[MMB_REPORT_TCOLS][256];
    bool num[MMB_REPORT_TCOLS];   /* right-aligned */
    bool code[MMB_REPORT_TCOLS];  /* parameters: monospace */
    bool prose[MMB_REPORT_TCOLS]; /* sentences in Markdown (`code` spans): a wrapped column in LaTeX */
    double wrap[MMB_REPORT_TCOLS]; /* LaTeX: wrapped at this fraction of the line (prose: 0.38 unless set) */
    struct mmb_report_cell (*rows)[MMB_REPORT_TCOLS];
    char foot[512];   /* after a dagger: what the marked cells are */
    char note[1536];  /* under the table: where the numbers come from */
    /* how it is written, where the defaults do not serve */
    enum mmb_report_title md_title;
    char intro[512];               /* Markdown: the paragraph under a MMB_REPORT_TITLE_HEADING title */
    const char *md_missing;        /* Markdown: a missing value; NULL: "–" (LaTeX: "--") */
    bool verbatim[MMB_REPORT_TCOLS]; /* Markdown cells as they are: status names, counts */
    char caption[640];             /* LaTeX: the caption when it differs from the title; "": the title */
    char tex_head[MMB_REPORT_TCOLS][64]; /* LaTeX: a column's head when it differs; "": head */
    char tex_spec[MMB_REPORT_TCOLS + 1]; /* LaTeX: the column alignments when they differ ("llrr"); "": from num */
    char tex_comment[128];         /* LaTeX: a comment line above the table */
    bool tex_loose;                /* LaTeX: its own column separation, not the 3 pt of wide tables */
    bool tex_small;                /* LaTeX: at 7 pt, as a table of many columns is */
};

/* A new row of empty cells; NULL without memory. */
struct mmb_report_cell *mmb_report_tabular_row(struct mmb_report_table *t);
void mmb_report_tabular_free(struct mmb_report_table *t);
void mmb_report_tabular_head(struct mmb_report_table *t, size_t col, const char *text, bool num, bool code);
/* Appends to the note under the table. */
void mmb_report_tabular_note(struct mmb_report_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "Parameters: bx = block_size_x, ..." for the parameters of every row shown, once each. */
void mmb_report_tabular_legend(struct mmb_report_table *t, const char *const *params, size_t n);
/* Numbers as the tables write them: about four significant digits, never an
 * exponent; or a fixed number of decimals; "" when not finite. */
void mmb_report_tabular_sig(double v, char *out, size_t len);
void mmb_report_tabular_fixed(double v, int decimals, char *out, size_t len);
/* Counts that span nine decades: 17959 as "18.0 k", 268438655 as "268.4 M". */
void mmb_report_tabular_count(double v, char *out, size_t len);
/* Writes the table to both documents (md or tex may be NULL: that one is not written)
 * when it has rows, then empties it for reuse. */
void mmb_report_tabular_emit(FILE *md, FILE *tex, struct mmb_report_table *t);

#endif
