/* findings_compare.c - the findings that compare: one GPU generation with the next
 * and the published GPU with a measured one, what tuning found and whether its
 * ranking carries over, cuBLAS as the FP32 ceiling, the other element types, and the
 * sizes too small to compare. */
#include "report/doc/findings_impl.h"
#include "report/doc/findings_claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/input/labels.h"
#include "report/input/pairs.h"
#include "report/input/row.h"
#include "report/input/story.h"

/* ---- generations ---------------------------------------------------------------------------------- */

/* "naive 1.01 [0.998, 1.02] SAME": a comparison as findings write it. */
static void verdict_text(const char *kernel, const struct mmb_comparison *cmp, char *out, size_t len)
{
    if (isnan(cmp->ratio.lo))
        snprintf(out, len, "%s %.3f (no 95%% interval) %s", kernel, cmp->ratio.ratio,
                 mmb_verdict_text(cmp->ratio.verdict));
    else
        snprintf(out, len, "%s %.3f [%.3f, %.3f] %s", kernel, cmp->ratio.ratio, cmp->ratio.lo, cmp->ratio.hi,
                 mmb_verdict_text(cmp->ratio.verdict));
}

/* Of kernel k at shape s, a's best row and b's row of its configuration, compared
 * (new b against old a); false when b did not measure that configuration. */
static bool same_config(const struct mmb_report_findings_ctx *c, size_t a, size_t b, size_t k, size_t s,
                        const struct mmb_report_row **ra, const struct mmb_report_row **rb, struct mmb_comparison *cmp)
{
    *ra = mmb_report_finding_best(c, a, k, s);
    *rb = *ra ? mmb_report_pairs_match(c->d, *ra, b) : NULL;
    if (!*rb)
        return false;
    mmb_report_pairs_compare(c->d, *ra, *rb, cmp);
    return true;
}

/* The point with the largest difference beyond the noise (FASTER or SLOWER), among
 * times of at least SMALL_MS, at a's best configurations measured on b; basis gets
 * every point. */
struct diff {
    size_t k, s;
    struct mmb_comparison cmp;
    bool found;
};

static struct diff largest_diff(const struct mmb_report_findings_ctx *c, size_t a, size_t b,
                                struct mmb_report_pairs_basis *basis)
{
    struct diff w = {0};
    for (size_t s = 0; s < c->d->nshapes; s++)
        for (size_t k = 0; k < c->d->nkernels; k++) {
            const struct mmb_report_row *ra, *rb;
            struct mmb_comparison cmp;
            if (!same_config(c, a, b, k, s, &ra, &rb, &cmp) || ra->r.time_ms_median < mmb_report_story.small_ms ||
                rb->r.time_ms_median < mmb_report_story.small_ms)
                continue;
            mmb_report_pairs_basis_add(basis, ra, rb, &cmp);
            if (!cmp.timed_alike || (cmp.ratio.verdict != MMB_VERDICT_FASTER && cmp.ratio.verdict != MMB_VERDICT_SLOWER))
                continue;
            if (!w.found || fabs(log(cmp.ratio.ratio)) > fabs(log(w.cmp.ratio.ratio)))
                w = (struct diff){k, s, cmp, true};
        }
    return w;
}

