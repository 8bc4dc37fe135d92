/* tabular.c - the report's tables as a neutral model, built once and rendered
 * twice, as Markdown for README.md and as LaTeX for tables.tex, so that both always
 * carry the same numbers. */
#include "report/doc/tabular.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc/md.h"
#include "report/input/labels.h"

/* ---- the model ------------------------------------------------------------------ */

struct mmb_report_cell *mmb_report_tabular_row(struct mmb_report_table *t)
{
    if (t->nrows == t->caprows) {
        size_t cap = t->caprows ? 2 * t->caprows : 16;
        struct mmb_report_cell(*rows)[MMB_REPORT_TCOLS] = realloc(t->rows, cap * sizeof *rows);
        if (!rows)
            return NULL;
        t->rows = rows;
        t->caprows = cap;
    }
    struct mmb_report_cell *row = t->rows[t->nrows++];
    memset(row, 0, MMB_REPORT_TCOLS * sizeof *row);
    return row;
}

void mmb_report_tabular_free(struct mmb_report_table *t)
{
    free(t->rows);
    t->rows = NULL;
    t->nrows = t->caprows = 0;
}

void mmb_report_tabular_head(struct mmb_report_table *t, size_t col, const char *text, bool num, bool code)
{
    snprintf(t->head[col], sizeof t->head[col], "%s", text);
    t->num[col] = num;
    t->code[col] = code;
    if (col + 1 > t->ncols)
        t->ncols = col + 1;
}

/* About four significant digits, never an exponent: times run from microseconds
 * to seconds and must read at a glance. */
