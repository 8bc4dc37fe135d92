/* nvml.c - NVML through dlopen, loaded once per process. */
#include "cuda/nvml.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_uuid_fn)(const char *, void **);
typedef int (*nvml_clock_fn)(void *, int, unsigned *);
typedef int (*nvml_release_fn)(char *, unsigned);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *lib; /* kept open: the functions below live in it */
static nvml_by_uuid_fn by_uuid;
static nvml_clock_fn clock_info;
static nvml_release_fn driver_release;

static void load(void)
{
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init = NULL;
    /* POSIX's way to take a function from dlsym without an object-to-function cast. */
    if (lib)
        *(void **)&init = dlsym(lib, "nvmlInit_v2");
    if (init && init() == 0) {
        *(void **)&by_uuid = dlsym(lib, "nvmlDeviceGetHandleByUUID");
        *(void **)&clock_info = dlsym(lib, "nvmlDeviceGetClockInfo");
        *(void **)&driver_release = dlsym(lib, "nvmlSystemGetDriverVersion");
    }
}

double mmb_nvml_sm_clock_mhz(const char *gpu_uuid)
{
    if (pthread_once(&load_once, load) != 0)
        return NAN;
    void *dev = NULL;
    unsigned mhz = 0;
    const int nvml_clock_sm = 1;
    if (!by_uuid || !clock_info || !gpu_uuid || by_uuid(gpu_uuid, &dev) != 0 ||
        clock_info(dev, nvml_clock_sm, &mhz) != 0)
        return NAN;
    return (double)mhz;
}

void mmb_nvml_driver_release(char *out, size_t len)
{
    char text[96] = "";
    if (len)
        out[0] = '\0';
    if (pthread_once(&load_once, load) != 0 || !driver_release || driver_release(text, sizeof text) != 0)
        return;
    snprintf(out, len, "%s", text);
}
