/* timer.c - CUDA-event timing with optional L2 flush (l2flush.c), and the SM clock through NVML (nvml.c). */
#include "cuda/timer.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"
#include "cuda/nvml.h"

struct mmb_timer {
    void *stream;
    struct mmb_l2_flush *flush; /* the caller's */
    char uuid[48];
    cudaEvent_t first[2];       /* around the launch of mmb_timer_launch_first */
    int first_events;           /* created */
    struct mmb_clock_watch *watch; /* the caller's; NULL: the clock alone, read once */
};

enum mmb_status mmb_timer_open(struct mmb_timer **out, const char *gpu_uuid, void *stream,
                               struct mmb_l2_flush *flush, char *err, size_t errlen)
{
    struct mmb_timer *t = calloc(1, sizeof *t);
    if (!t) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    t->stream = stream;
    t->flush = flush;
    snprintf(t->uuid, sizeof t->uuid, "%s", gpu_uuid ? gpu_uuid : "");
    cudaError_t e;
    for (; t->first_events < 2; t->first_events++)
        MMB_CHECK_CUDA(e = cudaEventCreate(&t->first[t->first_events]), mmb_timer_close(t);
                       return mmb_gpu_status_of(e));
    *out = t;
    return MMB_STATUS_OK;
}

void mmb_timer_watch(struct mmb_timer *t, struct mmb_clock_watch *watch)
{
    t->watch = watch;
}

void mmb_timer_close(struct mmb_timer *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->first_events; i++)
        cudaEventDestroy(t->first[i]);
    free(t);
}

static enum mmb_status timer_flush_l2(struct mmb_timer *t, char *err, size_t errlen)
{
    return mmb_l2_flush_enqueue(t->flush, t->stream, err, errlen);
}

/* Room for need samples in all, and the event pairs of a batch of that many, created as needed. */
static enum mmb_status timer_grow(double **ms, size_t *ms_cap, size_t need, cudaEvent_t **events,
                                  size_t *created, size_t *events_cap, size_t batch, char *err, size_t errlen)
{
    cudaError_t e;
    if (need > *ms_cap) {
        double *grown = realloc(*ms, need * sizeof *grown);
        if (!grown)
            goto oom;
        *ms = grown;
        *ms_cap = need;
    }
    if (2 * batch > *events_cap) {
        cudaEvent_t *grown = realloc(*events, 2 * batch * sizeof *grown);
        if (!grown)
            goto oom;
        *events = grown;
        *events_cap = 2 * batch;
    }
    for (; *created < 2 * batch; (*created)++)
        MMB_CHECK_CUDA(e = cudaEventCreate(&(*events)[*created]), return mmb_gpu_status_of(e));
    return MMB_STATUS_OK;
oom:
    mmb_errorf(err, errlen, "out of host memory");
    return MMB_STATUS_OUT_OF_MEMORY;
}

/* One batch: count timed launches, each between its own pair of events, then their
 * times into ms; with sm_clock_mhz, the SM clock read halfway through. */
static enum mmb_status timer_batch(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, bool cold,
                                   const cudaEvent_t *events, size_t count, double *ms, double *sm_clock_mhz,
                                   char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    cudaStream_t stream = (cudaStream_t)t->stream;
    for (size_t i = 0; i < count; i++) {
        if (cold && (st = timer_flush_l2(t, err, errlen)) != MMB_STATUS_OK)
            return st;
        MMB_CHECK_CUDA(e = cudaEventRecord(events[2 * i], stream), return mmb_gpu_status_of(e));
        if ((st = launch(ctx, err, errlen)) != MMB_STATUS_OK)
            return st;
        MMB_CHECK_CUDA(e = cudaEventRecord(events[2 * i + 1], stream), return mmb_gpu_status_of(e));
        /* halfway through the first batch, while the GPU is busy with earlier launches:
         * the clock and its event reasons once; the watch's violation counters and clock
         * samples over the whole window (begin to end) see any throttling after it, so
         * the later batches make no NVML call, which cost milliseconds each */
        if (sm_clock_mhz && i == count / 2)
            *sm_clock_mhz = t->watch ? mmb_clock_watch_read(t->watch) : mmb_nvml_sm_clock_mhz(t->uuid);
    }
    MMB_CHECK_CUDA(e = cudaStreamSynchronize(stream), return mmb_gpu_status_of(e));
    for (size_t i = 0; i < count; i++) {
        float f = 0.0f;
        MMB_CHECK_CUDA(e = cudaEventElapsedTime(&f, events[2 * i], events[2 * i + 1]), return mmb_gpu_status_of(e));
        ms[i] = f;
    }
    return MMB_STATUS_OK;
}

