/* cupti.c - counters through the CUPTI Range Profiler of CUDA 13: the device side
 * (profiler init, device checks, the pass loop, range merging); the host side is in
 * cupti_host.c. One range per kernel (auto range), as ncu measures. Passes are
 * replayed by us (user replay), each Start, L2 flush, [hot: the launch], the launch,
 * Stop, so that every pass starts from the empty L2 `ncu --cache-control all` gives;
 * the flush's own kernels are left out of the ranges (measured_ranges). The profiler
 * is enabled per measurement and disabled after it. Why each of these, with the
 * measurements: docs/counters.md, "How one configuration is profiled".
 * MMB_CUPTI_REPLAY=kernel and MMB_CUPTI_SETUP=once select the alternatives, to compare.
 * libcuda is not linked: cuCtxGetCurrent comes through
 * cudaGetDriverEntryPointByVersion. */
#include "cuda/cupti.h"

#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/cupti_impl.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"

/* Kernels a launch whose count is not known may run (cuBLAS runs one or two); more
 * is an error, not a drop. */
#define MAX_LAUNCH_KERNELS 8
/* A pass loop that runs this much past the config image's passes is a CUPTI bug. */
#define EXTRA_PASSES 4
/* Passes whose times are kept one by one (mmb_profiler_pass_seconds). */
#define TIMED_PASSES 64

/* cuptiProfilerInitialize is process-wide; sessions on several devices share it. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_refs;

static enum mmb_status profiler_init(char *err, size_t errlen)
{
    enum mmb_status st = MMB_STATUS_OK;
    pthread_mutex_lock(&init_lock);
    if (init_refs == 0) {
        CUpti_Profiler_Initialize_Params pi = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        MMB_CHECK_CUPTI(cuptiProfilerInitialize(&pi), st = MMB_STATUS_PROFILING_DENIED);
    }
    if (st == MMB_STATUS_OK)
        init_refs++;
    pthread_mutex_unlock(&init_lock);
    return st;
}

static void profiler_deinit(void)
{
    pthread_mutex_lock(&init_lock);
    if (init_refs > 0 && --init_refs == 0) {
        CUpti_Profiler_DeInitialize_Params pd = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        cuptiProfilerDeInitialize(&pd); /* nothing to do on failure at teardown */
    }
    pthread_mutex_unlock(&init_lock);
}

struct mmb_profiler {
    int device;
    CUcontext ctx;
    char chip[32];
    struct mmb_cupti_list list;
    uint8_t *avail;
    CUpti_Profiler_Host_Object *host;
    uint8_t *config;
    size_t config_size;
    size_t passes;
    bool kernel_replay;
    bool initialized;
    bool enable_each;           /* enabled per measurement: unless MMB_CUPTI_SETUP=once */
    struct mmb_l2_flush *flush; /* the caller's */
    void *stream;               /* the launches', where the flush goes too */
    /* enabled on the context between measurements (see Set-up above): */
    CUpti_RangeProfiler_Object *rp;
    uint8_t *data;              /* the counter data image, initialised per measurement */
    size_t data_size;
    size_t data_ranges;         /* the ranges it holds */
    double step_s[MMB_PROFILER_STEP_COUNT]; /* seconds in each step, all measurements */
    double pass_s[TIMED_PASSES];            /* seconds of each pass number, all measurements */
};

static const char *const step_names[MMB_PROFILER_STEP_COUNT] = {"set-up", "start", "launches", "stop",
                                                                "wait", "evaluate"};

const char *mmb_profiler_step_text(enum mmb_profiler_step step)
{
    return (unsigned)step < MMB_PROFILER_STEP_COUNT ? step_names[step] : "?";
}

double mmb_profiler_step_seconds(const struct mmb_profiler *p, enum mmb_profiler_step step)
{
    return p && (unsigned)step < MMB_PROFILER_STEP_COUNT ? p->step_s[step] : 0.0;
}

double mmb_profiler_pass_seconds(const struct mmb_profiler *p, size_t pass)
{
    return p && pass < TIMED_PASSES ? p->pass_s[pass] : 0.0;
}

