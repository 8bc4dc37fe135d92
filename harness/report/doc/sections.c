/* sections.c - the report's places for the profiles that do not tell the story
 * (profiles.c chooses): the paragraph of "This report" that names the story's
 * profile and where each other profile is shown, and the sections of the profiles
 * that have one: Kernel ladder (ladder_doc.c), Seed kernels as written (seeds*) and
 * Other profiles. The last two show, per GPU, each kernel of the profile at its
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
#include "report/doc/precisions_doc.h"
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
    {MMB_REPORT_ROLE_LADDER, "[Kernel ladder](#kernel-ladder)", "Kernel ladder"},
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

int mmb_report_sections_write(const struct mmb_report *rep, FILE *md, FILE *tex)
{
    const struct mmb_report_data *d = &rep->data;
    size_t ps[MMB_REPORT_PROFILES_MAX];
    size_t np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_LADDER, ps);
    for (size_t j = 0; j < np; j++)
        if (mmb_report_ladder_doc_section(rep, ps[j], j == 0, md, tex) != 0)
            return -1;
    if (mmb_report_precisions_doc_section(rep, md, tex) != 0)
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
