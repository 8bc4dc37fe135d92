/* stats.h - summary statistics of repeated timings. */
#ifndef MMB_STATS_H
#define MMB_STATS_H

#include <stddef.h>

struct mmb_stats {
    double median, min, max, mean, stddev; /* stddev: sample (n - 1) */
    size_t n;
};

/* Sorts values in place. n == 0 gives NaNs. */
void mmb_stats_compute(double *values, size_t n, struct mmb_stats *out);

#endif
