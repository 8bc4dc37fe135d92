/* sections.c - the report's places for the profiles that do not tell the story
 * (profiles.c chooses): the paragraph of "This report" that names the story's
 * profile and where each other profile is shown, and the sections of the profiles
 * that have one: Kernel ladder (ladder_doc.c), Precisions, Seed kernels as written
 * and Other profiles. The last two show, per GPU, each kernel of the profile at its
 * size: its status over the configurations that ran, the fastest correct one's time
 * and speed, and what went wrong, from the CSV's reason and from the CSV's note
 * (x.md beside x.csv: a Markdown table whose first column names the kernel). */
#include "report/doc/sections.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "report/doc/ladder_doc.h"
#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/labels.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "report/input/story.h"
#include "report/input/tune_groups.h"

/* Where each role's profiles are shown; NULL: in the story. */
static const struct {
    enum mmb_report_role role;
    const char *where;  /* Markdown */
    const char *title;  /* the section's heading; NULL: not a section of this file */
} places[] = {
    {MMB_REPORT_ROLE_TUNING, "[tuning.md](tuning.md)", NULL},
    {MMB_REPORT_ROLE_DTYPES, "the element-type table of each GPU ([Tables](#tables))", NULL},
    {MMB_REPORT_ROLE_LADDER, "[Kernel ladder](ladder.md)", "Kernel ladder"}, /* its own page */
    {MMB_REPORT_ROLE_AS_WRITTEN, "[Seed kernels as written](#seed-kernels-as-written)", "Seed kernels as written"},
    {MMB_REPORT_ROLE_PRECISIONS, "[Precisions](#precisions)", "Precisions"},
    {MMB_REPORT_ROLE_OTHER, "[Other profiles](#other-profiles)", "Other profiles"},
    {MMB_REPORT_ROLE_MAIN, NULL, NULL},
};

const char *mmb_report_sections_role_where(enum mmb_report_role role)
{
    size_t i = 0;
    while (places[i].where && places[i].role != role)
        i++;
    return places[i].where;
}

/* ---- the paragraph ---------------------------------------------------------------------------- */

void mmb_report_sections_profiles_md(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    if (d->main < 0)
        return;
    fputs("**Profiles.** The story (Key findings, Figures and Tables) is drawn from one profile, ", f);
    mmb_report_md_code(f, d->profiles[d->main].name[0] ? d->profiles[d->main].name : "(unnamed)");
    fprintf(f, " (%s; `--profile NAME` chooses another; without it the report takes the profile that declares "
               "`role = story`, else `%s` when the data has it, else the profile with the most ok rows)",
            d->main_rule, mmb_report_story.main_profile);
    size_t pub[MMB_REPORT_PROFILES_MAX];
    if (mmb_report_profiles_of(d, MMB_REPORT_ROLE_PUBLISHED, pub))
        fputs(", with the published figures beside it", f);
    fputs(": each kernel's best configuration is the fastest among that profile's rows alone, so kernels of other "
          "sweeps never join its ladder, bars or tables.",
          f);
    size_t n = 0;
    for (size_t i = 0; places[i].where; i++) {
        size_t ps[MMB_REPORT_PROFILES_MAX];
        size_t m = mmb_report_profiles_of(d, places[i].role, ps);
        if (places[i].role == MMB_REPORT_ROLE_TUNING && !mmb_report_tune_groups_any(rep))
            m = 0;
        for (size_t j = 0; j < m; j++) {
            fputs(n++ ? "; " : " The other profiles are shown apart: ", f);
            mmb_report_md_code(f, d->profiles[ps[j]].name);
            fprintf(f, " in %s", places[i].where);
        }
    }
    if (n)
        fputs(". A profile goes to the section its `role =` names (profiles/NAME.ini); one without the key, by its "
              "name (`tune*`, `ladder*`, `seeds*`, `precisions*`); of the others, the one that measures the most "
              "element types feeds the element-type tables, and each remaining one is listed under Other profiles.",
              f);
    fputs("\n\n", f);
}

