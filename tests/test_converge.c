/* test_converge.c - the stopping rule of timed launches on synthetic samples, as the
 * timer would call it: the interval's ranks are the exact binomial ones; a fixed count
 * takes exactly that many; low-noise data stops at the minimum; noisy data converges
 * by taking more, or runs to the time cap and says so; nothing stops before
 * min_samples; the cap is passed by about one sample; quantised data stops at the
 * timer's resolution; the sample bound holds; noise targets parse as fraction or %. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/converge.h"

/* ---- synthetic samples ---- */

struct gen {
    uint64_t state;
    double center, rsd;  /* normal around center with relative sd rsd */
    double step;         /* > 0: readings quantised to multiples of step */
};

static double uniform(struct gen *g)
{
    g->state ^= g->state << 13;
    g->state ^= g->state >> 7;
    g->state ^= g->state << 17;
    return ((double)(g->state >> 11) + 0.5) / 9007199254740992.0;
}

static double sample(struct gen *g)
{
    double z = sqrt(-2.0 * log(uniform(g))) * cos(2.0 * M_PI * uniform(g));
    double v = g->center * (1.0 + g->rsd * z);
    if (v < 0.01 * g->center)
        v = 0.01 * g->center;
    return g->step > 0 ? g->step * round(v / g->step) : v;
}

/* What the timer does: launch what the rule asks (each launch taking per_s of wall
 * time), look again, until it stops. Checks the rule's promises at every look. */
struct outcome {
    enum mmb_stop stop;
    size_t n, looks;
    double elapsed, noise;
};

static struct outcome simulate(const struct mmb_converge_spec *spec, struct gen *g, double per_s)
{
    static double buf[MMB_CONVERGE_MAX_SAMPLES + MMB_CONVERGE_MAX_BATCH];
    struct outcome o = {.stop = MMB_STOP_NONE};
    struct mmb_converge_step step;
    for (;;) {
        mmb_converge_step(spec, buf, o.n, o.elapsed, &step);
        o.looks++;
        if (step.stop != MMB_STOP_NONE) {
            ck_assert_uint_eq(step.more, 0);
            break;
        }
        ck_assert_uint_ge(step.more, 1);
        ck_assert_uint_le(step.more, MMB_CONVERGE_MAX_BATCH);
        ck_assert_uint_le(o.n + step.more, sizeof buf / sizeof buf[0]);
        for (size_t i = 0; i < step.more; i++)
            buf[o.n + i] = sample(g);
        o.n += step.more;
        o.elapsed += (double)step.more * per_s;
    }
    o.stop = step.stop;
    o.noise = step.noise;
    ck_assert_uint_ge(o.n, (size_t)spec->min_samples);
    return o;
}

/* ---- the interval of the median ---- */

/* Exact P(B <= i) for B ~ Binomial(n, 1/2) from Pascal's triangle (n <= 60). */
static double binomial_cdf(int n, int i)
{
    double row[64] = {1.0};
    for (int r = 1; r <= n; r++)
        for (int k = r; k > 0; k--)
            row[k] += row[k - 1];
    double sum = 0.0;
    for (int k = 0; k <= i; k++)
        sum += row[k];
    return sum / ldexp(1.0, n);
}

START_TEST(test_rank_exact)
{
    for (int n = 1; n <= 60; n++) {
        size_t j = mmb_converge_rank((size_t)n);
        if (n < MMB_CONVERGE_MIN_SAMPLES) {
            ck_assert_msg(j == 0, "n = %d: rank %zu, expected none", n, j);
            ck_assert(binomial_cdf(n, 0) > 0.025); /* the extremes cover less than 95% */
            continue;
        }
        ck_assert_msg(j >= 1 && binomial_cdf(n, (int)j - 1) <= 0.025, "n = %d: rank %zu covers < 95%%", n, j);
        ck_assert_msg(binomial_cdf(n, (int)j) > 0.025, "n = %d: rank %zu is not the largest", n, j);
    }
    ck_assert_uint_eq(mmb_converge_rank(6), 1);
    ck_assert_uint_eq(mmb_converge_rank(10), 2);
    /* large n: the normal approximation n/2 - 0.98 sqrt(n) */
    size_t sizes[] = {1000, 10000, MMB_CONVERGE_MAX_SAMPLES};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double approx = 0.5 * (double)sizes[i] - 0.98 * sqrt((double)sizes[i]);
        ck_assert_msg(fabs((double)mmb_converge_rank(sizes[i]) - approx) <= 1.5, "n = %zu: rank %zu, about %.1f",
                      sizes[i], mmb_converge_rank(sizes[i]), approx);
    }
}
END_TEST

