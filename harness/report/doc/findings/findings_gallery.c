/* findings_gallery.c - the seeds' failure gallery of slides.tex: each seed kernel that
 * fails as written (profile role as written: it does not compile, or computes wrong
 * results) on a slide of its own, as the Seed kernels as written table has it: the
 * source line the compiler names (read from the kernel's source file as the profile
 * resolves it, the line of the compiler's first error), that error (the CSV's reason as
 * the table shows it), and the
 * fix (the bug as the CSV's note names it). Nothing is typed in: a slide says only what
 * the rows, the note and the source carry. */
#include "report/doc/findings/findings_impl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc/md.h"
#include "report/input/profiles.h"

/* Line n (from 1) of a source file, trimmed, into out; false when it cannot be read or
 * is longer than out (a slide shows a line whole or not at all). */
static bool source_line(const char *path, long n, char *out, size_t len)
{
    FILE *f = path[0] && n > 0 ? fopen(path, "r") : NULL;
    if (!f)
        return false;
    char buf[512];
    bool ok = false;
    /* a line longer than buf comes in pieces: only a piece that ends it counts a line */
    for (long i = 1; fgets(buf, sizeof buf, f);) {
        size_t l = strlen(buf);
        bool ends = l > 0 && buf[l - 1] == '\n';
        if (i == n) {
            ok = ends || feof(f);
            break;
        }
        i += ends;
    }
    if (fclose(f) != 0 || !ok)
        return false;
    char *s = buf;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t l = strcspn(s, "\r\n");
    while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t'))
        l--;
    if (l == 0 || l + 1 > len)
        return false;
    memcpy(out, s, l);
    out[l] = '\0';
    return true;
}

/* The source path as a reader finds it: under the source root relative to it, else as the
 * profile has it. */
static void shown_path(const struct mmb_report *rep, const char *path, char *out, size_t len)
{
    char r[PATH_MAX], p[PATH_MAX];
    size_t n = realpath(rep->root, r) && realpath(path, p) ? strlen(r) : 0;
    snprintf(out, len, "%s", n && !strncmp(p, r, n) && p[n] == '/' ? p + n + 1 : path);
}

/* Markdown code span of s (no backticks in it: else plain) */
static void code(char *out, size_t len, const char *s)
{
    snprintf(out, len, strchr(s, '`') ? "%s" : "`%s`", s);
}

static void gallery_slide(FILE *f, const struct mmb_report_findings_ctx *c, size_t p, size_t k,
                          const struct mmb_report_row *r, size_t runs, size_t bad)
{
    const struct mmb_report_data *d = c->d;
    bool compile = r->r.status == MMB_STATUS_COMPILE_ERROR;
    fputs("\\begin{frame}[plain]{", f);
    mmb_report_md_tex(f, d->kernels[k]);
    fputs(compile ? " as written: it does not compile}\n" : " as written: it computes wrong results}\n", f);
    fputs("\\small\\raggedright\n", f);
    const struct mmb_report_kernel_doc *doc = mmb_report_profile_doc(d, p, d->kernels[k]);
    char why[256];
    mmb_report_md_reason(r->r.reason, why, sizeof why);
    for (char *q = why; *q; q++)
        *q = *q == '`' ? '\'' : *q;
    const char *at = strncmp(why, "line ", 5) ? NULL : why;
    long line = at ? strtol(at + 5, NULL, 10) : 0;
    char text[1200], shown[1100];
    if (doc && source_line(doc->source, line, text, 600)) {
        shown_path(c->rep, doc->source, shown, sizeof shown);
        fputs("\\textbf{The source} (", f);
        mmb_report_md_tex(f, shown);
        fprintf(f, ", line %ld):\\par\\medskip\n", line);
        char span[700];
        code(span, sizeof span, text);
        mmb_report_md_tex_spans(f, span);
        fputs("\\par\\bigskip\n", f);
    }
    fputs(compile ? "\\textbf{The compiler's error}:\\par\\medskip\n" : "\\textbf{The check}", f);
    if (!compile)
        fprintf(f, " (%zu of %zu runs wrong; the first):\\par\\medskip\n", bad, runs);
    code(text, sizeof text, why);
    mmb_report_md_tex_spans(f, text);
    fputs("\\par\\bigskip\n", f);
    const struct mmb_report_file *nf = &d->files[r->file];
    if (nf->note && mmb_report_data_note_kernel(nf->note, d->kernels[k], text, sizeof text)) {
        fputs("\\textbf{The bug and its fix}:\\par\\medskip\n", f);
        mmb_report_md_tex_spans(f, text);
        fputs("\\par\n", f);
    }
    fputs("\\end{frame}\n\n", f);
}

void mmb_report_findings_gallery_slides(FILE *f, const struct mmb_report_findings_ctx *c)
{
    const struct mmb_report_data *d = c->d;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    if (c->primary < 0 || !mmb_report_profiles_of(d, MMB_REPORT_ROLE_AS_WRITTEN, ps))
        return;
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, ps[0], ks);
    for (size_t j = 0; j < nk; j++) {
        size_t k = ks[j], runs = 0, wrong = 0;
        const struct mmb_report_row *first_wrong = NULL, *first_compile = NULL;
        bool ok = false;
        for (size_t i = 0; i < d->nrows; i++) {
            const struct mmb_report_row *rr = &d->rows[i];
            if (rr->profile != ps[0] || (int)rr->gpu != c->primary || rr->kernel != k || (int)k == d->cublas)
                continue;
            runs += rr->r.status == MMB_STATUS_OK || rr->r.status == MMB_STATUS_WRONG_RESULT;
            ok = ok || rr->r.status == MMB_STATUS_OK;
            if (rr->r.status == MMB_STATUS_WRONG_RESULT) {
                wrong++;
                first_wrong = first_wrong ? first_wrong : rr;
            }
            if (rr->r.status == MMB_STATUS_COMPILE_ERROR && !first_compile)
                first_compile = rr;
        }
        /* as the summary counts them: wrong where any run was wrong, else not compiling
         * where none ran */
        if (first_wrong)
            gallery_slide(f, c, ps[0], k, first_wrong, runs, wrong);
        else if (first_compile && !ok)
            gallery_slide(f, c, ps[0], k, first_compile, 0, 0);
    }
}
