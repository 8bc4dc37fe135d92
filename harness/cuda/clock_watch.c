/* clock_watch.c - clocks and clock event reasons over a window of launches (clock_watch.h). */
#include "cuda/clock_watch.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/throttle.h"

/* NVML_PERF_POLICY_POWER, _THERMAL, _SYNC_BOOST, _BOARD_LIMIT, _RELIABILITY: the
 * counters of time spent below the applications clock for a limit's sake. */
static const int policies[MMB_CLOCK_WATCH_POLICIES] = {0, 1, 2, 3, 5};

static unsigned long long realtime_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000ull;
}

/* Keeps the first failure's text; an unsupported query is no failure worth a word
 * when the others answer, but it is kept too, for --verbose. */
static void note(struct mmb_clock_watch *w, const char *why)
{
    if (!w->why[0])
        snprintf(w->why, sizeof w->why, "%s", why);
}

static void clock_seen(struct mmb_clock_watch *w, double mhz)
{
    if (!(mhz > 0))
        return;
    w->min_mhz = isnan(w->min_mhz) || mhz < w->min_mhz ? mhz : w->min_mhz;
    w->max_mhz = isnan(w->max_mhz) || mhz > w->max_mhz ? mhz : w->max_mhz;
}

void mmb_clock_watch_reset(struct mmb_clock_watch *w, const struct mmb_nvml_device *dev)
{
    memset(w, 0, sizeof *w);
    w->dev = dev;
    w->min_mhz = w->max_mhz = NAN;
    if (!dev)
        snprintf(w->why, sizeof w->why, "no NVML device");
}

void mmb_clock_watch_begin(struct mmb_clock_watch *w)
{
    if (!w->dev)
        return;
    char why[256];
    w->since_us = realtime_us();
    if (mmb_nvml_violations_ns(w->dev, policies, MMB_CLOCK_WATCH_POLICIES, w->violation0, w->have_violation, why,
                               sizeof why) != 0)
        note(w, why);
}

double mmb_clock_watch_read(struct mmb_clock_watch *w)
{
    if (!w->dev)
        return NAN;
    char why[256];
    unsigned mhz = 0;
    unsigned long long reasons = 0;
    double read = NAN;
    if (mmb_nvml_sm_clock(w->dev, &mhz, why, sizeof why) == 0) {
        read = (double)mhz;
        clock_seen(w, read);
    } else {
        note(w, why);
    }
    if (mmb_nvml_clock_event_reasons(w->dev, &reasons, why, sizeof why) == 0) {
        w->throttle |= mmb_throttle_of_reasons(reasons);
        w->measured = true;
    } else {
        note(w, why);
    }
    return read;
}

void mmb_clock_watch_end(struct mmb_clock_watch *w)
{
    if (!w->dev)
        return;
    char why[256];
    unsigned long long ns[MMB_CLOCK_WATCH_POLICIES] = {0};
    bool have[MMB_CLOCK_WATCH_POLICIES] = {false};
    if (mmb_nvml_violations_ns(w->dev, policies, MMB_CLOCK_WATCH_POLICIES, ns, have, why, sizeof why) != 0)
        note(w, why);
    for (int i = 0; i < MMB_CLOCK_WATCH_POLICIES; i++) {
        if (!w->have_violation[i] || !have[i])
            continue;
        if (ns[i] > w->violation0[i])
            w->throttle |= mmb_throttle_of_violation(policies[i]);
        w->measured = true;
    }
    unsigned count = 0, lo = 0, hi = 0;
    if (mmb_nvml_clock_samples(w->dev, w->since_us, realtime_us(), &count, &lo, &hi, why, sizeof why) != 0) {
        note(w, why);
        return;
    }
    if (count) {
        clock_seen(w, (double)lo);
        clock_seen(w, (double)hi);
        w->samples += count;
    }
}

void mmb_clock_watch_throttle_text(const struct mmb_clock_watch *w, char *out, size_t len)
{
    if (!len)
        return;
    out[0] = '\0';
    if (w->measured)
        mmb_throttle_format(w->throttle, out, len);
}
