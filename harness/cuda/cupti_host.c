/* cupti_host.c - the host side of the counters, through CUPTI's host API (no GPU, no
 * driver): CUPTI's error codes in our words, the metric list, the chips CUPTI knows,
 * config images and their passes, and the offline check of a metric set's names and
 * units for a chip. */
#include "cuda/cupti_host.h"

#include <cupti_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/cupti_impl.h"

int mmb_cupti_host_version(unsigned *built, unsigned *found, char *err, size_t errlen)
{
    uint32_t v = 0;
    *built = CUPTI_API_VERSION;
    *found = 0;
    MMB_CHECK_CUPTI(cuptiGetVersion(&v), return -1);
    *found = v;
    return 0;
}

/* CUPTI_ERROR_* names only; the meaning and the fix are ours. */
void mmb_cupti_error(char *err, size_t errlen, const char *file, int line, const char *call, CUptiResult r)
{
    const char *name = NULL;
    if (cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name)
        name = "CUPTI_ERROR_?";
    const char *why;
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        why = "reading GPU counters needs admin rights: load the driver with "
              "NVreg_RestrictProfilingToAdminUsers=0 (RmProfilingAdminOnly: 0) or run as root" NO_COUNTERS;
        break;
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        why = "another profiler holds the counters (ncu, nsys, DCGM profiling): stop it" NO_COUNTERS;
        break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
        why = "this device or its configuration does not allow counter profiling" NO_COUNTERS;
        break;
    case CUPTI_ERROR_INVALID_CHIP_NAME:
        why = "this CUPTI does not know the GPU: use a newer CUDA toolkit" NO_COUNTERS;
        break;
    default:
        why = "unexpected CUPTI failure" NO_COUNTERS;
        break;
    }
    mmb_error_set(err, errlen, file, line, call, name, why);
}

void mmb_cupti_list_build(const struct mmb_metric_set *set, struct mmb_cupti_list *list)
{
    list->metrics[0] = &mmb_metrics[MMB_METRIC_DURATION];
    list->count = 1;
    for (size_t i = 0; i < set->count && list->count <= MMB_METRIC_MAX; i++) {
        if (set->index[i] == MMB_METRIC_DURATION)
            continue;
        list->metrics[list->count++] = &mmb_metrics[set->index[i]];
    }
    for (size_t i = 0; i < list->count; i++)
        list->names[i] = list->metrics[i]->cupti;
}

