/* profiles.c - which profile tells the report's story, and what the others are for.
 * A CSV row names its profile (course, dtypes, tune-seed, ...); the report draws its
 * story (Key findings, Figures, Tables) from one profile, so that kernels of
 * different sweeps never share a ladder, a bar chart or a "best configuration":
 *   - the main profile: --profile NAME, else the story's profile (story.c: course)
 *     when the data has it, else the profile with the most ok rows; published rows
 *     (figures from the documents) and rows without a profile join it;
 *   - the others by the role their INI declares (`role =`: story, ladder, tuning,
 *     as-written, precisions, other), else, for profiles written before the key, by
 *     name (story.c's table): tuning profiles feed the Tuning section, ladder* the
 *     Kernel ladder section, seeds* the Seed kernels as written section, precisions*
 *     the Precisions section;
 *   - of the rest, the one that measures the most element types feeds the
 *     element-type table and finding; every other profile gets a section of its own. */
#include "report/input/profiles.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/error.h"
#include "core/file.h"
#include "model/profile.h"
#include "report/input/row.h"
#include "report/input/story.h"
#include "results/columns.h"
#include "results/row.h"

static bool row_timed_ok(const struct mmb_row *r)
{
    return r->status == MMB_STATUS_OK && isfinite(r->time_ms_median) && r->time_ms_median > 0;
}

static int profile_key(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    return strcmp(a->r.profile, b->r.profile);
}

/* Groups the rows by profile name; rows without one get the index of the profile
 * list's end (n), to be given the main profile's. Returns -1 with err. */
static int profiles_collect(struct mmb_report_data *d, size_t *unnamed, char *err, size_t errlen)
{
    size_t cap = d->nrows ? d->nrows : 1;
    size_t *group = malloc(cap * sizeof *group), *first = malloc(cap * sizeof *first);
    long n = group && first ? mmb_report_row_group(d, NULL, d->nrows, profile_key, group, first) : -1;
    int rc = 0;
    if (n < 0 || !(d->profiles = calloc((size_t)n + 1, sizeof *d->profiles)))
        rc = mmb_failf(err, errlen, "out of memory");
    size_t to[MMB_REPORT_PROFILES_MAX + 2]; /* the named ones, the unnamed, the one too many */
    *unnamed = 0;
    for (long g = 0; rc == 0 && g < n; g++) {
        const struct mmb_report_row *r = &d->rows[first[g]];
        if (!r->r.profile[0]) {
            to[g] = SIZE_MAX; /* joins the main profile */
            *unnamed += 1;
            continue;
        }
        if (d->nprofiles == MMB_REPORT_PROFILES_MAX) {
            rc = mmb_failf(err, errlen, "%s:%ld: profile '%s' is one more than the %d that a report tells apart (name fewer CSV files)",
                           d->files[r->file].path, r->line, r->r.profile, MMB_REPORT_PROFILES_MAX);
            break;
        }
        to[g] = d->nprofiles;
        memset(d->profiles[d->nprofiles].rank, MMB_REPORT_UNRANKED, sizeof d->profiles[d->nprofiles].rank);
        snprintf(d->profiles[d->nprofiles++].name, MMB_REPORT_NAME_MAX, "%s", r->r.profile);
    }
    if (rc == 0 && d->nprofiles == 0 && *unnamed) {
        /* no row names a profile: one profile without a name */
        memset(d->profiles[0].rank, MMB_REPORT_UNRANKED, sizeof d->profiles[0].rank);
        d->nprofiles = 1;
        for (long g = 0; g < n; g++)
            to[g] = 0;
        *unnamed = 0;
    }
    for (size_t i = 0; rc == 0 && i < d->nrows; i++)
        d->rows[i].profile = to[group[i]];
    free(group);
    free(first);
    return rc;
}

