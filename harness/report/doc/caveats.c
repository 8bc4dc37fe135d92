/* caveats.c - the README's Caveats: what a reader must know before trusting a
 * figure (points whose DRAM writes stayed in L2, rows not plotted and why, rows
 * without counters, published figures, figures left out, the agreement with Nsight
 * Compute, rows of another selection, notes of the other steps), one writer each. */
#include "report/doc/caveats.h"
#include "report/doc/energy/energy_doc.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "report/doc/md.h"
#include "report/doc/ncu.h"
#include "report/doc/sections.h"
#include "report/input/labels.h"
#include "report/input/row.h"
#include "report/input/select.h"

/* ---- lists inside a caveat ------------------------------------------------------------------- */

/* The rows of GPU g for which want(row) holds, grouped by key: *rows the positions'
 * rows, *group each position's group, *first each group's first position. Returns
 * the number of groups (0 when none or without memory); the caller frees the three. */
static size_t gpu_rows_group(const struct mmb_report_data *d, size_t g, bool (*want)(const struct mmb_report_row *r),
                             int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t **rows,
                             size_t **group, size_t **first, size_t *n)
{
    *n = 0;
    *rows = malloc((d->nrows ? d->nrows : 1) * sizeof **rows);
    *group = malloc((d->nrows ? d->nrows : 1) * sizeof **group);
    *first = malloc((d->nrows ? d->nrows : 1) * sizeof **first);
    if (!*rows || !*group || !*first)
        return 0;
    for (size_t i = 0; i < d->nrows; i++)
        if (d->rows[i].gpu == g && want(&d->rows[i]))
            (*rows)[(*n)++] = i;
    long groups = mmb_report_row_group(d, *rows, *n, key, *group, *first);
    return groups > 0 ? (size_t)groups : 0;
}

static bool row_failed(const struct mmb_report_row *r)
{
    return r->r.status != MMB_STATUS_OK && r->r.status != MMB_STATUS_RESTRICTED;
}

/* Failed rows that no profile's own section lists. */
static bool row_failed_here(const struct mmb_report_row *r)
{
    return row_failed(r) && !r->apart;
}

static bool row_restricted(const struct mmb_report_row *r)
{
    return r->r.status == MMB_STATUS_RESTRICTED;
}

/* A configuration that failed for one reason: status, kernel, params, reason. */
static int failure_key(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    int c = (int)a->r.status - (int)b->r.status;
    if (!c)
        c = strcmp(a->r.kernel, b->r.kernel);
    if (!c)
        c = strcmp(a->r.params, b->r.params);
    return c ? c : strcmp(a->r.reason, b->r.reason);
}

static int restriction_key(const struct mmb_report_row *a, const struct mmb_report_row *b)
{
    int c = strcmp(a->r.kernel, b->r.kernel);
    return c ? c : strcmp(a->r.reason, b->r.reason);
}

/* A compiler's reason without the path and the tool's prefix: "ptxas error   :
 * Entry function ... uses too much shared data" keeps what it says. */
static void reason_short(const char *reason, char *out, size_t len)
{
    const char *p = strstr(reason, "ptxas error");
    if (p && strchr(p, ':'))
        p = strchr(p, ':') + 1;
    else
        p = reason;
    while (*p == ' ')
        p++;
    size_t o = 0;
    for (; *p && o + 1 < len; p++)
        if (!(*p == ' ' && o && out[o - 1] == ' '))
            out[o++] = *p;
    while (o && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
}

/* A fingerprint of a GPU's failures (each configuration's status, kernel, params and
 * reason, and its sizes), so that a GPU that failed exactly as an earlier one says so
 * instead of repeating the list. */
static uint64_t failures_hash(const struct mmb_report_data *d, size_t g)
{
    uint64_t h = MMB_FNV_SEED;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->gpu != g || !row_failed_here(r))
            continue;
        char key[1024];
        snprintf(key, sizeof key, "%d|%s|%s|%s|%lld|%lld|%lld|%s", (int)r->r.status, r->r.kernel, r->r.params,
                 r->r.reason, r->r.m, r->r.n, r->r.k, r->r.dtype);
        h = mmb_hash_bytes(h, key, strlen(key) + 1);
    }
    return h;
}

/* Failed rows of one GPU, one line per (kernel, params, status, reason) with the
 * sizes it failed at: a configuration that cannot launch fails at every size. */