static void spec_clause(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f, size_t a, size_t b,
                        const char *na, const char *nb)
{
    const struct mmb_report_device *da = &c->rep->devices[a], *db = &c->rep->devices[b];
    char x[16], y[16];
    if (da->sms == db->sms && da->sm_mhz == db->sm_mhz && isfinite(da->sms) && isfinite(da->sm_mhz))
        mmb_report_finding_add(f, " Both have %.0f SMs at %.0f MHz, so the same FP32 peak (%s TFLOP/s);", da->sms,
                               da->sm_mhz, mmb_report_finding_tflops(c->d->gpus[a].peak_gflops, x));
    else if (isfinite(c->d->gpus[a].peak_gflops) && isfinite(c->d->gpus[b].peak_gflops))
        mmb_report_finding_add(f, " The FP32 peak is %s TFLOP/s on the %s and %s on the %s;",
                               mmb_report_finding_tflops(c->d->gpus[a].peak_gflops, x), na,
                               mmb_report_finding_tflops(c->d->gpus[b].peak_gflops, y), nb);
    if (isfinite(c->d->gpus[a].peak_gbps) && isfinite(c->d->gpus[b].peak_gbps))
        mmb_report_finding_add(f, " the %s's DRAM peak is %s× the %s's (%.0f against %.0f GB/s)", nb,
            mmb_report_finding_ratio(c->d->gpus[b].peak_gbps / c->d->gpus[a].peak_gbps, x), na, c->d->gpus[b].peak_gbps,
            c->d->gpus[a].peak_gbps);
    if (isfinite(da->l2_mib) && isfinite(db->l2_mib))
        mmb_report_finding_add(f, " and its L2 holds %.0f MiB against %.0f MiB", db->l2_mib, da->l2_mib);
    mmb_report_finding_add(f, ".");
}

/* The DRAM bytes of one configuration on the two GPUs, where they differ by more than 5%. */
static void dram_clause(const struct mmb_report_findings_ctx *c, size_t a, size_t b, const struct mmb_report_row *ra,
                        const struct mmb_report_row *rb, const char *nb, struct mmb_report_finding *f)
{
    char y[16];
    double ba = mmb_report_finding_dram_bytes(ra), bb = mmb_report_finding_dram_bytes(rb);
    if (isfinite(ba) && isfinite(bb) && ba > 0 && fabs(1 - bb / ba) > 0.05)
        mmb_report_finding_add(f, ", where at this configuration the %s moves %s%% %s DRAM bytes (%.1f GB against "
                               "%.1f GB)%s", nb, mmb_report_finding_pct(100 * fabs(1 - bb / ba), y),
                               bb < ba ? "fewer" : "more", bb / 1e9, ba / 1e9,
                               bb < ba && c->rep->devices[b].l2_mib > c->rep->devices[a].l2_mib
                                       ? ": its larger L2 keeps more of the reuse"
                                       : "");
}

