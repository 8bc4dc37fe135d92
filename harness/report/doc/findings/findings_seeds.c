/* findings_seeds.c - the findings that test what the seed documents claim: seed 000's
 * ~3x from tiling (naive against tiled at each size), and seed 004's "low bandwidth, so
 * compute-bound" (its naive kernel's DRAM, L1 and FP32 use). */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the seeds' claims ------------------------------------------------------------------------------- */

/* naive's best time over tiled's at shape s on GPU g; NaN without both. */
static double tiling_gain(const struct mmb_report_findings_ctx *c, size_t g, size_t s, int naive, int tiled)
{
    const struct mmb_report_row *a = mmb_report_finding_best(c, g, (size_t)naive, s),
                                *b = mmb_report_finding_best(c, g, (size_t)tiled, s);
    return a && b ? a->r.time_ms_median / b->r.time_ms_median : NAN;
}

bool mmb_report_findings_seeds_000(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    int naive = mmb_report_finding_kernel(d, mmb_report_story.naive),
        tiled = mmb_report_finding_kernel(d, mmb_report_story.tiled);
    if (naive < 0 || tiled < 0 || d->ref < 0)
        return false;
    char a[16], name[128];
    snprintf(f->lead, sizeof f->lead, "Seed 000's \"about three times faster\" from tiling");
    mmb_report_finding_add(
            f, "The Kernel Tuner notebook credits shared-memory tiling with making the kernel about three times "
               "faster, from much better memory use.");
    bool any = false;
    for (size_t g = 0; g < d->ngpus; g++) {
        double gain = tiling_gain(c, g, (size_t)d->ref, naive, tiled);
        if (!d->gpus[g].all_published || !isfinite(gain))
            continue;
        mmb_report_finding_gpu(c, g, name, sizeof name);
        const struct mmb_report_row *slow = mmb_report_finding_best(c, g, (size_t)naive, (size_t)d->ref),
                                    *fast = mmb_report_finding_best(c, g, (size_t)tiled, (size_t)d->ref);
        char size[96], x[16], y[16], z[16];
        /* published medians carry no spread or launch count: a ratio, no verdict */
        mmb_report_finding_add(f, " Its %s medians at %s, naive's best %s ms against tiled's %s ms, stand in a ratio "
                               "of %s (published without their spread: no verdict).", name,
                               mmb_report_findings_claim_key(&f->claims, slow, "size", size, sizeof size),
                               mmb_report_findings_claim_cell(&f->claims, slow, "time_ms_median", "f1",
                                                              slow->r.time_ms_median, x),
                               mmb_report_findings_claim_cell(&f->claims, fast, "time_ms_median", "f1",
                                                              fast->r.time_ms_median, y),
                               mmb_report_findings_claim_speedup(&f->claims, slow, fast, z));
        (void)a;
        any = true;
    }
    const struct mmb_report_row *hit = NULL;
    for (size_t g = 0; g < d->ngpus; g++) {
        double gain = tiling_gain(c, g, (size_t)d->ref, naive, tiled);
        if (!mmb_report_finding_measured(d, g) || !isfinite(gain))
            continue;
        mmb_report_finding_gpu(c, g, name, sizeof name);
        char x[64], size[96];
        const struct mmb_report_row *slow0 = mmb_report_finding_best(c, g, (size_t)naive, (size_t)d->ref),
                                    *fast0 = mmb_report_finding_best(c, g, (size_t)tiled, (size_t)d->ref);
        mmb_report_finding_add(f, " On the %s naive's time over tiled's: %s at %s", name,
                               mmb_report_finding_gain(c, f, slow0, fast0, x, sizeof x),
                               mmb_report_findings_claim_key(&f->claims, slow0, "size", size, sizeof size));
        for (size_t s = (size_t)d->ref + 1; s < d->nshapes; s++)
            if (mmb_report_finding_square(&d->shapes[s]) && isfinite(tiling_gain(c, g, s, naive, tiled))) {
                const struct mmb_report_row *slow = mmb_report_finding_best(c, g, (size_t)naive, s),
                                            *fast = mmb_report_finding_best(c, g, (size_t)tiled, s);
                mmb_report_finding_add(f, "; %s at %s", mmb_report_finding_gain(c, f, slow, fast, x, sizeof x),
                                       mmb_report_findings_claim_key(&f->claims, slow, "size", size, sizeof size));
            }
        mmb_report_finding_add(f, ".");
        const struct mmb_report_row *r = mmb_report_finding_best(c, g, (size_t)naive, (size_t)d->ref);
        if (!hit && isfinite(r->r.l1_hit_pct))
            hit = r;
        any = true;
    }
    if (hit) {
        mmb_report_finding_gpu(c, hit->gpu, name, sizeof name);
        mmb_report_finding_add(
                f,
                " The naive kernel's L1 hit rate is %s%% on the %s: its caches already give naive most of the reuse "
                "that the tiles make explicit.",
                mmb_report_findings_claim_column(&f->claims, hit, "l1_hit_pct", hit->r.l1_hit_pct, a), name);
    }
    return any;
}

