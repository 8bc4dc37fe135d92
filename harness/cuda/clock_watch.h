/* clock_watch.h - the SM clock and the clock event reasons over a window of launches
 * (the timed launches, the energy window), read through NVML without disturbing
 * them: at the window's start the violation counters and the time; inside it, while
 * the GPU works through launches already queued, one read of the clock and of the
 * reasons (the timer's first batch); at its end the violation counters again and the
 * driver's own clock samples of the window (nvmlDeviceGetSamples), which it takes on
 * its own schedule whatever the host does. So the launches see no extra work, and the
 * lowest and highest clock are the samples' and the reads' together. The violation
 * counters come in one call (mmb_nvml_violations_ns), the GPU idle meanwhile: about
 * 1.5 ms a window on an H100 with the samples, where one call per counter cost 6 ms.
 * A watch without NVML (no library, no device) measures nothing and says why. */
#ifndef MMB_CLOCK_WATCH_H
#define MMB_CLOCK_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda/nvml.h"

/* The violation counters read: power, thermal, sync boost, board limit, reliability. */
#define MMB_CLOCK_WATCH_POLICIES 5

struct mmb_clock_watch {
    const struct mmb_nvml_device *dev; /* NULL: nothing is read */
    unsigned long long since_us;       /* the window's start, CLOCK_REALTIME us (NVML's samples' clock) */
    unsigned long long violation0[MMB_CLOCK_WATCH_POLICIES];
    bool have_violation[MMB_CLOCK_WATCH_POLICIES];
    /* results, over every window since mmb_clock_watch_reset */
    double min_mhz, max_mhz;           /* NaN when no clock was read or sampled */
    unsigned throttle;                 /* core/throttle.h's mask of the words seen */
    bool measured;                     /* reasons were read at least once */
    unsigned samples;                  /* the driver's clock samples in the windows */
    char why[256];                     /* the first NVML failure, "" when none */
};

/* Empty results; dev may be NULL (no NVML: nothing is measured). */
void mmb_clock_watch_reset(struct mmb_clock_watch *w, const struct mmb_nvml_device *dev);
/* Opens a window: its start time and the violation counters. */
void mmb_clock_watch_begin(struct mmb_clock_watch *w);
/* A read inside the window, with launches queued: the clock and the reasons now.
 * Returns the clock read, NaN when none. */
double mmb_clock_watch_read(struct mmb_clock_watch *w);
/* Closes the window: the violation counters that grew and the driver's clock samples. */
void mmb_clock_watch_end(struct mmb_clock_watch *w);
/* The throttle cell of the results: the words, "none", or "" when nothing was read. */
void mmb_clock_watch_throttle_text(const struct mmb_clock_watch *w, char *out, size_t len);

#endif