START_TEST(test_noise_values)
{
    double ten[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    ck_assert_double_eq_tol(mmb_converge_noise(ten, 10), 7.0 / 11.0, 1e-12); /* (x9 - x2) / (2 * 5.5) */
    double same[8] = {4, 4, 4, 4, 4, 4, 4, 4};
    ck_assert_double_eq(mmb_converge_noise(same, 8), 0.0);
    ck_assert(isnan(mmb_converge_noise(same, 5)));
    double zero[6] = {0, 0, 0, 0, 0, 0};
    ck_assert(isnan(mmb_converge_noise(zero, 6)));
    /* a few far outliers do not move it */
    double outliers[20];
    for (int i = 0; i < 20; i++)
        outliers[i] = 1.0 + 0.001 * i;
    outliers[19] = 50.0;
    outliers[18] = 40.0;
    ck_assert(mmb_converge_noise(outliers, 20) < 0.01);
}
END_TEST

/* ---- the rule ---- */

START_TEST(test_fixed_count)
{
    struct mmb_converge_spec spec = {.noise = 0, .min_samples = 20, .max_seconds = 0};
    struct gen g = {.state = 1, .center = 1.0, .rsd = 0.5};
    struct outcome o = simulate(&spec, &g, 1.0);
    ck_assert_int_eq(o.stop, MMB_STOP_REPEATS);
    ck_assert_uint_eq(o.n, 20);
    ck_assert_uint_eq(o.looks, 2); /* one batch of 20, as the timer always did */
    ck_assert(isfinite(o.noise));
    /* no cap applies to a fixed count, and one launch is one launch */
    spec.max_seconds = 0.001;
    o = simulate(&spec, &g, 1.0);
    ck_assert_int_eq(o.stop, MMB_STOP_REPEATS);
    ck_assert_uint_eq(o.n, 20);
    spec.min_samples = 1;
    o = simulate(&spec, &g, 1.0);
    ck_assert_uint_eq(o.n, 1);
    ck_assert(isnan(o.noise));
    /* a count above one batch is taken in batches, exactly */
    spec.min_samples = 3 * MMB_CONVERGE_MAX_BATCH + 5;
    o = simulate(&spec, &g, 0.0);
    ck_assert_int_eq(o.stop, MMB_STOP_REPEATS);
    ck_assert_uint_eq(o.n, (size_t)spec.min_samples);
    ck_assert_uint_eq(o.looks, 5);
}
END_TEST

START_TEST(test_low_noise_stops_at_minimum)
{
    struct mmb_converge_spec spec = {.noise = 0.005, .min_samples = 10, .max_seconds = 1.0};
    for (uint64_t seed = 1; seed <= 50; seed++) {
        struct gen g = {.state = seed * 2654435761u, .center = 4.05, .rsd = 0.001};
        struct outcome o = simulate(&spec, &g, 0.004);
        ck_assert_int_eq(o.stop, MMB_STOP_NOISE);
        ck_assert_uint_eq(o.n, 10);
        ck_assert(o.noise <= 0.005);
    }
}
END_TEST

START_TEST(test_noisy_converges_with_more)
{
    /* 5% spread, as at 256: the median to 0.5% needs about (2.5 * 5 / 0.5)^2 = 600 */
    struct mmb_converge_spec spec = {.noise = 0.005, .min_samples = 10, .max_seconds = 10.0};
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct gen g = {.state = seed * 40503u, .center = 0.02, .rsd = 0.05};
        struct outcome o = simulate(&spec, &g, 0.0002);
        ck_assert_int_eq(o.stop, MMB_STOP_NOISE);
        ck_assert(o.noise <= 0.005);
        ck_assert_msg(o.n > 300 && o.n < 2000, "seed %llu: %zu samples", (unsigned long long)seed, o.n);
        ck_assert_msg(o.looks < 30, "seed %llu: %zu looks", (unsigned long long)seed, o.looks);
    }
}
END_TEST

