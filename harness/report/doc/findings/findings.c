/* findings.c - the Key findings, computed from the rows: the story's kernels, what
 * limits each kernel, DRAM traffic against the compulsory bytes, the seeds' claims
 * (seed 000's ~3x from tiling, seed 004's "low bandwidth, so compute-bound"), GPU
 * generations and their cause, what tuning found, cuBLAS and the other element
 * types, and the sizes too small to compare. Each finding is written only from
 * data that carries it; the primary GPU is the first measured one (oldest first).
 * The seeds' claims are findings_seeds.c's.
 * The helpers every finding is written with (findings_impl.h) close the file. */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc/md.h"
#include "report/input/labels.h"
#include "report/input/pairs.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "report/input/select.h"
#include "report/input/story.h"
#include "report/input/tune_groups.h"
#include "results/limiter.h"

/* ---- the story's kernels -------------------------------------------------------------------------------- */

static bool story_kernels(const struct mmb_report_findings_ctx *c, size_t g, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char gpu[128], a[16], b[16];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "The %s profile's kernels, %s, %s", d->profiles[d->main].name, gpu, c->ref);
    mmb_report_finding_add(f, "Each kernel's best configuration (%s): ", c->sel);
    const struct mmb_report_row *prev = NULL, *fastest = NULL, *own[MMB_REPORT_KERNELS_MAX];
    size_t n = 0, nown = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        if (!r)
            continue;
        bool first = n++ == 0;
        char x[64];
        mmb_report_finding_add(f, "%s%s %s%s", first ? "" : ", ", d->kernels[k],
                               mmb_report_findings_claim_tflops(&f->claims, r, a), first ? " TFLOP/s" : "");
        if (prev)
            mmb_report_finding_add(f, " (%s)", mmb_report_finding_gain(c, f, prev, r, x, sizeof x));
        prev = r;
        own[nown++] = (int)k != c->cublas ? r : NULL;
        if ((int)k != c->cublas && (!fastest || r->r.time_ms_median < fastest->r.time_ms_median))
            fastest = r;
    }
    mmb_report_finding_add(f, ".");
    const struct mmb_report_row *cub = c->cublas >= 0 ? mmb_report_finding_at_ref(c, g, (size_t)c->cublas) : NULL;
    double peak = d->gpus[g].peak_gflops;
    char ties[256];
    if (fastest)
        mmb_report_finding_ties(c, fastest, own, nown, ties, sizeof ties);
    if (fastest && cub)
        mmb_report_finding_add(f, " The fastest of the profile's kernels, %s%s, reaches %s%% of cuBLAS",
                               d->kernels[fastest->kernel], ties,
                               mmb_report_findings_claim_pct_time(&f->claims, cub, fastest, a));
    char e[16];
    if (fastest && cub && isfinite(peak))
        mmb_report_finding_add(f, " and %s%% of the FP32 peak (%s TFLOP/s); cuBLAS reaches %s%%.",
                               mmb_report_findings_claim_pct_peak(&f->claims, fastest, a),
                               mmb_report_findings_claim_cell(&f->claims, fastest, "peak_gflops", "tflops", peak, b),
                               mmb_report_findings_claim_pct_peak(&f->claims, cub, e));
    else if (fastest && cub)
        mmb_report_finding_add(f, ".");
    return n >= 2;
}

/* ---- what limits each kernel ---------------------------------------------------------------------- */

/* A unit's use as printed, with its claim: the pipe's from the time, the others' cells. */
static const char *unit_claim(struct mmb_report_finding *f, const struct mmb_report_row *r, enum mmb_limiter_kind unit,
                              double pct, char *buf)
{
    static const char *const columns[MMB_LIMITER_COUNT] = {
            [MMB_LIMITER_L1] = "l1_util_pct",     [MMB_LIMITER_L2] = "l2_util_pct",
            [MMB_LIMITER_DRAM] = "dram_util_pct", [MMB_LIMITER_ISSUE] = "issue_pct",
            [MMB_LIMITER_SM] = "sm_util_pct"};
    if (unit < MMB_LIMITER_COUNT && columns[unit])
        return mmb_report_findings_claim_column(&f->claims, r, columns[unit], pct, buf);
    return mmb_report_findings_claim_pct_peak(&f->claims, r, buf);
}

