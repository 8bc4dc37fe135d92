/* md.c - what the report's documents are written with: text escaped for
 * Markdown and LaTeX, code spans, links to files of the source tree, and a
 * figure's entry in the README. */
#include "report/doc/md.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file.h"

/* ---- text ------------------------------------------------------------------------------------ */

void mmb_report_md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|' || *s == '*' || *s == '_' || *s == '\\' || *s == '<' || *s == '`' || *s == '[' || *s == ']')
            fputc('\\', f);
        fputc(*s, f);
    }
}

/* The few non-ASCII characters the report writes, as pdflatex reads them without
 * extra packages. */
static const struct {
    const char *utf8, *tex;
} tex_symbols[] = {
    {"\u00d7", "$\\times$"}, {"\u2013", "--"}, {"\u00b5", "$\\mu$"}, {"\u2020", "\\dag{}"},
    {"\u2264", "$\\le$"}, {"\u2265", "$\\ge$"}, {"\u2248", "$\\approx$"}, {"\u00b7", "$\\cdot$"}, {"\u2192", "$\\rightarrow$"},
};

void mmb_report_md_tex(FILE *f, const char *s)
{
    for (; *s; s++) {
        bool symbol = false;
        for (size_t i = 0; i < sizeof tex_symbols / sizeof tex_symbols[0] && !symbol; i++) {
            size_t n = strlen(tex_symbols[i].utf8);
            if (strncmp(s, tex_symbols[i].utf8, n) == 0) {
                fputs(tex_symbols[i].tex, f);
                s += n - 1;
                symbol = true;
            }
        }
        if (symbol)
            continue;
        switch (*s) {
        case '\\': fputs("\\textbackslash{}", f); break;
        case '~': fputs("\\textasciitilde{}", f); break;
        case '^': fputs("\\textasciicircum{}", f); break;
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            fputc('\\', f);
            fputc(*s, f);
            break;
        default: fputc(*s, f);
        }
    }
}

void mmb_report_md_tex_spans(FILE *f, const char *s)
{
    char buf[1024];
    while (*s) {
        bool code = *s == '`';
        const char *end = code ? strchr(s + 1, '`') : strchr(s, '`');
        if (code && !end) /* an unclosed span is text */
            code = false, end = NULL;
        const char *from = code ? s + 1 : s, *to = end ? end : s + strlen(s);
        if (code && to == from) { /* `` is not a span */
            fputs("`", f);
            s = to + 1;
            continue;
        }
        size_t n = (size_t)(to - from) < sizeof buf - 1 ? (size_t)(to - from) : sizeof buf - 1;
        memcpy(buf, from, n);
        buf[n] = '\0';
        fputs(code ? "\\texttt{" : "", f);
        mmb_report_md_tex(f, buf);
        fputs(code ? "}" : "", f);
        s = code ? to + 1 : to;
    }
}

void mmb_report_md_reason(const char *reason, char *out, size_t len)
{
    const char *err = strstr(reason, "): error: "), *p = reason;
    long line = -1;
    if (err) {
        const char *open = err;
        while (open > reason && open[-1] >= '0' && open[-1] <= '9')
            open--;
        if (open > reason && open[-1] == '(' && open < err)
            line = strtol(open, NULL, 10);
        p = err + strlen("): error: ");
    } else if ((err = strstr(reason, "ptxas error")) && strchr(err, ':')) {
        p = strchr(err, ':') + 1;
    }
    while (*p == ' ')
        p++;
    /* the compiler's message ends where its echo of the source line begins */
    size_t n = strcspn(p, "\n");
    const char *gap = strstr(p, "  ");
    if (gap && (size_t)(gap - p) < n)
        n = (size_t)(gap - p);
    if (line >= 0)
        snprintf(out, len, "line %ld: %.*s", line, (int)n, p);
    else
        snprintf(out, len, "%.*s", (int)n, p);
}

void mmb_report_md_ms(double ms, char *out, size_t len)
{
    snprintf(out, len, ms >= 1000 ? "%.0f" : ms >= 100 ? "%.1f" : ms >= 10 ? "%.2f" : ms >= 1 ? "%.3f" : "%.3g", ms);
}

/* A code span: backticks inside would end it early. */
void mmb_report_md_code(FILE *f, const char *s)
{
    fputc('`', f);
    for (; *s; s++)
        fputc(*s == '`' ? '\'' : *s, f);
    fputc('`', f);
}