bool mmb_report_findings_compare_generations(const struct mmb_report_findings_ctx *c, size_t a, size_t b,
                                             struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char na[128], nb[128], x[16];
    mmb_report_finding_gpu(c, a, na, sizeof na);
    mmb_report_finding_gpu(c, b, nb, sizeof nb);
    snprintf(f->lead, sizeof f->lead, "%s against %s", nb, na);
    char list[1200] = "", why[160] = "";
    size_t n = 0, unlike = 0, counts[MMB_VERDICT_COUNT] = {0};
    for (size_t k = 0; k < d->nkernels && d->ref >= 0; k++) {
        const struct mmb_report_row *ra, *rb;
        struct mmb_comparison cmp;
        if (!same_config(c, a, b, k, (size_t)d->ref, &ra, &rb, &cmp))
            continue;
        if (!cmp.timed_alike) {
            if (!unlike++)
                snprintf(why, sizeof why, "%s", cmp.protocol_why);
            continue;
        }
        char item[160];
        verdict_text(d->kernels[k], &cmp, item, sizeof item);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n++ ? ", " : "", item);
        counts[cmp.ratio.verdict]++;
    }
    if (!n && !unlike)
        return false;
    if (!n) {
        mmb_report_finding_add(f, "At %s the two GPUs' rows of the same configurations were timed under different "
                               "protocols (%s): mmbench compares GPUs only under one protocol, so this report gives no "
                               "verdict; scripts/gpu/remeasure.sh measures both again under one.", c->ref, why);
        spec_clause(c, f, a, b, na, nb);
        return true;
    }
    mmb_report_finding_add(f, "At %s, each kernel at the %s's best configuration and the same configuration on the "
                           "%s, the %s's time over the %s's, with its 95%% interval and verdict (mmbench compare, "
                           "threshold %.0f%%): %s.", c->ref, na, nb, nb, na, 100 * MMB_VERDICT_THRESHOLD, list);
    if (counts[MMB_VERDICT_SAME] == n)
        mmb_report_finding_add(f, " Every kernel SAME: the same compute at the same clock.");
    else if (!counts[MMB_VERDICT_FASTER] && !counts[MMB_VERDICT_SLOWER])
        mmb_report_finding_add(f, " No kernel differs beyond the noise.");
    if (unlike)
        mmb_report_finding_add(f, " %zu kernel%s left out: timed under different protocols (%s).", unlike,
                               unlike == 1 ? "" : "s", why);
    spec_clause(c, f, a, b, na, nb);
    struct mmb_report_pairs_basis basis = {0};
    struct diff w = largest_diff(c, a, b, &basis);
    if (w.found) {
        char shape[96], params[256], item[160];
        const struct mmb_report_row *ra = mmb_report_finding_best(c, a, w.k, w.s), *rb = mmb_report_pairs_match(d, ra, b);
        mmb_report_shape_label(&d->shapes[w.s], shape, sizeof shape);
        mmb_report_label_params(ra->r.params, params, sizeof params);
        verdict_text(d->kernels[w.k], &w.cmp, item, sizeof item);
        mmb_report_finding_add(f, " Over every size, of %zu points at the %s's best configurations (%zu SAME, %zu "
                               "UNSURE, %zu FASTER, %zu SLOWER), the largest difference beyond the noise is at %s "
                               "(%s): %s", basis.pairs, na, basis.verdicts[MMB_VERDICT_SAME],
                               basis.verdicts[MMB_VERDICT_UNSURE], basis.verdicts[MMB_VERDICT_FASTER],
                               basis.verdicts[MMB_VERDICT_SLOWER], shape, params[0] ? params : "-", item);
        dram_clause(c, a, b, ra, rb, nb, f);
        mmb_report_finding_add(f, ".");
    } else if (basis.pairs) {
        mmb_report_finding_add(f, " Over every size, none of %zu points at the %s's best configurations differs "
                               "beyond the noise (%zu SAME, %zu UNSURE).", basis.pairs, na,
                               basis.verdicts[MMB_VERDICT_SAME], basis.verdicts[MMB_VERDICT_UNSURE]);
    }
    char text[1024];
    mmb_report_pairs_basis_text(&basis, na, nb, text, sizeof text);
    if (text[0])
        mmb_report_finding_add(f, " %s", text);
    double top = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, b, k);
        if (r && isfinite(mmb_report_finding_dram_pct(r)))
            top = fmax(top, mmb_report_finding_dram_pct(r));
    }
    if (top > 0 && top < 40)
        mmb_report_finding_add(f, " The faster DRAM barely shows: no kernel uses more than %s%% of it at %s.",
                               mmb_report_finding_pct(top, x), c->ref);
    return true;
}