static void md_failed(FILE *f, const struct mmb_report_data *d, size_t g)
{
    size_t *rows, *group, *first, n;
    size_t groups = gpu_rows_group(d, g, row_failed_here, failure_key, &rows, &group, &first, &n);
    size_t shown = groups < 8 ? groups : 8;
    for (size_t gi = 0; gi < shown; gi++) {
        const struct mmb_report_row *r = &d->rows[rows[first[gi]]];
        char conf[256], reason[256];
        mmb_report_label_params(r->r.params, conf, sizeof conf);
        reason_short(r->r.reason, reason, sizeof reason);
        fprintf(f, "  - %s ", r->r.kernel);
        mmb_report_md_code(f, conf);
        fprintf(f, ": %s", mmb_status_text(r->r.status));
        if (reason[0]) {
            fputs(" (", f);
            mmb_report_md_text(f, reason);
            fputs(")", f);
        }
        fputs(" at", f);
        size_t sizes = 0;
        for (size_t p = first[gi]; p < n; p++) {
            const struct mmb_report_row *q = &d->rows[rows[p]];
            if (group[p] == gi && sizes++ < 6)
                fprintf(f, "%s %lldx%lldx%lld %s", sizes > 1 ? "," : "", q->r.m, q->r.n, q->r.k, q->r.dtype);
        }
        fputs(sizes > 6 ? ", ...\n" : "\n", f);
    }
    if (groups > shown)
        fprintf(f, "  - and %zu more configurations\n", groups - shown);
    free(rows);
    free(group);
    free(first);
}

/* Restricted rows of one GPU, counted per kernel and restriction. */
static void md_restricted(FILE *f, const struct mmb_report_data *d, size_t g)
{
    size_t *rows, *group, *first, n;
    size_t groups = gpu_rows_group(d, g, row_restricted, restriction_key, &rows, &group, &first, &n);
    size_t *count = calloc(groups ? groups : 1, sizeof *count);
    for (size_t p = 0; count && p < n; p++)
        count[group[p]]++;
    for (size_t gi = 0; count && gi < groups; gi++) {
        const struct mmb_report_row *r = &d->rows[rows[first[gi]]];
        fprintf(f, "%s%zu of %s's configurations, excluded by ", gi ? "; " : "", count[gi], r->r.kernel);
        mmb_report_md_code(f, r->r.reason[0] ? r->r.reason : "its restrictions");
    }
    free(count);
    free(rows);
    free(group);
    free(first);
}

/* Figures left out, one line per GPU, grouped by reason. */
static size_t md_omits(FILE *f, const struct mmb_report *rep, int gpu)
{
    const struct mmb_report_data *d = &rep->data;
    size_t lines = 0;
    bool head = false;
    for (size_t i = 0; i < rep->nomits; i++) {
        const struct mmb_report_omit *o = &rep->omits[i];
        if (o->gpu != gpu)
            continue;
        bool earlier = false;
        for (size_t j = 0; j < i && !earlier; j++)
            earlier = rep->omits[j].gpu == gpu && strcmp(rep->omits[j].why, o->why) == 0;
        if (earlier)
            continue;
        if (!head) {
            fputs("- **Figures left out** (", f);
            mmb_report_md_text(f, gpu >= 0 ? d->gpus[gpu].name : "every GPU");
            fputs("):", f);
            head = true;
        }
        const char *sep = " ";
        for (size_t j = i; j < rep->nomits; j++)
            if (rep->omits[j].gpu == gpu && strcmp(rep->omits[j].why, o->why) == 0) {
                fputs(sep, f);
                mmb_report_md_text(f, rep->omits[j].what);
                sep = ", ";
            }
        fputs(": ", f);
        mmb_report_md_text(f, o->why);
        fputs(";", f);
        lines++;
    }
    if (head)
        fputs(" the other figures are drawn.\n", f);
    return lines;
}

/* ---- the caveats, one writer each ------------------------------------------------------------ */

