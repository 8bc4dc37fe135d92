/* findings_compare_tuning.c - the finding of each tuned kernel: what tuning found (how
 * many configurations ran, how far the slowest lies from the fastest, what occupancy
 * says) and whether its ranking carries over to another GPU, with compare's verdicts. */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/input/labels.h"
#include "report/input/pairs.h"
#include "report/input/row.h"
#include "report/input/tune_groups.h"

/* ---- tuning ---------------------------------------------------------------------------------------------- */

/* The ok rows of a tuned group, fastest first (row indices into idx); returns how many. */
static size_t group_rows(const struct mmb_report_data *d, const struct mmb_report_tune_group *g, size_t *idx,
                         size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nrows && n < cap; i++)
        if (mmb_report_tune_group_member(d, g, &d->rows[i]) && d->rows[i].r.status == MMB_STATUS_OK)
            idx[n++] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort: spaces are small */
        for (size_t j = i; j > 0 && d->rows[idx[j]].r.time_ms_median < d->rows[idx[j - 1]].r.time_ms_median; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

/* A configuration counts as near the best within this many percent of its time; the
 * best's occupancy is set against the slowest ones' only where they take this many
 * percent longer (and differ beyond the noise). */
#define MMB_REPORT_TUNE_NEAR_PCT 5
#define MMB_REPORT_TUNE_GAP_PCT 10

/* The fastest configuration's occupancy against the three slowest ones': theoretical
 * when every row of the group has it (it needs no counters), else achieved. */
static void occupancy_clause(const struct mmb_report_findings_ctx *c, const size_t *idx, size_t n,
                             struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char a[16], b[16], e[16];
    enum mmb_report_occupancy kind = mmb_report_row_occupancy_kind(d, idx, n);
    if (n < 6 || !isfinite(mmb_report_row_occupancy(&d->rows[idx[0]], kind)))
        return;
    const char *column = kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? "theoretical_occupancy_pct" : "occupancy_pct";
    double slow = 0;
    size_t m = 0;
    const struct mmb_report_row *slowest[3], *best = &d->rows[idx[0]];
    bool apart = true; /* each of the slowest beyond the noise and the gap from the best */
    for (size_t i = n - 3; i < n; i++) {
        const struct mmb_report_row *r = &d->rows[idx[i]];
        if (isfinite(mmb_report_row_occupancy(r, kind)))
            slow += mmb_report_row_occupancy(r, kind), slowest[m++] = r;
        apart = apart && r->r.time_ms_median > (1 + MMB_REPORT_TUNE_GAP_PCT / 100.0) * best->r.time_ms_median &&
                mmb_report_finding_differs(c, best, r);
    }
    if (!m)
        return;
    slow /= (double)m;
    double fast = mmb_report_row_occupancy(best, kind);
    mmb_report_finding_add(f, " The best runs at %s%% %soccupancy, the three slowest at %s%% on average",
                           mmb_report_findings_claim_column(&f->claims, best, column, fast, a),
                           kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? "theoretical " : "",
                           mmb_report_findings_claim_mean(&f->claims, column, "pct", slowest, m, slow, b));
    if (fast < slow && apart)
        mmb_report_finding_add(f, ", and they take over %s%% longer, beyond the noise: more independent work per "
                               "thread beats more threads here.",
                               mmb_report_findings_claim_setting(&f->claims, "harness/report/doc/findings/findings_compare_tuning.c",
                                                                 "MMB_REPORT_TUNE_GAP_PCT", MMB_REPORT_TUNE_GAP_PCT, 1,
                                                                 "int", e));
    else
        mmb_report_finding_add(f, ".");
}

/* Whether the first k ranks of both GPUs' orders (idx, jdx) are each told apart from
 * the next beyond the noise, on both GPUs: how many leading ranks are. */
static size_t ranks_apart(const struct mmb_report_findings_ctx *c, const size_t *idx, const size_t *jdx, size_t same)
{
    size_t k = 0;
    while (k + 1 < same && mmb_report_finding_differs(c, &c->d->rows[idx[k]], &c->d->rows[idx[k + 1]]) &&
           mmb_report_finding_differs(c, &c->d->rows[jdx[k]], &c->d->rows[jdx[k + 1]]))
        k++;
    return k + 1;
}

/* Does the ranking carry over to GPU group h? */
static void ranking_clause(const struct mmb_report_findings_ctx *c, const struct mmb_report_tune_group *h,
                           const size_t *idx, size_t n, const char *gpu, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    size_t cap = d->nrows ? d->nrows : 1;
    size_t *jdx = malloc(cap * sizeof *jdx);
    const struct mmb_report_row **pairs = malloc(2 * cap * sizeof *pairs);
    size_t m = jdx && pairs ? group_rows(d, h, jdx, cap) : 0, same = 0;
    while (same < n && same < m && !strcmp(d->rows[idx[same]].r.params, d->rows[jdx[same]].r.params)) {
        pairs[2 * same] = &d->rows[idx[same]];
        pairs[2 * same + 1] = &d->rows[jdx[same]];
        same++;
    }
    char other[128], params[256], num[16];
    mmb_report_finding_gpu(c, h->gpu, other, sizeof other);
    const struct mmb_report_row *top = &d->rows[idx[0]];
    if (same >= 1) {
        size_t apart = ranks_apart(c, idx, jdx, same);
        mmb_report_finding_add(f, " The %s's fastest is the same configuration", other);
        if (apart >= 2)
            mmb_report_finding_add(f, ", and its %s fastest come in the same order, each told apart from the next "
                                   "beyond the noise on both GPUs",
                                   mmb_report_findings_claim_count(&f->claims, "params", pairs, apart, 2, num));
        mmb_report_finding_add(f, ".");
    } else if (m) {
        mmb_report_finding_add(f, " On the %s the best is another one, %s", other,
                               mmb_report_findings_claim_key(&f->claims, &d->rows[jdx[0]], "params", params,
                                                             sizeof params));
        /* is it faster there than this GPU's best, or only within the noise? */
        const struct mmb_report_row *mine = NULL;
        for (size_t i = 0; i < m && !mine; i++)
            if (!strcmp(d->rows[jdx[i]].r.params, top->r.params))
                mine = &d->rows[jdx[i]];
        if (mine) {
            struct mmb_comparison cmp;
            mmb_report_pairs_compare(d, mine, &d->rows[jdx[0]], &cmp);
            char item[200];
            mmb_report_finding_verdict(f, "", mine, &d->rows[jdx[0]], &cmp, item, sizeof item);
            mmb_report_finding_add(f, ": its time there over that of the %s's best is %s", gpu, item);
        }
        mmb_report_finding_add(f, ".");
    }
    free(jdx);
    free(pairs);
}

/* "Of 288 configurations of tunable at 4096, 36 ran (244 restricted by the profile, 8
 * failed)", each count with its rows. */
static void counts_clause(const struct mmb_report_findings_ctx *c, const struct mmb_report_tune_group *g, size_t n,
                          struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_row **all = malloc((d->nrows ? d->nrows : 1) * 4 * sizeof *all);
    if (!all)
        return;
    const struct mmb_report_row **ok = all + d->nrows, **restricted = ok + d->nrows, **failed = restricted + d->nrows;
    size_t na = 0, nok = 0, nr = 0, nf = 0;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (!mmb_report_tune_group_member(d, g, r))
            continue;
        all[na++] = r;
        if (r->r.status == MMB_STATUS_OK)
            ok[nok++] = r;
        else if (r->r.status == MMB_STATUS_RESTRICTED)
            restricted[nr++] = r;
        else
            failed[nf++] = r;
    }
    char a[16], b[16], e[16], h[16], size[96];
    (void)n;
    mmb_report_finding_add(f, "Of %s configurations of %s at %s, %s ran",
                           mmb_report_findings_claim_count(&f->claims, "", all, na, 1, a), d->kernels[g->kernel],
                           nok ? mmb_report_findings_claim_key(&f->claims, ok[0], "size", size, sizeof size) : "?",
                           mmb_report_findings_claim_count(&f->claims, "status:ok", ok, nok, 1, b));
    if (nr)
        mmb_report_finding_add(f, " (%s restricted by the profile",
                               mmb_report_findings_claim_count(&f->claims, "status:restricted", restricted, nr, 1, e));
    if (nf)
        mmb_report_finding_add(f, "%s%s failed", nr ? ", " : " (",
                               mmb_report_findings_claim_count(&f->claims, "notstatus:ok|restricted", failed, nf, 1, h));
    mmb_report_finding_add(f, "%s", nr || nf ? ")" : "");
    free(all);
}