/* Adds the time since *since to step and moves *since to now. */
static void step_end(struct mmb_profiler *p, enum mmb_profiler_step step, double *since)
{
    double now = mmb_seconds_now();
    p->step_s[step] += now - *since;
    *since = now;
}

static void profiler_disable(struct mmb_profiler *p);

static const char *support_text(CUpti_Profiler_Support_Level level)
{
    return level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "disabled" : "unsupported";
}

/* Names the first reason the device cannot be profiled. */
static enum mmb_status device_check(int device, char *err, size_t errlen)
{
    CUpti_Profiler_DeviceSupported_Params ds = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    ds.cuDevice = device;
    ds.api = CUPTI_PROFILER_RANGE_PROFILING;
    MMB_CHECK_CUPTI(cuptiProfilerDeviceSupported(&ds), return MMB_STATUS_PROFILING_DENIED);
    if (ds.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return MMB_STATUS_OK;
    const struct {
        CUpti_Profiler_Support_Level level;
        const char *what;
    } causes[] = {
        {ds.architecture, "the architecture (compute capability 7.0 or newer is needed)"},
        {ds.sli, "SLI"},
        {ds.vGpu, "vGPU (the hypervisor must enable profiling for this VM)"},
        {ds.confidentialCompute, "confidential computing mode"},
        {ds.cmp, "a CMP (crypto-mining) device"},
        {ds.wsl, "WSL"},
    };
    for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++) {
        if (causes[i].level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
            mmb_errorf(err, errlen, "device %d: counter profiling is %s with %s" NO_COUNTERS, device,
                       support_text(causes[i].level), causes[i].what);
            return MMB_STATUS_PROFILING_DENIED;
        }
    }
    mmb_errorf(err, errlen, "device %d: CUPTI reports counter profiling unsupported" NO_COUNTERS, device);
    return MMB_STATUS_PROFILING_DENIED;
}

static enum mmb_status current_context(CUcontext *ctx, char *err, size_t errlen)
{
    cudaError_t e;
    void *sym = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    MMB_CHECK_CUDA(e = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &sym, 12000, cudaEnableDefault, &q),
                   return mmb_gpu_status_of(e));
    CUresult (*get_current)(CUcontext *) = NULL;
    if (q != cudaDriverEntryPointSuccess || !sym) {
        mmb_errorf(err, errlen, "the driver has no cuCtxGetCurrent (entry point query: %d)", (int)q);
        return MMB_STATUS_PROFILING_DENIED;
    }
    memcpy(&get_current, &sym, sizeof get_current); /* object to function pointer, as dlsym */
    CUresult r = get_current(ctx);
    if (r != CUDA_SUCCESS || !*ctx) {
        mmb_errorf(err, errlen, "cuCtxGetCurrent: no current CUDA context (CUresult %d)", (int)r);
        return MMB_STATUS_PROFILING_DENIED;
    }
    return MMB_STATUS_OK;
}

