/* nvml.c - NVML through dlopen, loaded once per process; every call checked and
 * said with the call's name and NVML's own text. */
#include "cuda/nvml.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* nvmlValue_t */
union nvml_value {
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
};

/* nvmlSample_t: a CPU time stamp (us) and a value. */
struct nvml_sample {
    unsigned long long time_us;
    union nvml_value value;
};

/* nvmlViolationTime_t */
struct nvml_violation {
    unsigned long long reference_us;
    unsigned long long violation_ns;
};

/* nvmlFieldValue_t */
struct nvml_field_value {
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, nvml_return;
    union nvml_value value;
};

enum {
    NVML_CLOCK_SM = 1,
    NVML_CLOCK_MEM = 2,
    NVML_PROCESSOR_CLK_SAMPLES = 5,
    NVML_VALUE_TYPE_UNSIGNED_INT = 1,
    NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
    NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
    NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
    NVML_FI_DEV_PERF_POLICY_POWER = 74, /* _THERMAL 75 ... _RELIABILITY 79: 74 + the policy */
    NVML_SAMPLES_MAX = 4096, /* more than the driver's buffer holds */
};

/* The functions, by their NVML names; a missing one stays NULL. */
struct nvml_api {
    const char *(*error_string)(int);
    int (*by_uuid)(const char *, void **);
    int (*clock_info)(void *, int, unsigned *);
    int (*max_clock_info)(void *, int, unsigned *);
    int (*supported_mem_clocks)(void *, unsigned *, unsigned *);
    int (*supported_gr_clocks)(void *, unsigned, unsigned *, unsigned *);
    int (*samples)(void *, int, unsigned long long, int *, unsigned *, struct nvml_sample *);
    int (*event_reasons)(void *, unsigned long long *);
    int (*violation)(void *, int, struct nvml_violation *);
    int (*field_values)(void *, int, struct nvml_field_value *);
    int (*energy)(void *, unsigned long long *);
    int (*lock_clocks)(void *, unsigned, unsigned);
    int (*unlock_clocks)(void *);
    int (*power_limit)(void *, unsigned *);
    int (*power_limit_default)(void *, unsigned *);
    int (*power_limit_range)(void *, unsigned *, unsigned *);
    int (*set_power_limit)(void *, unsigned);
    int (*driver_release)(char *, unsigned);
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *lib; /* kept open: the functions live in it */
static struct nvml_api api;
static char load_error[512]; /* why NVML is not there, "" when it is */

/* POSIX's way to take a function from dlsym without an object-to-function cast. */
#define NVML_SYM(field, name) (*(void **)&api.field = dlsym(lib, name))

static void load(void)
{
    const char *path = getenv("MMB_NVML_LIBRARY");
    if (!path || !*path)
        path = "libnvidia-ml.so.1";
    if (!(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        snprintf(load_error, sizeof load_error, "NVML cannot be loaded: %s", e ? e : path);
        return;
    }
    int (*init)(void) = NULL;
    *(void **)&init = dlsym(lib, "nvmlInit_v2");
    int rc = init ? init() : MMB_NVML_MISSING;
    if (rc != 0) {
        snprintf(load_error, sizeof load_error, "NVML (%s): nvmlInit_v2 %s (%d)", path,
                 init ? "failed" : "is missing", rc);
        return;
    }
    NVML_SYM(error_string, "nvmlErrorString");
    NVML_SYM(by_uuid, "nvmlDeviceGetHandleByUUID");
    NVML_SYM(clock_info, "nvmlDeviceGetClockInfo");
    NVML_SYM(max_clock_info, "nvmlDeviceGetMaxClockInfo");
    NVML_SYM(supported_mem_clocks, "nvmlDeviceGetSupportedMemoryClocks");
    NVML_SYM(supported_gr_clocks, "nvmlDeviceGetSupportedGraphicsClocks");
    NVML_SYM(samples, "nvmlDeviceGetSamples");
    if (!NVML_SYM(event_reasons, "nvmlDeviceGetCurrentClocksEventReasons"))
        NVML_SYM(event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons"); /* drivers before 535 */
    NVML_SYM(violation, "nvmlDeviceGetViolationStatus");
    NVML_SYM(field_values, "nvmlDeviceGetFieldValues");
    NVML_SYM(energy, "nvmlDeviceGetTotalEnergyConsumption");
    NVML_SYM(lock_clocks, "nvmlDeviceSetGpuLockedClocks");
    NVML_SYM(unlock_clocks, "nvmlDeviceResetGpuLockedClocks");
    NVML_SYM(power_limit, "nvmlDeviceGetPowerManagementLimit");
    NVML_SYM(power_limit_default, "nvmlDeviceGetPowerManagementDefaultLimit");
    NVML_SYM(power_limit_range, "nvmlDeviceGetPowerManagementLimitConstraints");
    NVML_SYM(set_power_limit, "nvmlDeviceSetPowerManagementLimit");
    NVML_SYM(driver_release, "nvmlSystemGetDriverVersion");
}

static bool loaded(char *why, size_t whylen)
{
    if (pthread_once(&load_once, load) != 0) {
        mmb_errorf(why, whylen, "NVML: pthread_once failed");
        return false;
    }
    if (load_error[0]) {
        mmb_errorf(why, whylen, "%s", load_error);
        return false;
    }
    return true;
}

/* rc of the call name, said in why when it is not success. */
static int said(int rc, const char *name, char *why, size_t whylen)
{
    if (rc != 0) {
        const char *text = api.error_string ? api.error_string(rc) : NULL;
        mmb_errorf(why, whylen, "%s: %s (NVML error %d)", name, text ? text : "unknown error", rc);
    }
    return rc;
}

/* Whether the function at *slot is there once NVML is loaded; why says so when not. */
static bool present(void *const *slot, const char *name, char *why, size_t whylen)
{
    if (!loaded(why, whylen))
        return false;
    if (!*slot)
        mmb_errorf(why, whylen, "%s is missing from this NVML (driver too old?)", name);
    return *slot != NULL;
}

#define NVML_CALL(field, name, ...)                                                                        \
    (present((void *const *)&api.field, name, why, whylen) ? said(api.field(__VA_ARGS__), name, why, whylen) \
                                                       : MMB_NVML_MISSING)

void mmb_nvml_driver_release(char *out, size_t len)
{
    char text[96] = "", why[256];
    size_t whylen = sizeof why;
    if (len)
        out[0] = '\0';
    if (NVML_CALL(driver_release, "nvmlSystemGetDriverVersion", text, sizeof text) == 0)
        snprintf(out, len, "%s", text);
}

int mmb_nvml_device_open(const char *gpu_uuid, struct mmb_nvml_device *dev, char *why, size_t whylen)
{
    memset(dev, 0, sizeof *dev);
    if (!gpu_uuid || !*gpu_uuid) {
        mmb_errorf(why, whylen, "NVML: no GPU UUID to look up");
        return MMB_NVML_NOT_FOUND;
    }
    snprintf(dev->uuid, sizeof dev->uuid, "%s", gpu_uuid);
    int rc = NVML_CALL(by_uuid, "nvmlDeviceGetHandleByUUID", gpu_uuid, &dev->handle);
    if (rc == 0 && !dev->handle) {
        mmb_errorf(why, whylen, "nvmlDeviceGetHandleByUUID(%s) gave no device", gpu_uuid);
        return MMB_NVML_NOT_FOUND;
    }
    return rc;
}

double mmb_nvml_sm_clock_mhz(const char *gpu_uuid)
{
    struct mmb_nvml_device dev;
    char why[256];
    unsigned mhz = 0;
    if (mmb_nvml_device_open(gpu_uuid, &dev, why, sizeof why) != 0 ||
        mmb_nvml_sm_clock(&dev, &mhz, why, sizeof why) != 0)
        return NAN;
    return (double)mhz;
}

int mmb_nvml_sm_clock(const struct mmb_nvml_device *dev, unsigned *mhz, char *why, size_t whylen)
{
    return NVML_CALL(clock_info, "nvmlDeviceGetClockInfo", dev->handle, NVML_CLOCK_SM, mhz);
}

int mmb_nvml_sm_clock_max(const struct mmb_nvml_device *dev, unsigned *mhz, char *why, size_t whylen)
{
    return NVML_CALL(max_clock_info, "nvmlDeviceGetMaxClockInfo", dev->handle, NVML_CLOCK_SM, mhz);
}

static int desc(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

int mmb_nvml_sm_clocks_supported(const struct mmb_nvml_device *dev, unsigned *mhz, unsigned cap, unsigned *n,
                                 char *why, size_t whylen)
{
    unsigned mem[64], nmem = 64;
    *n = 0;
    int rc = NVML_CALL(supported_mem_clocks, "nvmlDeviceGetSupportedMemoryClocks", dev->handle, &nmem, mem);
    if (rc != 0)
        return rc;
    if (nmem == 0 || nmem > 64) {
        mmb_errorf(why, whylen, "nvmlDeviceGetSupportedMemoryClocks: %u memory clocks; expected 1 to 64", nmem);
        return MMB_NVML_NOT_SUPPORTED;
    }
    qsort(mem, nmem, sizeof *mem, desc);
    unsigned count = cap;
    rc = NVML_CALL(supported_gr_clocks, "nvmlDeviceGetSupportedGraphicsClocks", dev->handle, mem[0], &count, mhz);
    if (rc != 0)
        return rc;
    if (count > cap) {
        mmb_errorf(why, whylen, "nvmlDeviceGetSupportedGraphicsClocks: %u clocks for room for %u", count, cap);
        return MMB_NVML_NOT_SUPPORTED;
    }
    qsort(mhz, count, sizeof *mhz, desc);
    *n = count;
    return 0;
}

int mmb_nvml_clock_samples(const struct mmb_nvml_device *dev, unsigned long long since_us,
                           unsigned long long until_us, unsigned *count, unsigned *min_mhz, unsigned *max_mhz,
                           char *why, size_t whylen)
{
    *count = 0;
    struct nvml_sample *s = calloc(NVML_SAMPLES_MAX, sizeof *s);
    if (!s) {
        mmb_errorf(why, whylen, "nvmlDeviceGetSamples: out of host memory");
        return MMB_NVML_MISSING;
    }
    int type = NVML_VALUE_TYPE_UNSIGNED_INT;
    unsigned n = NVML_SAMPLES_MAX;
    int rc = NVML_CALL(samples, "nvmlDeviceGetSamples", dev->handle, NVML_PROCESSOR_CLK_SAMPLES, since_us, &type, &n,
                       s);
    if (rc == MMB_NVML_NOT_FOUND) { /* NVML's way of saying no sample since since_us */
        free(s);
        return 0;
    }
    if (rc == 0 && type != NVML_VALUE_TYPE_UNSIGNED_INT) {
        mmb_errorf(why, whylen, "nvmlDeviceGetSamples: clock samples of value type %d; expected unsigned int", type);
        rc = MMB_NVML_NOT_SUPPORTED;
    }
    for (unsigned i = 0; rc == 0 && i < n && i < NVML_SAMPLES_MAX; i++) {
        if (s[i].time_us <= since_us || s[i].time_us > until_us || s[i].value.ui == 0)
            continue;
        unsigned v = s[i].value.ui;
        *min_mhz = *count == 0 || v < *min_mhz ? v : *min_mhz;
        *max_mhz = *count == 0 || v > *max_mhz ? v : *max_mhz;
        (*count)++;
    }
    free(s);
    return rc;
}

int mmb_nvml_clock_event_reasons(const struct mmb_nvml_device *dev, unsigned long long *reasons, char *why,
                                 size_t whylen)
{
    return NVML_CALL(event_reasons, "nvmlDeviceGetCurrentClocksEventReasons", dev->handle, reasons);
}

int mmb_nvml_violation_ns(const struct mmb_nvml_device *dev, int policy, unsigned long long *ns, char *why,
                          size_t whylen)
{
    struct nvml_violation v = {0, 0};
    int rc = NVML_CALL(violation, "nvmlDeviceGetViolationStatus", dev->handle, policy, &v);
    *ns = v.violation_ns;
    return rc;
}

/* A field value as a count, false for a type a counter does not come in. */
static bool field_count(const struct nvml_field_value *f, unsigned long long *out)
{
    switch (f->value_type) {
    case NVML_VALUE_TYPE_UNSIGNED_INT: *out = f->value.ui; return true;
    case NVML_VALUE_TYPE_UNSIGNED_LONG: *out = f->value.ul; return true;
    case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG: *out = f->value.ull; return true;
    case NVML_VALUE_TYPE_SIGNED_LONG_LONG: *out = f->value.sll < 0 ? 0 : (unsigned long long)f->value.sll; return true;
    default: return false;
    }
}

int mmb_nvml_violations_ns(const struct mmb_nvml_device *dev, const int *policies, int n, unsigned long long *ns,
                           bool *have, char *why, size_t whylen)
{
    struct nvml_field_value f[MMB_NVML_POLICIES_MAX];
    int rc = MMB_NVML_MISSING;
    if (n < 1 || n > MMB_NVML_POLICIES_MAX) {
        mmb_errorf(why, whylen, "mmb_nvml_violations_ns: %d policies (1 to %d)", n, MMB_NVML_POLICIES_MAX);
        return MMB_NVML_INVALID_ARGUMENT;
    }
    if (loaded(why, whylen) && api.field_values) {
        memset(f, 0, sizeof f);
        for (int i = 0; i < n; i++)
            f[i].field_id = (unsigned)(NVML_FI_DEV_PERF_POLICY_POWER + policies[i]);
        rc = said(api.field_values(dev->handle, n, f), "nvmlDeviceGetFieldValues", why, whylen);
    }
    if (rc != 0) { /* no field values here: one call per policy */
        int first = 0;
        for (int i = 0; i < n; i++) {
            char one[256];
            int r = mmb_nvml_violation_ns(dev, policies[i], &ns[i], one, sizeof one);
            have[i] = r == 0;
            if (r != 0 && first == 0) {
                first = r;
                mmb_errorf(why, whylen, "%s", one);
            }
        }
        return first;
    }
    int first = 0;
    for (int i = 0; i < n; i++) {
        have[i] = f[i].nvml_return == 0 && field_count(&f[i], &ns[i]);
        if (!have[i] && first == 0) {
            first = f[i].nvml_return ? f[i].nvml_return : MMB_NVML_NOT_SUPPORTED;
            char name[64];
            snprintf(name, sizeof name, "nvmlDeviceGetFieldValues(field %u)", f[i].field_id);
            if (f[i].nvml_return)
                said(f[i].nvml_return, name, why, whylen);
            else
                mmb_errorf(why, whylen, "%s: value type %d is no counter", name, f[i].value_type);
        }
    }
    return first;
}

int mmb_nvml_energy_mj(const struct mmb_nvml_device *dev, unsigned long long *mj, char *why, size_t whylen)
{
    return NVML_CALL(energy, "nvmlDeviceGetTotalEnergyConsumption", dev->handle, mj);
}

int mmb_nvml_lock_clocks(const struct mmb_nvml_device *dev, unsigned min_mhz, unsigned max_mhz, char *why,
                         size_t whylen)
{
    return NVML_CALL(lock_clocks, "nvmlDeviceSetGpuLockedClocks", dev->handle, min_mhz, max_mhz);
}

int mmb_nvml_unlock_clocks(const struct mmb_nvml_device *dev, char *why, size_t whylen)
{
    return NVML_CALL(unlock_clocks, "nvmlDeviceResetGpuLockedClocks", dev->handle);
}

int mmb_nvml_power_limit(const struct mmb_nvml_device *dev, unsigned *mw, char *why, size_t whylen)
{
    return NVML_CALL(power_limit, "nvmlDeviceGetPowerManagementLimit", dev->handle, mw);
}

int mmb_nvml_power_limit_default(const struct mmb_nvml_device *dev, unsigned *mw, char *why, size_t whylen)
{
    return NVML_CALL(power_limit_default, "nvmlDeviceGetPowerManagementDefaultLimit", dev->handle, mw);
}

int mmb_nvml_power_limit_range(const struct mmb_nvml_device *dev, unsigned *min_mw, unsigned *max_mw, char *why,
                               size_t whylen)
{
    return NVML_CALL(power_limit_range, "nvmlDeviceGetPowerManagementLimitConstraints", dev->handle, min_mw, max_mw);
}

int mmb_nvml_set_power_limit(const struct mmb_nvml_device *dev, unsigned mw, char *why, size_t whylen)
{
    return NVML_CALL(set_power_limit, "nvmlDeviceSetPowerManagementLimit", dev->handle, mw);
}