void mmb_report_tabular_sig(double v, char *out, size_t len)
{
    if (!isfinite(v))
        out[0] = '\0';
    else if (fabs(v) >= 1000)
        snprintf(out, len, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(out, len, "%.1f", v);
    else if (fabs(v) >= 10)
        snprintf(out, len, "%.2f", v);
    else if (fabs(v) >= 1)
        snprintf(out, len, "%.3f", v);
    else
        snprintf(out, len, "%.3g", v);
}

void mmb_report_tabular_fixed(double v, int decimals, char *out, size_t len)
{
    if (!isfinite(v))
        out[0] = '\0';
    else
        snprintf(out, len, "%.*f", decimals, v);
}

void mmb_report_tabular_count(double v, char *out, size_t len)
{
    if (!isfinite(v))
        out[0] = '\0';
    else if (v < 1e3)
        snprintf(out, len, "%.0f", v);
    else if (v < 1e6)
        snprintf(out, len, "%.1f k", v / 1e3);
    else if (v < 1e9)
        snprintf(out, len, "%.1f M", v / 1e6);
    else
        snprintf(out, len, "%.2f G", v / 1e9);
}

void mmb_report_tabular_note(struct mmb_report_table *t, const char *fmt, ...)
{
    size_t n = strlen(t->note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->note + n, sizeof t->note - n, fmt, ap);
    va_end(ap);
}

/* "bx = block_size_x, ..." for the parameters of every row shown, once each. */
void mmb_report_tabular_legend(struct mmb_report_table *t, const char *const *params, size_t n)
{
    char seen[1024] = "";
    for (size_t i = 0; i < n; i++) {
        char legend[512];
        mmb_report_label_params_legend(params[i], legend, sizeof legend);
        for (char *p = legend; *p;) {
            size_t len = strcspn(p, ",");
            char item[128];
            snprintf(item, sizeof item, "%.*s", (int)len, p);
            if (item[0] && !strstr(seen, item) && strlen(seen) + len + 3 < sizeof seen)
                snprintf(seen + strlen(seen), sizeof seen - strlen(seen), "%s%s", seen[0] ? ", " : "", item);
            p += len;
            while (*p == ',' || *p == ' ')
                p++;
        }
    }
    if (seen[0])
        mmb_report_tabular_note(t, "%sParameters: %s.", t->note[0] ? " " : "", seen);
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void md_title(FILE *f, const struct mmb_report_table *t)
{
    switch (t->md_title) {
    case MMB_REPORT_TITLE_BOLD:
        fputs("**", f);
        mmb_report_md_text(f, t->title);
        fputs("**\n\n", f);
        break;
    case MMB_REPORT_TITLE_HEADING:
        fputs("#### ", f);
        mmb_report_md_text(f, t->title);
        fputs("\n\n", f);
        if (t->intro[0])
            fprintf(f, "%s\n\n", t->intro);
        break;
    case MMB_REPORT_TITLE_NONE:
        break;
    }
}

static void md_table(FILE *f, const struct mmb_report_table *t)
{
    md_title(f, t);
    fputc('|', f);
    for (size_t c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        mmb_report_md_text(f, t->head[c]);
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (size_t c = 0; c < t->ncols; c++)
        fputs(t->num[c] ? " ---: |" : " --- |", f);
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        fputc('|', f);
        for (size_t c = 0; c < t->ncols; c++) {
            const struct mmb_report_cell *cl = &t->rows[r][c];
            fputc(' ', f);
            if (!cl->text[0]) {
                fputs(t->md_missing ? t->md_missing : "–", f);
            } else {
                if (cl->bold)
                    fputs("**", f);
                if (t->code[c] || t->prose[c] || t->verbatim[c]) {
                    /* code as it is; prose is Markdown already: only a bar would end the cell */
                    fputs(t->code[c] ? "`" : "", f);
                    for (const char *s = cl->text; *s; s++)
                        fputs(*s == '|' ? "\\|" : *s == '\n' ? " " : (char[2]){*s, 0}, f);
                    fputs(t->code[c] ? "`" : "", f);
                } else {
                    mmb_report_md_text(f, cl->text);
                }
                if (cl->bold)
                    fputs("**", f);
                if (cl->mark)
                    fputs(" †", f);
            }
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    if (t->foot[0])
        fprintf(f, "\n† %s\n", t->foot);
    if (t->note[0]) {
        fputc('\n', f);
        mmb_report_md_text(f, t->note);
        fputc('\n', f);
    }
    fputc('\n', f);
}

/* ---- LaTeX ---------------------------------------------------------------------------------- */

/* A configuration longer than this is printed as a short ID ("C3") with a legend under
 * the table: parameter lists would otherwise widen a table past the page. */
#define TEX_ID_AFTER 14
/* At this many columns or more a table is set at 7 pt instead of 8 pt, with 3 pt
 * between columns and its heads on two lines. */
#define TEX_WIDE_COLS 9
#define TEX_STACK_COLS 7
#define TEX_TIGHT_COLS 13
#define TEX_TIGHTEST_COLS 15

static void tex_head(FILE *f, const struct mmb_report_table *t)
{
    bool stack = t->ncols >= TEX_STACK_COLS;
    for (size_t c = 0; c < t->ncols; c++) {
        const char *head = t->tex_head[c][0] ? t->tex_head[c] : t->head[c];
        fputs(c ? " & " : "", f);
        if (stack && c > 0 && strchr(head, ' ')) {
            /* a word a line: a wide table's heads would be wider than its numbers */
            fprintf(f, "\\shortstack[%c]{", t->num[c] ? 'r' : 'l');
            for (const char *w = head; *w;) {
                size_t n = strcspn(w, " ");
                /* a long word (a GPU's name) breaks after its hyphens too */
                const char *hy = memchr(w, '-', n);
                if (n > 8 && hy && hy > w && (size_t)(hy - w) + 1 < n)
                    n = (size_t)(hy - w) + 1;
                char word[128];
                snprintf(word, sizeof word, "%.*s", (int)n, w);
                mmb_report_md_tex(f, word);
                w += n;
                while (*w == ' ')
                    w++;
                fputs(*w ? "\\\\" : "", f);
            }
            fputs("}", f);
        } else if (c == 0 && strstr(head, " \\ ")) {
            /* the corner of a grid: "rows \ columns" */
            const char *sep = strstr(head, " \\ ");
            char rows[96];
            snprintf(rows, sizeof rows, "%.*s", (int)(sep - head), head);
            mmb_report_md_tex(f, rows);
            fputs(" $\\backslash$ ", f);
            mmb_report_md_tex(f, sep + 3);
        } else {
            mmb_report_md_tex(f, head);
        }
    }
    fputs(" \\\\\n", f);
}

/* The short IDs of the long configurations: ids[r * ncols + c] is 1 + the cell's place
 * among the table's distinct long configurations in order of appearance (0: printed as
 * it is); names[] points at each one's text. Returns how many. */
static long tex_config_ids(const struct mmb_report_table *t, size_t *ids, const char **names)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            const char *text = t->rows[r][c].text;
            size_t *id = &ids[r * t->ncols + c];
            *id = 0;
            if (!t->code[c] || strlen(text) <= TEX_ID_AFTER)
                continue;
            for (size_t i = 0; i < n && !*id; i++)
                if (!strcmp(names[i], text))
                    *id = i + 1;
            if (!*id) {
                names[n++] = text;
                *id = n;
            }
        }
    return (long)n;
}

static void tex_cell(FILE *f, const struct mmb_report_table *t, size_t r, size_t c, size_t id)
{
    const struct mmb_report_cell *cl = &t->rows[r][c];
    if (!cl->text[0]) {
        fputs("--", f);
        return;
    }
    fputs(cl->bold ? "\\textbf{" : "", f);
    if (id) {
        fprintf(f, "C%zu", id);
    } else {
        /* a paragraph of its own width: sentences would widen an l column past the page */
        double wrap = t->code[c] ? 0 : t->wrap[c] > 0 ? t->wrap[c] : t->prose[c] ? (t->ncols >= TEX_WIDE_COLS ? 0.26 : 0.38) : 0;
        if (wrap > 0)
            fprintf(f, "\\parbox[t]{%.2f\\linewidth}{\\raggedright ", wrap);
        fputs(t->code[c] ? "\\texttt{" : "", f);
        if (cl->tex[0])
            mmb_report_md_tex(f, cl->tex);
        else if (t->prose[c])
            mmb_report_md_tex_spans(f, cl->text);
        else
            mmb_report_md_tex(f, cl->text);
        fputs(t->code[c] ? "}" : "", f);
        fputs(wrap > 0 ? "\\strut}" : "", f); /* the last line's depth: rows stay apart */
    }
    fputs(cl->bold ? "}" : "", f);
    fputs(cl->mark ? "\\,\\dag{}" : "", f); /* full size: a superscript would be under 7 pt */
}

/* The legend of the short IDs: each configuration in full. */
static void tex_legend(FILE *f, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputs(i ? "; " : "\\par\\noindent{\\scriptsize\\raggedright Configurations: ", f);
        fprintf(f, "C%zu = \\texttt{", i + 1);
        mmb_report_md_tex(f, names[i]);
        fputs("}", f);
    }
    if (n)
        fputs(".\\par}\n", f);
}

/* A longtable: broken across pages, never scaled, at 8 pt (7 pt when wide), with its
 * head repeated on every page, its configurations as short IDs with a legend, and its
 * note under it at 7 pt. */
static void tex_table(FILE *f, const struct mmb_report_table *t)
{
    if (t->tex_comment[0])
        fprintf(f, "%% %s\n", t->tex_comment);
    bool wide = t->ncols >= TEX_WIDE_COLS || t->tex_small;
    /* the widest tables (a dozen columns and more) with 2 pt between their columns, 1.5 pt
     * from 15 (the ladder's table with its stall reasons) */
    fprintf(f, "\\begingroup\n%s\n%s\\begin{longtable}{", wide ? "\\scriptsize" : "\\footnotesize",
            t->tex_loose && !wide           ? ""
            : t->ncols >= TEX_TIGHTEST_COLS ? "\\setlength{\\tabcolsep}{1.5pt}\n"
            : t->ncols >= TEX_TIGHT_COLS    ? "\\setlength{\\tabcolsep}{2pt}\n"
                                            : "\\setlength{\\tabcolsep}{3pt}\n");
    for (size_t c = 0; c < t->ncols; c++)
        fputc(t->tex_spec[0] ? t->tex_spec[c] : t->num[c] ? 'r' : 'l', f);
    fputs("}\n\\caption{", f);
    mmb_report_md_tex(f, t->caption[0] ? t->caption : t->title);
    fprintf(f, "}\\label{%s}\\\\\n\\toprule\n", t->label);
    tex_head(f, t);
    fprintf(f, "\\midrule\n\\endfirsthead\n\\multicolumn{%zu}{l}{\\emph{(continued)}}\\\\\n\\toprule\n", t->ncols);
    tex_head(f, t);
    fprintf(f, "\\midrule\n\\endhead\n\\midrule\n\\multicolumn{%zu}{r}{\\emph{(continued on the next page)}}\\\\\n"
               "\\endfoot\n\\bottomrule\n\\endlastfoot\n",
            t->ncols);
    size_t *ids = calloc(t->nrows * t->ncols + 1, sizeof *ids);
    const char **names = calloc(t->nrows * t->ncols + 1, sizeof *names);
    long nids = ids && names ? tex_config_ids(t, ids, names) : -1;
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            fputs(c ? " & " : "", f);
            tex_cell(f, t, r, c, nids >= 0 ? ids[r * t->ncols + c] : 0);
        }
        fputs(" \\\\\n", f);
    }
    fputs("\\end{longtable}\n", f);
    if (nids > 0)
        tex_legend(f, names, (size_t)nids);
    free(ids);
    free(names);
    if (t->foot[0] || t->note[0]) {
        fputs("\\par\\noindent{\\scriptsize\\raggedright ", f);
        if (t->foot[0]) {
            fputs("\\dag{} ", f);
            mmb_report_md_tex(f, t->foot);
            fputs(t->note[0] ? " " : "", f);
        }
        mmb_report_md_tex(f, t->note);
        fputs("\\par}\n", f);
    }
    fputs("\\endgroup\n\\bigskip\n\n", f);
}

/* ---- the tables of every GPU, written to both documents ---------------------------------- */

void mmb_report_tabular_emit(FILE *md, FILE *tex, struct mmb_report_table *t)
{
    if (t->nrows && md)
        md_table(md, t);
    if (t->nrows && tex)
        tex_table(tex, t);
    mmb_report_tabular_free(t);
    memset(t, 0, sizeof *t);
}

