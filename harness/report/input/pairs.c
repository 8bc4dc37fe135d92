/* pairs.c - one configuration on two GPUs, compared as `mmbench compare` compares it
 * (results/compare/compare.h): the newer GPU's row of the older one's configuration, the two
 * rows' verdict from their launch times (their files' side files) or their min and max,
 * and what the comparisons of two GPUs rest on. */
#include "report/input/pairs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/protocol.h"

const struct mmb_report_row *mmb_report_pairs_match(const struct mmb_report_data *d, const struct mmb_report_row *ra,
                                                    size_t b)
{
    for (size_t i = 0; i < d->nrows; i++) {
        const struct mmb_report_row *r = &d->rows[i];
        if (r->selected && r->gpu == b && r->kernel == ra->kernel && r->shape == ra->shape &&
            !strcmp(r->r.params, ra->r.params))
            return r;
    }
    return NULL;
}

void mmb_report_pairs_compare(const struct mmb_report_data *d, const struct mmb_report_row *old,
                              const struct mmb_report_row *new_, struct mmb_comparison *out)
{
    size_t no = 0, nn = 0;
    const double *so = mmb_samples_find(d->files[old->file].samples, &old->r, &no);
    const double *sn = mmb_samples_find(d->files[new_->file].samples, &new_->r, &nn);
    mmb_compare_rows(&old->r, so, no, &new_->r, sn, nn, MMB_VERDICT_THRESHOLD, out);
}

void mmb_report_pairs_basis_add(struct mmb_report_pairs_basis *b, const struct mmb_report_row *old,
                                const struct mmb_report_row *new_, const struct mmb_comparison *c)
{
    const struct mmb_report_row *rows[2] = {old, new_};
    enum mmb_compare_basis bases[2] = {c->old_basis, c->new_basis};
    if (!b->pairs) {
        for (int s = 0; s < 2; s++) {
            b->launches_min[s] = INFINITY;
            b->launches_max[s] = 0;
        }
    }
    b->pairs++;
    b->verdicts[c->ratio.verdict]++;
    for (int s = 0; s < 2; s++) {
        b->samples[s] += bases[s] == MMB_BASIS_SAMPLES;
        b->recorded[s] += rows[s]->r.protocol[0] != '\0';
        long long n = rows[s]->r.repeats;
        if (n != MMB_INT_EMPTY) {
            b->launches_min[s] = fmin(b->launches_min[s], (double)n);
            b->launches_max[s] = fmax(b->launches_max[s], (double)n);
        }
        const char *stop = rows[s]->r.stopped_by;
        if (stop[0] && !strstr(b->stops[s], stop) && strlen(b->stops[s]) + strlen(stop) + 3 < sizeof b->stops[s])
            snprintf(b->stops[s] + strlen(b->stops[s]), sizeof b->stops[s] - strlen(b->stops[s]), "%s%s",
                     b->stops[s][0] ? ", " : "", stop);
    }
    if (!c->timed_alike) {
        b->unlike++;
        if (!b->why[0])
            snprintf(b->why, sizeof b->why, "%s", c->protocol_why);
    }
    if (!b->protocol[0] && old->r.protocol[0] && c->timed_alike)
        snprintf(b->protocol, sizeof b->protocol, "%s", old->r.protocol);
}

/* "6 to 12 launches, stopped by noise, max_seconds" or "10 launches". */
static void launches_text(const struct mmb_report_pairs_basis *b, int s, char *out, size_t len)
{
    if (b->launches_max[s] <= 0)
        snprintf(out, len, "an unknown number of launches");
    else if (b->launches_min[s] == b->launches_max[s])
        snprintf(out, len, "%.0f launches", b->launches_min[s]);
    else
        snprintf(out, len, "%.0f to %.0f launches", b->launches_min[s], b->launches_max[s]);
    if (b->stops[s][0])
        snprintf(out + strlen(out), len - strlen(out), ", stopped by %s", b->stops[s]);
    else
        snprintf(out + strlen(out), len - strlen(out), ", its stopping rule not recorded");
}

void mmb_report_pairs_basis_text(const struct mmb_report_pairs_basis *b, const char *na, const char *nb, char *out,
                                 size_t len)
{
    out[0] = '\0';
    if (!b->pairs)
        return;
    char la[160], lb[160];
    launches_text(b, 0, la, sizeof la);
    launches_text(b, 1, lb, sizeof lb);
    bool all_samples = b->samples[0] == b->pairs && b->samples[1] == b->pairs;
    bool recorded = b->recorded[0] == b->pairs && b->recorded[1] == b->pairs;
    if (all_samples && recorded && !b->unlike) {
        /* its items a word each ("warmup=2; noise=0.5%; ..."), so that a line may break between them */
        char shown[2 * sizeof b->protocol];
        size_t o = 0;
        for (const char *c = b->protocol; *c && o + 3 < sizeof shown; c++) {
            shown[o++] = *c;
            if (*c == ';')
                shown[o++] = ' ';
        }
        shown[o] = '\0';
        snprintf(out, len, "Both GPUs' rows were timed under one protocol (%s) and every interval comes from every "
                 "launch's time.", shown);
        return;
    }
    size_t o = 0;
    if (!all_samples)
        o += (size_t)snprintf(out + o, len - o, "%s rows carry no launch times, so %s intervals come from the rows' "
                              "min and max (the %s's rows took %s; the %s's %s), which are wider than the samples "
                              "would give and leave more UNSURE. ",
                              b->samples[0] + b->samples[1] ? "Some" : "These",
                              b->samples[0] + b->samples[1] ? "their" : "the", na, la, nb, lb);
    if (!recorded && o < len)
        snprintf(out + o, len - o, "%s rows record no protocol, so nothing shows that the two GPUs were timed alike: "
                 "the verdicts are only as good as that. scripts/gpu/remeasure.sh measures both again under one.",
                 b->recorded[0] + b->recorded[1] ? "Some" : "The");
    else if (b->unlike && o < len)
        snprintf(out + o, len - o, "The two GPUs' rows were timed under different protocols (%s).", b->why);
}