static enum mmb_status open_steps(struct mmb_profiler *p, const struct mmb_metric_set *set, char *err,
                                  size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    int ndev = 0;
    /* Before any CUPTI target call: without a driver cuptiDeviceGetChipName crashes. */
    e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        mmb_errorf(err, errlen, "no usable CUDA device (%s): counters need a GPU and its driver" NO_COUNTERS,
                   e != cudaSuccess ? cudaGetErrorString(e) : "the driver sees no GPU");
        return MMB_STATUS_PROFILING_DENIED;
    }
    if (p->device < 0 || p->device >= ndev) {
        mmb_errorf(err, errlen, "no CUDA device %d (there are %d)", p->device, ndev);
        return MMB_STATUS_PROFILING_DENIED;
    }
    MMB_CHECK_CUDA(e = cudaSetDevice(p->device), return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaFree(0), return mmb_gpu_status_of(e)); /* the primary context exists */
    if ((st = current_context(&p->ctx, err, errlen)) != MMB_STATUS_OK)
        return st;

    if ((st = profiler_init(err, errlen)) != MMB_STATUS_OK)
        return st;
    p->initialized = true;
    if ((st = device_check(p->device, err, errlen)) != MMB_STATUS_OK)
        return st;
    CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = (size_t)p->device;
    MMB_CHECK_CUPTI(cuptiDeviceGetChipName(&cn), return MMB_STATUS_PROFILING_DENIED);
    snprintf(p->chip, sizeof p->chip, "%s", cn.pChipName ? cn.pChipName : "");
    if (mmb_cupti_chip_check(p->chip, err, errlen) != 0)
        return MMB_STATUS_PROFILING_DENIED;

    /* Where missing privileges show first (Enable and SetConfig succeed without). */
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ca.ctx = p->ctx;
    MMB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&ca), return MMB_STATUS_PROFILING_DENIED);
    p->avail = malloc(ca.counterAvailabilityImageSize);
    if (!p->avail) {
        mmb_errorf(err, errlen, "out of host memory (counter availability image)");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    ca.pCounterAvailabilityImage = p->avail;
    MMB_CHECK_CUPTI(cuptiProfilerGetCounterAvailability(&ca), return MMB_STATUS_PROFILING_DENIED);

    mmb_cupti_list_build(set, &p->list);
    if (mmb_cupti_host_config(p->chip, p->avail, &p->list, &p->host, &p->config, &p->config_size, &p->passes, err,
                    errlen) != 0)
        return MMB_STATUS_PROFILING_DENIED;

    const char *setup, *replay;
    mmb_profiler_env_modes(&setup, &replay);
    p->kernel_replay = !strcmp(replay, "kernel");
    p->enable_each = !strcmp(setup, "each");
    if (!p->flush) {
        mmb_errorf(err, errlen, "no L2 flush for the profiling passes");
        return MMB_STATUS_PROFILING_DENIED;
    }
    return MMB_STATUS_OK;
}

void mmb_profiler_env_modes(const char **setup, const char **replay)
{
    const char *r = getenv("MMB_CUPTI_REPLAY"), *s = getenv("MMB_CUPTI_SETUP");
    *replay = r && strcmp(r, "kernel") == 0 ? "kernel" : "user";
    *setup = s && strcmp(s, "once") == 0 ? "once" : "each";
}

enum mmb_status mmb_profiler_open(struct mmb_profiler **out, int device, const struct mmb_metric_set *set,
                                  struct mmb_l2_flush *flush, void *stream, char *err, size_t errlen)
{
    *out = NULL;
    if (set->count == 0) {
        mmb_errorf(err, errlen, "metric set is empty (none): no counters to read");
        return MMB_STATUS_SKIPPED;
    }
    struct mmb_profiler *p = calloc(1, sizeof *p);
    if (!p) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    p->device = device;
    p->flush = flush;
    p->stream = stream;
    enum mmb_status st = open_steps(p, set, err, errlen);
    if (st != MMB_STATUS_OK) {
        mmb_profiler_close(p);
        return st;
    }
    *out = p;
    return MMB_STATUS_OK;
}

void mmb_profiler_close(struct mmb_profiler *p)
{
    if (!p)
        return;
    profiler_disable(p);
    mmb_cupti_host_free(p->host);
    if (p->initialized)
        profiler_deinit();
    free(p->config);
    free(p->avail);
    free(p);
}

size_t mmb_profiler_passes(const struct mmb_profiler *p)
{
    return p->passes;
}

const char *mmb_profiler_chip(const struct mmb_profiler *p)
{
    return p->chip;
}

/* Disables the range profiler on the context, if enabled; frees the data image. */
static void profiler_disable(struct mmb_profiler *p)
{
    if (p->rp) {
        CUpti_RangeProfiler_Disable_Params di = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        di.pRangeProfilerObject = p->rp;
        cuptiRangeProfilerDisable(&di); /* nothing to do on failure at teardown */
        p->rp = NULL;
    }
    free(p->data);
    p->data = NULL;
    p->data_size = 0;
    p->data_ranges = 0;
}

