/* timer.h - timing with CUDA events: warm-up, an L2 flush before each timed launch
 * (cold) or none (hot), one event pair per launch, launched in batches until the
 * stopping rule (core/converge.h) says stop, and the SM clock read while the timed
 * launches run. */
#ifndef MMB_TIMER_H
#define MMB_TIMER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/converge.h"
#include "core/stats.h"
#include "core/status.h"
#include "cuda/clock_watch.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"

struct mmb_timer;

/* Cold launches are preceded by flush (l2flush.h), which the caller keeps open
 * while the timer is. */
enum mmb_status mmb_timer_open(struct mmb_timer **out, const char *gpu_uuid, void *stream,
                               struct mmb_l2_flush *flush, char *err, size_t errlen);
void mmb_timer_close(struct mmb_timer *t);
/* With a watch (NULL: none), mmb_timer_measure opens its window at the first timed
 * launch, reads it in the middle of every batch (the sm_clock_mhz read) and closes it
 * after the last; the caller resets it and reads its results. */
void mmb_timer_watch(struct mmb_timer *t, struct mmb_clock_watch *watch);

struct mmb_timing {
    struct mmb_stats stats;   /* of the timed launches, in milliseconds; stats.n of them */
    double noise;             /* the rule's, a fraction; NaN under 6 launches */
    enum mmb_stop stop;       /* why they stopped */
    double sm_clock_mhz;      /* read through NVML during the first batch; NaN without NVML */
    double launched_ms;       /* the times of the launches this call made (not the first's) */
    double *samples;          /* every timed launch's time in ms, in launch order (stats.n of
                               * them): the caller frees it; NULL when the timing failed */
};

/* Enqueues one launch timed as the timed launches are (after the flush when cold),
 * without waiting for it: the verifying launch, which mmb_timer_measure with
 * with_first then counts as its first sample. A cold launch has no warm-up to wait
 * for, so with warmup 0 the verifying launch is one like any other. */
enum mmb_status mmb_timer_launch_first(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, bool cold,
                                       char *err, size_t errlen);

/* Enqueues one untimed launch as a warm-up launch is (after the flush when cold),
 * without waiting for it: the verifying launch where the protocol has warm-ups, the
 * first of them (mmb_timer_measure then runs the others). */
enum mmb_status mmb_timer_launch_warmup(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, bool cold,
                                        char *err, size_t errlen);

/* Runs warmup untimed launches, then timed ones in batches as the rule asks for them
 * (core/converge.h; a fixed count is one batch of up to MMB_CONVERGE_MAX_BATCH);
 * launch enqueues on the timer's stream. with_first: the launch of
 * mmb_timer_launch_first, just before, is the first sample. The rule's time is the
 * host's wall time from the enqueueing of the first timed launch to the end of the
 * last batch, flushes and synchronisations included. */
enum mmb_status mmb_timer_measure(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, int warmup,
                                  const struct mmb_converge_spec *spec, bool cold, bool with_first,
                                  struct mmb_timing *out, char *err, size_t errlen);

#endif