/* The report's role of a declared one. */
static enum mmb_report_role role_of(enum mmb_profile_role r)
{
    switch (r) {
    case MMB_PROFILE_ROLE_STORY: return MMB_REPORT_ROLE_MAIN;
    case MMB_PROFILE_ROLE_LADDER: return MMB_REPORT_ROLE_LADDER;
    case MMB_PROFILE_ROLE_TUNING: return MMB_REPORT_ROLE_TUNING;
    case MMB_PROFILE_ROLE_AS_WRITTEN: return MMB_REPORT_ROLE_AS_WRITTEN;
    case MMB_PROFILE_ROLE_PRECISIONS: return MMB_REPORT_ROLE_PRECISIONS;
    default: return MMB_REPORT_ROLE_OTHER;
    }
}

/* Whether a [tune] objective ("time,energy", "gflops_per_watt:max") names a column of
 * the energy phase; "energy" is energy_j's name there. */
static bool objective_energy(const char *objective)
{
    for (const char *p = objective; *p;) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, ",");
        char name[MMB_TUNE_TEXT_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        name[strcspn(name, ": \t")] = '\0';
        if (!strcmp(name, "energy") || mmb_column_is_energy(mmb_column_find(name)))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* What each profile's INI (<root>/profiles/<name>.ini, where it loads) declares: its
 * role and its kernels' summaries, motivations and sources. A profile without one is
 * placed by its name. */
static void profiles_declare(struct mmb_report_data *d)
{
    struct mmb_profile *ini = d->root ? calloc(1, sizeof *ini) : NULL;
    for (size_t p = 0; ini && p < d->nprofiles; p++) {
        struct mmb_report_profile *pr = &d->profiles[p];
        char path[4400], err[1024];
        if (!pr->name[0] || strchr(pr->name, '/') ||
            (size_t)snprintf(path, sizeof path, "%s/profiles/%s.ini", d->root, pr->name) >= sizeof path ||
            mmb_profile_load(path, ini, err, sizeof err) != 0)
            continue;
        pr->declared = ini->role != MMB_PROFILE_ROLE_NONE;
        pr->declared_role = role_of(ini->role);
        pr->energy_objective = objective_energy(ini->tune.objective);
        free(pr->docs);
        pr->ndocs = 0;
        if ((pr->docs = calloc(ini->nkernels ? (size_t)ini->nkernels : 1, sizeof *pr->docs)))
            for (int i = 0; i < ini->nkernels; i++) {
                struct mmb_report_kernel_doc *doc = &pr->docs[pr->ndocs++];
                const struct mmb_kernel_spec *k = &ini->kernels[i];
                snprintf(doc->name, sizeof doc->name, "%s", k->name);
                snprintf(doc->summary, sizeof doc->summary, "%s", k->summary);
                snprintf(doc->motivation, sizeof doc->motivation, "%s", k->motivation);
                snprintf(doc->source, sizeof doc->source, "%s", k->kind == MMB_KERNEL_SOURCE ? k->source : "");
            }
        mmb_profile_free(ini);
    }
    free(ini);
}

static void profiles_count(struct mmb_report_data *d)
{
    unsigned seen[MMB_REPORT_PROFILES_MAX] = {0};
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile == SIZE_MAX)
            continue;
        struct mmb_report_profile *p = &d->profiles[rr->profile];
        p->rows++;
        p->published += rr->published;
        enum mmb_dtype t;
        if (row_timed_ok(&rr->r) && !rr->published) {
            p->ok++;
            if (mmb_dtype_parse(rr->r.dtype, &t) && t < 32 && !(seen[rr->profile] & 1u << t)) {
                seen[rr->profile] |= 1u << t;
                p->ndtypes++;
            }
        }
    }
    for (size_t p = 0; p < d->nprofiles; p++)
        d->profiles[p].role = d->profiles[p].rows && d->profiles[p].published == d->profiles[p].rows
                                  ? MMB_REPORT_ROLE_PUBLISHED
                              : d->profiles[p].declared ? d->profiles[p].declared_role
                                                        : mmb_report_story_role(d->profiles[p].name);
}

/* --profile NAME, else the first that declares itself the story, else course, else
 * the most ok rows (the first of equals). */
