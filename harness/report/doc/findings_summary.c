/* findings_summary.c - what a lecture needs first: the report's one-page summary, a
 * few sentences computed from the rows (how far the kernel ladder climbs, its largest
 * steps, how far the story's kernels get, the GPUs side by side, the seed kernels as
 * written), at most MMB_REPORT_SUMMARY_WORDS words, with the ladder figure under them;
 * and reports/slides.tex, a Beamer deck (16:10, 11 pt) of the lecture's figures and
 * tables, one figure or one table and one sentence a slide, the sentences the
 * summary's. The deck's figures are the slides-sized PDFs the report draws of them
 * (figures/deck-NAME.pdf), included at their own size so that no text on a slide is
 * under 9 pt; a figure not drawn is left out. Each sentence is left out when the data
 * does not carry it. */
#include "report/doc/findings_impl.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "report/doc/findings.h"
#include "report/doc/md.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/row.h"
#include "core/error.h"
#include "report/input/out.h"
#include <sys/stat.h>

/* The first ladder profile and a GPU with its rows at the reference size (the primary
 * one first); false when none. */
bool mmb_report_findings_summary_ladder_pick(const struct mmb_report_findings_ctx *c, size_t *p, size_t *g)
{
    const struct mmb_report_data *d = c->d;
    size_t ps[MMB_REPORT_PROFILES_MAX], np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_LADDER, ps);
    for (size_t j = 0; j < np; j++)
        for (size_t i = 0; i <= d->ngpus; i++) {
            size_t gg = i == 0 ? (c->primary >= 0 ? (size_t)c->primary : 0) : i - 1;
            struct mmb_report_shape s[2];
            if (gg < d->ngpus && mmb_report_profile_sizes(d, ps[j], gg, s) > 0) {
                *p = ps[j];
                *g = gg;
                return true;
            }
        }
    return false;
}

/* The ladder at its first size: from the first step to the fastest, its share of
 * cuBLAS and of the peak, and its two largest steps (a step after a slower one is
 * a recovery, not a gain). */
void mmb_report_findings_summary_ladder(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                               struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    struct mmb_report_shape s[2];
    if (!mmb_report_profile_sizes(d, p, g, s))
        return;
    const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX];
    mmb_report_profile_best(d, p, g, d->dtype, &s[0], best);
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks), steps = 0;
    const struct mmb_report_row *from = NULL, *fast = NULL, *prev = NULL, *cub = d->cublas >= 0 ? best[d->cublas] : NULL;
    double gain[2] = {0, 0};
    const struct mmb_report_row *at[2] = {NULL, NULL};
    bool after_loss = false;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = best[ks[j]];
        if (!r || (int)ks[j] == d->cublas)
            continue;
        steps++;
        from = from ? from : r;
        fast = !fast || r->r.time_ms_median < fast->r.time_ms_median ? r : fast;
        double x = prev ? prev->r.time_ms_median / r->r.time_ms_median : 0;
        if (prev && !after_loss && x > gain[1]) {
            int slot = x > gain[0] ? 0 : 1;
            if (slot == 0) {
                gain[1] = gain[0];
                at[1] = at[0];
            }
            gain[slot] = x;
            at[slot] = r;
        }
        after_loss = prev && x < 1;
        prev = r;
    }
    if (!from || from == fast)
        return;
    char label[96], gpu[128], a[16], b[16], e[16];
    mmb_report_shape_label(&s[0], label, sizeof label);
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    mmb_report_finding_add(f, "- On the %s at %s (%s), the kernel ladder (profile %s) climbs over %zu kernels from %s's "
                              "%s TFLOP/s to %s's %s, ×%s",
                           gpu, label, c->sel, d->profiles[p].name, steps, from->r.kernel,
                           mmb_report_finding_tflops(mmb_report_row_gflops(from), a), fast->r.kernel,
                           mmb_report_finding_tflops(mmb_report_row_gflops(fast), b),
                           mmb_report_finding_ratio(from->r.time_ms_median / fast->r.time_ms_median, e));
    if (cub)
        mmb_report_finding_add(f, ": %s%% of cuBLAS", mmb_report_finding_pct(100 * cub->r.time_ms_median /
                                                                               fast->r.time_ms_median, a));
    if (isfinite(mmb_row_fp32_pct(&fast->r)))
        mmb_report_finding_add(f, " and %s%% of the FP32 peak", mmb_report_finding_pct(mmb_row_fp32_pct(&fast->r), a));
    mmb_report_finding_add(f, ".");
    if (at[0] && gain[0] > 1.05) {
        mmb_report_finding_add(f, " The largest steps: %s ×%s", at[0]->r.kernel, mmb_report_finding_ratio(gain[0], a));
        if (at[1] && gain[1] > 1.05)
            mmb_report_finding_add(f, " and %s ×%s", at[1]->r.kernel, mmb_report_finding_ratio(gain[1], b));
        mmb_report_finding_add(f, " over the step before.");
    }
    mmb_report_finding_add(f, "\n");
}

