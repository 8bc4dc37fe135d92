/* findings_slides.c - reports/slides.tex: a Beamer deck (16:10, 11 pt) of the lecture's
 * figures and tables, one figure or one table and one sentence a slide, each sentence
 * computed from the rows as the summary's are. The figures are the slides-sized PDFs
 * the report draws of them (figures/deck-NAME.pdf), included at their own size so
 * that no text on a slide is under 9 pt; a figure not drawn is left out. */
#include "report/doc/findings_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/file.h"
#include "report/doc/findings.h"
#include "report/doc/md.h"
#include "report/input/out.h"
#include "report/input/profiles.h"
#include "report/input/row.h"

/* The sentence: the finding's lines without their "- ", in LaTeX. */
static void sentence(FILE *f, const struct mmb_report_finding *s)
{
    fputs("\\vfill\n{\\small ", f);
    for (const char *t = s->text; *t;) {
        size_t len = strcspn(t, "\n");
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)len, t);
        mmb_report_md_tex(f, line[0] == '-' && line[1] == ' ' ? line + 2 : line);
        fputc(' ', f);
        t += len + (t[len] == '\n');
    }
    fputs("\\par}\n", f);
}

/* A slide of figure fig when its slide was drawn. */
static bool figure_slide(FILE *f, const struct mmb_report *rep, const struct mmb_report_figure *fig,
                         const struct mmb_report_finding *s)
{
    char path[4400], err[256];
    struct stat st;
    char file[200];
    snprintf(file, sizeof file, "figures/deck-%s.pdf", fig->name);
    if (mmb_report_state_path(rep, path, sizeof path, NULL, file, err, sizeof err) != 0 || stat(path, &st) != 0)
        return false;
    fputs("\\begin{frame}[plain]\n\\centering\n\\includegraphics{", f);
    fputs(file, f);
    fputs("}\n", f);
    sentence(f, s);
    fputs("\\end{frame}\n\n", f);
    return true;
}

/* The ladder at its first size as a table of five columns. */
static void ladder_table_slide(FILE *f, const struct mmb_report_findings_ctx *c, size_t p, size_t g)
{
    const struct mmb_report_data *d = c->d;
    struct mmb_report_shape s[2];
    if (!mmb_report_profile_sizes(d, p, g, s))
        return;
    const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX];
    mmb_report_profile_best(d, p, g, d->dtype, &s[0], best);
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks);
    const struct mmb_report_row *first = NULL, *prev = NULL, *cub = d->cublas >= 0 ? best[d->cublas] : NULL,
                                *fast = NULL;
    char label[96], gpu[128];
    mmb_report_shape_label(&s[0], label, sizeof label);
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    fputs("\\begin{frame}[plain]{", f);
    mmb_report_md_tex(f, gpu);
    fprintf(f, ": the ladder at %s}\n\\centering\\small\n\\begin{tabular}{lrrrr}\n\\toprule\n", label);
    fputs("Step & TFLOP/s & $\\times$ prev. & $\\times$ first & \\% cuBLAS \\\\\n\\midrule\n", f);
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = best[ks[j]];
        if (!r)
            continue;
        bool lib = (int)ks[j] == d->cublas;
        mmb_report_md_tex(f, d->kernels[ks[j]]);
        fprintf(f, " & %.1f & ", mmb_report_row_gflops(r) / 1000);
        if (prev)
            fprintf(f, "%.2f", prev->r.time_ms_median / r->r.time_ms_median);
        else
            fputs("--", f);
        if (first && !lib)
            fprintf(f, " & %.2f", first->r.time_ms_median / r->r.time_ms_median);
        else
            fputs(" & --", f);
        if (cub)
            fprintf(f, " & %.0f \\\\\n", 100 * cub->r.time_ms_median / r->r.time_ms_median);
        else
            fputs(" & -- \\\\\n", f);
        if (!lib) {
            first = first ? first : r;
            prev = r;
            fast = !fast || r->r.time_ms_median < fast->r.time_ms_median ? r : fast;
        }
    }
    fputs("\\bottomrule\n\\end{tabular}\n", f);
    if (first && fast && first != fast) {
        struct mmb_report_finding *one = calloc(1, sizeof *one);
        if (one) {
            char a[16];
            mmb_report_finding_add(one, "Each step at its fastest configuration (%s): %s runs ×%s faster than %s.",
                                   c->sel, fast->r.kernel,
                                   mmb_report_finding_ratio(first->r.time_ms_median / fast->r.time_ms_median, a),
                                   first->r.kernel);
            sentence(f, one);
            free(one);
        }
    }
    fputs("\\end{frame}\n\n", f);
}