/* ---- files of the source tree ---------------------------------------------------------------- */

/* The report links files of the source tree only when it is written to
 * <root>/reports, where "../" reaches them; elsewhere it names them. */
static bool in_root_reports(const struct mmb_report *rep)
{
    char out_real[4096], reports_real[4096], reports[4200];
    snprintf(reports, sizeof reports, "%s/reports", rep->root);
    return realpath(rep->out, out_real) && realpath(reports, reports_real) && !strcmp(out_real, reports_real);
}

char *mmb_report_md_source_read(const struct mmb_report *rep, const char *rel)
{
    char path[4400], ignored[128];
    snprintf(path, sizeof path, rel[0] == '/' ? "%.0s%s" : "%s/%s", rep->root, rel);
    /* benchmark outputs and T4 files of a few kB: bounded, regular files only */
    return mmb_file_read_regular(path, (size_t)16 << 20, "text file", NULL, ignored, sizeof ignored);
}

void mmb_report_md_source(FILE *f, const struct mmb_report *rep, const char *rel, const char *text)
{
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", rep->root, rel);
    if (rel[0] != '/' && in_root_reports(rep) && stat(path, &st) == 0) {
        fputc('[', f);
        mmb_report_md_text(f, text ? text : rel);
        fprintf(f, "](../%s)", rel);
    } else {
        mmb_report_md_code(f, rel);
    }
}

/* ---- figures ----------------------------------------------------------------------------------- */

static bool dat_exists(const struct mmb_report *rep, const char *name)
{
    char file[256], path[4400];
    snprintf(file, sizeof file, "%s.dat", name);
    FILE *f = mmb_report_state_path(rep, path, sizeof path, "gnuplot", file, NULL, 0) == 0 ? fopen(path, "r") : NULL;
    if (f)
        fclose(f);
    return f != NULL;
}

/* A heading's anchor as GitHub makes it: lower case, spaces as hyphens, ASCII
 * punctuation other than '-' and '_' left out. */
static void md_anchor(FILE *f, const char *title)
{
    for (const unsigned char *p = (const unsigned char *)title; *p; p++) {
        if (*p == ' ')
            fputc('-', f);
        else if (*p >= 0x80 || isalnum(*p) || *p == '-' || *p == '_')
            fputc(tolower(*p), f);
    }
}

void mmb_report_md_figure(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig)
{
    mmb_report_md_figure_as(f, rep, fig, NULL);
}

void mmb_report_md_figure_as(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig,
                             const struct mmb_report_figure *like)
{
    fputs("#### ", f);
    mmb_report_md_text(f, fig->title);
    fputs("\n\n", f);
    if (like) {
        fputs("Read as [", f);
        mmb_report_md_text(f, like->title);
        fputs("](#", f);
        md_anchor(f, like->title);
        fputs(") above.\n\n", f);
    } else {
        mmb_report_md_text(f, fig->caption);
        fputs("\n\n", f);
    }
    if (!fig->drawn) {
        fprintf(f, "Not drawn (%s); script: [gnuplot/%s.gp](gnuplot/%s.gp).\n\n",
                rep->plot_state[0] ? rep->plot_state : "gnuplot did not produce it", fig->name, fig->name);
        return;
    }
    const struct mmb_report_format_info *shown = NULL;
    for (size_t i = 0; i < rep->nformats; i++) {
        const struct mmb_report_format_info *fi = mmb_report_format_info(rep->formats[i]);
        if (fi->picture && (!shown || fi->picture < shown->picture))
            shown = fi;
    }
    if (shown) {
        fputs("![", f);
        mmb_report_md_text(f, fig->title);
        fprintf(f, "](figures/%s.%s)\n\n", fig->name, shown->name);
    }
    for (size_t i = 0; i < rep->nformats; i++) {
        const char *ext = mmb_report_format_info(rep->formats[i])->name;
        fprintf(f, "%s[%s](figures/%s.%s)", i ? " · " : "", ext, fig->name, ext);
    }
    fprintf(f, " · [script](gnuplot/%s.gp)", fig->name);
    /* side-by-side figures draw from the data of each GPU's figure */
    if (dat_exists(rep, fig->name))
        fprintf(f, " · [data](gnuplot/%s.dat)", fig->name);
    fputs("\n\n", f);
}
