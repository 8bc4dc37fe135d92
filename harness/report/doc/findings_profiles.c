/* findings_profiles.c - the findings of the profiles that have their own section:
 * the kernel ladder (ladder*: from the first step to the fastest, the largest gains
 * and the steps that lost speed, what limits the steps in turn, the step that ends
 * the bank conflicts) and the seed kernels as written (seeds*: how many are correct
 * as printed, which do not compile and why, which compute wrong results and how
 * often, the fastest correct one). */
#include "report/doc/findings_impl.h"
#include "report/doc/findings_claims.h"

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
    const struct mmb_report_row *from = NULL, *fast = NULL, *cub = d->cublas >= 0 ? at->best[d->cublas] : NULL;
    size_t steps = 0;
    for (size_t j = 0; j < nk; j++) {
        const struct mmb_report_row *r = at->best[ks[j]];
        if (!r || (int)ks[j] == d->cublas)
            continue;
        steps++;
        from = from ? from : r;
        if (!fast || r->r.time_ms_median < fast->r.time_ms_median)
            fast = r;
    }
    if (!from || from == fast)
        return;
    char a[16], b[16], e[16], g[16];
    if (first_size)
        mmb_report_finding_add(f, "At %s its %zu steps go from %s's %s TFLOP/s to %s's %s (×%s)", at->label, steps,
                               from->r.kernel, mmb_report_findings_claim_tflops(&f->claims, from, a), fast->r.kernel,
                               mmb_report_findings_claim_tflops(&f->claims, fast, b),
                               mmb_report_findings_claim_speedup(&f->claims, from, fast, e));
    else
        mmb_report_finding_add(f, "; at %s the fastest is %s at %s", at->label, fast->r.kernel,
                               mmb_report_findings_claim_tflops(&f->claims, fast, b));
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
    char a[16];
    bool used[MMB_REPORT_KERNELS_MAX] = {false};
    for (size_t t = 0; t < 3 && t < n; t++) {
        size_t top = n;
        for (size_t i = 0; i < n; i++)
            if (!used[i] && gain[i] > 1.05 && (top == n || gain[i] > gain[top]))
                top = i;
        if (top == n)
            break;
        used[top] = true;
        mmb_report_finding_add(
            f, "%s%s ×%s (after %s)", t ? ", " : " The largest gains over the step above: ", d->kernels[idx[top]],
            mmb_report_findings_claim_speedup(&f->claims, slow[top], fast[top], a), d->kernels[above[top]]);
    }
    size_t lost = 0;
    for (size_t i = 0; i < n; i++)
        if (gain[i] < 0.95)
            mmb_report_finding_add(
                f, "%s%s ×%s (after %s)", lost++ ? ", " : "; slower than the step above: ", d->kernels[idx[i]],
                mmb_report_findings_claim_speedup(&f->claims, slow[i], fast[i], a), d->kernels[above[i]]);
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
                else
                    mmb_report_finding_add(f, " What limits each step at %s: ", at->label);
                if (first == last)
                    mmb_report_finding_add(f, "%s for %s", l->meaning, first);
                else
                    mmb_report_finding_add(f, "%s from %s to %s", l->meaning, first, last);
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
    char a[32], b[32], e[16];
    mmb_report_tabular_count(from->r.smem_bank_conflicts, a, sizeof a);
    mmb_report_tabular_count(to->r.smem_bank_conflicts, b, sizeof b);
    mmb_report_finding_add(f, " %s cuts shared-memory bank conflicts from %s to %s at %s (×%s in speed).", to->r.kernel,
                           a, b, at->label, mmb_report_findings_claim_speedup(&f->claims, from, to, e));
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
    char why[160]; /* the first compile error */
};

/* Every row of kernel k of profile p on GPU g, all sizes and element types. */
static void seed_classify(const struct mmb_report_data *d, size_t p, size_t g, size_t k, struct seed *s)
{
    size_t by[MMB_STATUS_COUNT] = {0};
    const struct mmb_report_row *compile = NULL;
    memset(s, 0, sizeof *s);
    s->k = k;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *rr = &d->rows[i];
        if (rr->profile != p || rr->gpu != g || rr->kernel != k || (unsigned)rr->r.status >= MMB_STATUS_COUNT)
            continue;
        by[rr->r.status]++;
        if (rr->r.status == MMB_STATUS_COMPILE_ERROR && !compile)
            compile = rr;
    }
    s->wrong = by[MMB_STATUS_WRONG_RESULT];
    s->completed = s->wrong + by[MMB_STATUS_OK];
    s->cls = compile && !s->completed ? SEED_COMPILE
            : s->wrong                ? SEED_WRONG
            : by[MMB_STATUS_OK]       ? SEED_CORRECT
                                      : SEED_NOT_RUN;
    if (compile)
        mmb_report_md_reason(compile->r.reason, s->why, sizeof s->why);
}

