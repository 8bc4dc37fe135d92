/* findings_compare.c - the findings that compare: one GPU generation with the next
 * and the published GPU with a measured one, cuBLAS as the FP32 ceiling, the other
 * element types, and the sizes too small to compare (what tuning found:
 * findings_compare_tuning.c). */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/input/labels.h"
#include "report/input/pairs.h"
#include "report/input/row.h"
#include "report/input/story.h"

/* ---- generations ---------------------------------------------------------------------------------- */

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
 * every point, and pairs[v] (2 rows a pair, room for every shape and kernel) the
 * pairs of each verdict, npairs[v] how many. */
struct diff {
    size_t k, s;
    struct mmb_comparison cmp;
    bool found;
};

static struct diff largest_diff(const struct mmb_report_findings_ctx *c, size_t a, size_t b,
                                struct mmb_report_pairs_basis *basis, const struct mmb_report_row **pairs[],
                                size_t *npairs)
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
            enum mmb_verdict v = cmp.ratio.verdict;
            if (pairs[v]) {
                pairs[v][2 * npairs[v]] = ra;
                pairs[v][2 * npairs[v]++ + 1] = rb;
            }
            if (!cmp.timed_alike || (v != MMB_VERDICT_FASTER && v != MMB_VERDICT_SLOWER))
                continue;
            if (!w.found || fabs(log(cmp.ratio.ratio)) > fabs(log(w.cmp.ratio.ratio)))
                w = (struct diff){k, s, cmp, true};
        }
    return w;
}

static void spec_clause(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f, size_t a, size_t b,
                        const struct mmb_report_row *ra, const struct mmb_report_row *rb, const char *na,
                        const char *nb)
{
    const struct mmb_report_device *da = &c->rep->devices[a], *db = &c->rep->devices[b];
    char x[16], y[16], z[16];
    if (da->sms == db->sms && da->sm_mhz == db->sm_mhz && isfinite(da->sms) && isfinite(da->sm_mhz))
        mmb_report_finding_add(f, " Both have %s SMs at %s MHz, so the same FP32 peak (%s TFLOP/s);",
                               mmb_report_findings_claim_device(&f->claims, ra, "sms", da->sms, "int", x),
                               mmb_report_findings_claim_device(&f->claims, ra, "sm_mhz", da->sm_mhz, "int", y),
                               mmb_report_findings_claim_cell(&f->claims, ra, "peak_gflops", "tflops",
                                                              c->d->gpus[a].peak_gflops, z));
    else if (isfinite(c->d->gpus[a].peak_gflops) && isfinite(c->d->gpus[b].peak_gflops))
        mmb_report_finding_add(f, " The FP32 peak is %s TFLOP/s on the %s and %s on the %s;",
                               mmb_report_findings_claim_cell(&f->claims, ra, "peak_gflops", "tflops",
                                                              c->d->gpus[a].peak_gflops, x), na,
                               mmb_report_findings_claim_cell(&f->claims, rb, "peak_gflops", "tflops",
                                                              c->d->gpus[b].peak_gflops, y), nb);
    if (isfinite(c->d->gpus[a].peak_gbps) && isfinite(c->d->gpus[b].peak_gbps))
        mmb_report_finding_add(f, " the %s's DRAM peak is %s GB/s against the %s's %s GB/s", nb,
                               mmb_report_findings_claim_cell(&f->claims, rb, "peak_gbps", "int",
                                                              c->d->gpus[b].peak_gbps, x), na,
                               mmb_report_findings_claim_cell(&f->claims, ra, "peak_gbps", "int",
                                                              c->d->gpus[a].peak_gbps, y));
    if (isfinite(da->l2_mib) && isfinite(db->l2_mib))
        mmb_report_finding_add(f, " and its L2 holds %s MiB against %s MiB",
                               mmb_report_findings_claim_device(&f->claims, rb, "l2_mib", db->l2_mib, "int", x),
                               mmb_report_findings_claim_device(&f->claims, ra, "l2_mib", da->l2_mib, "int", y));
    mmb_report_finding_add(f, ".");
}

