/* timer.h - timing with CUDA events: warm-up, an L2 flush before each timed launch
 * (cold) or none (hot), one event pair per launch, and the SM clock read while the
 * timed launches run. */
#ifndef MMB_TIMER_H
#define MMB_TIMER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/stats.h"
#include "core/status.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"

struct mmb_timer;

/* Cold launches are preceded by flush (l2flush.h), which the caller keeps open
 * while the timer is. */
enum mmb_status mmb_timer_open(struct mmb_timer **out, const char *gpu_uuid, void *stream,
                               struct mmb_l2_flush *flush, char *err, size_t errlen);
void mmb_timer_close(struct mmb_timer *t);

/* Runs warmup untimed launches, then repeats timed ones (milliseconds into stats);
 * launch enqueues on the timer's stream.
 * *sm_clock_mhz is read through NVML during the timed launches (NaN without NVML). */
enum mmb_status mmb_timer_measure(struct mmb_timer *t, mmb_launch_fn launch, void *ctx,
                                  int warmup, int repeats, bool cold, struct mmb_stats *stats,
                                  double *sm_clock_mhz, char *err, size_t errlen);

#endif