void mmb_report_sections_contents(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    for (size_t i = 0; places[i].where; i++) {
        size_t ps[MMB_REPORT_PROFILES_MAX];
        if (places[i].title && mmb_report_profiles_of(d, places[i].role, ps))
            fprintf(f, "%s · ", places[i].where);
    }
}

/* ---- each kernel's status at its size ------------------------------------------------------------ */

struct kstatus {
    struct mmb_report_shape s;
    size_t by[MMB_STATUS_COUNT];        /* rows at that size by status; restricted ones left out */
    size_t ran;                         /* rows counted */
    const struct mmb_report_row *best;  /* the fastest ok row */
    const struct mmb_report_row *why;   /* the first row of the most frequent failure */
};

static bool in_cell(const struct mmb_report_row *rr, size_t p, size_t g, size_t k, const char *dtype)
{
    return rr->profile == p && rr->gpu == g && rr->kernel == k && strcmp(rr->r.dtype, dtype) == 0 &&
           rr->r.status != MMB_STATUS_RESTRICTED;
}

static double work(const struct mmb_report_shape *s)
{
    return (double)s->m * (double)s->n * (double)s->k;
}

/* Kernel k of profile p on GPU g in dtype: at the reference size when it has a row
 * there, else at its largest. False when it has no row. */
static bool kstatus_get(const struct mmb_report_data *d, size_t p, size_t g, size_t k, const char *dtype,
                        struct kstatus *ks)
{
    memset(ks, 0, sizeof *ks);
    const struct mmb_report_shape *ref = d->ref >= 0 ? &d->shapes[d->ref] : NULL;
    bool any = false, at_ref = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!in_cell(rr, p, g, k, dtype))
            continue;
        struct mmb_report_shape s = {rr->r.m, rr->r.n, rr->r.k};
        at_ref = at_ref || (ref && s.m == ref->m && s.n == ref->n && s.k == ref->k);
        if (!any || work(&s) > work(&ks->s))
            ks->s = s;
        any = true;
    }
    if (!any)
        return false;
    if (at_ref)
        ks->s = *ref;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!in_cell(rr, p, g, k, dtype) || rr->r.m != ks->s.m || rr->r.n != ks->s.n || rr->r.k != ks->s.k ||
            (unsigned)rr->r.status >= MMB_STATUS_COUNT)
            continue;
        ks->by[rr->r.status]++;
        ks->ran++;
        if (rr->r.status == MMB_STATUS_OK && isfinite(rr->r.time_ms_median) &&
            (!ks->best || rr->r.time_ms_median < ks->best->r.time_ms_median))
            ks->best = rr;
    }
    size_t worst = MMB_STATUS_COUNT;
    for (size_t st = 0; st < MMB_STATUS_COUNT; st++)
        if (st != MMB_STATUS_OK && ks->by[st] && (worst == MMB_STATUS_COUNT || ks->by[st] > ks->by[worst]))
            worst = st;
    for (size_t i = 0; i < d->nrows && worst < MMB_STATUS_COUNT && !ks->why; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (in_cell(rr, p, g, k, dtype) && (size_t)rr->r.status == worst && rr->r.m == ks->s.m &&
            rr->r.n == ks->s.n && rr->r.k == ks->s.k)
            ks->why = rr;
    }
    return true;
}