bool mmb_report_findings_seeds_004(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    int naive = mmb_report_finding_kernel(d, mmb_report_story.naive);
    if (naive < 0 || c->primary < 0)
        return false;
    size_t g = (size_t)c->primary;
    const struct mmb_report_row *r = mmb_report_finding_at_ref(c, g, (size_t)naive);
    if (!r || !isfinite(mmb_report_finding_dram_pct(r)))
        return false;
    char gpu[128], a[16], b[16], e[16], size[96];
    mmb_report_finding_gpu(c, g, gpu, sizeof gpu);
    snprintf(f->lead, sizeof f->lead, "Seed 004's \"low bandwidth, so compute-bound\"");
    mmb_report_finding_add(
            f,
            "The nvbench tutorial reads low bandwidth utilisation as compute-bound. On the %s at %s naive uses %s%% of "
            "DRAM bandwidth by nvbench's definition (declared bytes: A, B and C once over the time) and %s%% by the "
            "bytes DRAM actually moved, yet only %s%% of the FP32 pipe: it is bound by neither.",
            gpu, mmb_report_findings_claim_key(&f->claims, r, "size", size, sizeof size),
            mmb_report_findings_claim_declared(&f->claims, r, a),
            mmb_report_findings_claim_column(&f->claims, r, "dram_util_pct", mmb_report_finding_dram_pct(r), b),
            mmb_report_findings_claim_pct_peak(&f->claims, r, e));
    char lim_buf[8];
    const char *lim = mmb_row_limiter(&r->r, lim_buf, sizeof lim_buf);
    if (lim[0])
        mmb_report_finding_add(f, " What limits it is %s.", mmb_limiter_parse(lim)->meaning);
    else if (isfinite(r->r.sm_util_pct))
        mmb_report_finding_add(
                f,
                " Its SM throughput of %s%% points at its load and store instructions feeding from L1 (L1 throughput, "
                "not in these CSVs, would confirm it).",
                mmb_report_findings_claim_column(&f->claims, r, "sm_util_pct", r->r.sm_util_pct, a));
    size_t n = 0;
    for (size_t k = 0; k < d->nkernels; k++) {
        const struct mmb_report_row *q = mmb_report_finding_at_ref(c, g, k);
        double fp = q ? mmb_row_fp32_pct(&q->r) : NAN;
        if (fp >= 40)
            mmb_report_finding_add(f, "%s%s (%s%%)", n++ ? ", " : " Only ", d->kernels[k],
                                   mmb_report_findings_claim_pct_peak(&f->claims, q, a));
    }
    if (n)
        mmb_report_finding_add(f, " come%s near the FP32 roof.", n == 1 ? "s" : "");
    return true;
}