/* DRAM writes that stayed in L2, among the plotted (best) rows. */
static size_t l2_writes(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    size_t n = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        size_t low = 0, plotted = 0;
        char sizes[512] = "";
        for (size_t s = 0; s < d->nshapes; s++) {
            bool here = false;
            for (size_t k = 0; k < d->nkernels; k++) {
                const struct mmb_report_row *r = mmb_report_select_best(d, g, k, s);
                if (!r || !isfinite(r->r.dram_write_bytes))
                    continue;
                plotted++;
                low += r->l2_low;
                here = here || r->l2_low;
            }
            if (here && strlen(sizes) < sizeof sizes - 100) {
                char label[96];
                mmb_report_shape_label(&d->shapes[s], label, sizeof label);
                snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s", sizes[0] ? ", " : "", label);
            }
        }
        if (low) {
            fputs("- **DRAM writes that stay in L2** (", f);
            mmb_report_md_text(f, d->gpus[g].name);
            fprintf(f, "): %zu of the %zu plotted rows with DRAM counters wrote less than half of their output (M x N x element size) to DRAM, at %s. The output fits in L2 and is still there when the kernel ends, so its writes are not counted: DRAM bandwidth, bandwidth %% and intensity undercount those points (circled in the bandwidth figures).\n",
                    low, plotted, sizes);
            n++;
        }
    }
    return n;
}

/* The failures that a profile's own section lists with their reasons: counted here. */
static void failed_apart(FILE *f, const struct mmb_report_data *d, size_t g)
{
    size_t count[MMB_REPORT_PROFILES_MAX] = {0};
    for (size_t i = 0; i < d->nrows; i++)
        if (d->rows[i].gpu == g && d->rows[i].apart && row_failed(&d->rows[i]) && d->rows[i].profile < MMB_REPORT_PROFILES_MAX)
            count[d->rows[i].profile]++;
    for (size_t p = 0; p < d->nprofiles && p < MMB_REPORT_PROFILES_MAX; p++)
        if (count[p]) {
            fprintf(f, " %zu of them are of profile ", count[p]);
            mmb_report_md_code(f, d->profiles[p].name);
            fprintf(f, ", whose kernels are listed with their status and reason in %s.",
                    mmb_report_sections_role_where(d->profiles[p].role));
        }
}

/* Rows that are not ok, per GPU: the restricted ones apart from the failures. */
static size_t not_plotted(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    size_t n = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        const struct mmb_report_gpu *gp = &d->gpus[g];
        size_t bad = gp->rows - gp->by_status[MMB_STATUS_OK];
        if (bad == 0)
            continue;
        size_t restricted = gp->by_status[MMB_STATUS_RESTRICTED];
        fputs("- **Rows not plotted** (", f);
        mmb_report_md_text(f, gp->name);
        fprintf(f, "): %zu of %zu rows are not ok.", bad, gp->rows);
        if (restricted) {
            fprintf(f, " %zu are restricted, recorded on purpose: configurations that a profile's restriction excludes "
                       "before anything is compiled or run, as Kernel Tuner does (",
                    restricted);
            md_restricted(f, d, g);
            fputs(").", f);
        }
        if (bad > restricted) {
            fprintf(f, " %zu did not run or failed:", bad - restricted);
            const char *sep = " ";
            for (size_t s = 1; s < MMB_STATUS_COUNT; s++)
                if (s != MMB_STATUS_RESTRICTED && gp->by_status[s]) {
                    fprintf(f, "%s%zu %s", sep, gp->by_status[s], mmb_status_text((enum mmb_status)s));
                    sep = ", ";
                }
            fputs(".", f);
            failed_apart(f, d, g);
        }
        /* the same failures as a GPU above: say so, not the list again */
        size_t same = g;
        uint64_t h = bad > restricted ? failures_hash(d, g) : 0;
        for (size_t e = 0; e < g && same == g && h; e++)
            if (d->gpus[e].rows - d->gpus[e].by_status[MMB_STATUS_OK] - d->gpus[e].by_status[MMB_STATUS_RESTRICTED] ==
                    bad - restricted &&
                failures_hash(d, e) == h)
                same = e;
        if (same < g) {
            fputs(" The same configurations failed, for the same reasons, as on the ", f);
            mmb_report_md_text(f, d->gpus[same].name);
            fputs(".\n", f);
        } else {
            fputs("\n", f);
            md_failed(f, d, g);
        }
        n++;
    }
    return n;
}

/* Plotted rows (each kernel's best per size) of one GPU without counters, counted by
 * their counter_status. */