/* Enables the range profiler on the context. */
static enum mmb_status profiler_enable(struct mmb_profiler *p, char *err, size_t errlen)
{
    CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = p->ctx;
    MMB_CHECK_CUPTI(cuptiRangeProfilerEnable(&en), return MMB_STATUS_PROFILING_DENIED);
    p->rp = en.pRangeProfilerObject;
    return MMB_STATUS_OK;
}

/* A counter data image for ranges ranges: initialising it costs in proportion to its
 * size (on an H200 about 85 ms for 256 ranges), so it is sized to each measurement. */
static enum mmb_status profiler_size_image(struct mmb_profiler *p, size_t ranges, char *err, size_t errlen)
{
    if (ranges == p->data_ranges && p->data)
        return MMB_STATUS_OK;
    CUpti_RangeProfiler_GetCounterDataSize_Params gs = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    gs.pRangeProfilerObject = p->rp;
    gs.pMetricNames = (const char **)p->list.names;
    gs.numMetrics = p->list.count;
    gs.maxNumOfRanges = ranges;
    gs.maxNumRangeTreeNodes = ranges;
    MMB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataSize(&gs), return MMB_STATUS_PROFILING_DENIED);
    free(p->data);
    p->data_ranges = 0;
    p->data = calloc(1, gs.counterDataSize);
    if (!p->data) {
        mmb_errorf(err, errlen, "out of host memory (counter data image, %zu bytes)", gs.counterDataSize);
        return MMB_STATUS_PROFILING_DENIED;
    }
    p->data_size = gs.counterDataSize;
    p->data_ranges = ranges;
    return MMB_STATUS_OK;
}

/* A fresh counter data image and the configuration, for one measurement's passes. */
static enum mmb_status profiler_configure(struct mmb_profiler *p, size_t ranges, char *err, size_t errlen)
{
    enum mmb_status st = profiler_size_image(p, ranges, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = p->rp;
    ci.counterDataSize = p->data_size;
    ci.pCounterData = p->data;
    MMB_CHECK_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&ci), return MMB_STATUS_PROFILING_DENIED);

    CUpti_RangeProfiler_SetConfig_Params sc = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = p->rp;
    sc.configSize = p->config_size;
    sc.pConfig = p->config;
    sc.counterDataImageSize = p->data_size;
    sc.pCounterDataImage = p->data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = p->kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
    sc.maxRangesPerPass = ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    MMB_CHECK_CUPTI(cuptiRangeProfilerSetConfig(&sc), return MMB_STATUS_PROFILING_DENIED);
    return MMB_STATUS_OK;
}

/* The profiler enabled and configured for a measurement: enabled afresh, or with
 * MMB_CUPTI_SETUP=once the one kept from before (enabled afresh when configuring it
 * fails). */
static enum mmb_status profiler_begin(struct mmb_profiler *p, size_t ranges, char *err, size_t errlen)
{
    enum mmb_status st;
    if (p->rp) {
        char ignored[256];
        if (profiler_configure(p, ranges, ignored, sizeof ignored) == MMB_STATUS_OK)
            return MMB_STATUS_OK;
        profiler_disable(p);
    }
    if ((st = profiler_enable(p, err, errlen)) != MMB_STATUS_OK)
        return st;
    return profiler_configure(p, ranges, err, errlen);
}

/* A launch's ranges in a pass: the flush's kernels and (hot twice) its own,
 * MAX_LAUNCH_KERNELS where not known. */
size_t mmb_profiler_launch_ranges(const struct mmb_profiler *p, int kernels, bool cold)
{
    size_t own = (size_t)(kernels > 0 ? kernels : MAX_LAUNCH_KERNELS);
    return (size_t)mmb_l2_flush_kernels(p->flush) + (cold ? 1 : 2) * own;
}

/* The ranges one pass of the batch runs. The image is sized with 16 to spare (an image
 * of exactly the ranges a pass ran failed to evaluate on an H100) and in steps of 16,
 * so that it is seldom sized again. */
