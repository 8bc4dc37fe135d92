/* findings_profiles.c - the findings of the profiles that have their own section:
 * the kernel ladder (ladder*: from the first step to the fastest, the largest gains
 * and the steps that lost speed, what limits the steps in turn, the step that ends
 * the bank conflicts) and the seed kernels as written (seeds*: how many are correct
 * as printed, which do not compile and why, which compute wrong results and how
 * often, the fastest correct one). */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc/md.h"
#include "report/doc/tabular.h"
#include "report/input/profiles.h"
#include "report/input/row.h"
#include "results/limiter.h"
#include "results/row.h"
#include "results/stall.h"

/* ---- the kernel ladder ----------------------------------------------------------------------------- */

struct ladder_at {
    struct mmb_report_shape s;
    char label[96];
    const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX];
};

/* From the first step to the fastest at one size. */
static void ladder_span(const struct mmb_report_findings_ctx *c, const size_t *ks, size_t nk,
                        const struct ladder_at *at, bool first_size, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_row *from = NULL, *fast = NULL, *cub = d->cublas >= 0 ? at->best[d->cublas] : NULL,
                                *rows[MMB_REPORT_KERNELS_MAX];
    size_t steps = 0;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = at->best[ks[j]];
        if (!r || (int)ks[j] == d->cublas)
            continue;
        rows[steps++] = r;
        from = from ? from : r;
        if (!fast || r->r.time_ms_median < fast->r.time_ms_median)
            fast = r;
    }
    if (!from || from == fast)
        return;
    char a[16], b[16], n[16], g[16], x[64], size[96], ties[256];
    mmb_report_finding_ties(c, fast, rows, steps, ties, sizeof ties);
    if (first_size)
        mmb_report_finding_add(f, "At %s its %s steps go from %s's %s TFLOP/s to %s's %s (%s)%s",
                               mmb_report_findings_claim_key(&f->claims, from, "size", size, sizeof size),
                               mmb_report_findings_claim_count(&f->claims, "kernels", rows, steps, 1, n), from->r.kernel,
                               mmb_report_findings_claim_tflops(&f->claims, from, a), fast->r.kernel,
                               mmb_report_findings_claim_tflops(&f->claims, fast, b),
                               mmb_report_finding_gain(c, f, from, fast, x, sizeof x), ties);
    else
        mmb_report_finding_add(f, "; at %s the fastest is %s at %s%s",
                               mmb_report_findings_claim_key(&f->claims, fast, "size", size, sizeof size),
                               fast->r.kernel, mmb_report_findings_claim_tflops(&f->claims, fast, b), ties);
    if (cub)
        mmb_report_finding_add(f, ", %s%% of cuBLAS", mmb_report_findings_claim_pct_time(&f->claims, cub, fast, g));
    if (first_size && isfinite(mmb_row_fp32_pct(&fast->r)))
        mmb_report_finding_add(f, " and %s%% of the FP32 peak", mmb_report_findings_claim_pct_peak(&f->claims, fast, a));
}

/* Gains over the step above: the three largest, and every step that lost speed. */
static void ladder_steps(const struct mmb_report_findings_ctx *c, const size_t *ks, size_t nk,
                         const struct ladder_at *at, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    double gain[MMB_REPORT_KERNELS_MAX];
    size_t above[MMB_REPORT_KERNELS_MAX], idx[MMB_REPORT_KERNELS_MAX], n = 0;
    const struct mmb_report_row *slow[MMB_REPORT_KERNELS_MAX], *fast[MMB_REPORT_KERNELS_MAX];
    const struct mmb_report_row *prev = NULL;
    size_t prev_k = 0;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = at->best[ks[j]];
        if (!r || (int)ks[j] == d->cublas)
            continue;
        if (prev) {
            gain[n] = prev->r.time_ms_median / r->r.time_ms_median;
            slow[n] = prev, fast[n] = r;
            above[n] = prev_k;
            idx[n++] = ks[j];
        }
        prev = r;
        prev_k = ks[j];
    }
    char a[64];
    bool used[MMB_REPORT_KERNELS_MAX] = {false}, apart[MMB_REPORT_KERNELS_MAX];
    for (size_t i = 0; i < n; i++) /* a gain or a loss only beyond the noise */
        apart[i] = mmb_report_finding_differs(c, slow[i], fast[i]);
    for (size_t t = 0; t < 3 && t < n; t++) {
        size_t top = n;
        for (size_t i = 0; i < n; i++)
            if (!used[i] && apart[i] && gain[i] > 1.05 && (top == n || gain[i] > gain[top]))
                top = i;
        if (top == n)
            break;
        used[top] = true;
        mmb_report_finding_add(
            f, "%s%s %s (after %s)", t ? ", " : " The largest gains over the step above: ", d->kernels[idx[top]],
            mmb_report_finding_gain(c, f, slow[top], fast[top], a, sizeof a), d->kernels[above[top]]);
    }
    size_t lost = 0, gains = 0;
    for (size_t i = 0; i < n; i++)
        gains += used[i];
    for (size_t i = 0; i < n; i++)
        if (gain[i] < 0.95 && apart[i])
            mmb_report_finding_add(
                f, "%s%s %s (after %s)", lost++ ? ", " : "; slower than the step above: ", d->kernels[idx[i]],
                mmb_report_finding_gain(c, f, slow[i], fast[i], a, sizeof a), d->kernels[above[i]]);
    if (gains || lost)
        mmb_report_finding_add(f, ".");
}