int mmb_cupti_chip_check(const char *chip, char *err, size_t errlen)
{
    CUpti_Profiler_Host_GetSupportedChips_Params sc = {
        .structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
    MMB_CHECK_CUPTI(cuptiProfilerHostGetSupportedChips(&sc), return -1);
    char known[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < sc.numChips; i++) {
        if (strcmp(sc.ppChipNames[i], chip) == 0)
            return 0;
        int n = snprintf(known + used, sizeof known - used, "%s%s", i ? " " : "", sc.ppChipNames[i]);
        if (n > 0 && (size_t)n < sizeof known - used)
            used += (size_t)n;
    }
    mmb_errorf(err, errlen, "chip '%s' is unknown to this CUPTI (use a newer CUDA toolkit" NO_COUNTERS
               "); it knows: %s", chip, known);
    return -1;
}

void mmb_cupti_host_free(CUpti_Profiler_Host_Object *host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params hd = {
        .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, .pHostObject = host};
    cuptiProfilerHostDeinitialize(&hd); /* nothing to do on failure at teardown */
}

static CUpti_Profiler_Host_Object *host_new(const char *chip, const uint8_t *avail, char *err, size_t errlen)
{
    CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    hi.pCounterAvailabilityImage = avail; /* NULL offline: every counter of the chip */
    MMB_CHECK_CUPTI(cuptiProfilerHostInitialize(&hi), return NULL);
    return hi.pHostObject;
}

/* Names the first metric the chip rejects, each tried alone on a fresh host object
 * (adding them one by one to one object would change the pass schedule). */
static void name_rejected_metric(const char *chip, const uint8_t *avail, const struct mmb_cupti_list *list,
                                 CUptiResult first, char *err, size_t errlen)
{
    const char *code = NULL;
    cuptiGetResultString(first, &code);
    for (size_t i = 0; i < list->count; i++) {
        char ignored[256];
        CUpti_Profiler_Host_Object *h = host_new(chip, avail, ignored, sizeof ignored);
        if (!h)
            break;
        CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
            .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        am.pHostObject = h;
        am.ppMetricNames = (const char **)&list->names[i];
        am.numMetrics = 1;
        CUptiResult r = cuptiProfilerHostConfigAddMetrics(&am);
        mmb_cupti_host_free(h);
        if (r != CUPTI_SUCCESS) {
            mmb_errorf(err, errlen, "metric '%s' is not available on chip %s (%s%s)%s", list->names[i], chip,
                       code ? code : "?", avail ? "; counter availability of this device" : "", NO_COUNTERS);
            return;
        }
    }
    mmb_errorf(err, errlen, "chip %s rejects the metric list as a whole (%s)" NO_COUNTERS, chip,
               code ? code : "?");
}

/* Host side: the config image for list on chip, and the passes it needs. All metrics
 * go in one call: CUPTI schedules them together (9 passes for `default` on GH100,
 * where adding them one call each makes 21). */
int mmb_cupti_host_config(const char *chip, const uint8_t *avail, const struct mmb_cupti_list *list,
                          CUpti_Profiler_Host_Object **host_out, uint8_t **config_out, size_t *config_size,
                          size_t *passes, char *err, size_t errlen)
{
    uint8_t *config = NULL;
    CUpti_Profiler_Host_Object *host = host_new(chip, avail, err, errlen);
    if (!host)
        return -1;
    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    am.pHostObject = host;
    am.ppMetricNames = (const char **)list->names;
    am.numMetrics = list->count;
    CUptiResult r = cuptiProfilerHostConfigAddMetrics(&am);
    if (r != CUPTI_SUCCESS) {
        name_rejected_metric(chip, avail, list, r, err, errlen);
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cs.pHostObject = host;
    MMB_CHECK_CUPTI(cuptiProfilerHostGetConfigImageSize(&cs), goto fail);
    config = malloc(cs.configImageSize);
    if (!config) {
        mmb_errorf(err, errlen, "out of host memory (CUPTI config image, %zu bytes)", cs.configImageSize);
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImage_Params gc = {
        .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    gc.pHostObject = host;
    gc.configImageSize = cs.configImageSize;
    gc.pConfigImage = config;
    MMB_CHECK_CUPTI(cuptiProfilerHostGetConfigImage(&gc), goto fail);
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = cs.configImageSize;
    np.pConfigImage = config;
    MMB_CHECK_CUPTI(cuptiProfilerHostGetNumOfPasses(&np), goto fail);
    *passes = np.numOfPasses;
    *config_size = cs.configImageSize;
    if (config_out)
        *config_out = config;
    else
        free(config);
    if (host_out)
        *host_out = host;
    else
        mmb_cupti_host_free(host);
    return 0;
fail:
    free(config);
    mmb_cupti_host_free(host);
    return -1;
}

/* The table's cupti_unit must be the dimension CUPTI gives, or its scale is wrong. */
static int units_check(const char *chip, const struct mmb_cupti_list *list, char *err, size_t errlen)
{
    CUpti_Profiler_Host_Object *host = host_new(chip, NULL, err, errlen);
    if (!host)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < list->count && rc == 0; i++) {
        CUpti_Profiler_Host_GetMetricProperties_Params mp = {
            .structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
        mp.pHostObject = host;
        mp.pMetricName = list->names[i];
        MMB_CHECK_CUPTI(cuptiProfilerHostGetMetricProperties(&mp), rc = -1; break);
        if (!mp.pDimUnit || strcmp(mp.pDimUnit, list->metrics[i]->cupti_unit) != 0) {
            mmb_errorf(err, errlen, "metric %s: CUPTI gives it in '%s', the metric table says '%s'",
                       list->names[i], mp.pDimUnit ? mp.pDimUnit : "?", list->metrics[i]->cupti_unit);
            rc = -1;
        }
    }
    mmb_cupti_host_free(host);
    return rc;
}

int mmb_cupti_validate_offline(const char *chip, const struct mmb_metric_set *set, size_t *passes,
                               char *err, size_t errlen)
{
    struct mmb_cupti_list list;
    mmb_cupti_list_build(set, &list);
    size_t n = 0, config_size = 0;
    if (mmb_cupti_chip_check(chip, err, errlen) != 0)
        return -1;
    if (mmb_cupti_host_config(chip, NULL, &list, NULL, NULL, &config_size, &n, err, errlen) != 0)
        return -1;
    if (units_check(chip, &list, err, errlen) != 0)
        return -1;
    if (passes)
        *passes = n;
    return 0;
}