static size_t batch_ranges(const struct mmb_profiler *p, const struct mmb_profiled_launch *batch, size_t n,
                           bool cold)
{
    size_t ranges = 0;
    for (size_t i = 0; i < n; i++)
        ranges += mmb_profiler_launch_ranges(p, batch[i].kernels, cold);
    return ranges;
}

/* One pass: Start, then for each launch of the batch [flush L2], [warm-up launch
 * (hot)], the launch; Stop. The flush runs inside Start..Stop because Start itself
 * leaves dirty lines in L2 that a kernel after it would write back (docs/counters.md);
 * its kernels are ranges of their own, which evaluate() leaves out. Stop runs even
 * when the flush or a launch failed, so that the profiler is never left started. */
static enum mmb_status run_pass(struct mmb_profiler *p, const struct mmb_profiled_launch *batch, size_t n,
                                bool cold, int pass, bool *all_submitted, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st = MMB_STATUS_OK;
    double t = mmb_seconds_now(), t0 = t;
    CUpti_RangeProfiler_Start_Params sp = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = p->rp;
    MMB_CHECK_CUPTI(cuptiRangeProfilerStart(&sp), return MMB_STATUS_PROFILING_DENIED);
    step_end(p, MMB_PROFILER_STEP_START, &t);
    int rc = 0;
    char ignored[256]; /* a failed launch is reported as the pass's failure below */
    for (size_t i = 0; i < n && st == MMB_STATUS_OK && rc == 0; i++) {
        st = mmb_l2_flush_enqueue(p->flush, p->stream, err, errlen); /* the launches' stream orders it */
        if (st == MMB_STATUS_OK && !cold)
            rc = batch[i].launch(batch[i].ctx, ignored, sizeof ignored) != MMB_STATUS_OK;
        if (st == MMB_STATUS_OK && rc == 0)
            rc = batch[i].launch(batch[i].ctx, ignored, sizeof ignored) != MMB_STATUS_OK;
    }
    step_end(p, MMB_PROFILER_STEP_LAUNCHES, &t);
    CUpti_RangeProfiler_Stop_Params stop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = p->rp;
    CUptiResult r = cuptiRangeProfilerStop(&stop);
    step_end(p, MMB_PROFILER_STEP_STOP, &t);
    if (st != MMB_STATUS_OK)
        return st;
    if (rc != 0) {
        mmb_errorf(err, errlen, "a launch failed in profiling pass %d", pass + 1);
        return MMB_STATUS_LAUNCH_ERROR;
    }
    MMB_CHECK_CUPTI(r, return MMB_STATUS_PROFILING_DENIED);
    MMB_CHECK_CUDA(e = cudaDeviceSynchronize(), return mmb_gpu_status_of(e));
    step_end(p, MMB_PROFILER_STEP_WAIT, &t);
    if (pass >= 0 && pass < TIMED_PASSES)
        p->pass_s[pass] += t - t0;
    *all_submitted = stop.isAllPassSubmitted != 0;
    return MMB_STATUS_OK;
}

/* Where each launch's measured ranges are: the ranges of a pass run, per launch of
 * the batch, the flush's kernels, then (hot) the warm-up launch's kernels, then the
 * measured launch's. Auto ranges carry no kernel names (on the H100 none of the
 * flush's ranges was named mmb_l2_*), so they are told apart by count: a launch
 * runs batch[i].kernels kernels, or, for the one launch of a batch with kernels 0
 * (a library call), what the total leaves (a memset step the driver runs as a
 * kernel shows up as an uneven count and is refused). first[i] is the first
 * measured range of launch i, count[i] their number. */
