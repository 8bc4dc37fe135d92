/* cupti_host.h - the offline check of a metric set against CUPTI's tables for a chip,
 * with CUPTI's host API alone: no GPU, no driver. */
#ifndef MMB_CUPTI_HOST_H
#define MMB_CUPTI_HOST_H

#include <stddef.h>

#include "results/metrics.h"

/* The CUPTI API version of the headers mmbench was compiled with (CUPTI_API_VERSION)
 * and of the CUPTI library it runs with (cuptiGetVersion). Returns 0, or -1 with err. */
int mmb_cupti_host_version(unsigned *built, unsigned *found, char *err, size_t errlen);

/* Checks every metric of set (and gpu__time_duration.sum) against CUPTI's tables for
 * chip ("GH100", "GA100", "AD102", ...) with the host API alone: no GPU, no driver.
 * Each name must be accepted and reported in the table's cupti_unit (so that the
 * scale is right). *passes (may be NULL) gets the passes the set needs on that chip.
 * Returns 0, or -1 with err naming the unknown chip (and the known ones), the
 * rejected metric or the unit that differs. */
int mmb_cupti_validate_offline(const char *chip, const struct mmb_metric_set *set, size_t *passes,
                               char *err, size_t errlen);

#endif