static void limit_clause(struct mmb_report_finding *f, const struct mmb_report_row *r, bool *missing)
{
    char a[16], b[16], c2[16], e[16], g[16], h[16];
    double fp = mmb_row_fp32_pct(&r->r), sm = r->r.sm_util_pct, dram = mmb_report_finding_dram_pct(r);
    struct mmb_row_bound bound;
    if (mmb_row_bound(&r->r, &bound)) {
        const struct mmb_limiter *unit = mmb_limiter_info(bound.unit);
        if (bound.verdict == MMB_LIMITER_LATENCY)
            mmb_report_finding_add(f, "%s is latency-bound: its busiest unit, %s, is at %s%%, under %s%%", r->r.kernel,
                                   unit->meaning, unit_claim(f, r, bound.unit, bound.pct, a),
                                   mmb_report_findings_claim_setting(&f->claims, "harness/results/limiter.h",
                                                                     "MMB_LIMITER_NEAR_PEAK", MMB_LIMITER_NEAR_PEAK, 1,
                                                                     "int", c2));
        else
            mmb_report_finding_add(f, "%s is limited by %s (%s%%", r->r.kernel, unit->meaning,
                                   unit_claim(f, r, bound.unit, bound.pct, a));
        mmb_report_finding_add(f, "%spipe %s%%", bound.verdict == MMB_LIMITER_LATENCY ? " (" : "; ",
                               mmb_report_findings_claim_pct_peak(&f->claims, r, b));
        if (isfinite(r->r.issue_pct))
            mmb_report_finding_add(f, ", issue %s%%",
                                   mmb_report_findings_claim_column(&f->claims, r, "issue_pct", r->r.issue_pct, h));
        mmb_report_finding_add(f, ", L1 %s%%, L2 %s%%, DRAM %s%%)",
                               mmb_report_findings_claim_column(&f->claims, r, "l1_util_pct", r->r.l1_util_pct, c2),
                               mmb_report_findings_claim_column(&f->claims, r, "l2_util_pct", r->r.l2_util_pct, e),
                               mmb_report_findings_claim_column(&f->claims, r, "dram_util_pct", dram, g));
        return;
    }
    *missing = true;
    (void)fp;
    mmb_report_finding_add(f, "%s uses %s%% of the FP32 pipe", r->r.kernel,
                           mmb_report_findings_claim_pct_peak(&f->claims, r, a));
    if (isfinite(sm))
        mmb_report_finding_add(f, ", SM throughput %s%%",
                               mmb_report_findings_claim_column(&f->claims, r, "sm_util_pct", sm, a));
    if (isfinite(dram))
        mmb_report_finding_add(f, ", DRAM %s%%",
                               mmb_report_findings_claim_column(&f->claims, r, "dram_util_pct", dram, a));
    if (r->r.l1_hit_pct >= 50) /* the caches feeding it: why it does better than its FP32 share */
        mmb_report_finding_add(f, ", L1 hit rate %s%%",
                               mmb_report_findings_claim_column(&f->claims, r, "l1_hit_pct", r->r.l1_hit_pct, a));
}

/* Kernels whose SM throughput is far above their FP32 use: busy feeding the pipe. */
static bool feeding(const struct mmb_report_row *r)
{
    return isfinite(r->r.sm_util_pct) && r->r.sm_util_pct - mmb_row_fp32_pct(&r->r) > 25;
}