START_TEST(test_noisy_runs_to_cap)
{
    /* 20% spread to 0.1% would take a quarter of a million samples; 0.5 s holds 5000 */
    struct mmb_converge_spec spec = {.noise = 0.001, .min_samples = 10, .max_seconds = 0.5};
    const double per = 0.0001;
    struct gen g = {.state = 7, .center = 0.1, .rsd = 0.2};
    struct outcome o = simulate(&spec, &g, per);
    ck_assert_int_eq(o.stop, MMB_STOP_MAX_SECONDS);
    ck_assert(o.noise > 0.001);
    ck_assert(o.elapsed >= spec.max_seconds);
    ck_assert_msg(o.elapsed <= spec.max_seconds + 1.5 * per, "passed the cap by %g s", o.elapsed - spec.max_seconds);
    ck_assert_uint_le(o.n, 5002);
}
END_TEST

START_TEST(test_never_before_min_samples)
{
    /* each launch takes longer than the whole cap: the minimum is still taken */
    struct mmb_converge_spec spec = {.noise = 0.005, .min_samples = 50, .max_seconds = 0.01};
    struct gen g = {.state = 99, .center = 1.0, .rsd = 0.3};
    double buf[64];
    struct mmb_converge_step step;
    size_t n = 0;
    for (; n < 50; n++) {
        mmb_converge_step(&spec, buf, n, (double)n * 1.0, &step);
        ck_assert_int_eq(step.stop, MMB_STOP_NONE);
        ck_assert_uint_eq(step.more, 50 - n);
        buf[n] = sample(&g);
    }
    mmb_converge_step(&spec, buf, n, 50.0, &step);
    ck_assert_int_eq(step.stop, MMB_STOP_MAX_SECONDS);
    /* a noise target asks for 6 samples at least, whatever min_samples says */
    spec.min_samples = 1;
    struct outcome o = simulate(&spec, &(struct gen){.state = 3, .center = 1.0, .rsd = 0.0}, 0.001);
    ck_assert_int_eq(o.stop, MMB_STOP_NOISE);
    ck_assert_uint_eq(o.n, MMB_CONVERGE_MIN_SAMPLES);
}
END_TEST

START_TEST(test_time_cap_bounds_batches)
{
    /* every batch fits the time left, so the cap is passed by about one sample */
    struct mmb_converge_spec spec = {.noise = 0.0001, .min_samples = 10, .max_seconds = 2.0};
    double pers[] = {0.00001, 0.0003, 0.01, 0.17};
    for (size_t i = 0; i < sizeof pers / sizeof pers[0]; i++) {
        struct gen g = {.state = 11 + i, .center = 1.0, .rsd = 0.1};
        struct outcome o = simulate(&spec, &g, pers[i]);
        ck_assert_int_eq(o.stop, o.n >= MMB_CONVERGE_MAX_SAMPLES ? MMB_STOP_MAX_SAMPLES : MMB_STOP_MAX_SECONDS);
        if (o.stop == MMB_STOP_MAX_SECONDS) {
            ck_assert(o.elapsed >= spec.max_seconds);
            ck_assert_msg(o.elapsed <= spec.max_seconds + 1.5 * pers[i], "per %g: passed the cap by %g s", pers[i],
                          o.elapsed - spec.max_seconds);
        }
    }
}
END_TEST

