/* compare.c - one configuration measured twice: its rows' times, with their samples
 * or their summary, into a ratio, an interval and a verdict (compare.h). */
#include "results/compare/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/protocol.h"

const char *mmb_compare_basis_text(enum mmb_compare_basis b)
{
    switch (b) {
    case MMB_BASIS_SAMPLES:
        return "samples";
    case MMB_BASIS_EXTREMES:
        return "min-max";
    case MMB_BASIS_MEDIAN:
        break;
    }
    return "median only";
}

/* A side from a row and its samples. */
static enum mmb_compare_basis side_of(const struct mmb_row *row, const double *samples, size_t n,
                                      struct mmb_median_side *side)
{
    *side = (struct mmb_median_side){.samples = NULL, .n = 0, .median = row->time_ms_median,
                                     .min = row->time_ms_min, .max = row->time_ms_max};
    if (samples && n > 0) {
        side->samples = samples;
        side->n = n;
        return MMB_BASIS_SAMPLES;
    }
    if (row->repeats != MMB_INT_EMPTY && row->repeats > 0 && isfinite(row->time_ms_min) && isfinite(row->time_ms_max)) {
        side->n = (size_t)row->repeats;
        return MMB_BASIS_EXTREMES;
    }
    return MMB_BASIS_MEDIAN;
}

void mmb_compare_rows(const struct mmb_row *old, const double *old_samples, size_t old_n, const struct mmb_row *new_,
                      const double *new_samples, size_t new_n, double threshold, struct mmb_comparison *out)
{
    struct mmb_median_side a, b;
    memset(out, 0, sizeof *out);
    out->old_basis = side_of(old, old_samples, old_n, &a);
    out->new_basis = side_of(new_, new_samples, new_n, &b);
    mmb_ratio_compare(&a, &b, threshold, &out->ratio);
    out->new_ms = new_->time_ms_median;
    out->old_ms = old->time_ms_median;
    out->protocol_recorded = old->protocol[0] && new_->protocol[0];
    out->timed_alike = mmb_protocol_times_alike(old->protocol, new_->protocol, out->protocol_why,
                                                sizeof out->protocol_why);
}

void mmb_compare_basis_note(const struct mmb_comparison *c, const struct mmb_row *old, const struct mmb_row *new_,
                            char *out, size_t len)
{
    char a[64], b[64];
    const struct mmb_row *rows[2] = {old, new_};
    enum mmb_compare_basis bases[2] = {c->old_basis, c->new_basis};
    char *texts[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        if (bases[i] == MMB_BASIS_EXTREMES)
            snprintf(texts[i], sizeof a, "min-max of %lld launches", rows[i]->repeats);
        else
            snprintf(texts[i], sizeof a, "%s", mmb_compare_basis_text(bases[i]));
    }
    if (!strcmp(a, b))
        snprintf(out, len, "%s", a);
    else if (c->old_basis == MMB_BASIS_EXTREMES && c->new_basis == MMB_BASIS_EXTREMES)
        snprintf(out, len, "min-max of %lld and %lld launches", old->repeats, new_->repeats);
    else
        snprintf(out, len, "%s against %s", a, b);
}
