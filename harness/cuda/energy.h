/* energy.h - a configuration's board power and energy per launch, in a phase of
 * its own after the timed launches (which it never disturbs): launches back to back
 * for a window, NVML's total-energy counter read between them.
 *
 * The counter (nvmlDeviceGetTotalEnergyConsumption, mJ since the driver loaded) does
 * not count continuously: the driver adds to it at each of its power updates, about
 * every 100 ms on Hopper (docs/energy.md; mmbench measures the interval on every run
 * and says it). A difference of two reads at arbitrary times is therefore off by up
 * to one update's energy at each end: 30 J at 300 W, as much as a 100 ms window
 * holds. So the window is measured from update to update: the counter is polled
 * (every MMB_ENERGY_POLL_US) while launches keep the GPU busy; the window opens at an
 * update and closes at the first update at least 0.9 x the window later, and power
 * is the counter's difference over the host time between the two updates, whose
 * error is the polling's (under 1 ms at each end, 1% of a 200 ms window). The
 * launches are queued a few milliseconds ahead, so the GPU never waits; energy per
 * launch is that power times the GPU time per launch of the loop (CUDA events around
 * it, the gaps between launches included, as a loop of launches has them).
 *
 * The loop runs without L2 flushes in either cache mode: a cold row's flush (a read
 * of eight times L2) costs more time and energy than the kernel at sizes up to about
 * 2048 and would be counted as the kernel's; docs/energy.md says what this means for
 * problems that fit L2. */
#ifndef MMB_ENERGY_H
#define MMB_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"
#include "cuda/clock_watch.h"
#include "cuda/nvml.h"

/* How often the counter is read while waiting for its updates. */
#define MMB_ENERGY_POLL_US 250
/* A counter that has not changed after this long (or 5 windows, whichever is longer)
 * of launches is taken as not counting: the cells stay empty. */
#define MMB_ENERGY_STALL_S 1.0

/* The GPU side of the loop, behind callbacks, so that the loop runs in the tests
 * without a GPU. launch enqueues n launches and a marker after them, numbered from 0
 * in the order enqueued; done says whether marker m has been reached; finish waits
 * for the last marker and gives the GPU time from the first launch to it. */
struct mmb_energy_gpu {
    enum mmb_status (*launch)(void *ctx, size_t n, char *err, size_t errlen);
    enum mmb_status (*done)(void *ctx, size_t marker, bool *reached, char *err, size_t errlen);
    enum mmb_status (*finish)(void *ctx, double *gpu_ms, char *err, size_t errlen);
    void *ctx;
};

struct mmb_energy_result {
    double power_w;       /* mean board power over the window; NaN: not measured */
    double energy_j;      /* per launch; NaN: not measured */
    double window_s;      /* host time between the window's two counter updates */
    double opened_epoch, closed_epoch; /* those updates, in seconds since 1970 (CLOCK_REALTIME), for
                                        * cross-checks against other readers of the counter */
    double period_ms;     /* GPU time per launch of the loop */
    double update_ms;     /* mean interval between the counter's updates in the window */
    unsigned updates;     /* counter updates seen in the window */
    size_t launches;      /* of the loop */
    double seconds;       /* the phase's wall time */
    char why[256];        /* why power and energy are empty ("" when measured) */
    bool unavailable;     /* with why: the counter could not be read before any launch (no NVML device, no
                           * counter on this GPU or driver), as against a window that failed */
};

/* Runs the loop on gpu for at least window_s (> 0) of counter time, launch_ms being the
 * time one launch takes (the timed launches' median). watch, when not NULL, reads the
 * clock and the reasons once inside the window (clock_watch.h; the caller opens and
 * closes it). Returns a status other than ok only when the GPU failed (err says how;
 * the configuration's row takes it); NVML's absence or failure leaves the result
 * empty with why, and ok. */
enum mmb_status mmb_energy_measure(const struct mmb_nvml_device *dev, const struct mmb_energy_gpu *gpu,
                                   double launch_ms, double window_s, struct mmb_clock_watch *watch,
                                   struct mmb_energy_result *out, char *err, size_t errlen);

/* The GPU side of the loop for launches of fn(ctx) on stream (CUDA events), to be
 * closed with mmb_energy_cuda_close. */
struct mmb_energy_cuda;
enum mmb_status mmb_energy_cuda_open(struct mmb_energy_cuda **out, void *stream,
                                     enum mmb_status (*fn)(void *ctx, char *err, size_t errlen), void *ctx,
                                     struct mmb_energy_gpu *gpu, char *err, size_t errlen);
void mmb_energy_cuda_close(struct mmb_energy_cuda *c);

#endif