static size_t no_counters(FILE *f, const struct mmb_report *rep, size_t g)
{
    const struct mmb_report_data *d = &rep->data;
    const struct mmb_report_gpu *gp = &d->gpus[g];
    if (!gp->plotted || gp->with_counters >= gp->plotted)
        return 0;
    fputs("- **No counters** (", f);
    mmb_report_md_text(f, gp->name);
    fprintf(f, "): %zu of %zu plotted rows have empty counter columns; their counter_status:",
            gp->plotted - gp->with_counters, gp->plotted);
    /* why, as the run recorded it */
    size_t why[MMB_STATUS_COUNT] = {0};
    for (size_t i = 0; i < d->nbest; i++) {
        const struct mmb_report_row *r = &d->rows[d->best[i].row];
        if (d->best[i].gpu == g && !mmb_report_row_has_bandwidth(r) && !mmb_report_row_has_util(r) &&
            (unsigned)r->r.counter_status < MMB_STATUS_COUNT)
            why[r->r.counter_status]++;
    }
    const char *sep = " ";
    for (size_t st = 0; st < MMB_STATUS_COUNT; st++)
        if (why[st]) {
            fprintf(f, "%s%zu %s", sep, why[st], mmb_status_text((enum mmb_status)st));
            sep = ", ";
        }
    fputs(why[MMB_STATUS_SKIPPED] ? " (skipped: no counters were asked for, or the rows are published).\n" : ".\n", f);
    return 1;
}

static size_t published(FILE *f, const struct mmb_report *rep, size_t g)
{
    const struct mmb_report_gpu *gp = &rep->data.gpus[g];
    if (!gp->published)
        return 0;
    fputs("- **Published figures** (", f);
    mmb_report_md_text(f, gp->name);
    fprintf(f, "): %zu rows are figures published elsewhere, not measured by mmbench (the source is named in Data); they carry no counters, repeats or spread, and are marked † in tables, \"(published)\" in figures and hatched in bars.\n",
            gp->published);
    return 1;
}

/* Per GPU in turn: its rows without counters, its published rows, its figures
 * left out. */
static size_t gpu_caveats(FILE *f, const struct mmb_report *rep)
{
    size_t n = 0;
    for (size_t g = 0; g < rep->data.ngpus; g++) {
        n += no_counters(f, rep, g);
        n += published(f, rep, g);
        n += md_omits(f, rep, (int)g);
    }
    return n;
}

/* The side-by-side figures left out. */
static size_t gpus_omits(FILE *f, const struct mmb_report *rep)
{
    return md_omits(f, rep, -1);
}

static size_t ncu_agreement(FILE *f, const struct mmb_report *rep)
{
    size_t n = 0;
    for (size_t g = 0; g < rep->data.ngpus; g++)
        n += mmb_report_ncu_caveat(f, rep, g);
    return n;
}

/* Ok rows of another dtype or cache mode than the one shown. */
static size_t left_out(FILE *f, const struct mmb_report *rep)
{
    const struct mmb_report_data *d = &rep->data;
    if (!d->other_dtype && !d->other_cache)
        return 0;
    fprintf(f, "- **Left out by the selection** (%s", d->dtype);
    if (d->cache[0])
        fprintf(f, ", %s L2", d->cache);
    fputs("): ", f);
    if (d->other_dtype)
        fprintf(f, "%zu ok rows of other element types (choose with --dtype)%s", d->other_dtype,
                d->other_cache ? "; " : "");
    if (d->other_cache)
        fprintf(f, "%zu ok rows of the other cache mode (choose with --cache)", d->other_cache);
    fputs(".\n", f);
    return 1;
}

/* What the other steps noted (gnuplot's missing terminals, its warnings). */
static size_t notes(FILE *f, const struct mmb_report *rep)
{
    for (size_t i = 0; i < rep->nnotes; i++) {
        fputs("- ", f);
        mmb_report_md_text(f, rep->notes[i]);
        fputs(".\n", f);
    }
    return rep->nnotes;
}

/* In the order the README lists them; each returns the number of items it wrote. */
static size_t (*const caveat_writers[])(FILE *f, const struct mmb_report *rep) = {
    l2_writes, not_plotted, gpu_caveats, gpus_omits, ncu_agreement, mmb_report_energy_doc_caveats, left_out, notes, NULL,
};

void mmb_report_caveats_write(FILE *f, const struct mmb_report *rep)
{
    fputs("## Caveats\n\n", f);
    size_t n = 0;
    for (size_t i = 0; caveat_writers[i]; i++)
        n += caveat_writers[i](f, rep);
    if (n == 0)
        fputs("None.\n", f);
    fputc('\n', f);
}