enum mmb_status mmb_timer_launch_first(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, bool cold,
                                       char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    cudaStream_t stream = (cudaStream_t)t->stream;
    if (cold && (st = timer_flush_l2(t, err, errlen)) != MMB_STATUS_OK)
        return st;
    MMB_CHECK_CUDA(e = cudaEventRecord(t->first[0], stream), return mmb_gpu_status_of(e));
    if ((st = launch(ctx, err, errlen)) != MMB_STATUS_OK)
        return st;
    MMB_CHECK_CUDA(e = cudaEventRecord(t->first[1], stream), return mmb_gpu_status_of(e));
    return MMB_STATUS_OK;
}

enum mmb_status mmb_timer_launch_warmup(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, bool cold,
                                        char *err, size_t errlen)
{
    enum mmb_status st;
    if (cold && (st = timer_flush_l2(t, err, errlen)) != MMB_STATUS_OK)
        return st;
    return launch(ctx, err, errlen);
}

enum mmb_status mmb_timer_measure(struct mmb_timer *t, mmb_launch_fn launch, void *ctx, int warmup,
                                  const struct mmb_converge_spec *spec, bool cold, bool with_first,
                                  struct mmb_timing *out, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st = MMB_STATUS_OK;
    cudaEvent_t *events = NULL;
    double *ms = NULL, *order = NULL; /* ms: the rule sorts it; order: as launched */
    size_t n = 0, ms_cap = 0, created = 0, events_cap = 0;
    struct mmb_converge_step step;
    out->sm_clock_mhz = NAN;
    out->samples = NULL;
    for (int i = 0; i < warmup; i++)
        if ((st = mmb_timer_launch_warmup(t, launch, ctx, cold, err, errlen)) != MMB_STATUS_OK)
            goto out;
    double t0 = mmb_seconds_now();
    if (t->watch)
        mmb_clock_watch_begin(t->watch);
    if (with_first) {
        float f = 0.0f;
        if ((st = timer_grow(&ms, &ms_cap, 1, &events, &created, &events_cap, 0, err, errlen)) != MMB_STATUS_OK)
            goto out;
        MMB_CHECK_CUDA(e = cudaEventSynchronize(t->first[1]), st = mmb_gpu_status_of(e); goto out);
        MMB_CHECK_CUDA(e = cudaEventElapsedTime(&f, t->first[0], t->first[1]), st = mmb_gpu_status_of(e); goto out);
        ms[n++] = f;
    }
    mmb_converge_step(spec, ms, n, 0.0, &step);
    for (bool first_batch = true; step.stop == MMB_STOP_NONE; first_batch = false) {
        st = timer_grow(&ms, &ms_cap, n + step.more, &events, &created, &events_cap, step.more, err, errlen);
        if (st != MMB_STATUS_OK)
            goto out;
        st = timer_batch(t, launch, ctx, cold, events, step.more, ms + n, first_batch ? &out->sm_clock_mhz : NULL,
                         err, errlen);
        if (st != MMB_STATUS_OK)
            goto out;
        double *grown = realloc(order, (n + step.more) * sizeof *grown);
        if (!grown) {
            mmb_errorf(err, errlen, "out of host memory");
            st = MMB_STATUS_OUT_OF_MEMORY;
            goto out;
        }
        order = grown;
        if (n == 1 && with_first)
            order[0] = ms[0]; /* one sample is its own order: the rule sorts from min_samples on */
        memcpy(order + n, ms + n, step.more * sizeof *ms);
        n += step.more;
        mmb_converge_step(spec, ms, n, mmb_seconds_now() - t0, &step);
    }
    if (t->watch)
        mmb_clock_watch_end(t->watch);
    out->noise = step.noise;
    out->stop = step.stop;
    out->launched_ms = 0.0;
    for (size_t i = with_first ? 1 : 0; i < n; i++)
        out->launched_ms += ms[i];
    if (!order && n > 0) { /* the first launch alone: no batch ran */
        if (!(order = malloc(n * sizeof *order))) {
            mmb_errorf(err, errlen, "out of host memory");
            st = MMB_STATUS_OUT_OF_MEMORY;
            goto out;
        }
        memcpy(order, ms, n * sizeof *order);
    }
    mmb_stats_compute(ms, n, &out->stats);
    out->samples = order;
    order = NULL;
out:
    free(order);
    for (size_t i = 0; i < created; i++)
        cudaEventDestroy(events[i]);
    free(events);
    free(ms);
    return st;
}