/* What limits the steps in turn: runs of one limiter in the profile's order. */
static void ladder_limits(const struct mmb_report_findings_ctx *c, const size_t *ks, size_t nk,
                          const struct ladder_at *at, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    size_t runs = 0;
    char cur[8] = "", buf[8];
    const char *first = NULL, *last = NULL;
    const struct mmb_report_row *r0 = NULL;
    for (size_t j = 0; j < nk && !r0; j++)
        r0 = at->best[ks[j]];
    for (size_t j = 0; j <= nk; j++) {
        const struct mmb_report_row *r = j < nk ? at->best[ks[j]] : NULL;
        if (j < nk && !r)
            continue;
        const char *lim = r ? mmb_row_limiter(&r->r, buf, sizeof buf) : "";
        if (first && (!r || strcmp(lim, cur) != 0)) {
            const struct mmb_limiter *l = mmb_limiter_parse(cur);
            if (l) {
                if (runs++)
                    mmb_report_finding_add(f, "; ");
                else {
                    char size[96];
                    mmb_report_finding_add(f, " What limits each step at %s: ",
                                           mmb_report_findings_claim_key(&f->claims, r0, "size", size, sizeof size));
                }
                char meaning[96], near[16];
                if (l->value == MMB_LIMITER_LATENCY) /* its threshold, claimed */
                    snprintf(meaning, sizeof meaning, "latency (no unit at %s%% of its peak)",
                             mmb_report_findings_claim_setting(&f->claims, "harness/results/limiter.h",
                                                               "MMB_LIMITER_NEAR_PEAK", MMB_LIMITER_NEAR_PEAK, 1,
                                                               "int", near));
                else
                    snprintf(meaning, sizeof meaning, "%s", l->meaning);
                if (first == last)
                    mmb_report_finding_add(f, "%s for %s", meaning, first);
                else
                    mmb_report_finding_add(f, "%s from %s to %s", meaning, first, last);
            }
            first = NULL;
        }
        if (r && !first) {
            snprintf(cur, sizeof cur, "%s", lim);
            first = d->kernels[ks[j]];
        }
        last = r ? d->kernels[ks[j]] : last;
    }
    if (runs)
        mmb_report_finding_add(f, ".");
}

/* The step after which shared-memory bank conflicts fall the most (a hundredfold or more). */
static void ladder_conflicts(const struct mmb_report_findings_ctx *c, const size_t *ks, size_t nk,
                             const struct ladder_at *at, struct mmb_report_finding *f)
{
    const struct mmb_report_row *prev = NULL, *from = NULL, *to = NULL;
    double most = 100;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = at->best[ks[j]];
        if (!r || (int)ks[j] == c->d->cublas)
            continue;
        double a = prev ? prev->r.smem_bank_conflicts : NAN, b = r->r.smem_bank_conflicts;
        if (isfinite(a) && isfinite(b) && a >= 1e6 && a / fmax(b, 1) >= most) {
            most = a / fmax(b, 1);
            from = prev;
            to = r;
        }
        prev = r;
    }
    if (!to)
        return;
    char a[16], b[16], e[64], size[96];
    mmb_report_finding_add(f, " %s cuts shared-memory bank conflicts from %s to %s at %s (%s in speed).", to->r.kernel,
                           mmb_report_findings_claim_cell(&f->claims, from, "smem_bank_conflicts", "count",
                                                          from->r.smem_bank_conflicts, a),
                           mmb_report_findings_claim_cell(&f->claims, to, "smem_bank_conflicts", "count",
                                                          to->r.smem_bank_conflicts, b),
                           mmb_report_findings_claim_key(&f->claims, to, "size", size, sizeof size),
                           mmb_report_finding_gain(c, f, from, to, e, sizeof e));
}