static bool limits(const struct mmb_report_findings_ctx *c, size_t g, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char gpu[128];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "What limits each kernel, %s, %s", gpu, c->ref);
    size_t n = 0;
    bool missing = false;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        if (!r || !isfinite(r->r.sm_util_pct))
            continue;
        mmb_report_finding_add(f, "%s", n++ ? "; " : "");
        limit_clause(f, r, &missing);
    }
    mmb_report_finding_add(f, ".");
    size_t nf = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        char buf[8];
        if (r && feeding(r) && !mmb_row_limiter(&r->r, buf, sizeof buf)[0])
            mmb_report_finding_add(f, "%s%s", nf++ ? ", " : " Where SM throughput far exceeds FP32 use (",
                                   d->kernels[k]);
    }
    if (nf)
        mmb_report_finding_add(
                f,
                "), the busiest SM unit is not the FP32 pipe but load/store or instruction issue: those kernels are "
                "bound by feeding the pipe, not by arithmetic and not by DRAM.");
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        char a[16];
        if (r && mmb_row_fp32_pct(&r->r) >= 60)
            mmb_report_finding_add(f, " %s is near the FP32 roof (%s%%).", d->kernels[k],
                                   mmb_report_findings_claim_pct_peak(&f->claims, r, a));
    }
    if (missing) {
        /* name the rows that lack the counters: a CSV of the same GPU may have them */
        mmb_report_finding_add(f,
                               " A limiter (the busiest of pipe, issue, L1, L2 and DRAM as Nsight Compute's Speed of "
                               "Light reads them, or latency when none is near its peak) needs "
                               "L1 and L2 throughput (columns l1_util_pct, l2_util_pct), which the rows of");
        size_t nl = 0, files[MMB_REPORT_KERNELS_MAX], nfiles = 0;
        for (size_t k = 0; k < d->nkernels; k++) {
            const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
            char buf[8];
            if (!r || !isfinite(r->r.sm_util_pct) || mmb_row_limiter(&r->r, buf, sizeof buf)[0])
                continue;
            mmb_report_finding_add(f, "%s %s", nl++ ? "," : "", d->kernels[k]);
            size_t j = 0;
            while (j < nfiles && files[j] != r->file)
                j++;
            if (j == nfiles)
                files[nfiles++] = r->file;
        }
        for (size_t j = 0; j < nfiles; j++)
            mmb_report_finding_add(f, "%s%s", j ? ", " : " (", d->files[files[j]].shown);
        mmb_report_finding_add(f, ") lack: measure again with the default metrics to name it.");
    }
    return n > 0;
}

/* ---- traffic ---------------------------------------------------------------------------------------- */

static bool traffic(const struct mmb_report_findings_ctx *c, size_t g, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char gpu[128], a[16];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "DRAM traffic, %s", gpu);
    size_t n = 0;
    double compulsory = NAN;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, k);
        double bytes = r ? mmb_report_finding_dram_bytes(r) : NAN, need = r ? mmb_row_compulsory_bytes(&r->r) : NAN;
        if (!isfinite(bytes) || !(need > 0))
            continue;
        char size[96], mb[16];
        if (!n++)
            mmb_report_finding_add(
                    f,
                    "At %s each kernel moves this multiple of the compulsory bytes (A, B and C once, %s MB) "
                    "through DRAM: ",
                    mmb_report_findings_claim_key(&f->claims, r, "size", size, sizeof size),
                    mmb_report_findings_claim_compulsory(&f->claims, r, "mb", mb));
        else
            mmb_report_finding_add(f, ", ");
        mmb_report_finding_add(f, "%s %s×", d->kernels[k], mmb_report_findings_claim_traffic(&f->claims, r, a));
        compulsory = need;
    }
    if (!n)
        return false;
    mmb_report_finding_add(f, ".");
    double l2 = c->rep->devices[g].l2_mib, edge = mmb_report_device_l2_edge(l2, 4), most = 0;
    const struct mmb_report_row *most_row = NULL, *top_row = NULL;
    long long top = 0;
    for (size_t s = 0; s < d->nshapes && isfinite(edge); s++) {
        const struct mmb_report_shape *sh = &d->shapes[s];
        if (!mmb_report_finding_square(sh) || (double)sh->m > edge)
            continue;
        for (size_t k = 0; k < d->nkernels; k++) {
            const struct mmb_report_row *r = mmb_report_finding_best(c, g, k, s);
            double bytes = r ? mmb_report_finding_dram_bytes(r) : NAN;
            if (isfinite(bytes)) {
                if (!most_row || bytes / mmb_row_compulsory_bytes(&r->r) > most)
                    most = bytes / mmb_row_compulsory_bytes(&r->r), most_row = r;
                top = sh->m;
                top_row = r;
            }
        }
    }
    char size[96], mib[16];
    if (top)
        mmb_report_finding_add(
                f,
                " Up to %s, where A, B and C fit in the %s MiB L2, no kernel moves more than %s×: DRAM sees each "
                "byte about once whatever the kernel, and the kernels differ in how they use L1 and L2.",
                mmb_report_findings_claim_key(&f->claims, top_row, "size", size, sizeof size),
                mmb_report_findings_claim_device(&f->claims, top_row, "l2_mib", l2, "int", mib),
                mmb_report_findings_claim_traffic(&f->claims, most_row, a));
    (void)compulsory;
    return true;
}

/* Whether tuned group j leads Key findings: one finding per tuned kernel, at its largest
 * problem, and for the first GPU that tuned it (the finding compares the others); the
 * Tuning section has every group. */