bool mmb_report_findings_compare_published(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                                           struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char np[128], ng[128], x[16], y[16], z[16];
    mmb_report_finding_gpu(c, p, np, sizeof np);
    mmb_report_finding_gpu(c, g, ng, sizeof ng);
    char sp[96], sg[96];
    mmb_report_label_gpu(d->gpus[p].name, sp, sizeof sp);
    mmb_report_label_gpu(d->gpus[g].name, sg, sizeof sg);
    snprintf(f->lead, sizeof f->lead, "From the %s to the %s", sp, sg);
    double pp = d->gpus[p].peak_gflops, pg = d->gpus[g].peak_gflops;
    mmb_report_finding_add(f, "At %s the %s runs", c->ref, ng);
    size_t n = 0, same = 0;
    size_t verdicts[MMB_VERDICT_COUNT] = {0};
    double gain[MMB_REPORT_KERNELS_MAX];
    for (size_t k = 0; k < d->nkernels; k++) {
        /* at the published GPU's best configuration where this GPU measured it too */
        const struct mmb_report_row *a = mmb_report_finding_at_ref(c, p, k);
        const struct mmb_report_row *b = a ? mmb_report_pairs_match(d, a, g) : NULL;
        same += b != NULL;
        if (a && !b)
            b = mmb_report_finding_at_ref(c, g, k);
        gain[k] = a && b ? a->r.time_ms_median / b->r.time_ms_median : NAN;
        if (!isfinite(gain[k]))
            continue;
        struct mmb_comparison cmp;
        mmb_report_pairs_compare(d, a, b, &cmp);
        verdicts[cmp.ratio.verdict]++;
        mmb_report_finding_add(f, "%s%s %s×", n++ ? " and " : " ", d->kernels[k], mmb_report_finding_ratio(gain[k], x));
    }
    if (!n)
        return false;
    mmb_report_finding_add(f, " faster than the %s", np);
    if (isfinite(pp) && isfinite(pg)) {
        double peak = pg / pp;
        mmb_report_finding_add(f, ", whose FP32 peak is %s× lower (%s against %s TFLOP/s)",
                               mmb_report_finding_ratio(peak, y), mmb_report_finding_tflops(pp, x),
                               mmb_report_finding_tflops(pg, z));
        for (size_t k = 0; k < d->nkernels; k++)
            if (isfinite(gain[k]))
                mmb_report_finding_add(f, "; %s gained %s the peak", d->kernels[k],
                    gain[k] > 1.25 * peak   ? "more than"
                    : gain[k] < 0.8 * peak ? "less than"
                                           : "about as much as");
    }
    mmb_report_finding_add(f, ". %s; ratios of medians: ",
                           same == n   ? "Each kernel at the published configuration, measured on both"
                           : same == 0 ? "Each GPU at its own best configuration (the published ones were not "
                                         "measured here)"
                                       : "At the published configuration where it was measured here, else at each "
                                         "GPU's best");
    if (verdicts[MMB_VERDICT_UNSURE] == n)
        mmb_report_finding_add(f, "the published times carry no spread, launch count or protocol, so mmbench "
                               "compare gives them no verdict (UNSURE): read them as orders of magnitude.");
    else
        mmb_report_finding_add(f, "mmbench compare's verdicts: %zu FASTER, %zu SLOWER, %zu SAME, %zu UNSURE.",
                               verdicts[MMB_VERDICT_FASTER], verdicts[MMB_VERDICT_SLOWER], verdicts[MMB_VERDICT_SAME],
                               verdicts[MMB_VERDICT_UNSURE]);
    return true;
}

/* ---- tuning ---------------------------------------------------------------------------------------------- */

static int time_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The ok rows of a tuned group, fastest first (row indices into idx); returns how many. */
static size_t group_rows(const struct mmb_report_data *d, const struct mmb_report_tune_group *g, size_t *idx,
                         size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < d->nrows && n < cap; i++)
        if (mmb_report_tune_group_member(g, &d->rows[i]) && d->rows[i].r.status == MMB_STATUS_OK)
            idx[n++] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort: spaces are small */
        for (size_t j = i; j > 0 && d->rows[idx[j]].r.time_ms_median < d->rows[idx[j - 1]].r.time_ms_median; j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    return n;
}

/* The fastest configuration's occupancy against the three slowest ones': theoretical
 * when every row of the group has it (it needs no counters), else achieved. */