static int main_pick(struct mmb_report_data *d, const char *want, char *err, size_t errlen)
{
    d->main = -1;
    d->main_rule = want ? "named with --profile" : "the default";
    for (size_t p = 0; p < d->nprofiles; p++) {
        const struct mmb_report_profile *pr = &d->profiles[p];
        if (want ? strcmp(pr->name, want) == 0 && (pr->ok || pr->published)
                 : strcmp(pr->name, mmb_report_story.main_profile) == 0 && pr->ok)
            d->main = (int)p;
    }
    if (want && d->main < 0) {
        char list[1024] = "";
        for (size_t p = 0, o = 0; p < d->nprofiles && o < sizeof list - 1; p++) {
            int w = snprintf(list + o, sizeof list - o, "%s%s", p ? ", " : "", d->profiles[p].name);
            o += w > 0 ? (size_t)w : 0;
        }
        return mmb_failf(err, errlen, "--profile %s: no ok row of that profile; profiles in the data: %s", want,
                         d->nprofiles ? list : "none");
    }
    for (size_t p = 0; !want && p < d->nprofiles && d->main < 0; p++)
        if (d->profiles[p].declared && d->profiles[p].declared_role == MMB_REPORT_ROLE_MAIN && d->profiles[p].ok) {
            d->main = (int)p;
            d->main_rule = "the profile that declares role = story";
        }
    /* of the profiles without a section of their own first: a ladder, a tuning run or
     * a precision sweep tells the story only when nothing else can */
    for (int pass = 0; pass < 2 && d->main < 0; pass++)
        for (size_t p = 0; p < d->nprofiles; p++) {
            enum mmb_report_role r = d->profiles[p].role;
            bool free_role = r == MMB_REPORT_ROLE_OTHER || r == MMB_REPORT_ROLE_MAIN;
            if (!d->profiles[p].ok || (pass == 0 && !free_role))
                continue;
            if (d->main < 0 || d->profiles[p].ok > d->profiles[d->main].ok)
                d->main = (int)p;
            d->main_rule = "the profile with the most ok rows";
        }
    if (d->main < 0 && d->nprofiles) {
        d->main = 0; /* published figures alone, or nothing ok */
        d->main_rule = "the first profile: no profile has an ok row of its own";
    }
    return 0;
}

/* The most element types among the profiles without a section of their own (the
 * main one first of equals); none when no profile has two. */
static void dtypes_pick(struct mmb_report_data *d)
{
    d->dtypes = -1;
    size_t most = 1;
    if (d->main >= 0 && d->profiles[d->main].ndtypes > most) {
        d->dtypes = d->main;
        most = d->profiles[d->main].ndtypes;
    }
    for (size_t p = 0; p < d->nprofiles; p++)
        if (d->profiles[p].role == MMB_REPORT_ROLE_OTHER && d->profiles[p].ndtypes > most) {
            d->dtypes = (int)p;
            most = d->profiles[p].ndtypes;
        }
    if (d->dtypes >= 0 && d->dtypes != d->main)
        d->profiles[d->dtypes].role = MMB_REPORT_ROLE_DTYPES;
}

int mmb_report_profiles_pick(struct mmb_report_data *d, const char *want, char *err, size_t errlen)
{
    size_t unnamed;
    if (profiles_collect(d, &unnamed, err, errlen) != 0)
        return -1;
    profiles_declare(d);
    profiles_count(d);
    if (main_pick(d, want, err, errlen) != 0)
        return -1;
    for (size_t p = 0; p < d->nprofiles; p++)
        if (d->profiles[p].role == MMB_REPORT_ROLE_MAIN && (int)p != d->main)
            d->profiles[p].role = MMB_REPORT_ROLE_OTHER; /* a story, but not this report's */
    if (d->main >= 0)
        d->profiles[d->main].role = MMB_REPORT_ROLE_MAIN;
    for (size_t i = 0; i < d->nrows; i++) {
        struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile == SIZE_MAX) /* no profile: the story's */
            rr->profile = (size_t)d->main;
        rr->story = (int)rr->profile == d->main || rr->published;
    }
    if (unnamed) { /* count them with the main profile, now that they are its rows */
        for (size_t p = 0; p < d->nprofiles; p++)
            d->profiles[p].rows = d->profiles[p].ok = d->profiles[p].published = d->profiles[p].ndtypes = 0;
        profiles_count(d);
        d->profiles[d->main].role = MMB_REPORT_ROLE_MAIN;
    }
    dtypes_pick(d);
    for (size_t i = 0; i < d->nrows; i++) {
        enum mmb_report_role role = d->profiles[d->rows[i].profile].role;
        d->rows[i].apart = role == MMB_REPORT_ROLE_AS_WRITTEN || role == MMB_REPORT_ROLE_OTHER;
    }
    return 0;
}

