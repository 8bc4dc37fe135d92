/* converge.c - the stopping rule of timed launches (converge.h says why it is this one). */
#include "core/converge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct mmb_stop_info mmb_stop_table[] = {
    {MMB_STOP_REPEATS, "repeats", "the fixed count of timed launches (repeats) was taken"},
    {MMB_STOP_NOISE, "noise", "the noise of the median reached the target"},
    {MMB_STOP_RESOLUTION, "resolution",
     "the median's interval lies within two adjacent timer readings: more launches cannot narrow it"},
    {MMB_STOP_MAX_SECONDS, "max_seconds", "the time cap came before the noise target"},
    {MMB_STOP_MAX_SAMPLES, "max_samples", "100000 samples came before the noise target"},
    {MMB_STOP_COUNT, NULL, NULL},
};

const char *mmb_stop_text(enum mmb_stop stop)
{
    if ((unsigned)stop >= MMB_STOP_COUNT)
        return NULL;
    return mmb_stop_table[stop].text;
}

bool mmb_stop_parse(const char *text, enum mmb_stop *out)
{
    for (const struct mmb_stop_info *s = mmb_stop_table; s->text; s++) {
        if (strcmp(s->text, text) == 0) {
            *out = s->value;
            return true;
        }
    }
    return false;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

size_t mmb_converge_rank(size_t n)
{
    if (n < MMB_CONVERGE_MIN_SAMPLES)
        return 0;
    /* Sum the binomial's lower tail from 8 standard deviations below its mean, where
     * what is left out is below 1e-15, so that n = 100000 costs a few thousand steps. */
    double sd = 0.5 * sqrt((double)n);
    double from = floor(0.5 * (double)n - 8.0 * sd);
    size_t i = from > 0 ? (size_t)from : 0;
    double p = exp(lgamma((double)n + 1.0) - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0) -
                   (double)n * log(2.0));
    double cdf = 0.0;
    size_t rank = 0;
    for (; i <= n / 2; i++) {
        cdf += p; /* P(B <= i) */
        if (cdf > 0.025)
            break;
        rank = i + 1; /* P(B <= rank - 1) <= 2.5% */
        p *= (double)(n - i) / (double)(i + 1);
    }
    return rank;
}

static double median_of(const double *sorted, size_t n)
{
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double mmb_converge_noise(const double *sorted, size_t n)
{
    size_t j = mmb_converge_rank(n);
    if (j == 0)
        return NAN;
    double median = median_of(sorted, n);
    if (!(median > 0) || !isfinite(median))
        return NAN;
    return (sorted[n - j] - sorted[j - 1]) / (2.0 * median);
}

/* True when the median's interval holds at most two distinct readings that no third
 * reading falls between: the smallest step between distinct samples is as wide as the
 * interval, so the samples are quantised and more of them cannot narrow it. */
static bool within_resolution(const double *sorted, size_t n)
{
    size_t j = mmb_converge_rank(n);
    if (j == 0)
        return false;
    double lo = sorted[j - 1], hi = sorted[n - j];
    if (hi == lo)
        return true;
    double step = INFINITY;
    for (size_t i = 1; i < n; i++)
        if (sorted[i] > sorted[i - 1] && sorted[i] - sorted[i - 1] < step)
            step = sorted[i] - sorted[i - 1];
    return hi - lo <= step;
}

/* How many to launch next under a noise target, not yet reached at n samples. */
static size_t plan_more(const struct mmb_converge_spec *spec, size_t n, double noise, double elapsed_s)
{
    double want = (double)n; /* no usable noise: double the samples */
    if (isfinite(noise) && noise > 0) {
        double ratio = noise / spec->noise;
        want = ceil((double)n * ratio * ratio) - (double)n;
    }
    double lo = floor((double)n / 8.0), hi = (double)n;
    want = want < lo ? lo : want > hi ? hi : want;
    if (spec->max_seconds > 0 && elapsed_s > 0) {
        double per = elapsed_s / (double)n;
        double fit = ceil((spec->max_seconds - elapsed_s) / per);
        if (want > fit)
            want = fit;
    }
    double room = (double)(MMB_CONVERGE_MAX_SAMPLES - n);
    if (want > room)
        want = room;
    if (want > MMB_CONVERGE_MAX_BATCH)
        want = MMB_CONVERGE_MAX_BATCH;
    return want < 1 ? 1 : (size_t)want;
}

void mmb_converge_step(const struct mmb_converge_spec *spec, double *samples, size_t n, double elapsed_s,
                       struct mmb_converge_step *out)
{
    bool target = spec->noise > 0;
    size_t min = spec->min_samples > 0 ? (size_t)spec->min_samples : 1;
    if (target && min < MMB_CONVERGE_MIN_SAMPLES)
        min = MMB_CONVERGE_MIN_SAMPLES;
    out->noise = NAN;
    out->more = 0;
    if (n < min) { /* nothing to look at yet: a large fixed count is not sorted at every batch */
        size_t more = min - n;
        out->stop = MMB_STOP_NONE;
        out->more = more < MMB_CONVERGE_MAX_BATCH ? more : MMB_CONVERGE_MAX_BATCH;
        return;
    }
    qsort(samples, n, sizeof *samples, compare_double);
    out->noise = mmb_converge_noise(samples, n);
    if (!target)
        out->stop = MMB_STOP_REPEATS;
    else if (out->noise <= spec->noise)
        out->stop = MMB_STOP_NOISE;
    else if (within_resolution(samples, n))
        out->stop = MMB_STOP_RESOLUTION;
    else if (n >= MMB_CONVERGE_MAX_SAMPLES)
        out->stop = MMB_STOP_MAX_SAMPLES;
    else if (spec->max_seconds > 0 && elapsed_s >= spec->max_seconds)
        out->stop = MMB_STOP_MAX_SECONDS;
    else {
        out->stop = MMB_STOP_NONE;
        out->more = plan_more(spec, n, out->noise, elapsed_s);
    }
}

int mmb_noise_parse(const char *text, double *out)
{
    char *end;
    errno = 0;
    if (!*text)
        return -1;
    double v = strtod(text, &end);
    if (end == text || errno)
        return -1;
    if (*end == '%') {
        v /= 100.0;
        end++;
    }
    if (*end || !isfinite(v) || !(v > 0) || !(v < 1))
        return -1;
    *out = v;
    return 0;
}
