/* verdict.h - is one time faster than another, given the noise: the ratio of two
 * medians, an interval for it, and a verdict (FASTER, SLOWER, SAME, UNSURE).
 *
 * Method (docs/compare.md): each median gets a distribution-free interval from the
 * order statistics of its own samples, the sign test's, the narrowest [x_(j),
 * x_(n+1-j)] whose coverage 1 - 2 P(Binomial(n, 1/2) <= j - 1) reaches the side's
 * level; the ratio new/old then lies in [lo_new / hi_old, hi_new / lo_old] whenever
 * both intervals cover their medians, which for independent samples happens with
 * probability at least the product of the two levels. Both levels are sqrt(0.95), so
 * the ratio's interval covers the true ratio of medians with at least 95%, whatever
 * the distributions (continuous or not); where one side has too few samples for
 * sqrt(0.95), its extremes are used and the other side's level raised so that the
 * product stays 0.95. Without samples, the extremes (min and max of n launches) bound
 * the median with 1 - 2^(1-n): the interval from them is the same construction with
 * j = 1. No resampling, so no seed: the same samples always give the same interval.
 *
 * Verdict, with a threshold t (2% by default):
 *   SAME    the interval lies within [1 - t, 1 + t]: any difference is below t;
 *   SLOWER  otherwise, when the interval lies above 1: new is slower, with 95%;
 *   FASTER  otherwise, when the interval lies below 1;
 *   UNSURE  otherwise (the interval holds 1 and reaches past the threshold), or when
 *           no interval at 95% can be had (too few launches, no spread known).
 * The interval is inclusive at the threshold's ends. */
#ifndef MMB_CORE_VERDICT_H
#define MMB_CORE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence of the ratio's interval. */
#define MMB_VERDICT_CONFIDENCE 0.95
/* The default threshold of SAME: 2%. */
#define MMB_VERDICT_THRESHOLD 0.02

enum mmb_verdict { MMB_VERDICT_FASTER, MMB_VERDICT_SLOWER, MMB_VERDICT_SAME, MMB_VERDICT_UNSURE, MMB_VERDICT_COUNT };

struct mmb_verdict_info {
    enum mmb_verdict value;
    const char *text;    /* FASTER, SLOWER, SAME, UNSURE */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_VERDICT_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_verdict_info mmb_verdict_table[];
const char *mmb_verdict_text(enum mmb_verdict v);
/* Case-insensitive ("slower" or "SLOWER"); false when text names none. */
bool mmb_verdict_parse(const char *text, enum mmb_verdict *out);

/* What one side knows of its median. */
struct mmb_median_side {
    const double *samples;   /* NULL: only the summary below */
    size_t n;                /* launches (samples, or the row's repeats) */
    double median, min, max; /* the summary; with samples, computed from them */
};

/* The ratio new/old of two medians with its interval. */
struct mmb_ratio {
    double ratio;            /* new median / old median; NaN when a median is missing */
    double lo, hi;           /* its interval; NaN when none at 95% could be had */
    double confidence;       /* the interval's coverage at least (the product of the sides') */
    enum mmb_verdict verdict;
};

/* The 1-based rank j of the narrowest distribution-free interval [x_(j), x_(n+1-j)] of
 * the median of n samples whose coverage is at least level, and that coverage in
 * *covered; 0 when not even the extremes reach it. */
size_t mmb_median_rank(size_t n, double level, double *covered);

/* Compares new against old with threshold t (a fraction > 0). Samples need not be
 * sorted (they are copied). */
void mmb_ratio_compare(const struct mmb_median_side *old, const struct mmb_median_side *new_, double threshold,
                       struct mmb_ratio *out);

/* The verdict of an interval [lo, hi] (NaN: UNSURE) for threshold t. */
enum mmb_verdict mmb_verdict_of(double lo, double hi, double threshold);

#endif
