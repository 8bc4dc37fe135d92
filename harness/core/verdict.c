/* verdict.c - the ratio of two medians, its distribution-free interval and the
 * verdict (verdict.h has the method). */
#include "core/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/stats.h"

const struct mmb_verdict_info mmb_verdict_table[] = {
    {MMB_VERDICT_FASTER, "FASTER", "the new time is shorter, with 95% confidence, by more than the threshold allows "
                                   "to call it the same"},
    {MMB_VERDICT_SLOWER, "SLOWER", "the new time is longer, with 95% confidence, by more than the threshold allows "
                                   "to call it the same"},
    {MMB_VERDICT_SAME, "SAME", "the ratio's 95% interval lies within the threshold: any difference is smaller"},
    {MMB_VERDICT_UNSURE, "UNSURE", "the noise allows no verdict: the interval holds 1 and reaches past the "
                                   "threshold, or no 95% interval can be had"},
    {MMB_VERDICT_COUNT, NULL, NULL},
};

const char *mmb_verdict_text(enum mmb_verdict v)
{
    return (unsigned)v < MMB_VERDICT_COUNT ? mmb_verdict_table[v].text : "?";
}

bool mmb_verdict_parse(const char *text, enum mmb_verdict *out)
{
    for (const struct mmb_verdict_info *i = mmb_verdict_table; i->text; i++)
        if (!strcasecmp(i->text, text)) {
            *out = i->value;
            return true;
        }
    return false;
}

size_t mmb_median_rank(size_t n, double level, double *covered)
{
    *covered = NAN;
    if (n == 0)
        return 0;
    double tail = (1.0 - level) / 2.0;
    /* The binomial's lower tail, summed from 8 standard deviations below its mean (what
     * is left out is below 1e-15), so that n = 100000 costs a few thousand steps. */
    double sd = 0.5 * sqrt((double)n);
    double from = floor(0.5 * (double)n - 8.0 * sd);
    size_t i = from > 0 ? (size_t)from : 0;
    /* from 0, 2^-n exactly: small n hit the levels of their extremes (1 - 2^(1-n)) exactly */
    double p = i == 0 && n < 1000 ? ldexp(1.0, -(int)n)
                                  : exp(lgamma((double)n + 1.0) - lgamma((double)i + 1.0) -
                                        lgamma((double)(n - i) + 1.0) - (double)n * log(2.0));
    double cdf = 0.0;
    size_t rank = 0;
    for (; 2 * i < n; i++) {
        cdf += p; /* P(B <= i) */
        if (cdf > tail * (1.0 + 1e-12))
            break;
        rank = i + 1;
        *covered = 1.0 - 2.0 * cdf;
        p *= (double)(n - i) / (double)(i + 1);
    }
    return rank;
}

/* The highest coverage a side of n launches can give: its extremes'. */
static double extremes_coverage(size_t n)
{
    return n ? 1.0 - 2.0 * pow(0.5, (double)n) : 0.0;
}

/* One side's interval for its median at coverage level at least: [*lo, *hi] and the
 * coverage in *covered. False when it cannot reach level. */
static bool side_interval(const struct mmb_median_side *s, const double *sorted, double level, double *lo,
                          double *hi, double *covered)
{
    if (sorted) {
        size_t j = mmb_median_rank(s->n, level, covered);
        if (!j)
            return false;
        *lo = sorted[j - 1];
        *hi = sorted[s->n - j];
        return true;
    }
    *covered = extremes_coverage(s->n);
    if (!(*covered >= level) || !isfinite(s->min) || !isfinite(s->max))
        return false;
    *lo = s->min;
    *hi = s->max;
    return true;
}

enum mmb_verdict mmb_verdict_of(double lo, double hi, double threshold)
{
    const double eps = 1e-12; /* 1 - 0.02 is not 0.98 in binary: the ends count as inside */
    if (isnan(lo) || isnan(hi))
        return MMB_VERDICT_UNSURE;
    if (lo >= 1.0 - threshold - eps && hi <= 1.0 + threshold + eps)
        return MMB_VERDICT_SAME;
    if (lo > 1.0)
        return MMB_VERDICT_SLOWER;
    if (hi < 1.0)
        return MMB_VERDICT_FASTER;
    return MMB_VERDICT_UNSURE;
}

/* A sorted copy of a side's samples (NULL without samples or memory), and its median. */
static double *sorted_copy(const struct mmb_median_side *s, double *median)
{
    *median = s->median;
    if (!s->samples || s->n == 0)
        return NULL;
    double *c = malloc(s->n * sizeof *c);
    if (!c)
        return NULL;
    memcpy(c, s->samples, s->n * sizeof *c);
    struct mmb_stats st;
    mmb_stats_compute(c, s->n, &st);
    *median = st.median;
    return c;
}

void mmb_ratio_compare(const struct mmb_median_side *old, const struct mmb_median_side *new_, double threshold,
                       struct mmb_ratio *out)
{
    double mo, mn;
    double *so = sorted_copy(old, &mo), *sn = sorted_copy(new_, &mn);
    out->ratio = mo > 0 && mn > 0 ? mn / mo : NAN;
    out->lo = out->hi = out->confidence = NAN;
    double each = sqrt(MMB_VERDICT_CONFIDENCE), lo_o, hi_o, lo_n, hi_n, c_o, c_n;
    bool ok_o = side_interval(old, so, each, &lo_o, &hi_o, &c_o), ok_n = side_interval(new_, sn, each, &lo_n, &hi_n, &c_n);
    /* a side short of sqrt(0.95) gives its extremes, and the other side makes up for it */
    if (!ok_o && ok_n && extremes_coverage(old->n) >= MMB_VERDICT_CONFIDENCE) {
        double c = extremes_coverage(old->n);
        ok_o = side_interval(old, so, c, &lo_o, &hi_o, &c_o);
        ok_n = ok_o && side_interval(new_, sn, MMB_VERDICT_CONFIDENCE / c_o * (1.0 + 1e-12), &lo_n, &hi_n, &c_n);
    } else if (ok_o && !ok_n && extremes_coverage(new_->n) >= MMB_VERDICT_CONFIDENCE) {
        double c = extremes_coverage(new_->n);
        ok_n = side_interval(new_, sn, c, &lo_n, &hi_n, &c_n);
        ok_o = ok_n && side_interval(old, so, MMB_VERDICT_CONFIDENCE / c_n * (1.0 + 1e-12), &lo_o, &hi_o, &c_o);
    }
    if (ok_o && ok_n && lo_o > 0 && hi_o > 0 && isfinite(out->ratio)) {
        out->lo = lo_n / hi_o;
        out->hi = hi_n / lo_o;
        out->confidence = c_o * c_n;
    }
    out->verdict = mmb_verdict_of(out->lo, out->hi, threshold);
    free(so);
    free(sn);
}