/* "ok", or "wrong_result 34, ok 2, invalid_config 2": most frequent first. */
static void kstatus_text(const struct kstatus *ks, char *out, size_t len)
{
    bool done[MMB_STATUS_COUNT] = {false};
    size_t kinds = 0;
    for (size_t st = 0; st < MMB_STATUS_COUNT; st++)
        kinds += ks->by[st] > 0;
    out[0] = '\0';
    for (size_t j = 0; j < kinds; j++) {
        size_t top = MMB_STATUS_COUNT;
        for (size_t st = 0; st < MMB_STATUS_COUNT; st++)
            if (ks->by[st] && !done[st] && (top == MMB_STATUS_COUNT || ks->by[st] > ks->by[top]))
                top = st;
        done[top] = true;
        size_t o = strlen(out);
        if (kinds == 1)
            snprintf(out + o, len - o, "%s", mmb_status_text((enum mmb_status)top));
        else
            snprintf(out + o, len - o, "%s%s %zu", j ? ", " : "", mmb_status_text((enum mmb_status)top), ks->by[top]);
    }
}

/* The note of profile p's rows on GPU g: the first of their files that has one. */
static const struct mmb_report_file *note_file(const struct mmb_report_data *d, size_t p, size_t g)
{
    for (size_t i = 0; i < d->nrows; i++)
        if (d->rows[i].profile == p && d->rows[i].gpu == g && d->files[d->rows[i].file].note)
            return &d->files[d->rows[i].file];
    return NULL;
}

/* Markdown: the CSV's reason as code, then the note's bug. */
static void why_text(const struct kstatus *ks, const char *note, const char *kernel, char *out, size_t len)
{
    char reason[256] = "", bug[512] = "";
    if (ks->why) {
        mmb_report_md_reason(ks->why->r.reason, reason, sizeof reason);
        for (char *c = reason; *c; c++)
            *c = *c == '`' ? '\'' : *c;
    }
    bool has_bug = note && mmb_report_data_note_kernel(note, kernel, bug, sizeof bug);
    out[0] = '\0';
    if (reason[0])
        snprintf(out, len, "`%s`%s", reason, has_bug ? ". " : "");
    if (has_bug)
        snprintf(out + strlen(out), len - strlen(out), "The bug: %s", bug);
}

