/* test_tabular.c - the one writer of the report's tables: a table written to
 * README.md and tables.tex carries the same cells; a missing value, a LaTeX cell or
 * head said otherwise, code, verbatim cells, a bold best and a published mark come
 * out as each document writes them; the title as bold text, a heading with its
 * paragraph, or nothing; one document alone when the other is NULL. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "report/doc/tabular.h"

struct docs {
    char *md, *tex;
    size_t nmd, ntex;
    FILE *fmd, *ftex;
};

static void docs_open(struct docs *d)
{
    memset(d, 0, sizeof *d);
    d->fmd = open_memstream(&d->md, &d->nmd);
    d->ftex = open_memstream(&d->tex, &d->ntex);
    ck_assert(d->fmd && d->ftex);
}

static void docs_close(struct docs *d)
{
    fclose(d->fmd);
    fclose(d->ftex);
}

static void docs_free(struct docs *d)
{
    free(d->md);
    free(d->tex);
}

/* A two-row table: kernel, configuration (code), ms (a number), status. */
static void sample(struct mmb_report_table *t)
{
    memset(t, 0, sizeof *t);
    snprintf(t->title, sizeof t->title, "H100: speed_of each kernel");
    snprintf(t->label, sizeof t->label, "tab:x");
    mmb_report_tabular_head(t, 0, "Kernel", false, false);
    mmb_report_tabular_head(t, 1, "Configuration", false, true);
    mmb_report_tabular_head(t, 2, "ms", true, false);
    mmb_report_tabular_head(t, 3, "status", false, false);
    struct mmb_report_cell *r = mmb_report_tabular_row(t);
    ck_assert_ptr_nonnull(r);
    snprintf(r[0].text, sizeof r[0].text, "naive_1");
    snprintf(r[1].text, sizeof r[1].text, "bx=16 by=16");
    snprintf(r[2].text, sizeof r[2].text, "21.47");
    snprintf(r[3].text, sizeof r[3].text, "invalid_config");
    r[2].bold = true;
    r[0].mark = true;
    r = mmb_report_tabular_row(t);
    ck_assert_ptr_nonnull(r);
    snprintf(r[0].text, sizeof r[0].text, "tiled");
    snprintf(r[1].text, sizeof r[1].text, "-");
}

START_TEST(test_tabular_default)
{
    struct mmb_report_table t;
    struct docs d;
    sample(&t);
    mmb_report_tabular_note(&t, "Parameters: bx = block_size_x.");
    docs_open(&d);
    mmb_report_tabular_emit(d.fmd, d.ftex, &t);
    docs_close(&d);
    ck_assert_str_eq(d.md, "**H100: speed\\_of each kernel**\n\n"
                           "| Kernel | Configuration | ms | status |\n"
                           "| --- | --- | ---: | --- |\n"
                           "| naive\\_1 † | `bx=16 by=16` | **21.47** | invalid\\_config |\n"
                           "| tiled | `-` | – | – |\n"
                           "\nParameters: bx = block\\_size\\_x.\n\n");
    ck_assert_str_eq(d.tex, "\\begingroup\n"
                            "\\footnotesize\n"
                            "\\setlength{\\tabcolsep}{3pt}\n"
                            "\\begin{longtable}{llrl}\n"
                            "\\caption{H100: speed\\_of each kernel}\\label{tab:x}\\\\\n"
                            "\\toprule\n"
                            "Kernel & Configuration & ms & status \\\\\n"
                            "\\midrule\n"
                            "\\endfirsthead\n"
                            "\\multicolumn{4}{l}{\\emph{(continued)}}\\\\\n"
                            "\\toprule\n"
                            "Kernel & Configuration & ms & status \\\\\n"
                            "\\midrule\n"
                            "\\endhead\n"
                            "\\midrule\n"
                            "\\multicolumn{4}{r}{\\emph{(continued on the next page)}}\\\\\n"
                            "\\endfoot\n"
                            "\\bottomrule\n"
                            "\\endlastfoot\n"
                            "naive\\_1\\,\\dag{} & \\texttt{bx=16 by=16} & \\textbf{21.47} & invalid\\_config \\\\\n"
                            "tiled & \\texttt{-} & -- & -- \\\\\n"
                            "\\end{longtable}\n"
                            "\\par\\noindent{\\scriptsize\\raggedright Parameters: bx = block\\_size\\_x.\\par}\n"
                            "\\endgroup\n"
                            "\\bigskip\n"
                            "\n");
    ck_assert_uint_eq(t.nrows, 0); /* emptied for the next table */
    docs_free(&d);
}
END_TEST

