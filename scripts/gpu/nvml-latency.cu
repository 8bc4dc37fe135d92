// nvml-latency.cu - what each NVML query of the clock watch (harness/cuda/clock_watch.c)
// costs the host, with the GPU idle and with it busy: the numbers behind where the
// watch reads. Built and run on the GPU machine:
//   nvcc -O2 -o /tmp/nvml-latency scripts/gpu/nvml-latency.cu -ldl && /tmp/nvml-latency
// Prints one line per query and state: median and 90th percentile in microseconds over
// 200 calls. NVML comes through dlopen, as mmbench loads it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <functional>
#include <vector>

struct Sample { unsigned long long t; unsigned long long v; };
struct Violation { unsigned long long ref_us, ns; };
struct FieldValue { // nvmlFieldValue_t
    unsigned fieldId, scopeId;
    long long timestamp, latencyUsec;
    int valueType, nvmlReturn;
    unsigned long long value;
};

static void *lib;
template <class F> static F sym(const char *name)
{
    void *p = dlsym(lib, name);
    if (!p) { fprintf(stderr, "nvml-latency: %s missing\n", name); exit(1); }
    F f; memcpy(&f, &p, sizeof f); return f;
}

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

static void measure(const char *name, const char *state, const std::function<int()> &call)
{
    std::vector<double> us;
    int bad = 0;
    for (int i = 0; i < 200; i++) {
        auto t0 = std::chrono::steady_clock::now();
        bad += call() != 0;
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(us.begin(), us.end());
    printf("%-34s %-5s median %8.1f us  p90 %8.1f us  failed %d\n", name, state, us[100], us[180], bad);
}

int main()
{
    if (!(lib = dlopen("libnvidia-ml.so.1", RTLD_NOW))) { fprintf(stderr, "nvml-latency: %s\n", dlerror()); return 1; }
    if (sym<int (*)()>("nvmlInit_v2")()) { fprintf(stderr, "nvml-latency: nvmlInit failed\n"); return 1; }
    void *dev = nullptr;
    if (sym<int (*)(unsigned, void **)>("nvmlDeviceGetHandleByIndex_v2")(0, &dev)) return 1;
    auto clock = sym<int (*)(void *, int, unsigned *)>("nvmlDeviceGetClockInfo");
    auto reasons = sym<int (*)(void *, unsigned long long *)>("nvmlDeviceGetCurrentClocksEventReasons");
    auto violation = sym<int (*)(void *, int, Violation *)>("nvmlDeviceGetViolationStatus");
    auto samples = sym<int (*)(void *, int, unsigned long long, int *, unsigned *, Sample *)>("nvmlDeviceGetSamples");
    auto energy = sym<int (*)(void *, unsigned long long *)>("nvmlDeviceGetTotalEnergyConsumption");
    auto fields = sym<int (*)(void *, int, FieldValue *)>("nvmlDeviceGetFieldValues");
    static Sample buf[4096];
    const int policies[5] = {0, 1, 2, 3, 5};
    // NVML_FI_DEV_PERF_POLICY_POWER .. _RELIABILITY: 74 power, 75 thermal, 76 sync
    // boost, 77 board limit, 78 low utilisation, 79 reliability
    const unsigned field_ids[5] = {74, 75, 76, 77, 79};
    for (int busy = 0; busy < 2; busy++) {
        const char *state = busy ? "busy" : "idle";
        if (busy) { spin<<<132, 128>>>(2000ll * 1000 * 1000 * 30); } // ~30 s at 2 GHz, ended below
        measure("nvmlDeviceGetClockInfo(SM)", state, [&] { unsigned m; return clock(dev, 1, &m); });
        measure("nvmlDeviceGetCurrentClocksEventReasons", state, [&] { unsigned long long r; return reasons(dev, &r); });
        measure("nvmlDeviceGetViolationStatus x1", state, [&] { Violation v; return violation(dev, 0, &v); });
        measure("nvmlDeviceGetViolationStatus x5", state, [&] {
            int rc = 0; Violation v;
            for (int p : policies) rc |= violation(dev, p, &v) && p == 0;
            return rc;
        });
        measure("nvmlDeviceGetFieldValues(5 policies)", state, [&] {
            FieldValue fv[5] = {};
            for (int i = 0; i < 5; i++) fv[i].fieldId = field_ids[i];
            int rc = fields(dev, 5, fv);
            return rc ? rc : fv[0].nvmlReturn;
        });
        measure("nvmlDeviceGetSamples(SM clock, 20 ms)", state, [&] {
            unsigned n = 4096; int type;
            unsigned long long since = (unsigned long long)std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch()).count() - 20000;
            int rc = samples(dev, 5, since, &type, &n, buf);
            return rc == 6 /* NOT_FOUND: no samples */ ? 0 : rc;
        });
        measure("nvmlDeviceGetTotalEnergyConsumption", state, [&] { unsigned long long mj; return energy(dev, &mj); });
        if (busy) {
            FieldValue fv[5] = {};
            for (int i = 0; i < 5; i++) fv[i].fieldId = field_ids[i];
            fields(dev, 5, fv);
            for (int i = 0; i < 5; i++) printf("field %u: return %d value %llu\n", fv[i].fieldId, fv[i].nvmlReturn, fv[i].value);
            for (int p : policies) { Violation v{}; int rc = violation(dev, p, &v); printf("policy %d: return %d ns %llu\n", p, rc, v.ns); }
        }
    }
    // the spinning kernel is ended by exit (the context is torn down)
    return 0;
}
