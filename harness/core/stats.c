/* stats.c - median, extremes and spread of repeated timings. */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mmb_stats_compute(double *values, size_t n, struct mmb_stats *out)
{
    out->n = n;
    if (n == 0) {
        out->median = out->min = out->max = out->mean = out->stddev = NAN;
        return;
    }
    qsort(values, n, sizeof *values, compare_double);
    out->min = values[0];
    out->max = values[n - 1];
    out->median = n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += values[i];
    out->mean = sum / (double)n;
    double sq = 0.0;
    for (size_t i = 0; i < n; i++)
        sq += (values[i] - out->mean) * (values[i] - out->mean);
    out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
}
