/* cupti_impl.h - what the two halves of the counters module share: cupti_host.c
 * (CUPTI's host API: metric names, chips, config images; no GPU needed) and cupti.c
 * (the device side: profiling passes on a GPU). Included by those two files only:
 * the CUPTI headers it needs compile only with the cshim stand-in of mmb_cuda. */
#ifndef MMB_CUPTI_IMPL_H
#define MMB_CUPTI_IMPL_H

#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <stddef.h>
#include <stdint.h>

#include "results/metrics.h"

#define NO_COUNTERS "; --no-counters skips counters"

/* Writes "file:line: call: CUPTI_ERROR_X: what it means here; the fix" into err. */
#define MMB_CHECK_CUPTI(call, on_fail)                                                     \
    do {                                                                                   \
        CUptiResult mmb_c_ = (call);                                                       \
        if (mmb_c_ != CUPTI_SUCCESS) {                                                     \
            mmb_cupti_error(err, errlen, __FILE__, __LINE__, #call, mmb_c_);               \
            on_fail;                                                                       \
        }                                                                                  \
    } while (0)

void mmb_cupti_error(char *err, size_t errlen, const char *file, int line, const char *call, CUptiResult r);

/* The metric list CUPTI gets: gpu__time_duration.sum first (it weighs merged ranges
 * and is the duration out value), then the set's metrics. */
struct mmb_cupti_list {
    const char *names[MMB_METRIC_MAX + 1];
    const struct mmb_metric *metrics[MMB_METRIC_MAX + 1];
    size_t count;
};

void mmb_cupti_list_build(const struct mmb_metric_set *set, struct mmb_cupti_list *list);

/* 0 when this CUPTI knows chip ("GH100"); -1 with err listing the chips it knows. */
int mmb_cupti_chip_check(const char *chip, char *err, size_t errlen);

/* The config image for list on chip (avail: the device's counter availability image,
 * NULL offline) and the passes it needs; *host_out and *config_out (either may be
 * NULL: not wanted) are the caller's to free. 0, or -1 with err naming the rejected
 * metric. */
int mmb_cupti_host_config(const char *chip, const uint8_t *avail, const struct mmb_cupti_list *list,
                          CUpti_Profiler_Host_Object **host_out, uint8_t **config_out, size_t *config_size,
                          size_t *passes, char *err, size_t errlen);

/* NULL is fine. */
void mmb_cupti_host_free(CUpti_Profiler_Host_Object *host);

#endif
