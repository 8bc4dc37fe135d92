/* timer.c - CUDA-event timing with optional L2 flush (l2flush.c), and the SM clock through NVML (nvml.c). */
#include "cuda/timer.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"
#include "cuda/nvml.h"
#include "core/util.h"

struct mmb_timer {
    void *stream;
    struct mmb_l2_flush *flush; /* the caller's */
    char uuid[48];
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
    *out = t;
    return MMB_STATUS_OK;
}

void mmb_timer_close(struct mmb_timer *t)
{
    free(t);
}

static enum mmb_status timer_flush_l2(struct mmb_timer *t, char *err, size_t errlen)
{
    return mmb_l2_flush_enqueue(t->flush, t->stream, err, errlen);
}

enum mmb_status mmb_timer_measure(struct mmb_timer *t, mmb_launch_fn launch, void *ctx,
                                  int warmup, int repeats, bool cold, struct mmb_stats *stats,
                                  double *sm_clock_mhz, char *err, size_t errlen)
{
    cudaError_t e = cudaSuccess;
    enum mmb_status st = MMB_STATUS_OK;
    cudaStream_t stream = (cudaStream_t)t->stream;
    cudaEvent_t *events = calloc(2 * (size_t)repeats, sizeof *events);
    double *ms = calloc((size_t)repeats, sizeof *ms);
    int created = 0;
    *sm_clock_mhz = NAN;
    if (!events || !ms) {
        mmb_errorf(err, errlen, "out of host memory");
        st = MMB_STATUS_OUT_OF_MEMORY;
        goto out;
    }
    for (; created < 2 * repeats; created++)
        MMB_CHECK_CUDA(e = cudaEventCreate(&events[created]), st = mmb_gpu_status_of(e); goto out);
    for (int i = 0; i < warmup; i++) {
        if (cold && (st = timer_flush_l2(t, err, errlen)) != MMB_STATUS_OK)
            goto out;
        if ((st = launch(ctx, err, errlen)) != MMB_STATUS_OK)
            goto out;
    }
    for (int i = 0; i < repeats; i++) {
        if (cold && (st = timer_flush_l2(t, err, errlen)) != MMB_STATUS_OK)
            goto out;
        MMB_CHECK_CUDA(e = cudaEventRecord(events[2 * i], stream), st = mmb_gpu_status_of(e); goto out);
        if ((st = launch(ctx, err, errlen)) != MMB_STATUS_OK)
            goto out;
        MMB_CHECK_CUDA(e = cudaEventRecord(events[2 * i + 1], stream), st = mmb_gpu_status_of(e); goto out);
        if (i == repeats / 2)
            *sm_clock_mhz = mmb_nvml_sm_clock_mhz(t->uuid); /* the GPU is busy with earlier launches */
    }
    MMB_CHECK_CUDA(e = cudaStreamSynchronize(stream), st = mmb_gpu_status_of(e); goto out);
    for (int i = 0; i < repeats; i++) {
        float f = 0.0f;
        MMB_CHECK_CUDA(e = cudaEventElapsedTime(&f, events[2 * i], events[2 * i + 1]),
                       st = mmb_gpu_status_of(e); goto out);
        ms[i] = f;
    }
    mmb_stats_compute(ms, (size_t)repeats, stats);
out:
    for (int i = 0; i < created; i++)
        cudaEventDestroy(events[i]);
    free(events);
    free(ms);
    return st;
}