static bool tuning_lead(const struct mmb_report_tune_group *gs, size_t ng, size_t j)
{
    const struct mmb_report_tune_group *g = &gs[j];
    if (!g->tuned)
        return false;
    double size = (double)g->m * (double)g->n * (double)g->k;
    for (size_t i = 0; i < ng; i++) {
        const struct mmb_report_tune_group *h = &gs[i];
        if (i == j || !h->tuned || h->kernel != g->kernel)
            continue;
        double hs = (double)h->m * (double)h->n * (double)h->k;
        if (hs > size || (i < j && hs == size))
            return false;
    }
    return true;
}

/* ---- all of them ----------------------------------------------------------------------------------------- */

void mmb_report_findings_ctx_init(const struct mmb_report *rep, struct mmb_report_findings_ctx *c)
{
    const struct mmb_report_data *d = &rep->data;
    *c = (struct mmb_report_findings_ctx){rep, d, -1, d->cublas, "", ""};
    if (d->ref >= 0)
        mmb_report_shape_label(&d->shapes[d->ref], c->ref, sizeof c->ref);
    mmb_report_state_selection(rep, -1, c->sel, sizeof c->sel);
    for (size_t g = 0; g < d->ngpus && c->primary < 0; g++)
        if (mmb_report_finding_measured(d, g) && mmb_report_select_gpu_has(d, g, NULL))
            c->primary = (int)g;
}

size_t mmb_report_findings(const struct mmb_report *rep, struct mmb_report_finding *out)
{
    const struct mmb_report_data *d = &rep->data;
    struct mmb_report_findings_ctx c;
    mmb_report_findings_ctx_init(rep, &c);
    size_t measured_gpus[MMB_REPORT_GPUS_MAX], nm = 0;
    for (size_t g = 0; g < d->ngpus; g++)
        if (mmb_report_finding_measured(d, g))
            measured_gpus[nm++] = g;
    size_t n = 0;
    memset(out, 0, MMB_REPORT_FINDINGS_MAX * sizeof *out);
#define TRY(call)                                                                                                   \
    do {                                                                                                            \
        if (n < MMB_REPORT_FINDINGS_MAX && (call))                                                                  \
            n++;                                                                                                    \
        else if (n < MMB_REPORT_FINDINGS_MAX)                                                                       \
            memset(&out[n], 0, sizeof out[n]);                                                                      \
    } while (0)
    if (c.primary >= 0 && d->ref >= 0) {
        TRY(story_kernels(&c, (size_t)c.primary, &out[n]));
        TRY(limits(&c, (size_t)c.primary, &out[n]));
    }
    if (d->ref >= 0) {
        TRY(mmb_report_findings_seeds_004(&c, &out[n]));
        TRY(mmb_report_findings_seeds_000(&c, &out[n]));
    }
    if (c.primary >= 0 && d->ref >= 0)
        TRY(traffic(&c, (size_t)c.primary, &out[n]));
    for (size_t i = 0; i + 1 < nm && d->ref >= 0; i++)
        TRY(mmb_report_findings_compare_generations(&c, measured_gpus[i], measured_gpus[i + 1], &out[n]));
    for (size_t p = 0; p < d->ngpus && c.primary >= 0 && d->ref >= 0; p++)
        if (d->gpus[p].all_published)
            TRY(mmb_report_findings_compare_published(&c, p, (size_t)c.primary, &out[n]));
    size_t ps[MMB_REPORT_PROFILES_MAX], np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_LADDER, ps);
    for (size_t j = 0; j < np; j++)
        for (size_t g = 0; g < d->ngpus; g++)
            TRY(mmb_report_findings_profiles_ladder(&c, ps[j], g, &out[n]));
    np = mmb_report_profiles_of(d, MMB_REPORT_ROLE_AS_WRITTEN, ps);
    for (size_t j = 0; j < np; j++)
        TRY(mmb_report_findings_profiles_seeds(&c, ps[j], &out[n]));
    struct mmb_report_tune_group *gs = calloc(MMB_REPORT_TUNE_GROUPS_MAX, sizeof *gs);
    size_t ng = gs ? mmb_report_tune_groups(d, gs) : 0;
    for (size_t j = 0; j < ng; j++)
        if (tuning_lead(gs, ng, j)) {
            size_t before = n;
            TRY(mmb_report_findings_compare_tuning(&c, gs, ng, j, &out[n]));
            if (n > before)
                out[before].tuning = true;
        }
    free(gs);
    TRY(mmb_report_findings_compare_cublas(&c, &out[n]));
    TRY(mmb_report_findings_compare_dtypes(&c, &out[n]));
    TRY(mmb_report_findings_compare_small(&c, &out[n]));
    TRY(mmb_report_findings_energy(&c, &out[n]));
