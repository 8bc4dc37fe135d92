/* test_verdict.c - the ratio of two medians, its distribution-free 95% interval and
 * the verdict, on synthetic samples: the interval's coverage over many draws (skewed,
 * heavy-tailed and discrete times; with samples and from the extremes alone), the
 * ranks of the sign-test interval, the verdicts at the threshold's ends, a 20% slower
 * kernel, a file against itself. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/hash.h"
#include "core/verdict.h"

static double uniform(uint64_t *state)
{
    return ((double)(mmb_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(uint64_t *state)
{
    return sqrt(-2.0 * log(uniform(state))) * cos(2.0 * M_PI * uniform(state));
}

enum shape { LOGNORMAL, OUTLIERS, DISCRETE };

/* n times of true median `median`: lognormal with spread sigma; or, with OUTLIERS, 20%
 * of them drawn from an exponential tail up to 3x; or rounded to a 32 ns timer step. */
static void draw(uint64_t *state, enum shape shape, double median, double sigma, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++) {
        double t = median * exp(sigma * normal(state));
        if (shape == OUTLIERS && uniform(state) < 0.2)
            t = median * (1.0 + fmin(2.0, -0.3 * log(uniform(state))));
        if (shape == DISCRETE)
            t = 32e-6 * round(t / 32e-6);
        out[i] = t;
    }
}

/* The true median of OUTLIERS' mixture is not `median`: the coverage is checked
 * against the ratio of the two distributions' medians, which equal shapes preserve. */
static double coverage(enum shape shape, size_t n_old, size_t n_new, double sigma, bool extremes_only)
{
    uint64_t state = 42;
    double old[400], new_[400];
    int trials = 2000, covered = 0;
    double true_ratio = 1.2;
    for (int t = 0; t < trials; t++) {
        draw(&state, shape, 1.0, sigma, n_old, old);
        draw(&state, shape, true_ratio, sigma, n_new, new_);
        struct mmb_median_side a = {old, n_old, NAN, INFINITY, -INFINITY};
        struct mmb_median_side b = {new_, n_new, NAN, INFINITY, -INFINITY};
        for (size_t i = 0; i < n_old; i++)
            a.min = fmin(a.min, old[i]), a.max = fmax(a.max, old[i]);
        for (size_t i = 0; i < n_new; i++)
            b.min = fmin(b.min, new_[i]), b.max = fmax(b.max, new_[i]);
        if (extremes_only) {
            /* a row's own summary: its min, max and count (the median does not enter the
             * interval; any value inside [min, max] does here) */
            a.samples = b.samples = NULL;
            a.median = old[0];
            b.median = new_[0];
        }
        struct mmb_ratio r;
        mmb_ratio_compare(&a, &b, 0.02, &r);
        ck_assert_msg(!isnan(r.lo) && r.confidence >= 0.95, "n %zu/%zu: no interval (confidence %g)", n_old, n_new,
                      r.confidence);
        covered += r.lo <= true_ratio && true_ratio <= r.hi;
    }
    return (double)covered / trials;
}

START_TEST(test_coverage)
{
    static const size_t sizes[][2] = {{7, 7}, {10, 10}, {6, 20}, {30, 30}, {100, 40}, {400, 400}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int shape = LOGNORMAL; shape <= DISCRETE; shape++) {
            double c = coverage((enum shape)shape, sizes[i][0], sizes[i][1], 0.01, false);
            ck_assert_msg(c >= 0.95, "shape %d, n %zu/%zu: coverage %.4f", shape, sizes[i][0], sizes[i][1], c);
        }
        if (sizes[i][0] >= 7 && sizes[i][1] >= 7) {
            double c = coverage(LOGNORMAL, sizes[i][0], sizes[i][1], 0.01, true);
            ck_assert_msg(c >= 0.95, "extremes, n %zu/%zu: coverage %.4f", sizes[i][0], sizes[i][1], c);
        }
    }
}
END_TEST

START_TEST(test_rank)
{
    double c;
    ck_assert_uint_eq(mmb_median_rank(10, 0.95, &c), 2); /* the 2nd to the 9th, as converge.h says */
    ck_assert(fabs(c - (1.0 - 2.0 * 11.0 / 1024.0)) < 1e-12);
    ck_assert_uint_eq(mmb_median_rank(6, 0.95, &c), 1);
    ck_assert(fabs(c - (1.0 - 2.0 / 64.0)) < 1e-12);
    ck_assert_uint_eq(mmb_median_rank(6, sqrt(0.95), &c), 0); /* 96.9% < 97.5% */
    ck_assert_uint_eq(mmb_median_rank(7, sqrt(0.95), &c), 1);
    ck_assert_uint_eq(mmb_median_rank(1, 0.5, &c), 0);
    ck_assert_uint_eq(mmb_median_rank(0, 0.95, &c), 0);
    /* large n: about n/2 - 1.96 sqrt(n)/2 */
    size_t j = mmb_median_rank(100000, 0.95, &c);
    ck_assert_msg(j > 49680 && j < 49700 && c >= 0.95 && c < 0.9505, "%zu %g", j, c);
}
END_TEST

