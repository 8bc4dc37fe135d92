/* clock.h - the time of day for rows, and a monotonic clock for durations. */
#ifndef MMB_CORE_CLOCK_H
#define MMB_CORE_CLOCK_H

#include <stddef.h>

/* ISO 8601 UTC, e.g. 2026-11-21T23:59:59Z */
void mmb_timestamp_utc(char *out, size_t len);
/* Seconds of a monotonic clock, for durations. */
double mmb_seconds_now(void);

#endif