static const struct mmb_report_figure *figure_named(const struct mmb_report *rep, const char *name)
{
    for (size_t i = 0; i < rep->nfigs; i++)
        if (rep->figs[i].deck && !strcmp(rep->figs[i].name, name))
            return &rep->figs[i];
    return NULL;
}

static void slides_body(FILE *f, const struct mmb_report *rep, struct mmb_report_finding *s)
{
    struct mmb_report_findings_ctx c;
    mmb_report_findings_ctx_init(rep, &c);
    const struct mmb_report_data *d = &rep->data;
    size_t p = 0, g0 = 0;
    bool ladder = mmb_report_summary_ladder_pick(&c, &p, &g0);
    char pslug[MMB_REPORT_NAME_MAX], name[200];
    if (ladder)
        mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
    for (size_t g = 0; ladder && g < d->ngpus; g++) {
        snprintf(name, sizeof name, "%s-%s", pslug, d->gpus[g].slug);
        const struct mmb_report_figure *fig = figure_named(rep, name);
        memset(s, 0, sizeof *s);
        mmb_report_summary_ladder(&c, p, g, s);
        if (fig && s->text[0])
            figure_slide(f, rep, fig, s);
        if (g == g0)
            ladder_table_slide(f, &c, p, g);
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        snprintf(name, sizeof name, "kernels-%s", d->gpus[g].slug);
        const struct mmb_report_figure *fig = figure_named(rep, name);
        memset(s, 0, sizeof *s);
        mmb_report_summary_story(&c, g, s);
        if (fig && s->text[0])
            figure_slide(f, rep, fig, s);
    }
    const struct mmb_report_figure *fig = figure_named(rep, "gpus-speedup");
    memset(s, 0, sizeof *s);
    mmb_report_summary_gpus(&c, s);
    if (fig && s->text[0])
        figure_slide(f, rep, fig, s);
}

int mmb_report_slides_write(struct mmb_report *rep, char *err, size_t errlen)
{
    struct mmb_report_out o;
    struct mmb_report_finding *s = calloc(1, sizeof *s);
    if (!s)
        return mmb_failf(err, errlen, "out of memory");
    if (mmb_report_out_open(&o, err, errlen) != 0) {
        free(s);
        return -1;
    }
    FILE *f = o.f;
    fputs("% slides.tex - the lecture's figures and tables, one a slide with one sentence computed from the data.\n"
          "% Written by `mmbench report` with the figures it draws for it (figures/deck-*.pdf, sized so that no\n"
          "% text is under 9 pt). Compile in this folder: pdflatex slides.tex\n"
          "\\documentclass[aspectratio=1610,11pt]{beamer}\n"
          "\\setbeamertemplate{navigation symbols}{}\n"
          "\\setbeamersize{text margin left=3mm,text margin right=3mm}\n"
          "\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
          "\\title{Matrix multiplication on the GPU, measured}\n"
          "\\subtitle{mmbench report: every number from data/}\n\\date{}\n"
          "\\begin{document}\n\\begin{frame}[plain]\n\\titlepage\n\\end{frame}\n\n",
          f);
    slides_body(f, rep, s);
    fputs("\\end{document}\n", f);
    free(s);
    char path[4400];
    if (mmb_report_state_path(rep, path, sizeof path, NULL, "slides.tex", err, errlen) != 0) {
        mmb_report_out_discard(&o);
        return -1;
    }
    return mmb_report_out_commit(&o, path, err, errlen);
}