bool mmb_report_findings_compare_tuning(const struct mmb_report_findings_ctx *c, const struct mmb_report_tune_group *gs,
                                        size_t ngroups, size_t j, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_tune_group *g = &gs[j];
    size_t cap = d->nrows ? d->nrows : 1;
    size_t *idx = malloc(cap * sizeof *idx);
    const struct mmb_report_row **near = malloc(4 * cap * sizeof *near), **tied = near ? near + 2 * cap : NULL;
    if (!idx || !near) {
        free(idx);
        free(near);
        return false;
    }
    size_t n = group_rows(d, g, idx, cap);
    if (n < 5) {
        free(idx);
        free(near);
        return false;
    }
    char gpu[128], a[16], b[16], e[16], params[256], x[64], y[64];
    mmb_report_finding_gpu(c, g->gpu, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Tuning %s, %s", d->kernels[g->kernel], gpu);
    const struct mmb_report_row *top = &d->rows[idx[0]];
    counts_clause(c, g, n, f);
    mmb_report_finding_add(f, ". The best, %s, reaches %s TFLOP/s",
                           mmb_report_findings_claim_key(&f->claims, top, "params", params, sizeof params),
                           mmb_report_findings_claim_tflops(&f->claims, top, a));
    if (g->cublas)
        mmb_report_finding_add(f, ", %s%% of cuBLAS",
                               mmb_report_findings_claim_pct_time(&f->claims, &d->rows[g->cublas - 1], top, a));
    size_t nnear = 0, ntied = 0;
    for (size_t i = 1; i < n; i++) {
        const struct mmb_report_row *r = &d->rows[idx[i]];
        if (r->r.time_ms_median <= (1 + MMB_REPORT_TUNE_NEAR_PCT / 100.0) * top->r.time_ms_median) {
            near[2 * nnear] = top;
            near[2 * nnear++ + 1] = r;
        }
        if (!mmb_report_finding_differs(c, top, r)) {
            tied[2 * ntied] = top;
            tied[2 * ntied++ + 1] = r;
        }
    }
    char within[32];
    snprintf(within, sizeof within, "within:%.2f", 1 + MMB_REPORT_TUNE_NEAR_PCT / 100.0);
    mmb_report_finding_add(f, "; %s other%s within %s%% of it",
                           mmb_report_findings_claim_count(&f->claims, within, near, nnear, 2, a),
                           nnear == 1 ? " is" : "s are",
                           mmb_report_findings_claim_setting(&f->claims, "harness/report/doc/findings/findings_compare_tuning.c",
                                                             "MMB_REPORT_TUNE_NEAR_PCT", MMB_REPORT_TUNE_NEAR_PCT, 1,
                                                             "int", b));
    mmb_report_finding_add(f, " and %s not told apart from it by mmbench compare (SAME or UNSURE)",
                           mmb_report_findings_claim_count(&f->claims, "verdict:SAME|UNSURE", tied, ntied, 2, e));
    mmb_report_finding_add(f, "; time over the best's: the median configuration %s, the slowest %s.",
                           mmb_report_finding_gain(c, f, &d->rows[idx[n / 2]], top, x, sizeof x),
                           mmb_report_finding_gain(c, f, &d->rows[idx[n - 1]], top, y, sizeof y));
    occupancy_clause(c, idx, n, f);
    for (size_t o = 0; o < ngroups; o++) {
        const struct mmb_report_tune_group *h = &gs[o];
        if (o != j && h->tuned && mmb_report_tune_group_same_problem(g, h) && !strcmp(g->cache, h->cache))
            ranking_clause(c, h, idx, n, gpu, f);
    }
    free(idx);
    free(near);
    return true;
}