/* One GPU's sentence, without the GPU's name; returns the kernels it has rows of. */
static size_t seeds_text(const struct mmb_report_findings_ctx *c, size_t p, size_t g, char *out, size_t len)
{
    const struct mmb_report_data *d = c->d;
    bool here = false;
    for (size_t i = 0; i < d->nrows && !here; i++)
        here = d->rows[i].profile == p && d->rows[i].gpu == g;
    if (!here)
        return 0;
    size_t ks[MMB_REPORT_KERNELS_MAX], nk = mmb_report_profile_kernels(d, p, ks), n = 0;
    struct seed s[MMB_REPORT_KERNELS_MAX];
    size_t count[SEED_CLASSES] = {0};
    for (size_t j = 0; j < nk; j++)
        if ((int)ks[j] != d->cublas) {
            seed_classify(d, p, g, ks[j], &s[n]);
            count[s[n++].cls]++;
        }
    struct mmb_report_finding tmp;
    memset(&tmp, 0, sizeof tmp);
    mmb_report_finding_add(&tmp, "%zu %s correct as written", count[SEED_CORRECT],
                           count[SEED_CORRECT] == 1 ? "is" : "are");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_CORRECT)
            mmb_report_finding_add(&tmp, "%s%s", m++ ? ", " : " (", d->kernels[s[i].k]);
    mmb_report_finding_add(&tmp, "%s.", count[SEED_CORRECT] ? ")" : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_COMPILE) {
            if (!m++)
                mmb_report_finding_add(&tmp, " %zu %s not compile: ", count[SEED_COMPILE],
                                       count[SEED_COMPILE] == 1 ? "does" : "do");
            else
                mmb_report_finding_add(&tmp, ", ");
            mmb_report_finding_add(&tmp, "%s (%s)", d->kernels[s[i].k], s[i].why);
        }
    mmb_report_finding_add(&tmp, "%s", count[SEED_COMPILE] ? "." : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_WRONG) {
            if (!m++)
                mmb_report_finding_add(&tmp, " %zu compute%s wrong results: ", count[SEED_WRONG],
                                       count[SEED_WRONG] == 1 ? "s" : "");
            else
                mmb_report_finding_add(&tmp, ", ");
            if (s[i].wrong == s[i].completed)
                mmb_report_finding_add(&tmp, "%s in all %zu runs", d->kernels[s[i].k], s[i].wrong);
            else
                mmb_report_finding_add(&tmp, "%s in %zu of its %zu completed runs (the other %zu passed the check)",
                                       d->kernels[s[i].k], s[i].wrong, s[i].completed, s[i].completed - s[i].wrong);
        }
    mmb_report_finding_add(&tmp, "%s", count[SEED_WRONG] ? "." : "");
    for (size_t i = 0, m = 0; i < n; i++)
        if (s[i].cls == SEED_NOT_RUN)
            mmb_report_finding_add(&tmp, "%s%s", m++ ? ", " : " Did not run: ", d->kernels[s[i].k]);
    mmb_report_finding_add(&tmp, "%s", count[SEED_NOT_RUN] ? "." : "");
    snprintf(out, len, "%s", tmp.text);
    return n;
}

#define TEXT sizeof(((struct mmb_report_finding *)0)->text)

bool mmb_report_findings_profiles_seeds(const struct mmb_report_findings_ctx *c, size_t p, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char *texts = calloc(MMB_REPORT_GPUS_MAX, TEXT);
    if (!texts)
        return false;
    size_t gs[MMB_REPORT_GPUS_MAX], ng = 0, kernels = 0;
    for (size_t g = 0; g < d->ngpus; g++) {
        size_t n = seeds_text(c, p, g, texts + ng * TEXT, TEXT);
        if (n) {
            kernels = n;
            gs[ng++] = g;
        }
    }
    if (!ng) {
        free(texts);
        return false;
    }
    snprintf(f->lead, sizeof f->lead, "Seed kernels as written");
    mmb_report_finding_add(f, "The %zu seed kernels run exactly as the documents print them (profile %s), ", kernels,
                           d->profiles[p].name);
    bool same = true;
    for (size_t i = 1; i < ng; i++)
        same = same && strcmp(texts, texts + i * TEXT) == 0;
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
        mmb_report_finding_add(f, "%s: %s", same && ng > 1 ? " alike" : "", texts + i * TEXT);
    }
    free(texts);
    /* the fastest correct one at the reference size */
    if (c->primary >= 0 && d->ref >= 0) {
        const struct mmb_report_row *best[MMB_REPORT_KERNELS_MAX], *fast = NULL;
        mmb_report_profile_best(d, p, (size_t)c->primary, d->dtype, &d->shapes[d->ref], best);
        for (size_t k = 0; k < d->nkernels; k++) {
            struct seed s;
            if (!best[k] || (int)k == d->cublas)
                continue;
            seed_classify(d, p, (size_t)c->primary, k, &s);
            if (s.cls == SEED_CORRECT && (!fast || best[k]->r.time_ms_median < fast->r.time_ms_median))
                fast = best[k];
        }
        const struct mmb_report_row *cub = d->cublas >= 0 ? best[d->cublas] : NULL;
        char gpu[128], a[16], b[16];
        mmb_report_finding_gpu(c, (size_t)c->primary, gpu, sizeof gpu);
        if (fast) {
            mmb_report_finding_add(f, " The fastest correct one at %s (%s) on the %s, %s, reaches %s TFLOP/s", c->ref,
                                   c->sel, gpu, fast->r.kernel,
                                   mmb_report_finding_tflops(mmb_report_row_gflops(fast), a));
            mmb_report_finding_add(
                    f, cub ? ", %s%% of cuBLAS." : ".",
                    mmb_report_finding_pct(cub ? 100 * cub->r.time_ms_median / fast->r.time_ms_median : 0, b));
        }
    }
    return true;
}
