/* energy.c - power and energy per launch from NVML's energy counter over a window
 * of launches back to back (energy.h says why the window runs from one counter update
 * to another). */
#include "cuda/energy.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/gpu.h"

/* Launches per chunk: about CHUNK_MS of GPU work between markers. */
#define CHUNK_MS 2.0
#define CHUNK_MAX 4096
/* Work queued ahead of the GPU, in chunks: at least QUEUE_MS and two chunks. */
#define QUEUE_MS 8.0
#define RING 64

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The loop's state between the counter's reads. */
struct window {
    double window_s, opened, closed;  /* host times of the opening and closing updates */
    unsigned long long e_open, e_close, e_last;
    double last_read_end;             /* when the read before this one ended */
    unsigned updates;
    bool open, shut, mid_read;
};

/* One read of the counter; true when the window has closed. */
static bool window_poll(struct window *w, const struct mmb_nvml_device *dev, struct mmb_clock_watch *watch,
                        char *why, size_t whylen, bool *failed)
{
    unsigned long long e = 0;
    double before = mmb_seconds_now();
    if (mmb_nvml_energy_mj(dev, &e, why, whylen) != 0) {
        *failed = true;
        return false;
    }
    double after = mmb_seconds_now();
    if (e != w->e_last) {
        /* the update happened between the end of the last read and the start of this one */
        double at = (w->last_read_end + before) / 2.0;
        if (!w->open) {
            w->open = true;
            w->opened = at;
            w->e_open = e;
        } else {
            w->updates++;
            if (at - w->opened >= 0.9 * w->window_s) {
                w->shut = true;
                w->closed = at;
                w->e_close = e;
            }
        }
        w->e_last = e;
    }
    w->last_read_end = after;
    if (watch && w->open && !w->mid_read && after - w->opened >= w->window_s / 2.0) {
        mmb_clock_watch_read(watch);
        w->mid_read = true;
    }
    return w->shut;
}

static void result_empty(struct mmb_energy_result *out)
{
    memset(out, 0, sizeof *out);
    out->power_w = out->energy_j = out->window_s = out->period_ms = out->update_ms = NAN;
    out->opened_epoch = out->closed_epoch = NAN;
}

/* Chunks enqueued while fewer than `ahead` are unfinished, at most `ahead` of them: where
 * the host enqueues no faster than the GPU runs (a library call of a few microseconds),
 * every marker is reached by the time it is checked, and topping up without a bound
 * would never return to read the counter. */
static enum mmb_status top_up(const struct mmb_energy_gpu *gpu, size_t chunk, size_t ahead, size_t *markers,
                              struct mmb_energy_result *out, char *err, size_t errlen)
{
    enum mmb_status st;
    for (size_t burst = 0; burst < ahead; burst++) {
        if (*markers >= ahead) {
            bool reached = false;
            if ((st = gpu->done(gpu->ctx, *markers - ahead, &reached, err, errlen)) != MMB_STATUS_OK)
                return st;
            if (!reached)
                break;
        }
        if ((st = gpu->launch(gpu->ctx, chunk, err, errlen)) != MMB_STATUS_OK)
            return st;
        (*markers)++;
        out->launches += chunk;
    }
    return MMB_STATUS_OK;
}

/* Launches until the window closes or the counter stalls; the queue kept QUEUE_MS ahead. */
static enum mmb_status run_loop(const struct mmb_nvml_device *dev, const struct mmb_energy_gpu *gpu, double launch_ms,
                                struct window *w, struct mmb_clock_watch *watch, struct mmb_energy_result *out,
                                char *err, size_t errlen)
{
    size_t chunk = 1;
    if (isfinite(launch_ms) && launch_ms > 0 && launch_ms < CHUNK_MS)
        chunk = (size_t)ceil(CHUNK_MS / launch_ms);
    chunk = chunk > CHUNK_MAX ? CHUNK_MAX : chunk;
    double chunk_ms = isfinite(launch_ms) && launch_ms > 0 ? launch_ms * (double)chunk : CHUNK_MS;
    size_t ahead = (size_t)ceil(QUEUE_MS / chunk_ms);
    ahead = ahead < 2 ? 2 : ahead > RING - 2 ? RING - 2 : ahead;
    double stall = MMB_ENERGY_STALL_S > 5 * w->window_s ? MMB_ENERGY_STALL_S : 5 * w->window_s;
    double start = mmb_seconds_now();
    size_t markers = 0;
    enum mmb_status st;
    bool failed = false;
    for (;;) {
        if ((st = top_up(gpu, chunk, ahead, &markers, out, err, errlen)) != MMB_STATUS_OK)
            return st;
        if (window_poll(w, dev, watch, out->why, sizeof out->why, &failed) || failed)
            return MMB_STATUS_OK;
        if (mmb_seconds_now() - start > stall) {
            mmb_errorf(out->why, sizeof out->why, "the energy counter %s in %.1f s of launches",
                       w->open ? "updated only once" : "did not change", stall);
            return MMB_STATUS_OK;
        }
        pause_us(MMB_ENERGY_POLL_US);
    }
}