/* The story's fastest own kernel and cuBLAS at the reference size on GPU g. */
void mmb_report_findings_summary_story(const struct mmb_report_findings_ctx *c, size_t g, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    if (d->ref < 0 || d->main < 0)
        return;
    const struct mmb_report_row *fast = NULL, *cub = c->cublas >= 0 ? mmb_report_finding_at_ref(c, g, (size_t)c->cublas)
                                                                     : NULL;
    for (size_t k = 0; k < d->nstory; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        if (r && (int)k != c->cublas && (!fast || r->r.time_ms_median < fast->r.time_ms_median))
            fast = r;
    }
    if (!fast)
        return;
    char gpu[128], a[16], b[16], e[16];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    if (!cub) { /* a GPU without the library's rows (published figures): the kernel alone */
        mmb_report_finding_add(f, "- The %s profile's fastest kernel on the %s at %s, %s, reaches %s TFLOP/s.\n",
                               d->profiles[d->main].name, gpu, c->ref, fast->r.kernel,
                               mmb_report_finding_tflops(mmb_report_row_gflops(fast), a));
        return;
    }
    mmb_report_finding_add(f, "- The %s profile's fastest kernel, %s, reaches %s TFLOP/s at %s on the %s, %s%% of "
                              "cuBLAS; cuBLAS itself reaches %s%% of the FP32 peak.\n",
                           d->profiles[d->main].name, fast->r.kernel,
                           mmb_report_finding_tflops(mmb_report_row_gflops(fast), a), c->ref, gpu,
                           mmb_report_finding_pct(100 * cub->r.time_ms_median / fast->r.time_ms_median, b),
                           mmb_report_finding_pct(mmb_row_fp32_pct(&cub->r), e));
}

/* Two measured GPUs: the range of their speed ratios over the story's kernels at the
 * reference size. Which one is faster is compare's verdict to give, not this range's. */
void mmb_report_findings_summary_gpus(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    int a = -1, b = -1;
    for (size_t g = 0; g < d->ngpus; g++)
        if (mmb_report_finding_measured(d, g)) {
            if (a < 0)
                a = (int)g;
            else if (b < 0)
                b = (int)g;
        }
    if (a < 0 || b < 0 || d->ref < 0)
        return;
    double lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t k = 0; k < d->nstory; k++) {
        const struct mmb_report_row *ra = mmb_report_finding_at_ref(c, (size_t)a, k),
                                    *rb = mmb_report_finding_at_ref(c, (size_t)b, k);
        if (!ra || !rb)
            continue;
        double x = ra->r.time_ms_median / rb->r.time_ms_median;
        lo = fmin(lo, x);
        hi = fmax(hi, x);
        n++;
    }
    if (n < 2)
        return;
    char ga[128], gb[128], s1[16], s2[16];
    mmb_report_finding_gpu(c, (size_t)a, ga, sizeof ga);
    mmb_report_finding_gpu(c, (size_t)b, gb, sizeof gb);
    mmb_report_finding_add(f, "- The %s runs the %zu %s kernels at %s to %s times the %s's speed at %s.\n",
                           gb, n, d->profiles[d->main].name, mmb_report_finding_ratio(lo, s1),
                           mmb_report_finding_ratio(hi, s2), ga, c->ref);
}