/* The DRAM bytes of one configuration on the two GPUs, where they differ by more than 5%. */
static void dram_clause(const struct mmb_report_findings_ctx *c, size_t a, size_t b, const struct mmb_report_row *ra,
                        const struct mmb_report_row *rb, const char *nb, struct mmb_report_finding *f)
{
    char x[16], y[16];
    double ba = mmb_report_finding_dram_bytes(ra), bb = mmb_report_finding_dram_bytes(rb);
    if (isfinite(ba) && isfinite(bb) && ba > 0 && fabs(1 - bb / ba) > 0.05)
        mmb_report_finding_add(f, ", where at this configuration the %s moves %s DRAM bytes (%s GB against "
                               "%s GB)%s", nb, bb < ba ? "fewer" : "more",
                               mmb_report_findings_claim_cell(&f->claims, rb, "dram_bytes", "gb", bb, x),
                               mmb_report_findings_claim_cell(&f->claims, ra, "dram_bytes", "gb", ba, y),
                               bb < ba && c->rep->devices[b].l2_mib > c->rep->devices[a].l2_mib
                                       ? ": its larger L2 keeps more of the reuse"
                                       : "");
}

/* "threshold 2%" and "95% interval": compare's settings, claimed. */
static const char *confidence(struct mmb_report_finding *f, char *buf)
{
    return mmb_report_findings_claim_setting(&f->claims, "harness/core/verdict.h", "MMB_VERDICT_CONFIDENCE",
                                             MMB_VERDICT_CONFIDENCE, 100, "int", buf);
}

static const char *threshold(struct mmb_report_finding *f, char *buf)
{
    return mmb_report_findings_claim_setting(&f->claims, "harness/core/verdict.h", "MMB_VERDICT_THRESHOLD",
                                             MMB_VERDICT_THRESHOLD, 100, "int", buf);
}

/* " Over every size, of 38 points (29 SAME, ...), the largest difference beyond the
 * noise is at 512 (bx=32 by=32): naive 1.032 [1.023, 1.040] SLOWER", with the basis. */
static void over_sizes(const struct mmb_report_findings_ctx *c, size_t a, size_t b, const char *na, const char *nb,
                       struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    size_t room = 2 * (d->nshapes * d->nkernels + 1), npairs[MMB_VERDICT_COUNT] = {0};
    const struct mmb_report_row **pairs[MMB_VERDICT_COUNT], **all = malloc(room * sizeof *all);
    for (size_t v = 0; v < MMB_VERDICT_COUNT; v++)
        pairs[v] = malloc(room * sizeof *pairs[v]);
    struct mmb_report_pairs_basis basis = {0};
    struct diff w = largest_diff(c, a, b, &basis, pairs, npairs);
    size_t nall = 0;
    for (size_t v = 0; all && v < MMB_VERDICT_COUNT; v++)
        for (size_t i = 0; pairs[v] && i < 2 * npairs[v]; i++)
            all[nall++] = pairs[v][i];
    char num[MMB_VERDICT_COUNT + 1][16];
    static const char *const what[MMB_VERDICT_COUNT] = {"verdict:FASTER", "verdict:SLOWER", "verdict:SAME",
                                                        "verdict:UNSURE"};
    for (size_t v = 0; v < MMB_VERDICT_COUNT; v++)
        if (w.found || v == MMB_VERDICT_SAME || v == MMB_VERDICT_UNSURE)
            mmb_report_findings_claim_count(&f->claims, what[v], pairs[v], pairs[v] ? npairs[v] : 0, 2, num[v]);
    if (w.found || basis.pairs)
        mmb_report_findings_claim_count(&f->claims, "params", all, all ? nall / 2 : 0, 2, num[MMB_VERDICT_COUNT]);
    if (w.found) {
        char shape[96], params[256], item[200];
        const struct mmb_report_row *ra = mmb_report_finding_best(c, a, w.k, w.s), *rb = mmb_report_pairs_match(d, ra, b);
        mmb_report_finding_verdict(f, d->kernels[w.k], ra, rb, &w.cmp, item, sizeof item);
        mmb_report_finding_add(f, " Over every size, of %s points at the %s's best configurations (%s SAME, %s "
                               "UNSURE, %s FASTER, %s SLOWER), the largest difference beyond the noise is at %s "
                               "(%s): %s", num[MMB_VERDICT_COUNT], na, num[MMB_VERDICT_SAME], num[MMB_VERDICT_UNSURE],
                               num[MMB_VERDICT_FASTER], num[MMB_VERDICT_SLOWER],
                               mmb_report_findings_claim_key(&f->claims, ra, "size", shape, sizeof shape),
                               mmb_report_findings_claim_key(&f->claims, ra, "params", params, sizeof params), item);
        dram_clause(c, a, b, ra, rb, nb, f);
        mmb_report_finding_add(f, ".");
    } else if (basis.pairs) {
        mmb_report_finding_add(f, " Over every size, none of %s points at the %s's best configurations differs "
                               "beyond the noise (%s SAME, %s UNSURE).", num[MMB_VERDICT_COUNT], na,
                               num[MMB_VERDICT_SAME], num[MMB_VERDICT_UNSURE]);
    }
    char text[1024];
    mmb_report_pairs_basis_text(&basis, na, nb, text, sizeof text);
    if (text[0] && all && nall) {
        char proto[256];
        mmb_report_findings_claim_key(&f->claims, all[0], "protocol", proto, sizeof proto);
        mmb_report_finding_add(f, " %s", text);
    }
    for (size_t v = 0; v < MMB_VERDICT_COUNT; v++)
        free(pairs[v]);
    free(all);
}