/* What the latency-bound steps wait for: each one's two largest stall reasons. */
static void ladder_stalls(const struct mmb_report_findings_ctx *c, const size_t *ks, size_t nk,
                          const struct ladder_at *at, struct mmb_report_finding *f)
{
    size_t n = 0;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = at->best[ks[j]];
        struct mmb_row_bound bound;
        struct mmb_stall_value top[2];
        size_t nt = r ? mmb_row_stalls_top(&r->r, top, 2) : 0;
        if (!nt || !mmb_row_bound(&r->r, &bound) || bound.verdict != MMB_LIMITER_LATENCY)
            continue;
        mmb_report_finding_add(f, "%s%s ", n++ ? "; " : " What the latency-bound steps wait for, in warp cycles per "
                                                        "issued instruction: ",
                               c->d->kernels[ks[j]]);
        for (size_t i = 0; i < nt; i++) {
            char a[16];
            mmb_report_finding_add(f, "%s%s %s", i ? ", " : "", top[i].stall->name,
                                   mmb_report_findings_claim_column(&f->claims, r, top[i].stall->column,
                                                                    top[i].cycles, a));
        }
    }
    if (n)
        mmb_report_finding_add(f, ".");
}

bool mmb_report_findings_profiles_ladder(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                                         struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    struct ladder_at *at = calloc(2, sizeof *at);
    if (!at)
        return false;
    struct mmb_report_shape sizes[2];
    size_t ns = mmb_report_profile_sizes(d, p, g, sizes);
    for (size_t s = 0; s < ns; s++) {
        at[s].s = sizes[s];
        mmb_report_shape_label(&sizes[s], at[s].label, sizeof at[s].label);
        mmb_report_profile_best(d, p, g, d->dtype, &sizes[s], at[s].best);
    }
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks);
    char gpu[128];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Kernel ladder, %s", gpu);
    if (ns) {
        mmb_report_finding_add(f, "Profile %s, each step at its best configuration (%s). ", d->profiles[p].name,
                               c->sel);
        for (size_t s = 0; s < ns; s++)
            ladder_span(c, ks, nk, &at[s], s == 0, f);
        mmb_report_finding_add(f, ".");
        ladder_steps(c, ks, nk, &at[0], f);
        ladder_limits(c, ks, nk, &at[0], f);
        ladder_stalls(c, ks, nk, &at[0], f);
        ladder_conflicts(c, ks, nk, &at[0], f);
    }
    free(at);
    return ns > 0 && strlen(f->text) > 80;
}

/* ---- the seed kernels as written ------------------------------------------------------------------- */

enum seed_class { SEED_CORRECT, SEED_COMPILE, SEED_WRONG, SEED_NOT_RUN, SEED_CLASSES };

struct seed {
    size_t k;
    enum seed_class cls;
    size_t wrong, completed;
    const struct mmb_report_row *any, *first; /* a row of it; the first of its class (ok, compile, wrong) */
};

/* Every row of kernel k of profile p on GPU g, all sizes and element types. */
static void seed_classify(const struct mmb_report_data *d, size_t p, size_t g, size_t k, struct seed *s)
{
    size_t by[MMB_STATUS_COUNT] = {0};
    const struct mmb_report_row *first[MMB_STATUS_COUNT] = {NULL};
    memset(s, 0, sizeof *s);
    s->k = k;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile != p || rr->gpu != g || rr->kernel != k || (unsigned)rr->r.status >= MMB_STATUS_COUNT)
            continue;
        by[rr->r.status]++;
        s->any = s->any ? s->any : rr;
        first[rr->r.status] = first[rr->r.status] ? first[rr->r.status] : rr;
    }
    s->wrong = by[MMB_STATUS_WRONG_RESULT];
    s->completed = s->wrong + by[MMB_STATUS_OK];
    const struct mmb_report_row *compile = first[MMB_STATUS_COMPILE_ERROR];
    s->cls = compile && !s->completed ? SEED_COMPILE
            : s->wrong                ? SEED_WRONG
            : by[MMB_STATUS_OK]       ? SEED_CORRECT
                                      : SEED_NOT_RUN;
    s->first = s->cls == SEED_COMPILE ? compile
               : s->cls == SEED_WRONG ? first[MMB_STATUS_WRONG_RESULT]
               : s->cls == SEED_CORRECT ? first[MMB_STATUS_OK]
                                        : s->any;
}

/* The rows of kernel k of profile p on GPU g whose status is one of want (a mask of
 * 1 << status) into out; returns how many. */
