/* findings_energy.c - the Energy efficiency section's finding: of the groups whose
 * least-energy configuration the section lists (mmb_report_tune_group_energy_listed),
 * the one where it saves the most energy per launch over the fastest configuration,
 * and what that costs in time; each number with its claim. */
#include "report/doc/findings/findings_impl.h"
#include "report/doc/findings/findings_claims.h"

#include <stdio.h>

#include "report/input/tune_groups.h"

/* What the top group's two configurations are: its least energy against its fastest. */
static void saving(const struct mmb_report_findings_ctx *c, const struct mmb_report_energy_group *top,
                   struct mmb_report_finding *f)
{
    const struct mmb_report_data *d = c->d;
    const struct mmb_report_row *fast = &d->rows[top->rows[top->fastest]], *frugal = &d->rows[top->rows[top->frugal]];
    char gpu[128], size[96], pf[256], pfast[256], saved[16], ej[16], ew[16], fj[16], fw[16], more[16], ta[16], tb[16];
    mmb_report_finding_gpu(c, top->gpu, gpu, sizeof gpu);
    mmb_report_finding_add(f, "The largest saving: on the %s, %s at %s uses %s%% less energy per launch in %s", gpu,
                           d->kernels[top->kernel],
                           mmb_report_findings_claim_key(&f->claims, frugal, "size", size, sizeof size),
                           mmb_report_findings_claim_change(&f->claims, frugal, fast, "energy_j", true, saved),
                           mmb_report_findings_claim_key(&f->claims, frugal, "params", pf, sizeof pf));
    mmb_report_finding_add(f, " (%s J, %s W) than in its fastest configuration, %s (%s J, %s W)",
                           mmb_report_findings_claim_cell(&f->claims, frugal, "energy_j", "g4", frugal->r.energy_j, ej),
                           mmb_report_findings_claim_cell(&f->claims, frugal, "power_w", "int", frugal->r.power_w, ew),
                           mmb_report_findings_claim_key(&f->claims, fast, "params", pfast, sizeof pfast),
                           mmb_report_findings_claim_cell(&f->claims, fast, "energy_j", "g4", fast->r.energy_j, fj),
                           mmb_report_findings_claim_cell(&f->claims, fast, "power_w", "int", fast->r.power_w, fw));
    mmb_report_finding_add(f, ", at %s%% more time per launch (%s against %s ms).",
                           mmb_report_findings_claim_change(&f->claims, frugal, fast, "time_ms_median", false, more),
                           mmb_report_findings_claim_cell(&f->claims, frugal, "time_ms_median", "g4",
                                                          frugal->r.time_ms_median, ta),
                           mmb_report_findings_claim_cell(&f->claims, fast, "time_ms_median", "g4",
                                                          fast->r.time_ms_median, tb));
}

bool mmb_report_findings_energy(const struct mmb_report_findings_ctx *c, struct mmb_report_finding *f)
{
    struct mmb_report_energy_group *groups;
    long n = mmb_report_tune_group_energy(c->d, -1, &groups);
    if (n <= 0)
        return false;
    const struct mmb_report_energy_group *top = mmb_report_tune_group_energy_top(c->d, groups, (size_t)n);
    if (top) {
        snprintf(f->lead, sizeof f->lead, "Least energy against fastest");
        if (top->fastest == top->frugal)
            mmb_report_finding_add(f, "In every group of the table, the fastest configuration also uses the least "
                                      "energy per launch: at the clocks as found, finishing sooner saves more energy "
                                      "than any slower configuration's lower power.");
        else
            saving(c, top, f);
        f->energy = true;
    }
    mmb_report_tune_group_energy_free(groups, (size_t)n);
    return top != NULL;
}