/* A configuration too long for a column is a short ID in LaTeX, the same ID for the
 * same configuration, with the legend under the table; Markdown keeps it whole. */
START_TEST(test_tabular_config_ids)
{
    struct mmb_report_table t;
    struct docs d;
    sample(&t);
    snprintf(t.rows[0][1].text, sizeof t.rows[0][1].text, "bx=16 by=16 tx=4 ty=8");
    snprintf(t.rows[1][1].text, sizeof t.rows[1][1].text, "bx=16 by=16 tx=4 ty=8");
    docs_open(&d);
    mmb_report_tabular_emit(d.fmd, d.ftex, &t);
    docs_close(&d);
    ck_assert_ptr_nonnull(strstr(d.md, "`bx=16 by=16 tx=4 ty=8`"));
    ck_assert_str_eq(d.tex, "\\begingroup\n"
                     "\\footnotesize\n"
                     "\\setlength{\\tabcolsep}{3pt}\n"
                     "\\begin{longtable}{llrl}\n"
                     "\\caption{H100: speed\\_of each kernel}\\label{tab:x}\\\\\n"
                     "\\toprule\n"
                     "Kernel & Configuration & ms & status \\\\\n"
                     "\\midrule\n"
                     "\\endfirsthead\n"
                     "\\multicolumn{4}{l}{\\emph{(continued)}}\\\\\n"
                     "\\toprule\n"
                     "Kernel & Configuration & ms & status \\\\\n"
                     "\\midrule\n"
                     "\\endhead\n"
                     "\\midrule\n"
                     "\\multicolumn{4}{r}{\\emph{(continued on the next page)}}\\\\\n"
                     "\\endfoot\n"
                     "\\bottomrule\n"
                     "\\endlastfoot\n"
                     "naive\\_1\\,\\dag{} & C1 & \\textbf{21.47} & invalid\\_config \\\\\n"
                     "tiled & C1 & -- & -- \\\\\n"
                     "\\end{longtable}\n"
                     "\\par\\noindent{\\scriptsize\\raggedright Configurations: C1 = \\texttt{bx=16 by=16 tx=4 ty=8}.\\par}\n"
                     "\\endgroup\n"
                     "\\bigskip\n"
                     "\n");
    docs_free(&d);
}
END_TEST