static void occupancy_clause(const struct mmb_report_data *d, const size_t *idx, size_t n, struct mmb_report_finding *f)
{
    char a[16], b[16];
    enum mmb_report_occupancy kind = mmb_report_row_occupancy_kind(d, idx, n);
    if (n < 6 || !isfinite(mmb_report_row_occupancy(&d->rows[idx[0]], kind)))
        return;
    double slow = 0;
    size_t m = 0;
    for (size_t i = n - 3; i < n; i++)
        if (isfinite(mmb_report_row_occupancy(&d->rows[idx[i]], kind)))
            slow += mmb_report_row_occupancy(&d->rows[idx[i]], kind), m++;
    if (!m)
        return;
    slow /= (double)m;
    double fast = mmb_report_row_occupancy(&d->rows[idx[0]], kind);
    mmb_report_finding_add(f, " The best runs at %s%% %soccupancy, the three slowest at %s%% on average",
                           mmb_report_findings_claim_column(&f->claims, &d->rows[idx[0]],
                                                   kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? "theoretical_occupancy_pct"
                                                                                            : "occupancy_pct",
                                                   fast, a),
                           kind == MMB_REPORT_OCCUPANCY_THEORETICAL ? "theoretical " : "",
                           mmb_report_finding_pct(slow, b));
    mmb_report_finding_add(f, fast < slow ? ": more independent work per thread beats more threads here." : ".");
}

