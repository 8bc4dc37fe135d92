/* nvml.h - the NVIDIA management library, loaded at run time (no link to the driver,
 * so mmbench starts where NVML is missing): the driver's release, clocks, clock samples, clock event
 * reasons and violation counters, power and the energy counter, and the settings
 * mmbench may change on request (locked clocks, the power limit). MMB_NVML_LIBRARY
 * names another library to load instead of libnvidia-ml.so.1 (the tests load a
 * stand-in that records its calls). Every call is checked: each function returns 0,
 * or an NVML return code (or MMB_NVML_MISSING) with why naming the call and NVML's
 * text; nothing here prints or exits. Loaded once per process; thread-safe. */
#ifndef MMB_NVML_H
#define MMB_NVML_H

#include <stdbool.h>
#include <stddef.h>

/* NVML's return codes this code tells apart (nvmlReturn_t). */
enum {
    MMB_NVML_SUCCESS = 0,
    MMB_NVML_INVALID_ARGUMENT = 2,
    MMB_NVML_NOT_SUPPORTED = 3,
    MMB_NVML_NO_PERMISSION = 4,
    MMB_NVML_NOT_FOUND = 6,
    MMB_NVML_MISSING = -1, /* the library, its initialisation or the function is missing */
};

/* The SM clock of the GPU with this UUID ("GPU-..."), in MHz; NaN when NVML or the
 * device is not available, which is no error (the column stays empty). */
double mmb_nvml_sm_clock_mhz(const char *gpu_uuid);

/* The driver's release ("575.57.08") into out; "" when NVML or the driver is missing,
 * which is no error. */
void mmb_nvml_driver_release(char *out, size_t len);

/* A GPU as NVML knows it. */
struct mmb_nvml_device {
    void *handle;
    char uuid[48];
};

/* Loads NVML (once) and finds the GPU with this UUID. */
int mmb_nvml_device_open(const char *gpu_uuid, struct mmb_nvml_device *dev, char *why, size_t whylen);

/* The SM clock now, and its highest (boost) clock, in MHz. */
int mmb_nvml_sm_clock(const struct mmb_nvml_device *dev, unsigned *mhz, char *why, size_t whylen);
int mmb_nvml_sm_clock_max(const struct mmb_nvml_device *dev, unsigned *mhz, char *why, size_t whylen);
/* The SM clocks the GPU can be locked to at its highest memory clock, highest first:
 * up to cap of them into mhz, their number in *n. */
int mmb_nvml_sm_clocks_supported(const struct mmb_nvml_device *dev, unsigned *mhz, unsigned cap, unsigned *n,
                                 char *why, size_t whylen);

/* The driver's SM clock samples (processor clock, MHz) taken after since_us (CPU time
 * in microseconds since 1970, as CLOCK_REALTIME) and at or before until_us: their
 * count, lowest and highest. No sample in the window is success with *count 0. */
int mmb_nvml_clock_samples(const struct mmb_nvml_device *dev, unsigned long long since_us,
                           unsigned long long until_us, unsigned *count, unsigned *min_mhz, unsigned *max_mhz,
                           char *why, size_t whylen);

/* nvmlDeviceGetCurrentClocksEventReasons (or its older name, ...ThrottleReasons): the
 * reasons the clocks are held back now, as NVML's bits (core/throttle.h names them). */
int mmb_nvml_clock_event_reasons(const struct mmb_nvml_device *dev, unsigned long long *reasons, char *why,
                                 size_t whylen);
/* The time, in ns, that the perf policy (NVML_PERF_POLICY_*) has held the clock below
 * the applications clock since the driver loaded. */
int mmb_nvml_violation_ns(const struct mmb_nvml_device *dev, int policy, unsigned long long *ns, char *why,
                          size_t whylen);
/* The same for n policies (at most MMB_NVML_POLICIES_MAX) in one call, through
 * nvmlDeviceGetFieldValues (NVML_FI_DEV_PERF_POLICY_*): on an H100 one read of five
 * policies costs 0.4-0.6 ms, five nvmlDeviceGetViolationStatus calls 2-3.4 ms
 * (scripts/gpu/nvml-latency.cu, data/h100-80gb-hbm3/bench/nvml-latency.txt). Where
 * field values are missing or refused, one call per policy. have[i] says whether
 * ns[i] was read; returns 0 when all were, else the first failure's code (why says it). */
#define MMB_NVML_POLICIES_MAX 6
int mmb_nvml_violations_ns(const struct mmb_nvml_device *dev, const int *policies, int n, unsigned long long *ns,
                           bool *have, char *why, size_t whylen);

/* The board's energy since the driver loaded, in mJ (Volta and later). */
int mmb_nvml_energy_mj(const struct mmb_nvml_device *dev, unsigned long long *mj, char *why, size_t whylen);

/* Locks the SM clock between min and max MHz (or NVML's special values, below);
 * needs root. */
#define MMB_NVML_CLOCK_TDP 0xffffff01u /* NVML_CLOCK_LIMIT_ID_TDP: the base (TDP) clock */
int mmb_nvml_lock_clocks(const struct mmb_nvml_device *dev, unsigned min_mhz, unsigned max_mhz, char *why,
                         size_t whylen);
int mmb_nvml_unlock_clocks(const struct mmb_nvml_device *dev, char *why, size_t whylen);

/* The power limit now, its default and its allowed range, in mW; setting it needs root. */
int mmb_nvml_power_limit(const struct mmb_nvml_device *dev, unsigned *mw, char *why, size_t whylen);
int mmb_nvml_power_limit_default(const struct mmb_nvml_device *dev, unsigned *mw, char *why, size_t whylen);
int mmb_nvml_power_limit_range(const struct mmb_nvml_device *dev, unsigned *min_mw, unsigned *max_mw, char *why,
                               size_t whylen);
int mmb_nvml_set_power_limit(const struct mmb_nvml_device *dev, unsigned mw, char *why, size_t whylen);

#endif