static int status_table(const struct mmb_report *rep, size_t p, size_t g, const char *what, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    char gpu[128];
    mmb_report_state_gpu_label(rep, g, gpu, sizeof gpu);
    snprintf(t.title, sizeof t.title, "%s: %s (profile %s), each at its size", gpu, what, d->profiles[p].name);
    snprintf(t.label, sizeof t.label, "tab:%s-profile-%zu", d->gpus[g].slug, p);
    static const char *const heads[] = {"Kernel", "Type", "Size", "Status", "Configuration", "ms", "TFLOP/s",
                                        "% cuBLAS", "What is wrong"};
    for (size_t c = 0; c < MMB_COUNT(heads); c++)
        mmb_report_tabular_head(&t, c, heads[c], c >= 5 && c <= 7, c == 4);
    t.prose[8] = true;
    t.wrap[3] = 0.17; /* several statuses with their counts */
    const struct mmb_report_file *nf = note_file(d, p, g);
    size_t ks_of[MMB_REPORT_KERNELS_MAX];
    size_t nk = mmb_report_profile_kernels(d, p, ks_of);
    bool any_why = false, i32 = false;
    for (size_t j = 0; j < nk; j++) {
        size_t k = ks_of[j];
        char dtypes[8][8];
        size_t nd = 0;
        for (size_t i = 0; i < d->nrows && nd < 8; i++) {
            const struct mmb_report_row *rr = &d->rows[i];
            bool seen = false;
            for (size_t x = 0; x < nd; x++)
                seen = seen || strcmp(dtypes[x], rr->r.dtype) == 0;
            if (!seen && in_cell(rr, p, g, k, rr->r.dtype))
                snprintf(dtypes[nd++], sizeof dtypes[0], "%s", rr->r.dtype);
        }
        for (size_t x = 0; x < nd; x++) {
            struct kstatus ks, cub;
            if (!kstatus_get(d, p, g, k, dtypes[x], &ks) || ((int)k == d->cublas && !ks.best))
                continue; /* cuBLAS is the reference where it ran, not a kernel of the profile */
            struct mmb_report_cell *row = mmb_report_tabular_row(&t);
            if (!row)
                return -1;
            snprintf(row[0].text, sizeof row[0].text, "%s", d->kernels[k]);
            snprintf(row[1].text, sizeof row[1].text, "%s", dtypes[x]);
            i32 = i32 || strcmp(dtypes[x], "i32") == 0;
            mmb_report_shape_label(&ks.s, row[2].text, sizeof row[2].text);
            kstatus_text(&ks, row[3].text, sizeof row[3].text);
            if (ks.best) {
                mmb_report_label_params(ks.best->r.params, row[4].text, sizeof row[4].text);
                mmb_report_tabular_sig(ks.best->r.time_ms_median, row[5].text, sizeof row[5].text);
                row[5].mark = ks.best->r.time_ms_median < mmb_report_story.small_ms;
                mmb_report_tabular_fixed(mmb_report_row_gflops(ks.best) / 1000, 2, row[6].text, sizeof row[6].text);
                if (d->cublas >= 0 && (int)k != d->cublas && kstatus_get(d, p, g, (size_t)d->cublas, dtypes[x], &cub) &&
                    cub.best && cub.s.m == ks.s.m && cub.s.n == ks.s.n && cub.s.k == ks.s.k) {
                    mmb_report_tabular_fixed(100 * cub.best->r.time_ms_median / ks.best->r.time_ms_median, 0,
                                             row[7].text, sizeof row[7].text);
                    /* a ratio is no better than the faster of its two times */
                    row[7].mark = row[5].mark || cub.best->r.time_ms_median < mmb_report_story.small_ms;
                }
                if (row[5].mark || row[7].mark)
                    snprintf(t.foot, sizeof t.foot, "under 30 µs (the time, or cuBLAS's time for %% cuBLAS): launch "
                                                    "and latency dominate such a time, so it is not comparable (see "
                                                    "Terms)");
            }
            why_text(&ks, nf ? nf->note : NULL, d->kernels[k], row[8].text, sizeof row[8].text);
            any_why = any_why || row[8].text[0];
        }
    }
    if (!any_why)
        t.ncols = 8;
    mmb_report_tabular_note(&t, "Status: of the configurations that ran at that size, each status with its count when "
                              "they differ. Configuration, ms, TFLOP/s%s: the fastest ok one; %% cuBLAS: against "
                              "cuBLAS in the same profile, size and element type.",
                          i32 ? " (TOP/s for i32)" : "");
    if (any_why)
        mmb_report_tabular_note(&t, " What is wrong: the CSV's reason (a compiler's first error)%s.",
                                nf ? ", then the bug as the CSV's note names it" : "");
    mmb_report_tabular_emit(md, tex, &t);
    return 0;
}