START_TEST(test_resolution)
{
    /* readings in steps of 32 ns, half of them 3.008 us and half 3.040 us: the
     * interval straddles two steps whatever the count */
    struct mmb_converge_spec spec = {.noise = 0.001, .min_samples = 10, .max_seconds = 1.0};
    struct gen g = {.state = 5, .center = 0.003024, .rsd = 0.001, .step = 0.000032};
    struct outcome o = simulate(&spec, &g, 0.00001);
    ck_assert_int_eq(o.stop, MMB_STOP_RESOLUTION);
    ck_assert_uint_lt(o.n, 100);
    ck_assert(o.noise > spec.noise);
    /* readings that vary continuously never stop for resolution */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        struct gen c = {.state = seed, .center = 0.003016, .rsd = 0.05};
        o = simulate(&spec, &c, 0.00001);
        ck_assert_int_ne(o.stop, MMB_STOP_RESOLUTION);
    }
}
END_TEST

START_TEST(test_max_samples)
{
    struct mmb_converge_spec spec = {.noise = 0.00001, .min_samples = 10, .max_seconds = 0};
    struct gen g = {.state = 17, .center = 1.0, .rsd = 0.05};
    struct outcome o = simulate(&spec, &g, 0.0);
    ck_assert_int_eq(o.stop, MMB_STOP_MAX_SAMPLES);
    ck_assert_uint_eq(o.n, MMB_CONVERGE_MAX_SAMPLES);
    ck_assert(o.noise > spec.noise);
}
END_TEST

/* ---- text ---- */

START_TEST(test_stop_table)
{
    int n = 0;
    for (const struct mmb_stop_info *s = mmb_stop_table; s->text; s++, n++) {
        enum mmb_stop back;
        ck_assert_int_eq(s->value, n);
        ck_assert(mmb_stop_parse(s->text, &back));
        ck_assert_int_eq(back, s->value);
        ck_assert_str_eq(mmb_stop_text(s->value), s->text);
        ck_assert(strlen(s->meaning) > 0);
    }
    ck_assert_int_eq(n, MMB_STOP_COUNT);
    enum mmb_stop s;
    ck_assert(!mmb_stop_parse("cap", &s));
    ck_assert_ptr_null(mmb_stop_text(MMB_STOP_NONE));
}
END_TEST

START_TEST(test_noise_parse)
{
    double v = 0;
    ck_assert_int_eq(mmb_noise_parse("0.5%", &v), 0);
    ck_assert_double_eq_tol(v, 0.005, 1e-15);
    ck_assert_int_eq(mmb_noise_parse("0.005", &v), 0);
    ck_assert_double_eq(v, 0.005);
    ck_assert_int_eq(mmb_noise_parse("2%", &v), 0);
    ck_assert_double_eq_tol(v, 0.02, 1e-15);
    ck_assert_int_eq(mmb_noise_parse("1e-3", &v), 0);
    ck_assert_double_eq(v, 0.001);
    const char *bad[] = {"", "1", "100%", "0", "0%", "-0.5%", "abc", "0.5 %", "0.5%%", "nan", "inf", "5x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(mmb_noise_parse(bad[i], &v) != 0, "'%s' accepted", bad[i]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("converge");
    TCase *interval = tcase_create("interval");
    tcase_add_test(interval, test_rank_exact);
    tcase_add_test(interval, test_noise_values);
    suite_add_tcase(s, interval);
    TCase *rule = tcase_create("rule");
    tcase_add_test(rule, test_fixed_count);
    tcase_add_test(rule, test_low_noise_stops_at_minimum);
    tcase_add_test(rule, test_noisy_converges_with_more);
    tcase_add_test(rule, test_noisy_runs_to_cap);
    tcase_add_test(rule, test_never_before_min_samples);
    tcase_add_test(rule, test_time_cap_bounds_batches);
    tcase_add_test(rule, test_resolution);
    tcase_add_test(rule, test_max_samples);
    suite_add_tcase(s, rule);
    TCase *text = tcase_create("text");
    tcase_add_test(text, test_stop_table);
    tcase_add_test(text, test_noise_parse);
    suite_add_tcase(s, text);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