/* The seed kernels as written: how many are correct as printed (on the primary GPU). */
static void seeds_sentence(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    if (c->primary < 0 || !mmb_report_profiles_of(d, MMB_REPORT_ROLE_AS_WRITTEN, ps))
        return;
    size_t by[MMB_REPORT_KERNELS_MAX][MMB_STATUS_COUNT];
    memset(by, 0, sizeof by);
    bool here[MMB_REPORT_KERNELS_MAX] = {false};
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile != ps[0] || (int)rr->gpu != c->primary || (int)rr->kernel == d->cublas ||
            (unsigned)rr->r.status >= MMB_STATUS_COUNT)
            continue;
        here[rr->kernel] = true;
        by[rr->kernel][rr->r.status]++;
    }
    size_t n = 0, correct = 0, compile = 0, wrong = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        if (!here[k])
            continue;
        n++;
        if (by[k][MMB_STATUS_WRONG_RESULT])
            wrong++;
        else if (by[k][MMB_STATUS_OK])
            correct++;
        else if (by[k][MMB_STATUS_COMPILE_ERROR])
            compile++;
    }
    if (n)
        mmb_report_finding_add(f, "- Of the %zu seed kernels run exactly as printed, %zu are correct, %zu do not "
                                  "compile and %zu compute wrong results.\n",
                               n, correct, compile, wrong);
}

static size_t words(const char *s)
{
    size_t n = 0;
    for (bool in = false; *s; s++) {
        bool w = !isspace((unsigned char)*s);
        n += w && !in;
        in = w;
    }
    return n;
}

void mmb_report_findings_summary_md(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_findings_ctx c;
    mmb_report_findings_ctx_init(rep, &c);
    struct mmb_report_finding *s = calloc(1, sizeof *s);
    if (!s)
        return;
    size_t p = 0, g = 0;
    bool ladder = mmb_report_findings_summary_ladder_pick(&c, &p, &g);
    if (ladder)
        mmb_report_findings_summary_ladder(&c, p, g, s);
    /* each sentence only while the whole stays within the word limit */
    for (size_t i = 0; i < 3; i++) {
        size_t keep = strlen(s->text);
        if (i == 0 && c.primary >= 0)
            mmb_report_findings_summary_story(&c, (size_t)c.primary, s);
        else if (i == 1)
            mmb_report_findings_summary_gpus(&c, s);
        else if (i == 2)
            seeds_sentence(&c, s);
        if (words(s->text) > MMB_REPORT_SUMMARY_WORDS)
            s->text[keep] = '\0';
    }
    if (!s->text[0] && !ladder) {
        free(s);
        return;
    }
    fputs("## Summary\n\n", f);
    for (const char *t = s->text; *t;) {
        size_t len = strcspn(t, "\n");
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)len, t);
        fputs("- ", f);
        mmb_report_md_text(f, line + 2);
        fputc('\n', f);
        t += len + (t[len] == '\n');
    }
    fputc('\n', f);
    if (ladder) {
        char pslug[MMB_REPORT_NAME_MAX], name[160];
        mmb_gpu_slug(c.d->profiles[p].name, pslug, sizeof pslug);
        snprintf(name, sizeof name, "%s-%s", pslug, c.d->gpus[g].slug);
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_SECTION && strcmp(rep->figs[i].name, name) == 0) {
                mmb_report_md_figure(f, rep, &rep->figs[i]);
                break;
            }
    }
    free(s);
}

/* ---- slides.tex ---------------------------------------------------------------------------- */

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
    bool ladder = mmb_report_findings_summary_ladder_pick(&c, &p, &g0);
    char pslug[MMB_REPORT_NAME_MAX], name[200];
    if (ladder)
        mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
    for (size_t g = 0; ladder && g < d->ngpus; g++) {
        snprintf(name, sizeof name, "%s-%s", pslug, d->gpus[g].slug);
        const struct mmb_report_figure *fig = figure_named(rep, name);
        memset(s, 0, sizeof *s);
        mmb_report_findings_summary_ladder(&c, p, g, s);
        if (fig && s->text[0])
            figure_slide(f, rep, fig, s);
        if (g == g0)
            ladder_table_slide(f, &c, p, g);
    }
    for (size_t g = 0; g < d->ngpus; g++) {
        snprintf(name, sizeof name, "kernels-%s", d->gpus[g].slug);
        const struct mmb_report_figure *fig = figure_named(rep, name);
        memset(s, 0, sizeof *s);
        mmb_report_findings_summary_story(&c, g, s);
        if (fig && s->text[0])
            figure_slide(f, rep, fig, s);
    }
    const struct mmb_report_figure *fig = figure_named(rep, "gpus-speedup");
    memset(s, 0, sizeof *s);
    mmb_report_findings_summary_gpus(&c, s);
    if (fig && s->text[0])
        figure_slide(f, rep, fig, s);
}

int mmb_report_findings_summary_slides(struct mmb_report *rep, char *err, size_t errlen)
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