bool mmb_report_findings_compare_tuning(const struct mmb_report_findings_ctx *c, const struct mmb_report_tune_group *gs,
                                        size_t ngroups, size_t j, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_tune_group *g = &gs[j];
    size_t cap = d->nrows ? d->nrows : 1;
    size_t *idx = malloc(cap * sizeof *idx);
    if (!idx)
        return false;
    size_t n = group_rows(d, g, idx, cap);
    if (n < 5) {
        free(idx);
        return false;
    }
    char gpu[128], shape[96], a[16], b[16];
    struct mmb_report_shape sh = {g->m, g->n, g->k};
    mmb_report_shape_label(&sh, shape, sizeof shape);
    mmb_report_finding_gpu(c, g->gpu, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Tuning %s, %s", d->kernels[g->kernel], gpu);
    size_t total = 0;
    for (size_t s = 0; s < MMB_STATUS_COUNT; s++)
        total += g->by_status[s];
    const struct mmb_report_row *top = &d->rows[idx[0]];
    mmb_report_finding_add(f, "Of %zu configurations of %s at %s, %zu ran", total, d->kernels[g->kernel], shape, n);
    if (g->by_status[MMB_STATUS_RESTRICTED])
        mmb_report_finding_add(f, " (%zu restricted by the profile", g->by_status[MMB_STATUS_RESTRICTED]);
    if (total - n - g->by_status[MMB_STATUS_RESTRICTED])
        mmb_report_finding_add(f, "%s%zu failed", g->by_status[MMB_STATUS_RESTRICTED] ? ", " : " (",
            total - n - g->by_status[MMB_STATUS_RESTRICTED]);
    char params[256];
    mmb_report_label_params(top->r.params, params, sizeof params);
    mmb_report_finding_add(f, "%s. The best, %s, reaches %s TFLOP/s", total > n ? ")" : "", params,
                           mmb_report_findings_claim_tflops(&f->claims, top, a));
    if (g->cublas)
        mmb_report_finding_add(f, ", %s%% of cuBLAS",
                               mmb_report_findings_claim_pct_time(&f->claims, &d->rows[g->cublas - 1], top, a));
    size_t near = 0;
    for (size_t i = 1; i < n; i++)
        near += d->rows[idx[i]].r.time_ms_median <= 1.05 * top->r.time_ms_median;
    double *t = malloc(n * sizeof *t);
    if (t) {
        for (size_t i = 0; i < n; i++)
            t[i] = d->rows[idx[i]].r.time_ms_median;
        qsort(t, n, sizeof *t, time_cmp);
        mmb_report_finding_add(
                f, "; %zu other%s within 5%% of it, the median configuration is %s× slower and the slowest %s×.", near,
                near == 1 ? " is" : "s are", mmb_report_finding_ratio(t[n / 2] / t[0], a),
                mmb_report_finding_ratio(t[n - 1] / t[0], b));
        free(t);
    }
    occupancy_clause(d, idx, n, f);
    /* does the ranking carry over to the other GPUs that tuned the same problem? */
    for (size_t o = 0; o < ngroups; o++) {
        const struct mmb_report_tune_group *h = &gs[o];
        if (o == j || !h->tuned || !mmb_report_tune_group_same_problem(g, h) || strcmp(g->cache, h->cache))
            continue;
        size_t *jdx = malloc(cap * sizeof *jdx);
        size_t m = jdx ? group_rows(d, h, jdx, cap) : 0, same = 0;
        while (same < n && same < m && !strcmp(d->rows[idx[same]].r.params, d->rows[jdx[same]].r.params))
            same++;
        char other[128];
        mmb_report_finding_gpu(c, h->gpu, other, sizeof other);
        if (same >= 1)
            mmb_report_finding_add(f, " The %s ranks them alike: the same %zu fastest, in the same order.", other,
                                   same);
        else if (m) {
            mmb_report_label_params(d->rows[jdx[0]].r.params, params, sizeof params);
            mmb_report_finding_add(f, " On the %s the best is another one, %s", other, params);
            /* is it faster there than this GPU's best, or only within the noise? */
            const struct mmb_report_row *mine = NULL;
            for (size_t i = 0; i < m && !mine; i++)
                if (!strcmp(d->rows[jdx[i]].r.params, top->r.params))
                    mine = &d->rows[jdx[i]];
            if (mine) {
                struct mmb_comparison cmp;
                mmb_report_pairs_compare(d, mine, &d->rows[jdx[0]], &cmp);
                char item[160];
                verdict_text("", &cmp, item, sizeof item);
                mmb_report_finding_add(f, ": its time there over that of the %s's best is%s", gpu, item);
            }
            mmb_report_finding_add(f, ".");
        }
        free(jdx);
    }
    free(idx);
    return true;
}

/* ---- cuBLAS, other element types, small sizes -------------------------------------------------------------- */

bool mmb_report_findings_compare_cublas(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    if (c->cublas < 0 || c->primary < 0)
        return false;
    const struct mmb_report_row *r = mmb_report_finding_at_ref(c, (size_t)c->primary, (size_t)c->cublas);
    if (!r)
        return false;
    char gpu[128], a[16], b[16];
    mmb_report_finding_gpu(c, (size_t)c->primary, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "cuBLAS, the ceiling");
    mmb_report_finding_add(
        f,
        "cuBLAS runs cublasSgemm in pedantic FP32: no TF32 tensor cores, every product rounded as FP32, the same "
        "arithmetic as the kernels. It reaches %s TFLOP/s at %s on the %s, %s%% of the FP32 peak: what the FP32 "
        "pipe allows in practice.",
        mmb_report_findings_claim_tflops(&f->claims, r, a), c->ref, gpu,
        mmb_report_findings_claim_pct_peak(&f->claims, r, b));
    return true;
}

/* The fastest ok row of kernel k (any kernel other than cuBLAS when k < 0) in dtype
 * on GPU g at its largest size, in the element types' profile. */
static const struct mmb_report_row *dtype_best(const struct mmb_report_data *d, size_t g, const char *dtype, int k)
{
    const struct mmb_report_row *b = NULL;
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->gpu != g || (int)r->profile != d->dtypes || r->r.status != MMB_STATUS_OK ||
            strcmp(r->r.dtype, dtype) != 0 || (k >= 0 ? (int)r->kernel != k : (int)r->kernel == d->cublas))
            continue;
        double w = (double)r->r.m * (double)r->r.n * (double)r->r.k;
        double bw = b ? (double)b->r.m * (double)b->r.n * (double)b->r.k : 0;
        if (!b || w > bw || (w == bw && r->r.time_ms_median < b->r.time_ms_median))
            b = r;
    }
    return b;
}