#undef TRY
    return n;
}

/* One finding as markdown: its lead in bold, then its text. */
static void finding_md(FILE *f, const struct mmb_report_finding *x)
{
    fputs("**", f);
    mmb_report_md_text(f, x->lead);
    fputs(".** ", f);
    mmb_report_md_text(f, x->text);
}

void mmb_report_findings_md(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_finding *fs = calloc(MMB_REPORT_FINDINGS_MAX, sizeof *fs);
    if (!fs)
        return;
    size_t n = mmb_report_findings(rep, fs), shown = 0, tuning = 0;
    fputs("## Key findings\n\n", f);
    for (size_t i = 0; i < n; i++) {
        tuning += fs[i].tuning;
        if (fs[i].tuning || fs[i].energy)
            continue;
        shown++;
        fputs("- ", f);
        finding_md(f, &fs[i]);
        fputc('\n', f);
    }
    if (shown == 0)
        fputs("None: the data has no selected rows to draw a finding from.\n", f);
    else if (tuning)
        fputs("\nWhat tuning found, kernel by kernel: [tuning.md](tuning.md).\n", f);
    fputc('\n', f);
    free(fs);
}

void mmb_report_findings_tuning_md(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_finding *fs = calloc(MMB_REPORT_FINDINGS_MAX, sizeof *fs);
    if (!fs)
        return;
    size_t n = mmb_report_findings(rep, fs), shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (!fs[i].tuning)
            continue;
        fputs(shown++ ? "- " : "## What tuning found\n\n- ", f);
        finding_md(f, &fs[i]);
        fputc('\n', f);
    }
    if (shown)
        fputc('\n', f);
    free(fs);
}

void mmb_report_findings_energy_md(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_finding *fs = calloc(MMB_REPORT_FINDINGS_MAX, sizeof *fs);
    if (!fs)
        return;
    size_t n = mmb_report_findings(rep, fs);
    for (size_t i = 0; i < n; i++) {
        if (!fs[i].energy)
            continue;
        finding_md(f, &fs[i]);
        fputs("\n\n", f);
    }
    free(fs);
}

int mmb_report_findings_json(const struct mmb_report *rep, char *err, size_t errlen)
{
    return mmb_report_findings_claims_write(rep, err, errlen);
}

void mmb_report_findings_tex(FILE *f, const struct mmb_report *rep)
{
    struct mmb_report_finding *fs = calloc(MMB_REPORT_FINDINGS_MAX, sizeof *fs);
    if (!fs)
        return;
    size_t n = mmb_report_findings(rep, fs);
    if (n) {
        fputs("\\section*{Key findings}\n{\\sloppy\n\\begin{itemize}\n", f);
        for (size_t i = 0; i < n; i++) {
            if (fs[i].tuning || fs[i].energy)
                continue;
            fputs("\\item \\textbf{", f);
            mmb_report_md_tex(f, fs[i].lead);
            fputs(".} ", f);
            mmb_report_md_tex(f, fs[i].text);
            fputc('\n', f);
        }
        fputs("\\end{itemize}\n\\par}\n\n", f);
    }
    free(fs);
}

/* ---- what every finding is written with: text -------------------------------------------------------------------------------- */

void mmb_report_finding_add(struct mmb_report_finding *f, const char *fmt, ...)
{
    size_t n = strlen(f->text);
    if (n + 1 >= sizeof f->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text + n, sizeof f->text - n, fmt, ap);
    va_end(ap);
}

/* 0.28, 9.6, 77: two significant digits below 10, whole numbers above */
const char *mmb_report_finding_pct(double v, char *buf)
{
    snprintf(buf, 16, v < 1 ? "%.2f" : v < 10 ? "%.1f" : "%.0f", v);
    return buf;
}

const char *mmb_report_finding_tflops(double gflops, char *buf)
{
    snprintf(buf, 16, gflops < 1000 ? "%.2f" : "%.1f", gflops / 1000);
    return buf;
}

const char *mmb_report_finding_ratio(double v, char *buf)
{
    snprintf(buf, 16, v < 10 ? "%.2f" : "%.0f", v);
    return buf;
}