/* ---- a profile's kernels and best rows ------------------------------------------------------- */

size_t mmb_report_profile_kernels(const struct mmb_report_data *d, size_t p, size_t *out)
{
    bool seen[MMB_REPORT_KERNELS_MAX] = {false}, cublas = false;
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile != p || seen[rr->kernel])
            continue;
        seen[rr->kernel] = true;
        if ((int)rr->kernel == d->cublas)
            cublas = true;
        else
            out[n++] = rr->kernel;
    }
    /* the INI's order first (a sweep by size names a kernel first where it first runs) */
    const unsigned char *rank = d->profiles[p].rank;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && rank[out[j]] < rank[out[j - 1]]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    if (cublas)
        out[n++] = (size_t)d->cublas;
    return n;
}

void mmb_report_profile_best(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                             const struct mmb_report_shape *s, const struct mmb_report_row **best)
{
    for (size_t k = 0; k < MMB_REPORT_KERNELS_MAX; k++)
        best[k] = NULL;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        const struct mmb_row *r = &rr->r;
        if (rr->profile != p || rr->gpu != g || !row_timed_ok(r) || r->m != s->m || r->n != s->n || r->k != s->k ||
            strcmp(r->dtype, dtype) != 0 || (d->cache[0] && r->cache[0] && strcmp(d->cache, r->cache) != 0))
            continue;
        if (!best[rr->kernel] || r->time_ms_median < best[rr->kernel]->r.time_ms_median)
            best[rr->kernel] = rr;
    }
}

size_t mmb_report_profiles_of(const struct mmb_report_data *d, enum mmb_report_role r, size_t *out)
{
    size_t n = 0;
    for (size_t p = 0; p < d->nprofiles; p++)
        if (d->profiles[p].role == r)
            out[n++] = p;
    return n;
}

/* ---- the sizes a profile's section shows --------------------------------------------------- */

static bool shape_has_ok(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                         const struct mmb_report_shape *s)
{
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile == p && rr->gpu == g && row_timed_ok(&rr->r) && rr->r.m == s->m && rr->r.n == s->n &&
            rr->r.k == s->k && strcmp(rr->r.dtype, dtype) == 0)
            return true;
    }
    return false;
}

size_t mmb_report_profile_sizes(const struct mmb_report_data *d, size_t p, size_t g, struct mmb_report_shape *out)
{
    return mmb_report_profile_sizes_in(d, p, g, d->dtype, out);
}

size_t mmb_report_profile_dtypes(const struct mmb_report_data *d, size_t p, const char **out)
{
    size_t n = 0;
    for (const struct mmb_dtype_info *t = mmb_dtype_table; t->text; t++) {
        bool ok = false;
        for (size_t i = 0; i < d->nrows && !ok; i++)
            ok = d->rows[i].profile == p && row_timed_ok(&d->rows[i].r) && !strcmp(d->rows[i].r.dtype, t->text);
        if (ok && !strcmp(t->text, d->dtype)) {
            out[0] = t->text; /* the report's own dtype alone */
            return 1;
        }
        if (ok)
            out[n++] = t->text;
    }
    return n;
}

void mmb_report_profile_figure_name(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                                    char *out, size_t len)
{
    char pslug[MMB_REPORT_NAME_MAX];
    mmb_gpu_slug(d->profiles[p].name, pslug, sizeof pslug);
    if (!strcmp(dtype, d->dtype))
        snprintf(out, len, "%s-%s", pslug, d->gpus[g].slug);
    else
        snprintf(out, len, "%s-%s-%s", pslug, dtype, d->gpus[g].slug);
}