START_TEST(test_verdict_boundaries)
{
    const double t = 0.02;
    ck_assert_int_eq(mmb_verdict_of(0.98, 1.02, t), MMB_VERDICT_SAME);      /* the ends are inside */
    ck_assert_int_eq(mmb_verdict_of(1.0 - t, 1.0 + t, t), MMB_VERDICT_SAME);
    ck_assert_int_eq(mmb_verdict_of(1.005, 1.015, t), MMB_VERDICT_SAME);    /* slower, but by less than t */
    ck_assert_int_eq(mmb_verdict_of(0.9799, 1.0, t), MMB_VERDICT_UNSURE);   /* reaches past t, holds 1 */
    ck_assert_int_eq(mmb_verdict_of(1.0, 1.03, t), MMB_VERDICT_UNSURE);     /* 1 itself is in it */
    ck_assert_int_eq(mmb_verdict_of(1.0001, 1.0201, t), MMB_VERDICT_SLOWER);
    ck_assert_int_eq(mmb_verdict_of(1.15, 1.25, t), MMB_VERDICT_SLOWER);
    ck_assert_int_eq(mmb_verdict_of(0.97, 0.9999, t), MMB_VERDICT_FASTER);
    ck_assert_int_eq(mmb_verdict_of(0.5, 0.9, t), MMB_VERDICT_FASTER);
    ck_assert_int_eq(mmb_verdict_of(0.9, 1.1, t), MMB_VERDICT_UNSURE);
    ck_assert_int_eq(mmb_verdict_of(NAN, NAN, t), MMB_VERDICT_UNSURE);
    ck_assert_int_eq(mmb_verdict_of(0.96, 1.04, 0.05), MMB_VERDICT_SAME);   /* a wider threshold */
    enum mmb_verdict v;
    ck_assert(mmb_verdict_parse("slower", &v) && v == MMB_VERDICT_SLOWER);
    ck_assert(mmb_verdict_parse("UNSURE", &v) && v == MMB_VERDICT_UNSURE);
    ck_assert(!mmb_verdict_parse("slow", &v));
    ck_assert_str_eq(mmb_verdict_text(MMB_VERDICT_FASTER), "FASTER");
}
END_TEST

/* 20% longer times with 1% noise: SLOWER; the same samples against themselves: never
 * FASTER or SLOWER, SAME when they are precise enough; too few launches: UNSURE. */
START_TEST(test_verdicts_on_samples)
{
    uint64_t state = 7;
    double a[40], b[40];
    draw(&state, LOGNORMAL, 2.0, 0.01, 40, a);
    for (int i = 0; i < 40; i++)
        b[i] = 1.2 * a[i];
    struct mmb_median_side sa = {a, 40, NAN, NAN, NAN}, sb = {b, 40, NAN, NAN, NAN};
    struct mmb_ratio r;
    mmb_ratio_compare(&sa, &sb, 0.02, &r);
    ck_assert_int_eq(r.verdict, MMB_VERDICT_SLOWER);
    ck_assert(fabs(r.ratio - 1.2) < 1e-9 && r.lo > 1.1 && r.hi < 1.3 && r.confidence >= 0.95);
    mmb_ratio_compare(&sb, &sa, 0.02, &r);
    ck_assert_int_eq(r.verdict, MMB_VERDICT_FASTER);
    mmb_ratio_compare(&sa, &sa, 0.02, &r);
    ck_assert_int_eq(r.verdict, MMB_VERDICT_SAME);
    ck_assert(r.ratio == 1.0 && r.lo <= 1.0 && r.hi >= 1.0);
    /* noisier than the threshold: against itself UNSURE, never a direction */
    draw(&state, LOGNORMAL, 2.0, 0.2, 40, a);
    mmb_ratio_compare(&sa, &sa, 0.02, &r);
    ck_assert_int_eq(r.verdict, MMB_VERDICT_UNSURE);
    /* 6 launches a side: no 95% interval from two sets of 6 */
    struct mmb_median_side s6 = {a, 6, NAN, NAN, NAN};
    mmb_ratio_compare(&s6, &s6, 0.02, &r);
    ck_assert(isnan(r.lo) && r.verdict == MMB_VERDICT_UNSURE);
    /* 6 against 40: the 40 make up for it */
    draw(&state, LOGNORMAL, 2.0, 0.001, 40, a);
    for (int i = 0; i < 40; i++)
        b[i] = 1.2 * a[i];
    struct mmb_median_side b40 = {b, 40, NAN, NAN, NAN};
    mmb_ratio_compare(&s6, &b40, 0.02, &r);
    ck_assert_msg(!isnan(r.lo) && r.confidence >= 0.95 && r.verdict == MMB_VERDICT_SLOWER, "%g %g %g", r.lo, r.hi,
                  r.confidence);
    /* without samples: the extremes of 10 launches */
    struct mmb_median_side e1 = {NULL, 10, 1.0, 0.99, 1.01}, e2 = {NULL, 10, 1.2, 1.19, 1.21};
    mmb_ratio_compare(&e1, &e2, 0.02, &r);
    ck_assert_int_eq(r.verdict, MMB_VERDICT_SLOWER);
    ck_assert(fabs(r.lo - 1.19 / 1.01) < 1e-12 && fabs(r.hi - 1.21 / 0.99) < 1e-12);
    ck_assert(fabs(r.confidence - pow(1.0 - 2.0 / 1024.0, 2)) < 1e-12);
    /* no spread known (a published figure): no interval */
    struct mmb_median_side m = {NULL, 0, 1.0, NAN, NAN};
    mmb_ratio_compare(&m, &e2, 0.02, &r);
    ck_assert(isnan(r.lo) && r.verdict == MMB_VERDICT_UNSURE && fabs(r.ratio - 1.2) < 1e-12);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verdict");
    TCase *tc = tcase_create("verdict");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rank);
    tcase_add_test(tc, test_verdict_boundaries);
    tcase_add_test(tc, test_verdicts_on_samples);
    tcase_add_test(tc, test_coverage);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