static enum mmb_status measured_ranges(const struct mmb_profiler *p, const struct mmb_profiled_launch *batch,
                                       size_t n, size_t total, bool cold, size_t *first, size_t *count,
                                       char *err, size_t errlen)
{
    size_t flush_ranges = (size_t)mmb_l2_flush_kernels(p->flush);
    size_t launches = cold ? 1 : 2, at = 0, known = n * flush_ranges, unknown = 0, rest = 0;
    for (size_t i = 0; i < n; i++) {
        if (batch[i].kernels > 0)
            known += launches * (size_t)batch[i].kernels;
        else
            unknown++;
    }
    if (unknown > 1) {
        mmb_errorf(err, errlen, "%zu launches of unknown kernel counts in one batch: their ranges cannot be told "
                   "apart", unknown);
        return MMB_STATUS_PROFILING_DENIED;
    }
    if (unknown) {
        rest = total > known ? total - known : 0;
        if (rest == 0 || rest % launches != 0) {
            mmb_errorf(err, errlen, "%zu kernels ran under the profiler: expected the L2 flushes' and the known "
                       "launches' %zu, then %zu launch%s of the same kernels", total, known, launches,
                       launches > 1 ? "es" : "");
            return MMB_STATUS_PROFILING_DENIED;
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = batch[i].kernels > 0 ? (size_t)batch[i].kernels : rest / launches;
        at += flush_ranges + (launches - 1) * k;
        first[i] = at;
        count[i] = k;
        at += k;
    }
    if (at != total) {
        mmb_errorf(err, errlen, "%zu kernels ran under the profiler where %zu launches with their L2 flushes "
                   "should have run %zu", total, n, at);
        return MMB_STATUS_PROFILING_DENIED;
    }
    return MMB_STATUS_OK;
}

/* Evaluates ranges [first, first + count) and merges them into values (list order). */
static enum mmb_status evaluate_launch(struct mmb_profiler *p, size_t first, size_t count, double *values,
                                       char *err, size_t errlen)
{
    size_t n = p->list.count;
    double sum[MMB_METRIC_MAX + 1] = {0}, weighted[MMB_METRIC_MAX + 1] = {0};
    double range_values[MMB_METRIC_MAX + 1], total_ns = 0.0;
    for (size_t r = first; r < first + count; r++) {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        ev.pHostObject = p->host;
        ev.pCounterDataImage = p->data;
        ev.counterDataImageSize = p->data_size;
        ev.rangeIndex = r;
        ev.ppMetricNames = (const char **)p->list.names;
        ev.numMetrics = n;
        ev.pMetricValues = range_values;
        MMB_CHECK_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev), return MMB_STATUS_PROFILING_DENIED);
        double ns = range_values[0]; /* gpu__time_duration.sum */
        total_ns += ns;
        for (size_t i = 0; i < n; i++) {
            sum[i] += range_values[i];
            weighted[i] += range_values[i] * ns;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (p->list.metrics[i]->merge == MMB_MERGE_SUM)
            values[i] = sum[i];
        else if (total_ns > 0.0)
            values[i] = weighted[i] / total_ns;
        else
            values[i] = sum[i] / (double)count;
    }
    return MMB_STATUS_OK;
}

/* Decodes the passes and writes each launch's values into its row. */
static enum mmb_status evaluate(struct mmb_profiler *p, struct mmb_profiled_launch *batch, size_t n, bool cold,
                                char *err, size_t errlen)
{
    CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = p->rp;
    MMB_CHECK_CUPTI(cuptiRangeProfilerDecodeData(&dd), return MMB_STATUS_PROFILING_DENIED);
    if (dd.numOfRangeDropped) {
        mmb_errorf(err, errlen, "%zu kernels dropped: the launches ran more than the %zu kernels expected",
                   dd.numOfRangeDropped, p->data_ranges);
        return MMB_STATUS_PROFILING_DENIED;
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    gi.pCounterDataImage = p->data;
    gi.counterDataImageSize = p->data_size;
    MMB_CHECK_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&gi), return MMB_STATUS_PROFILING_DENIED);
    if (gi.numTotalRanges == 0) {
        mmb_errorf(err, errlen, "no kernel ran under the profiler (does the launch run a kernel?)");
        return MMB_STATUS_PROFILING_DENIED;
    }
    size_t first[MMB_PROFILER_BATCH_MAX], count[MMB_PROFILER_BATCH_MAX];
    enum mmb_status st = measured_ranges(p, batch, n, gi.numTotalRanges, cold, first, count, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    for (size_t b = 0; b < n; b++) {
        double values[MMB_METRIC_MAX + 1];
        if ((st = evaluate_launch(p, first[b], count[b], values, err, errlen)) != MMB_STATUS_OK)
            return st;
        for (size_t i = 0; i < p->list.count; i++) {
            double *field = mmb_metric_field(batch[b].row, p->list.metrics[i]);
            if (field)
                *field = values[i] * p->list.metrics[i]->scale;
        }
        batch[b].duration_ns = values[0];
        batch[b].row->counter_status = MMB_STATUS_OK;
    }
    return MMB_STATUS_OK;
}