bool mmb_report_findings_compare_generations(const struct mmb_report_findings_ctx *c, size_t a, size_t b,
                                             struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char na[128], nb[128], x[16], y[16], size[96];
    mmb_report_finding_gpu(c, a, na, sizeof na);
    mmb_report_finding_gpu(c, b, nb, sizeof nb);
    snprintf(f->lead, sizeof f->lead, "%s against %s", nb, na);
    char list[1200] = "", why[160] = "";
    size_t n = 0, unlike = 0, counts[MMB_VERDICT_COUNT] = {0};
    const struct mmb_report_row *first_a = NULL, *first_b = NULL, *unlike_rows[MMB_REPORT_KERNELS_MAX];
    for (size_t k = 0; k < d->nkernels && d->ref >= 0; k++) {
        const struct mmb_report_row *ra, *rb;
        struct mmb_comparison cmp;
        if (!same_config(c, a, b, k, (size_t)d->ref, &ra, &rb, &cmp))
            continue;
        first_a = first_a ? first_a : ra;
        first_b = first_b ? first_b : rb;
        if (!cmp.timed_alike) {
            if (!unlike++)
                snprintf(why, sizeof why, "%s", cmp.protocol_why);
            unlike_rows[unlike - 1] = rb;
            continue;
        }
        char item[200];
        mmb_report_finding_verdict(f, d->kernels[k], ra, rb, &cmp, item, sizeof item);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n++ ? ", " : "", item);
        counts[cmp.ratio.verdict]++;
    }
    if (!n && !unlike)
        return false;
    mmb_report_findings_claim_key(&f->claims, first_a, "size", size, sizeof size);
    if (!n) {
        mmb_report_finding_add(f, "At %s the two GPUs' rows of the same configurations were timed under different "
                               "protocols (%s): mmbench compares GPUs only under one protocol, so this report gives no "
                               "verdict; scripts/gpu/remeasure.sh measures both again under one.", size, why);
        spec_clause(c, f, a, b, first_a, first_b, na, nb);
        return true;
    }
    mmb_report_finding_add(f, "At %s, each kernel at the %s's best configuration and the same configuration on the "
                           "%s, the %s's time over the %s's, with its %s%% interval and verdict (mmbench compare, "
                           "threshold %s%%): %s.", size, na, nb, nb, na, confidence(f, x), threshold(f, y), list);
    if (counts[MMB_VERDICT_SAME] == n)
        mmb_report_finding_add(f, " Every kernel SAME: the same compute at the same clock.");
    else if (!counts[MMB_VERDICT_FASTER] && !counts[MMB_VERDICT_SLOWER])
        mmb_report_finding_add(f, " No kernel differs beyond the noise.");
    if (unlike)
        mmb_report_finding_add(f, " %s kernel%s left out: timed under different protocols (%s).",
                               mmb_report_findings_claim_count(&f->claims, "kernels", unlike_rows, unlike, 1, x),
                               unlike == 1 ? "" : "s", why);
    spec_clause(c, f, a, b, first_a, first_b, na, nb);
    over_sizes(c, a, b, na, nb, f);
    double top = 0;
    const struct mmb_report_row *top_row = NULL;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *r = mmb_report_finding_at_ref(c, b, k);
        if (r && isfinite(mmb_report_finding_dram_pct(r)) && mmb_report_finding_dram_pct(r) > top)
            top = mmb_report_finding_dram_pct(r), top_row = r;
    }
    if (top_row && top < 40)
        mmb_report_finding_add(f, " The higher DRAM peak barely shows: no kernel uses more than %s%% of it at %s.",
                               mmb_report_findings_claim_column(&f->claims, top_row, "dram_util_pct", top, x),
                               mmb_report_findings_claim_key(&f->claims, top_row, "size", size, sizeof size));
    return true;
}