bool mmb_report_findings_compare_dtypes(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    if (c->primary < 0 || c->d->dtypes < 0)
        return false;
    const struct mmb_report_data *d = c->d;
    size_t g = (size_t)c->primary;
    char gpu[128], a[16], b[16], e[16];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Other element types, %s", gpu);
    bool any = false;
    const struct mmb_report_row *cub = c->cublas >= 0 ? dtype_best(d, g, "f64", c->cublas) : NULL;
    const struct mmb_report_row *k64 = dtype_best(d, g, "f64", -1), *k32 = dtype_best(d, g, "i32", -1);
    if (cub && strcmp(d->dtype, "f64") != 0) {
        double fp = mmb_row_fp32_pct(&cub->r);
        mmb_report_finding_add(f, "In f64 cuBLAS reaches %s TFLOP/s at %lld, %s%% of the FP64 pipe's peak (%s TFLOP/s)",
                               mmb_report_findings_claim_tflops(&f->claims, cub, a), cub->r.m,
                               mmb_report_findings_claim_pct_peak(&f->claims, cub, b),
                               mmb_report_finding_tflops(mmb_row_pipe_peak(&cub->r), e));
        mmb_report_finding_add(f,
                               fp > 100 ? ": DGEMM runs on the FP64 tensor cores, which that peak leaves out." : ".");
        any = true;
    }
    if (k64 && strcmp(d->dtype, "f64") != 0) {
        mmb_report_finding_add(f, "%sThe fastest kernel in f64, %s, reaches %s TFLOP/s, %s%% of the FP64 pipe.",
                               any ? " " : "", k64->r.kernel, mmb_report_findings_claim_tflops(&f->claims, k64, a),
                               mmb_report_findings_claim_pct_peak(&f->claims, k64, b));
        any = true;
    }
    if (k32 && strcmp(d->dtype, "i32") != 0) {
        mmb_report_finding_add(
                f, "%sIn i32 (no cuBLAS GEMM) the fastest kernel, %s, reaches %s TOP/s, %s%% of the INT32 pipe's %s.",
                any ? " " : "", k32->r.kernel, mmb_report_findings_claim_tflops(&f->claims, k32, a),
                mmb_report_findings_claim_pct_peak(&f->claims, k32, b),
                mmb_report_finding_tflops(mmb_row_pipe_peak(&k32->r), e));
        any = true;
    }
    return any;
}

bool mmb_report_findings_compare_small(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    if (c->primary < 0)
        return false;
    const struct mmb_report_data *d = c->d;
    size_t g = (size_t)c->primary;
    char sizes[512] = "", gpu[128], a[16];
    size_t count = 0, nsizes = 0, small[8];
    double spread = 0, fastest = INFINITY;
    for (size_t s = 0; s < d->nshapes; s++) {
        bool here = false;
        for (size_t k = 0; k < d->nkernels; k++) {
            const struct mmb_report_row *r = mmb_report_finding_best(c, g, k, s);
            if (!r || r->r.time_ms_median >= mmb_report_story.small_ms)
                continue;
            here = true;
            count++;
            fastest = fmin(fastest, r->r.time_ms_median);
            if (isfinite(r->r.time_ms_min) && isfinite(r->r.time_ms_max))
                spread = fmax(spread, (r->r.time_ms_max - r->r.time_ms_min) / r->r.time_ms_median);
        }
        if (here && nsizes < 8)
            small[nsizes++] = s;
    }
    if (!count)
        return false;
    for (size_t i = 0; i < nsizes; i++) {
        char label[96];
        mmb_report_shape_label(&d->shapes[small[i]], label, sizeof label);
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%s",
                 i == 0 ? "" : i + 1 == nsizes ? " and " : ", ", label);
    }
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Sizes too small to compare");
    mmb_report_finding_add(
            f, "On the %s at %s, %zu of the kernels' best configurations take under %.0f µs (the fastest %.1f µs)", gpu,
            sizes, count, mmb_report_story.small_ms * 1e3, fastest * 1e3);
    if (spread > 0)
        mmb_report_finding_add(f, ", and the timing spread (max - min over the median) reaches %s%% there",
                               mmb_report_finding_pct(100 * spread, a));
    mmb_report_finding_add(
            f,
            ": launch and latency dominate such times, so the figures mark those points and the comparisons leave "
            "them out.");
    return true;
}
