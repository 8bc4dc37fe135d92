/* converge.h - when a configuration's timed launches stop: after a fixed count, or
 * once the median they give is known to a relative precision (the noise target),
 * with a minimum sample count and a time cap. The rule is a pure function of the
 * samples so far and the time spent, so that it is tested without a GPU and the
 * timer (cuda/timer.c) only launches what it asks for. The noise is the half-width of
 * the median's distribution-free 95% confidence interval (the sign test's), relative
 * to the median; it needs 6 samples. When the interval holds no more than two
 * adjacent timer readings, more launches cannot narrow it: MMB_STOP_RESOLUTION. Why
 * this and not nvbench's spread of the samples: docs/profiles.md, "Timing". */
#ifndef MMB_CONVERGE_H
#define MMB_CONVERGE_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest samples whose extremes bound the median with 95% confidence. */
#define MMB_CONVERGE_MIN_SAMPLES 6
/* Samples one configuration takes at most under a noise target: at 100000 the
 * interval is 0.5% wide unless the samples spread by more than about 60%. */
#define MMB_CONVERGE_MAX_SAMPLES 100000
/* Launches between two looks at the samples, at most (the events they need). */
#define MMB_CONVERGE_MAX_BATCH 4096

/* Why the timed launches of a configuration stopped; every one leaves the row ok. */
enum mmb_stop {
    MMB_STOP_REPEATS,     /* the fixed count was taken (no noise target) */
    MMB_STOP_NOISE,       /* the noise reached the target */
    MMB_STOP_RESOLUTION,  /* the interval is within the timer's step: the noise cannot fall */
    MMB_STOP_MAX_SECONDS, /* the time cap came before the target */
    MMB_STOP_MAX_SAMPLES, /* MMB_CONVERGE_MAX_SAMPLES came before the target */
    MMB_STOP_COUNT,
    MMB_STOP_NONE = MMB_STOP_COUNT, /* not stopped: launch more */
};

struct mmb_stop_info {
    enum mmb_stop value;
    const char *text;     /* as the CSV's stopped_by column writes it */
    const char *meaning;
};

/* Rows in enum order, ending with a {MMB_STOP_COUNT, NULL, NULL} sentinel. */
extern const struct mmb_stop_info mmb_stop_table[];
/* NULL for a value outside the table (MMB_STOP_NONE included). */
const char *mmb_stop_text(enum mmb_stop stop);
bool mmb_stop_parse(const char *text, enum mmb_stop *out);

/* How to time one configuration. */
struct mmb_converge_spec {
    double noise;         /* target, a fraction (0.005 is 0.5%); 0: a fixed count */
    int min_samples;      /* the fixed count when noise is 0, else the minimum (>= 6) */
    double max_seconds;   /* noise target only: seconds of timed launches after which the
                           * rule stops, once min_samples are taken; 0: no cap */
};

/* The rule's answer after a look at the samples. */
struct mmb_converge_step {
    enum mmb_stop stop;   /* MMB_STOP_NONE: launch `more`, then look again */
    size_t more;          /* >= 1 when stop is MMB_STOP_NONE, else 0 */
    double noise;         /* reached (mmb_converge_noise); NaN before min_samples and under 6 */
};

/* Looks at the n samples taken so far (any order; sorted in place once there are
 * spec->min_samples) after elapsed_s seconds of timed launches, and says whether to
 * stop and, if not, how many to launch before the next look. Never stops before
 * spec->min_samples (a fixed count stops at exactly that many); past them, stops at
 * the first look where the noise is at most the target, the timer's step keeps it
 * from falling, MMB_CONVERGE_MAX_SAMPLES are taken, or elapsed_s reaches
 * spec->max_seconds, in that order. `more` is what the noise so far says is still
 * needed (it falls as 1/sqrt(n)), between n/8 and n, cut to what fits before the cap
 * at the time per sample so far, so that the cap is passed by about one sample at
 * most; and at most MMB_CONVERGE_MAX_BATCH. */
void mmb_converge_step(const struct mmb_converge_spec *spec, double *samples, size_t n, double elapsed_s,
                       struct mmb_converge_step *out);

/* The noise of the median of n sorted samples: the half-width of its distribution-free
 * 95% confidence interval over the median. NaN under 6 samples or when the median is
 * not a positive number. */
double mmb_converge_noise(const double *sorted, size_t n);

/* 1-based rank of the lower end of the median's 95% interval among n samples (the
 * upper end is n + 1 - rank); 0 when there is none (n < 6). */
size_t mmb_converge_rank(size_t n);

/* Reads a noise target: a fraction ("0.005") or a percentage ("0.5%"), above 0 and
 * below 1 (100%). Returns 0 with *out the fraction, or -1. */
int mmb_noise_parse(const char *text, double *out);

#endif