/* The profiles of a role, each per GPU as a table of its kernels' status. */
static int status_section(const struct mmb_report *rep, enum mmb_report_role role, const char *title,
                          const char *intro, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    size_t np = mmb_report_profiles_of(d, role, ps);
    if (!np)
        return 0;
    fprintf(md, "## %s\n\n%s\n\n", title, intro);
    fprintf(tex, "%% %s\n", title);
    for (size_t j = 0; j < np; j++) {
        size_t p = ps[j];
        if (role == MMB_REPORT_ROLE_OTHER) {
            fputs("### Profile ", md);
            mmb_report_md_code(md, d->profiles[p].name);
            fputs("\n\n", md);
        }
        for (size_t g = 0; g < d->ngpus; g++) {
            bool here = false;
            for (size_t i = 0; i < d->nrows && !here; i++)
                here = d->rows[i].profile == p && d->rows[i].gpu == g;
            if (here && status_table(rep, p, g, role == MMB_REPORT_ROLE_AS_WRITTEN ? "the seed kernels as written"
                                                                                   : "every kernel",
                                     md, tex) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- Precisions: every element type against its pipe's peak ------------------------------- */

/* The Precisions section (profiles of role precisions): per GPU the precisions figure
 * (plot_precisions.c), what the rows say (cuBLAS on the tensor cores as times its FP32
 * speed, the own kernels against cuBLAS), a table of each kernel in each type against
 * the peak of its pipe; with two GPUs or more, cuBLAS per type side by side. */

static const struct mmb_report_row *of(const struct mmb_report_precisions *pr, const char *dtype, int kernel)
{
    for (size_t t = 0; t < pr->ndtypes && kernel >= 0; t++)
        if (!strcmp(pr->dtypes[t], dtype))
            return pr->best[t][kernel];
    return NULL;
}

static int precisions_table(const struct mmb_report *rep, const struct mmb_report_precisions *pr, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    char gpu[128], size[96];
    mmb_report_state_gpu_label(rep, pr->g, gpu, sizeof gpu);
    mmb_report_shape_label(&pr->s, size, sizeof size);
    snprintf(t.title, sizeof t.title, "%s: each element type at %s, TFLOP/s (TOP/s for i8) and %% of its pipe's peak",
             gpu, size);
    snprintf(t.label, sizeof t.label, "tab:precisions-%s", d->gpus[pr->g].slug);
    static const char *const head[] = {"Type", "Pipe", "Pipe peak", "Kernel", "TFLOP/s", "% of peak", "% cuBLAS",
                                       "Configuration"};
    for (size_t c = 0; c < 8; c++)
        mmb_report_tabular_head(&t, c, head[c], c == 2 || (c >= 4 && c <= 6), c == 7);
    const char *params[MMB_DTYPE_COUNT * MMB_REPORT_KERNELS_MAX];
    size_t np = 0;
    for (size_t i = 0; i < pr->ndtypes; i++) {
        const struct mmb_report_row *cub = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL;
        for (size_t k = 0; k < pr->nkernels; k++) {
            const struct mmb_report_row *r = pr->best[i][pr->kernels[k]];
            if (!r)
                continue;
            struct mmb_report_cell *row = mmb_report_tabular_row(&t);
            if (!row)
                return -1;
            snprintf(row[0].text, sizeof row[0].text, "%s", pr->dtypes[i]);
            snprintf(row[1].text, sizeof row[1].text, "%s", r->r.pipe);
            mmb_report_tabular_fixed(r->r.peak_gflops / 1000, 1, row[2].text, sizeof row[2].text);
            snprintf(row[3].text, sizeof row[3].text, "%s", d->kernels[pr->kernels[k]]);
            mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[4].text, sizeof row[4].text);
            mmb_report_tabular_fixed(100 * mmb_report_row_gflops(r) / r->r.peak_gflops, 1, row[5].text,
                                     sizeof row[5].text);
            if (cub && cub != r)
                mmb_report_tabular_fixed(100 * cub->r.time_ms_median / r->r.time_ms_median, 1, row[6].text,
                                         sizeof row[6].text);
            mmb_report_label_params(r->r.params, row[7].text, sizeof row[7].text);
            if (r->r.params[0])
                params[np++] = r->r.params;
        }
    }
    mmb_report_tabular_note(&t, "Each kernel at its fastest ok configuration (profile %s). Pipe peak: the dense peak "
                              "of the type's pipe (TFLOP/s, TOP/s for i8), from the row; %% of peak: TFLOP/s over it; "
                              "%% cuBLAS: against cuBLAS in the same type and run.",
                          d->profiles[pr->p].name);
    mmb_report_tabular_legend(&t, params, np);
    mmb_report_tabular_emit(md, tex, &t);
    return 0;
}

/* What the rows say: the tensor cores against the FP32 pipe, the own kernels against cuBLAS. */
static void precisions_findings(FILE *md, const struct mmb_report *rep, const struct mmb_report_precisions *pr)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_row *f32 = of(pr, "f32", d->cublas);
    char size[96];
    mmb_report_shape_label(&pr->s, size, sizeof size);
    char list[1024] = "";
    for (size_t i = 0; f32 && i < pr->ndtypes; i++) {
        const struct mmb_report_row *r = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL;
        if (!r || r == f32 || strncmp(r->r.pipe, "tensor", 6) != 0)
            continue;
        size_t o = strlen(list);
        snprintf(list + o, sizeof list - o, "%s%s %.0f (×%.1f)", o ? ", " : "", pr->dtypes[i],
                 mmb_report_row_gflops(r) / 1000, mmb_report_row_gflops(r) / mmb_report_row_gflops(f32));
    }
    if (list[0])
        fprintf(md, "- cuBLAS on the tensor cores at %s, in TFLOP/s (TOP/s for i8) and times its FP32 speed (%.1f "
                    "TFLOP/s on the FP32 pipe): %s.\n",
                size, mmb_report_row_gflops(f32) / 1000, list);
    for (size_t i = 0; i < pr->ndtypes; i++) {
        const struct mmb_report_row *cub = d->cublas >= 0 ? pr->best[i][d->cublas] : NULL, *own = NULL;
        for (size_t k = 0; k < pr->nkernels; k++) {
            const struct mmb_report_row *r = pr->best[i][pr->kernels[k]];
            if (r && (int)pr->kernels[k] != d->cublas && (!own || r->r.time_ms_median < own->r.time_ms_median))
                own = r;
        }
        if (!own || !cub)
            continue;
        fputs("- In ", md);
        mmb_report_md_text(md, pr->dtypes[i]);
        fputs(" the fastest own kernel, ", md);
        mmb_report_md_text(md, own->r.kernel);
        fprintf(md, ", reaches %.1f TFLOP/s at %s: %.0f%% of cuBLAS and %.1f%% of the %s pipe's peak.\n",
                mmb_report_row_gflops(own) / 1000, size, 100 * cub->r.time_ms_median / own->r.time_ms_median,
                100 * mmb_report_row_gflops(own) / own->r.peak_gflops, own->r.pipe);
    }
    fputc('\n', md);
}

/* cuBLAS in each type on each GPU that has the profile, at each GPU's size. */
static int precisions_gpus(const struct mmb_report *rep, struct mmb_report_precisions *all, size_t n, FILE *md,
                       FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    if (n < 2 || d->cublas < 0)
        return 0;
    struct mmb_report_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.title, sizeof t.title, "GPU generations per precision: cuBLAS TFLOP/s (TOP/s for i8)");
    snprintf(t.label, sizeof t.label, "tab:precisions-gpus");
    mmb_report_tabular_head(&t, 0, "Type", false, false);
    for (size_t j = 0; j < n && j + 2 < MMB_REPORT_TCOLS; j++) {
        char gpu[128], size[96], h[256];
        mmb_report_state_gpu_label(rep, all[j].g, gpu, sizeof gpu);
        mmb_report_shape_label(&all[j].s, size, sizeof size);
        snprintf(h, sizeof h, "%s at %s", gpu, size);
        mmb_report_tabular_head(&t, j + 1, h, true, false);
    }
    char h[320];
    snprintf(h, sizeof h, "× %s over the first", d->gpus[all[n - 1].g].name);
    mmb_report_tabular_head(&t, n + 1, h, true, false);
    for (const struct mmb_dtype_info *ti = mmb_dtype_table; ti->text; ti++) {
        const struct mmb_report_row *first = of(&all[0], ti->text, d->cublas), *last = of(&all[n - 1], ti->text, d->cublas);
        bool any = false;
        for (size_t j = 0; j < n; j++)
            any = any || of(&all[j], ti->text, d->cublas);
        if (!any)
            continue;
        struct mmb_report_cell *row = mmb_report_tabular_row(&t);
        if (!row)
            return -1;
        snprintf(row[0].text, sizeof row[0].text, "%s", ti->text);
        for (size_t j = 0; j < n; j++) {
            const struct mmb_report_row *r = of(&all[j], ti->text, d->cublas);
            if (r)
                mmb_report_tabular_fixed(mmb_report_row_gflops(r) / 1000, 1, row[j + 1].text, sizeof row[j + 1].text);
        }
        if (first && last)
            mmb_report_tabular_fixed(first->r.time_ms_median / last->r.time_ms_median, 2, row[n + 1].text,
                                     sizeof row[n + 1].text);
    }
    mmb_report_tabular_note(&t, "Medians of one run each; a ratio is a difference only beyond the runs' noise, which "
                              "mmbench compare judges from the samples.");
    mmb_report_tabular_emit(md, tex, &t);
    return 0;
}

/* "## Precisions" with each GPU's figure, findings and table, and the GPUs side by
 * side; nothing without a precisions profile's ok rows. -1 without memory. */
static int precisions_section(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_precisions *all = calloc(d->ngpus ? d->ngpus : 1, sizeof *all);
    if (!all)
        return -1;
    size_t n = 0;
    for (size_t g = 0; g < d->ngpus; g++)
        n += mmb_report_profile_precisions_at(d, g, &all[n]);
    int rc = 0;
    if (n) {
        fputs("## Precisions\n\nEvery element type on the pipe it runs on: cuBLAS in each type and the own kernels "
              "in theirs, against the dense peak of that type's pipe (the tensor cores for f16, bf16, tf32, e4m3 "
              "and i8; FP64 tensor cores for f64 cuBLAS), each at its fastest configuration.\n\n",
              md);
        fputs("% Precisions\n", tex);
    }
    for (size_t j = 0; j < n && rc == 0; j++) {
        char gpu[128], name[160];
        mmb_report_state_gpu_label(rep, all[j].g, gpu, sizeof gpu);
        fputs("### ", md);
        mmb_report_md_text(md, gpu);
        fputs("\n\n", md);
        snprintf(name, sizeof name, "precisions-%s", d->gpus[all[j].g].slug);
        for (size_t i = 0; i < rep->nfigs; i++)
            if (rep->figs[i].group == MMB_REPORT_GROUP_SECTION && !strcmp(rep->figs[i].name, name))
                mmb_report_md_figure(md, rep, &rep->figs[i]);
        precisions_findings(md, rep, &all[j]);
        rc = precisions_table(rep, &all[j], md, tex);
    }
    if (rc == 0)
        rc = precisions_gpus(rep, all, n, md, tex);
    free(all);
    return rc;
}

size_t mmb_report_sections_ladders(const struct mmb_report *rep, FILE *md, FILE *tex, int *rc)
{
    size_t ps[MMB_REPORT_PROFILES_MAX];
    size_t np = mmb_report_profiles_of(&rep->data, MMB_REPORT_ROLE_LADDER, ps);
    *rc = 0;
    for (size_t j = 0; j < np && *rc == 0; j++)
        *rc = mmb_report_ladder_doc_section(rep, ps[j], j == 0, md, tex);
    return np;
}

int mmb_report_sections_write(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    if (precisions_section(rep, md, tex) != 0)
        return -1;
    if (status_section(rep, MMB_REPORT_ROLE_AS_WRITTEN, "Seed kernels as written",
                       "Every CUDA kernel that the seed documents print, run exactly as printed (the profile binds "
                       "each one's own arguments, macros and launch shape): one row per kernel and element type, at "
                       "the reference size where it ran there, else at its largest. Some do not compile and some "
                       "compute wrong results as written; that is the outcome, recorded with the compiler's or the "
                       "check's reason and, where the CSV's note names it, the bug, so that a lecture can show it.",
                       md, tex) != 0)
        return -1;
    return status_section(rep, MMB_REPORT_ROLE_OTHER, "Other profiles",
                          "Profiles that neither tell the story nor have a section of their own: each kernel at its "
                          "size, as in Seed kernels as written.",
                          md, tex);
}