static size_t seed_rows(const struct mmb_report_data *d, size_t p, size_t g, size_t k, unsigned want,
                        const struct mmb_report_row **out)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile == p && rr->gpu == g && rr->kernel == k && (unsigned)rr->r.status < MMB_STATUS_COUNT &&
            (want >> rr->r.status & 1u))
            out[n++] = rr;
    }
    return n;
}

/* " 002_tiled_1xN in 34 of its 36 completed runs (the other 2 passed the check)". */
static void seed_wrong(const struct mmb_report_findings_ctx *c, size_t p, size_t g, const struct seed *s,
                       struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_row **rows = malloc((d->nrows ? d->nrows : 1) * sizeof *rows);
    if (!rows)
        return;
    char a[16], b[16], e[16];
    size_t nw = seed_rows(d, p, g, s->k, 1u << MMB_STATUS_WRONG_RESULT, rows);
    mmb_report_findings_claim_count(&f->claims, "status:wrong_result", rows, nw, 1, a);
    if (s->wrong == s->completed) {
        mmb_report_finding_add(f, "%s in all %s runs", d->kernels[s->k], a);
    } else {
        size_t nc = seed_rows(d, p, g, s->k, 1u << MMB_STATUS_WRONG_RESULT | 1u << MMB_STATUS_OK, rows);
        mmb_report_findings_claim_count(&f->claims, "status:ok|wrong_result", rows, nc, 1, b);
        size_t no = seed_rows(d, p, g, s->k, 1u << MMB_STATUS_OK, rows);
        mmb_report_findings_claim_count(&f->claims, "status:ok", rows, no, 1, e);
        mmb_report_finding_add(f, "%s in %s of its %s completed runs (the other %s passed the check)",
                               d->kernels[s->k], a, b, e);
    }
    free(rows);
}

/* One GPU's sentence, without the GPU's name, into out with its claims; returns the
 * kernels it has rows of (their rows in kernels). */
static size_t seeds_text(const struct mmb_report_findings_ctx *c, size_t p, size_t g, struct mmb_report_finding *out,
                         const struct mmb_report_row **kernels)
{
    const struct mmb_report_data *d = c->d;
    bool here = false;
    for (size_t i = 0; i < d->nrows && !here; i++)
        here = d->rows[i].profile == p && d->rows[i].gpu == g;
    if (!here)
        return 0;
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks), n = 0;
    struct seed s[MMB_REPORT_KERNELS_MAX];
    const struct mmb_report_row *of[SEED_CLASSES][MMB_REPORT_KERNELS_MAX];
    size_t count[SEED_CLASSES] = {0};
    for (size_t j = 0; j < nk; j++)
        if ((int)ks[j] != d->cublas) {
            seed_classify(d, p, g, ks[j], &s[n]);
            if (!s[n].any)
                continue;
            kernels[n] = s[n].any;
            of[s[n].cls][count[s[n].cls]++] = s[n].first;
            n++;
        }
    struct mmb_report_finding *tmp = out;
    char num[SEED_CLASSES][16];
    static const char *const what[SEED_CLASSES] = {"kernels,status:ok", "kernels,status:compile_error",
                                                   "kernels,status:wrong_result", "kernels"};
    for (size_t i = 0; i < SEED_CLASSES; i++)
        if (i != SEED_NOT_RUN && (count[i] || i == SEED_CORRECT))
            mmb_report_findings_claim_count(&tmp->claims, what[i], of[i], count[i], 1, num[i]);
    mmb_report_finding_add(tmp, "%s %s correct as written", num[SEED_CORRECT],
                           count[SEED_CORRECT] == 1 ? "is" : "are");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_CORRECT)
            mmb_report_finding_add(tmp, "%s%s", m++ ? ", " : " (", d->kernels[s[i].k]);
    mmb_report_finding_add(tmp, "%s.", count[SEED_CORRECT] ? ")" : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_COMPILE) {
            char why[200];
            if (!m++)
                mmb_report_finding_add(tmp, " %s %s not compile: ", num[SEED_COMPILE],
                                       count[SEED_COMPILE] == 1 ? "does" : "do");
            else
                mmb_report_finding_add(tmp, ", ");
            mmb_report_finding_add(tmp, "%s (%s)", d->kernels[s[i].k],
                                   mmb_report_findings_claim_key(&tmp->claims, s[i].first, "reason", why, sizeof why));
        }
    mmb_report_finding_add(tmp, "%s", count[SEED_COMPILE] ? "." : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_WRONG) {
            if (!m++)
                mmb_report_finding_add(tmp, " %s compute%s wrong results: ", num[SEED_WRONG],
                                       count[SEED_WRONG] == 1 ? "s" : "");
            else
                mmb_report_finding_add(tmp, ", ");
            seed_wrong(c, p, g, &s[i], tmp);
        }
    mmb_report_finding_add(tmp, "%s", count[SEED_WRONG] ? "." : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_NOT_RUN)
            mmb_report_finding_add(tmp, "%s%s", m++ ? ", " : " Did not run: ", d->kernels[s[i].k]);
    mmb_report_finding_add(tmp, "%s", count[SEED_NOT_RUN] ? "." : "");
    return n;
}

