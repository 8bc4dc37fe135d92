/* clock.c - the time of day for rows, and a monotonic clock for durations. */
#include "core/clock.h"

#include <stdio.h>
#include <time.h>

void mmb_timestamp_utc(char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) || strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, len, "unknown");
}

double mmb_seconds_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