enum mmb_status mmb_energy_measure(const struct mmb_nvml_device *dev, const struct mmb_energy_gpu *gpu,
                                   double launch_ms, double window_s, struct mmb_clock_watch *watch,
                                   struct mmb_energy_result *out, char *err, size_t errlen)
{
    double t0 = mmb_seconds_now();
    result_empty(out);
    if (!dev) {
        mmb_errorf(out->why, sizeof out->why, "no NVML device");
        out->unavailable = true;
        return MMB_STATUS_OK;
    }
    struct window w = {.window_s = window_s > 0 ? window_s : 0.2};
    if (mmb_nvml_energy_mj(dev, &w.e_last, out->why, sizeof out->why) != 0) {
        out->unavailable = true;
        return MMB_STATUS_OK;
    }
    w.last_read_end = mmb_seconds_now();
    enum mmb_status st = run_loop(dev, gpu, launch_ms, &w, watch, out, err, errlen);
    double gpu_ms = NAN;
    char ferr[512] = "";
    /* the queued launches finish whatever happened to the counter */
    enum mmb_status fst = out->launches ? gpu->finish(gpu->ctx, &gpu_ms, ferr, sizeof ferr) : MMB_STATUS_OK;
    if (st == MMB_STATUS_OK && fst != MMB_STATUS_OK)
        mmb_errorf(err, errlen, "%s", ferr);
    out->seconds = mmb_seconds_now() - t0;
    if (st == MMB_STATUS_OK)
        st = fst;
    if (st != MMB_STATUS_OK || !w.shut)
        return st;
    out->window_s = w.closed - w.opened;
    struct timespec rt;
    if (clock_gettime(CLOCK_REALTIME, &rt) == 0) { /* the monotonic times as times of day */
        double offset = (double)rt.tv_sec + (double)rt.tv_nsec / 1e9 - mmb_seconds_now();
        out->opened_epoch = w.opened + offset;
        out->closed_epoch = w.closed + offset;
    }
    out->updates = w.updates;
    out->update_ms = 1e3 * out->window_s / w.updates;
    out->period_ms = gpu_ms / (double)out->launches;
    if (w.e_close <= w.e_open || !(out->window_s > 0) || !(out->period_ms > 0)) {
        mmb_errorf(out->why, sizeof out->why, "the energy counter went from %llu to %llu mJ over %.3f s", w.e_open,
                   w.e_close, out->window_s);
        return MMB_STATUS_OK;
    }
    out->power_w = (double)(w.e_close - w.e_open) / 1e3 / out->window_s;
    out->energy_j = out->power_w * out->period_ms / 1e3;
    return MMB_STATUS_OK;
}

/* ---- the GPU side through CUDA events ---- */

struct mmb_energy_cuda {
    cudaStream_t stream;
    mmb_launch_fn fn;
    void *ctx;
    cudaEvent_t start, ring[RING];
    int created;          /* of start and ring, in that order */
    size_t markers;
    bool started;
};

static enum mmb_status cuda_launch(void *opaque, size_t n, char *err, size_t errlen)
{
    struct mmb_energy_cuda *c = opaque;
    cudaError_t e;
    enum mmb_status st;
    if (!c->started) {
        MMB_CHECK_CUDA(e = cudaEventRecord(c->start, c->stream), return mmb_gpu_status_of(e));
        c->started = true;
    }
    for (size_t i = 0; i < n; i++)
        if ((st = c->fn(c->ctx, err, errlen)) != MMB_STATUS_OK)
            return st;
    MMB_CHECK_CUDA(e = cudaEventRecord(c->ring[c->markers % RING], c->stream), return mmb_gpu_status_of(e));
    c->markers++;
    return MMB_STATUS_OK;
}

static enum mmb_status cuda_done(void *opaque, size_t marker, bool *reached, char *err, size_t errlen)
{
    struct mmb_energy_cuda *c = opaque;
    cudaError_t e = cudaEventQuery(c->ring[marker % RING]);
    *reached = e == cudaSuccess;
    if (e == cudaErrorNotReady) {
        (void)cudaGetLastError(); /* not an error: the marker is still ahead */
        return MMB_STATUS_OK;
    }
    MMB_CHECK_CUDA(e, return mmb_gpu_status_of(e));
    return MMB_STATUS_OK;
}

static enum mmb_status cuda_finish(void *opaque, double *gpu_ms, char *err, size_t errlen)
{
    struct mmb_energy_cuda *c = opaque;
    cudaError_t e;
    float ms = 0.0f;
    cudaEvent_t last = c->ring[(c->markers - 1) % RING];
    MMB_CHECK_CUDA(e = cudaEventSynchronize(last), return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaEventElapsedTime(&ms, c->start, last), return mmb_gpu_status_of(e));
    *gpu_ms = ms;
    return MMB_STATUS_OK;
}

enum mmb_status mmb_energy_cuda_open(struct mmb_energy_cuda **out, void *stream,
                                     enum mmb_status (*fn)(void *ctx, char *err, size_t errlen), void *ctx,
                                     struct mmb_energy_gpu *gpu, char *err, size_t errlen)
{
    struct mmb_energy_cuda *c = calloc(1, sizeof *c);
    if (!c) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    c->stream = (cudaStream_t)stream;
    c->fn = fn;
    c->ctx = ctx;
    cudaError_t e;
    for (; c->created < RING + 1; c->created++) {
        cudaEvent_t *ev = c->created == 0 ? &c->start : &c->ring[c->created - 1];
        MMB_CHECK_CUDA(e = cudaEventCreate(ev), mmb_energy_cuda_close(c); return mmb_gpu_status_of(e));
    }
    *gpu = (struct mmb_energy_gpu){.launch = cuda_launch, .done = cuda_done, .finish = cuda_finish, .ctx = c};
    *out = c;
    return MMB_STATUS_OK;
}

void mmb_energy_cuda_close(struct mmb_energy_cuda *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->created; i++)
        cudaEventDestroy(i == 0 ? c->start : c->ring[i - 1]);
    free(c);
}