START_TEST(test_tabular_said_otherwise)
{
    struct mmb_report_table t;
    struct docs d;
    sample(&t);
    t.md_title = MMB_REPORT_TITLE_HEADING;
    snprintf(t.intro, sizeof t.intro, "Seed 000's table, *measured*.");
    t.md_missing = "-";
    t.verbatim[3] = true;
    t.tex_loose = true;
    snprintf(t.caption, sizeof t.caption, "Every configuration on each GPU");
    snprintf(t.tex_head[3], sizeof t.tex_head[3], "ok / failed");
    snprintf(t.tex_spec, sizeof t.tex_spec, "llrr");
    snprintf(t.tex_comment, sizeof t.tex_comment, "a comment");
    snprintf(t.rows[0][3].tex, sizeof t.rows[0][3].tex, "0 / 1");
    docs_open(&d);
    mmb_report_tabular_emit(d.fmd, d.ftex, &t);
    docs_close(&d);
    ck_assert_str_eq(d.md, "#### H100: speed\\_of each kernel\n\nSeed 000's table, *measured*.\n\n"
                           "| Kernel | Configuration | ms | status |\n"
                           "| --- | --- | ---: | --- |\n"
                           "| naive\\_1 † | `bx=16 by=16` | **21.47** | invalid_config |\n"
                           "| tiled | `-` | - | - |\n\n");
    ck_assert_str_eq(d.tex, "% a comment\n"
                            "\\begingroup\n"
                            "\\footnotesize\n"
                            "\\begin{longtable}{llrr}\n"
                            "\\caption{Every configuration on each GPU}\\label{tab:x}\\\\\n"
                            "\\toprule\n"
                            "Kernel & Configuration & ms & ok / failed \\\\\n"
                            "\\midrule\n"
                            "\\endfirsthead\n"
                            "\\multicolumn{4}{l}{\\emph{(continued)}}\\\\\n"
                            "\\toprule\n"
                            "Kernel & Configuration & ms & ok / failed \\\\\n"
                            "\\midrule\n"
                            "\\endhead\n"
                            "\\midrule\n"
                            "\\multicolumn{4}{r}{\\emph{(continued on the next page)}}\\\\\n"
                            "\\endfoot\n"
                            "\\bottomrule\n"
                            "\\endlastfoot\n"
                            "naive\\_1\\,\\dag{} & \\texttt{bx=16 by=16} & \\textbf{21.47} & 0 / 1 \\\\\n"
                            "tiled & \\texttt{-} & -- & -- \\\\\n"
                            "\\end{longtable}\n"
                            "\\endgroup\n"
                            "\\bigskip\n"
                            "\n");
    docs_free(&d);
}
END_TEST

START_TEST(test_tabular_one_document)
{
    struct mmb_report_table t;
    struct docs d;
    sample(&t);
    t.md_title = MMB_REPORT_TITLE_NONE;
    docs_open(&d);
    mmb_report_tabular_emit(NULL, d.ftex, &t);
    docs_close(&d);
    ck_assert_uint_eq(d.nmd, 0);
    ck_assert_ptr_nonnull(strstr(d.tex, "\\caption{H100: speed\\_of each kernel}"));
    docs_free(&d);
    sample(&t);
    t.md_title = MMB_REPORT_TITLE_NONE;
    docs_open(&d);
    mmb_report_tabular_emit(d.fmd, NULL, &t);
    docs_close(&d);
    ck_assert_uint_eq(d.ntex, 0);
    ck_assert(!strncmp(d.md, "| Kernel |", 10)); /* no title: the document's heading leads to it */
    docs_free(&d);
    /* a table without rows is not written */
    memset(&t, 0, sizeof t);
    mmb_report_tabular_head(&t, 0, "Kernel", false, false);
    docs_open(&d);
    mmb_report_tabular_emit(d.fmd, d.ftex, &t);
    docs_close(&d);
    ck_assert_uint_eq(d.nmd + d.ntex, 0);
    docs_free(&d);
}
END_TEST

START_TEST(test_tabular_numbers)
{
    char out[32];
    mmb_report_tabular_sig(1234.5, out, sizeof out);
    ck_assert_str_eq(out, "1234"); /* %.0f rounds half to even */
    mmb_report_tabular_sig(0.012345, out, sizeof out);
    ck_assert_str_eq(out, "0.0123");
    mmb_report_tabular_sig(12.345, out, sizeof out);
    ck_assert_str_eq(out, "12.35");
    mmb_report_tabular_fixed(1.0 / 0.0, 1, out, sizeof out);
    ck_assert_str_eq(out, "");
    mmb_report_tabular_count(17959, out, sizeof out);
    ck_assert_str_eq(out, "18.0 k");
    mmb_report_tabular_count(268438655, out, sizeof out);
    ck_assert_str_eq(out, "268.4 M");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tabular");
    TCase *tc = tcase_create("tabular");
    tcase_add_test(tc, test_tabular_default);
    tcase_add_test(tc, test_tabular_said_otherwise);
    tcase_add_test(tc, test_tabular_config_ids);
    tcase_add_test(tc, test_tabular_one_document);
    tcase_add_test(tc, test_tabular_numbers);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? 1 : 0;
}