enum mmb_status mmb_profiler_measure_batch(struct mmb_profiler *p, struct mmb_profiled_launch *batch, size_t n,
                                           bool cold, int *passes, double *setup_s, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    int pass = 0;
    double t0 = mmb_seconds_now();
    if (passes)
        *passes = 0;
    if (setup_s)
        *setup_s = 0.0;
    if (n == 0 || n > MMB_PROFILER_BATCH_MAX) {
        mmb_errorf(err, errlen, "a batch of %zu launches; 1 to %d can be profiled together", n,
                   MMB_PROFILER_BATCH_MAX);
        return MMB_STATUS_PROFILING_DENIED;
    }
    for (size_t b = 0; b < n; b++) {
        for (size_t i = 0; i < p->list.count; i++) {
            double *field = mmb_metric_field(batch[b].row, p->list.metrics[i]);
            if (field)
                *field = NAN;
        }
        batch[b].duration_ns = NAN;
        batch[b].row->counter_status = MMB_STATUS_PROFILING_DENIED;
    }

    MMB_CHECK_CUDA(e = cudaSetDevice(p->device), return mmb_gpu_status_of(e));
    size_t ranges = batch_ranges(p, batch, n, cold);
    if (n > 1 && ranges > MMB_PROFILER_PASS_RANGES_MAX) {
        mmb_errorf(err, errlen, "a batch of %zu launches runs %zu kernel ranges a pass; a pass records %d", n,
                   ranges, MMB_PROFILER_PASS_RANGES_MAX);
        return MMB_STATUS_PROFILING_DENIED;
    }
    st = profiler_begin(p, (ranges + 16 + 15) / 16 * 16, err, errlen);
    if (setup_s)
        *setup_s = mmb_seconds_now() - t0;
    p->step_s[MMB_PROFILER_STEP_SETUP] += mmb_seconds_now() - t0;
    if (st != MMB_STATUS_OK)
        goto done;
    for (bool all = false; !all; pass++) {
        if ((size_t)pass >= p->passes + EXTRA_PASSES) {
            mmb_errorf(err, errlen, "CUPTI wants more than %d passes for a %zu-pass configuration", pass,
                       p->passes);
            st = MMB_STATUS_PROFILING_DENIED;
            goto done;
        }
        if ((st = run_pass(p, batch, n, cold, pass, &all, err, errlen)) != MMB_STATUS_OK)
            goto done;
    }
    double te = mmb_seconds_now();
    st = evaluate(p, batch, n, cold, err, errlen);
    step_end(p, MMB_PROFILER_STEP_EVALUATE, &te);
done:
    /* A failed measurement may leave the profiler mid-pass: the next one starts afresh. */
    if (st != MMB_STATUS_OK || p->enable_each)
        profiler_disable(p);
    if (passes)
        *passes = p->kernel_replay && pass > 0 ? (int)p->passes : pass;
    return st;
}

enum mmb_status mmb_profiler_measure(struct mmb_profiler *p, mmb_launch_fn launch, void *ctx, bool cold,
                                     struct mmb_row *row, double *duration_ns, int *passes, double *setup_s,
                                     char *err, size_t errlen)
{
    struct mmb_profiled_launch one = {.launch = launch, .ctx = ctx, .kernels = 0, .row = row};
    enum mmb_status st = mmb_profiler_measure_batch(p, &one, 1, cold, passes, setup_s, err, errlen);
    if (duration_ns)
        *duration_ns = one.duration_ns;
    return st;
}