/* ---- the data ------------------------------------------------------------------------------ */

const struct mmb_report_row *mmb_report_finding_best(const struct mmb_report_findings_ctx *c, size_t g, size_t k,
                                                     size_t s)
{
    return mmb_report_select_best(c->d, g, k, s);
}

const struct mmb_report_row *mmb_report_finding_at_ref(const struct mmb_report_findings_ctx *c, size_t g, size_t k)
{
    return c->d->ref >= 0 ? mmb_report_finding_best(c, g, k, (size_t)c->d->ref) : NULL;
}

int mmb_report_finding_kernel(const struct mmb_report_data *d, const char *name)
{
    for (size_t k = 0; k < d->nkernels; k++)
        if (strcmp(d->kernels[k], name) == 0)
            return (int)k;
    return -1;
}

bool mmb_report_finding_measured(const struct mmb_report_data *d, size_t g)
{
    return !d->gpus[g].all_published && d->gpus[g].selected > 0;
}

bool mmb_report_finding_square(const struct mmb_report_shape *s)
{
    return s->m == s->n && s->n == s->k;
}

double mmb_report_finding_dram_bytes(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_read_bytes) && isfinite(r->r.dram_write_bytes)
               ? r->r.dram_read_bytes + r->r.dram_write_bytes
               : NAN;
}

double mmb_report_finding_dram_pct(const struct mmb_report_row *r)
{
    return isfinite(r->r.dram_util_pct) ? r->r.dram_util_pct : mmb_report_row_dram_pct(r);
}

bool mmb_report_finding_differs(const struct mmb_report_findings_ctx *c, const struct mmb_report_row *a,
                                const struct mmb_report_row *b)
{
    struct mmb_comparison cmp;
    mmb_report_pairs_compare(c->d, a, b, &cmp);
    return cmp.timed_alike && (cmp.ratio.verdict == MMB_VERDICT_FASTER || cmp.ratio.verdict == MMB_VERDICT_SLOWER);
}

const char *mmb_report_finding_gain(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f,
                                    const struct mmb_report_row *a, const struct mmb_report_row *b, char *out,
                                    size_t len)
{
    char x[16];
    struct mmb_comparison cmp;
    mmb_report_pairs_compare(c->d, a, b, &cmp);
    mmb_report_findings_claim_speedup(&f->claims, a, b, x);
    if (cmp.timed_alike && (cmp.ratio.verdict == MMB_VERDICT_FASTER || cmp.ratio.verdict == MMB_VERDICT_SLOWER))
        snprintf(out, len, "×%s", x);
    else
        snprintf(out, len, "×%s, %s", x, cmp.timed_alike ? mmb_verdict_text(cmp.ratio.verdict) : "UNSURE");
    return out;
}

void mmb_report_finding_ties(const struct mmb_report_findings_ctx *c, const struct mmb_report_row *fastest,
                             const struct mmb_report_row *const *rows, size_t n, char *out, size_t len)
{
    size_t o = 0, m = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && o + 1 < len; i++) {
        if (!rows[i] || rows[i] == fastest || mmb_report_finding_differs(c, fastest, rows[i]))
            continue;
        int w = snprintf(out + o, len - o, "%s%s", m++ ? ", " : " (not told apart by mmbench compare from ",
                         rows[i]->r.kernel);
        o += w > 0 ? (size_t)w : 0;
    }
    if (m && o + 1 < len)
        snprintf(out + o, len - o, ")");
}

/* "H100 80GB HBM3", "GTX TITAN X (published)": short enough to repeat in a sentence. */
void mmb_report_finding_gpu(const struct mmb_report_findings_ctx *c, size_t g, char *out, size_t len)
{
    char s[96];
    mmb_report_label_gpu(c->d->gpus[g].name, s, sizeof s);
    snprintf(out, len, "%s%s", s, c->d->gpus[g].all_published ? " (published)" : "");
}

/* ---- compare's verdict as findings write it -------------------------------------------------- */

void mmb_report_finding_verdict(struct mmb_report_finding *f, const char *kernel, const struct mmb_report_row *a,
                                const struct mmb_report_row *b, const struct mmb_comparison *cmp, char *out, size_t len)
{
    char v[128];
    mmb_report_findings_claim_verdict(&f->claims, a, b, cmp, v, sizeof v);
    snprintf(out, len, "%s%s%s", kernel, kernel[0] ? " " : "", v);
}