bool mmb_report_findings_profiles_seeds(const struct mmb_report_findings_ctx *c, size_t p, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    struct mmb_report_finding *texts = calloc(MMB_REPORT_GPUS_MAX, sizeof *texts);
    if (!texts)
        return false;
    size_t gs[MMB_REPORT_GPUS_MAX], ng = 0, kernels = 0;
    const struct mmb_report_row *krows[MMB_REPORT_KERNELS_MAX], *first_rows[MMB_REPORT_KERNELS_MAX];
    for (size_t g = 0; g < d->ngpus; g++) {
        size_t n = seeds_text(c, p, g, &texts[ng], krows);
        if (n) {
            if (!ng)
                memcpy(first_rows, krows, n * sizeof *krows);
            kernels = ng ? kernels : n;
            gs[ng++] = g;
        }
    }
    if (!ng) {
        free(texts);
        return false;
    }
    char num[16];
    snprintf(f->lead, sizeof f->lead, "Seed kernels as written");
    mmb_report_finding_add(f, "The %s seed kernels run exactly as the documents print them (profile %s), ",
                           mmb_report_findings_claim_count(&f->claims, "kernels", first_rows, kernels, 1, num),
                           d->profiles[p].name);
    bool same = true;
    for (size_t i = 1; i < ng; i++)
        same = same && strcmp(texts[0].text, texts[i].text) == 0;
    for (size_t i = 0; i < (same ? 1 : ng); i++) {
        char gpu[128];
        for (size_t j = same ? 0 : i; j < (same ? ng : i + 1); j++) {
            mmb_report_finding_gpu(c, gs[j], gpu, sizeof gpu);
            mmb_report_finding_add(f, "%sthe %s",
                                   j == (same ? 0 : i)   ? (i ? " On " : "on ")
                                           : j + 1 == ng ? " and "
                                                         : ", ",
                                   gpu);
        }
        mmb_report_finding_add(f, "%s: %s", same && ng > 1 ? " alike" : "", texts[i].text);
        mmb_report_findings_claims_merge(&f->claims, &texts[i].claims);
    }
    free(texts);
    /* the fastest correct one at the reference size */
    if (c->primary >= 0 && d->ref >= 0) {
        const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX], *fast = NULL, *correct[MMB_REPORT_KERNELS_MAX];
        size_t nc = 0;
        mmb_report_profile_best(d, p, (size_t)c->primary, d->dtype, &d->shapes[d->ref], best);
        for (size_t k = 0; k < d->nkernels; k++) {
            struct seed s;
            if (!best[k] || (int)k == d->cublas)
                continue;
            seed_classify(d, p, (size_t)c->primary, k, &s);
            if (s.cls != SEED_CORRECT)
                continue;
            correct[nc++] = best[k];
            if (!fast || best[k]->r.time_ms_median < fast->r.time_ms_median)
                fast = best[k];
        }
        const struct mmb_report_row *cub = d->cublas >= 0 ? best[d->cublas] : NULL;
        char gpu[128], a[16], b[16], size[96], ties[256];
        mmb_report_finding_gpu(c, (size_t)c->primary, gpu, sizeof gpu);
        if (fast) {
            mmb_report_finding_ties(c, fast, correct, nc, ties, sizeof ties);
            mmb_report_finding_add(f, " The fastest correct one at %s (%s) on the %s, %s%s, reaches %s TFLOP/s",
                                   mmb_report_findings_claim_key(&f->claims, fast, "size", size, sizeof size), c->sel,
                                   gpu, fast->r.kernel, ties, mmb_report_findings_claim_tflops(&f->claims, fast, a));
            if (cub)
                mmb_report_finding_add(f, ", %s%% of cuBLAS.",
                                       mmb_report_findings_claim_pct_time(&f->claims, cub, fast, b));
            else
                mmb_report_finding_add(f, ".");
        }
    }
    return true;
}
