/* nvml.h - the NVIDIA management library, loaded at run time (no link to the driver,
 * so mmbench starts where NVML is missing): the SM clock a GPU runs at now, and the
 * driver's release. */
#ifndef MMB_NVML_H
#define MMB_NVML_H

#include <stddef.h>

/* The SM clock of the GPU with this UUID ("GPU-..."), in MHz; NaN when NVML or the
 * device is not available, which is no error (the column stays empty). Thread-safe. */
double mmb_nvml_sm_clock_mhz(const char *gpu_uuid);

/* The driver's release ("575.57.08") into out; "" when NVML or the driver is missing,
 * which is no error. Thread-safe. */
void mmb_nvml_driver_release(char *out, size_t len);

#endif