size_t mmb_report_profile_sizes_in(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                                   struct mmb_report_shape *out)
{
    size_t n = 0;
    if (d->ref >= 0 && shape_has_ok(d, p, g, dtype, &d->shapes[d->ref]))
        out[n++] = d->shapes[d->ref];
    struct mmb_report_shape big = {0, 0, 0};
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        const struct mmb_row *r = &rr->r;
        if (rr->profile == p && rr->gpu == g && row_timed_ok(r) && r->m == r->n && r->n == r->k && r->m > big.m &&
            strcmp(r->dtype, dtype) == 0)
            big = (struct mmb_report_shape){r->m, r->n, r->k};
    }
    if (big.m && !(n && out[0].m == big.m && out[0].n == big.n && out[0].k == big.k))
        out[n++] = big;
    return n;
}

/* ---- each profile's own order of its kernels ------------------------------------------------ */

void mmb_report_profiles_rank(struct mmb_report_data *d)
{
    for (size_t p = 0; p < d->nprofiles; p++) {
        unsigned next = 0;
        for (size_t i = 0; i < d->profiles[p].ndocs && next < MMB_REPORT_UNRANKED; i++)
            for (size_t k = 0; k < d->nkernels; k++)
                if (!strcmp(d->kernels[k], d->profiles[p].docs[i].name) && d->profiles[p].rank[k] == MMB_REPORT_UNRANKED)
                    d->profiles[p].rank[k] = (unsigned char)next++;
    }
}

const struct mmb_report_kernel_doc *mmb_report_profile_doc(const struct mmb_report_data *d, size_t p,
                                                           const char *kernel)
{
    for (size_t i = 0; i < d->profiles[p].ndocs; i++)
        if (!strcmp(d->profiles[p].docs[i].name, kernel))
            return &d->profiles[p].docs[i];
    return NULL;
}

/* ---- a precisions profile on one GPU ------------------------------------------------------- */

static bool ok_at(const struct mmb_report_row *rr, size_t p, size_t g)
{
    return rr->profile == p && rr->gpu == g && rr->r.status == MMB_STATUS_OK && isfinite(rr->r.time_ms_median) &&
           rr->r.time_ms_median > 0 && !rr->published;
}

/* The reference size where the profile has ok rows on g, else its largest square size. */
static bool precisions_size(const struct mmb_report_data *d, size_t p, size_t g, struct mmb_report_shape *s)
{
    bool ref = false, any = false;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (!ok_at(rr, p, g))
            continue;
        const struct mmb_row *r = &rr->r;
        if (d->ref >= 0 && r->m == d->shapes[d->ref].m && r->n == d->shapes[d->ref].n && r->k == d->shapes[d->ref].k)
            ref = true;
        if (r->m == r->n && r->n == r->k && (!any || r->m > s->m)) {
            *s = (struct mmb_report_shape){r->m, r->n, r->k};
            any = true;
        }
    }
    if (ref)
        *s = d->shapes[d->ref];
    return ref || any;
}

bool mmb_report_profile_precisions_at(const struct mmb_report_data *d, size_t g, struct mmb_report_precisions *out)
{
    size_t ps[MMB_REPORT_PROFILES_MAX], np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_PRECISIONS, ps);
    for (size_t j = 0; j < np; j++) {
        memset(out, 0, sizeof *out);
        out->p = ps[j];
        out->g = g;
        if (!precisions_size(d, ps[j], g, &out->s))
            continue;
        size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, ps[j], ks);
        bool kernel_ok[MMB_REPORT_KERNELS_MAX] = {false};
        for (const struct mmb_dtype_info *t = mmb_dtype_table; t->text; t++) {
            const struct mmb_report_row **best = out->best[out->ndtypes];
            mmb_report_profile_best(d, ps[j], g, t->text, &out->s, best);
            bool any = false;
            for (size_t k = 0; k < nk; k++)
                if (best[ks[k]])
                    any = kernel_ok[ks[k]] = true;
            if (any)
                out->dtypes[out->ndtypes++] = t->text;
        }
        for (size_t k = 0; k < nk; k++)
            if (kernel_ok[ks[k]])
                out->kernels[out->nkernels++] = ks[k];
        if (out->ndtypes)
            return true;
    }
    return false;
}