bool mmb_report_findings_compare_published(const struct mmb_report_findings_ctx *c, size_t p, size_t g,
                                           struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    char np[128], ng[128], x[16], y[16], size[96];
    mmb_report_finding_gpu(c, p, np, sizeof np);
    mmb_report_finding_gpu(c, g, ng, sizeof ng);
    char sp[96], sg[96];
    mmb_report_label_gpu(d->gpus[p].name, sp, sizeof sp);
    mmb_report_label_gpu(d->gpus[g].name, sg, sizeof sg);
    snprintf(f->lead, sizeof f->lead, "From the %s to the %s", sp, sg);
    double pp = d->gpus[p].peak_gflops, pg = d->gpus[g].peak_gflops;
    size_t n = 0, same = 0;
    const struct mmb_report_row *pairs[MMB_VERDICT_COUNT][2 * MMB_REPORT_KERNELS_MAX], *first_a = NULL,
                                *first_b = NULL;
    size_t verdicts[MMB_VERDICT_COUNT] = {0};
    double gain[MMB_REPORT_KERNELS_MAX];
    char list[600] = "";
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
        enum mmb_verdict v = cmp.ratio.verdict;
        pairs[v][2 * verdicts[v]] = a;
        pairs[v][2 * verdicts[v]++ + 1] = b;
        first_a = first_a ? first_a : a;
        first_b = first_b ? first_b : b;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s %s", n++ ? " and " : "", d->kernels[k],
                 mmb_report_findings_claim_speedup(&f->claims, a, b, x));
    }
    if (!n)
        return false;
    /* a ratio of medians, not "faster": only compare's verdict beyond the noise says that */
    mmb_report_finding_add(f, "At %s the %s's median time over the %s's is %s", 
                           mmb_report_findings_claim_key(&f->claims, first_a, "size", size, sizeof size), np, ng,
                           list);
    if (isfinite(pp) && isfinite(pg)) {
        double peak = pg / pp;
        mmb_report_finding_add(f, "; the FP32 peak is %s against %s TFLOP/s",
                               mmb_report_findings_claim_cell(&f->claims, first_a, "peak_gflops", "tflops", pp, x),
                               mmb_report_findings_claim_cell(&f->claims, first_b, "peak_gflops", "tflops", pg, y));
        for (size_t k = 0; k < d->nkernels; k++)
            if (isfinite(gain[k]))
                mmb_report_finding_add(f, "; %s's ratio is %s the peaks'", d->kernels[k],
                    gain[k] > 1.25 * peak   ? "above"
                    : gain[k] < 0.8 * peak ? "below"
                                           : "about");
    }
    mmb_report_finding_add(f, ". %s. ",
                           same == n   ? "Each kernel at the published configuration, measured on both"
                           : same == 0 ? "Each GPU at its own best configuration (the published ones were not "
                                         "measured here)"
                                       : "At the published configuration where it was measured here, else at each "
                                         "GPU's best");
    char num[MMB_VERDICT_COUNT][16];
    for (size_t v = 0; v < MMB_VERDICT_COUNT; v++) {
        char what[32];
        snprintf(what, sizeof what, "verdict:%s", mmb_verdict_text((enum mmb_verdict)v));
        if (verdicts[v] || verdicts[MMB_VERDICT_UNSURE] != n)
            mmb_report_findings_claim_count(&f->claims, what, pairs[v], verdicts[v], 2, num[v]);
    }
    if (verdicts[MMB_VERDICT_UNSURE] == n)
        mmb_report_finding_add(f, "The published times carry no spread, launch count or protocol, so mmbench "
                               "compare gives them no verdict (UNSURE): read the ratios as orders of magnitude, not "
                               "as one GPU faster by so much.");
    else
        mmb_report_finding_add(f, "mmbench compare's verdicts: %s FASTER, %s SLOWER, %s SAME, %s UNSURE.",
                               num[MMB_VERDICT_FASTER], num[MMB_VERDICT_SLOWER], num[MMB_VERDICT_SAME],
                               num[MMB_VERDICT_UNSURE]);
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
    char gpu[128], a[16], b[16], size[96];
    mmb_report_finding_gpu(c, (size_t)c->primary, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "cuBLAS, the ceiling");
    mmb_report_finding_add(
        f,
        "cuBLAS runs cublasSgemm in pedantic FP32: no TF32 tensor cores, every product rounded as FP32, the same "
        "arithmetic as the kernels. It reaches %s TFLOP/s at %s on the %s, %s%% of the FP32 peak: what the FP32 "
        "pipe allows in practice.",
        mmb_report_findings_claim_tflops(&f->claims, r, a),
        mmb_report_findings_claim_key(&f->claims, r, "size", size, sizeof size), gpu,
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
    char gpu[128], a[16], b[16], e[16], size[96];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Other element types, %s", gpu);
    bool any = false;
    const struct mmb_report_row *cub = c->cublas >= 0 ? dtype_best(d, g, "f64", c->cublas) : NULL;
    const struct mmb_report_row *k64 = dtype_best(d, g, "f64", -1), *k32 = dtype_best(d, g, "i32", -1);
    if (cub && strcmp(d->dtype, "f64") != 0) {
        double fp = mmb_row_fp32_pct(&cub->r);
        mmb_report_finding_add(f, "In f64 cuBLAS reaches %s TFLOP/s at %s, %s%% of the FP64 pipe's peak (%s TFLOP/s)",
                               mmb_report_findings_claim_tflops(&f->claims, cub, a),
                               mmb_report_findings_claim_key(&f->claims, cub, "size", size, sizeof size),
                               mmb_report_findings_claim_pct_peak(&f->claims, cub, b),
                               mmb_report_findings_claim_cell(&f->claims, cub, "peak_gflops", "tflops",
                                                              mmb_row_pipe_peak(&cub->r), e));
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
                mmb_report_findings_claim_cell(&f->claims, k32, "peak_gflops", "tflops", mmb_row_pipe_peak(&k32->r),
                                               e));
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
    char gpu[128], a[16], b[16], e[16], num[16];
    size_t count = 0, nsizes = 0;
    const struct mmb_report_row **rows = malloc((d->nshapes * d->nkernels + 1) * sizeof *rows), *fastest = NULL,
                                *spread = NULL, *small[8];
    if (!rows)
        return false;
    for (size_t s = 0; s < d->nshapes; s++) {
        const struct mmb_report_row *here = NULL;
        for (size_t k = 0; k < d->nkernels; k++) {
            const struct mmb_report_row *r = mmb_report_finding_best(c, g, k, s);
            if (!r || r->r.time_ms_median >= mmb_report_story.small_ms)
                continue;
            here = r;
            rows[count++] = r;
            if (!fastest || r->r.time_ms_median < fastest->r.time_ms_median)
                fastest = r;
            if (isfinite(r->r.time_ms_min) && isfinite(r->r.time_ms_max) &&
                (!spread || (r->r.time_ms_max - r->r.time_ms_min) / r->r.time_ms_median >
                                    (spread->r.time_ms_max - spread->r.time_ms_min) / spread->r.time_ms_median))
                spread = r;
        }
        if (here && nsizes < 8)
            small[nsizes++] = here;
    }
    if (!count) {
        free(rows);
        return false;
    }
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Sizes too small to compare");
    mmb_report_finding_add(f, "On the %s at ", gpu);
    for (size_t i = 0; i < nsizes; i++) {
        char label[96];
        mmb_report_finding_add(f, "%s%s", i == 0 ? "" : i + 1 == nsizes ? " and " : ", ",
                               mmb_report_findings_claim_key(&f->claims, small[i], "size", label, sizeof label));
    }
    mmb_report_finding_add(
            f, ", %s of the kernels' best configurations take under %s µs (the fastest %s µs)",
            mmb_report_findings_claim_count(&f->claims, "", rows, count, 1, num),
            mmb_report_findings_claim_setting(&f->claims, "harness/report/input/story.c", "small_ms",
                                              mmb_report_story.small_ms, 1e3, "int", a),
            mmb_report_findings_claim_cell(&f->claims, fastest, "time_ms_median", "us", fastest->r.time_ms_median, b));
    if (spread && spread->r.time_ms_max > spread->r.time_ms_min) {
        double v = 100 * (spread->r.time_ms_max - spread->r.time_ms_min) / spread->r.time_ms_median;
        mmb_report_finding_add(f, ", and the timing spread (max - min over the median) reaches %s%% there",
                               mmb_report_findings_claim_cell(&f->claims, spread, "spread_pct", "pct", v, e));
    }
    mmb_report_finding_add(
            f,
            ": launch and latency dominate such times, so the figures mark those points and the comparisons leave "
            "them out.");
    free(rows);
    return true;
}
