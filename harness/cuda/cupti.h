/* cupti.h - hardware counters of one launch through the CUPTI Range Profiler (CUDA 13):
 * auto range (one range per kernel, as ncu measures) and replay until every pass of
 * the metric set is collected. The offline check of metric names for a chip, which
 * needs no GPU and no driver, is cupti_host.h. */
#ifndef MMB_CUPTI_H
#define MMB_CUPTI_H

#include <stdbool.h>
#include <stddef.h>

#include "results/metrics.h"
#include "results/row.h"
#include "core/status.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"

struct mmb_profiler;

/* Prepares counters for set on device (made current): checks that the device
 * supports profiling and that this process may read counters, and builds the config
 * image. Every pass starts with flush (l2flush.h), which the caller keeps open while
 * the profiler is, enqueued on stream: the one the launches use (NULL: the legacy
 * default stream), which orders the flush before them. The range profiler is enabled
 * on the context from the first measurement until mmb_profiler_close. Returns
 *   MMB_STATUS_OK;
 *   MMB_STATUS_PROFILING_DENIED  counters cannot be read here: err has the cause
 *                                and the fix on one line (no GPU, privileges, vGPU,
 *                                another profiler, a chip this CUPTI does not know);
 *   MMB_STATUS_SKIPPED           the set is empty (`none`);
 *   another status               a CUDA call failed (err names it).
 * *out is NULL unless MMB_STATUS_OK. */
/* How the profiler collects, as the environment sets it and its protocol names it:
 * *setup "each" (the range profiler set up for every measurement) or "once"
 * (MMB_CUPTI_SETUP=once); *replay "user" (mmbench replays each pass) or "kernel"
 * (MMB_CUPTI_REPLAY=kernel). */
void mmb_profiler_env_modes(const char **setup, const char **replay);

enum mmb_status mmb_profiler_open(struct mmb_profiler **out, int device, const struct mmb_metric_set *set,
                                  struct mmb_l2_flush *flush, void *stream, char *err, size_t errlen);

/* Replays launch(ctx) under the profiler until every pass is collected, evaluates
 * the metrics and writes them (scaled) into row's counter columns, then sets
 * row->counter_status. cold chooses the cache state every pass starts from:
 *   cold: L2 flushed (l2flush.h) before the launch in each pass, as
 *         `ncu --cache-control all` flushes before each pass;
 *   hot:  L2 flushed, then the launch once, then the measured launch: the
 *         timing loop's steady state, where a launch follows the same kernel.
 * When the launch runs several kernels, counts are summed and rates averaged over
 * the kernels' durations. *duration_ns: gpu__time_duration.sum (all kernels);
 * *passes: the times the launch ran under the profiler; *setup_s: the seconds spent
 * enabling and configuring the profiler for this measurement.
 * Returns MMB_STATUS_OK; MMB_STATUS_PROFILING_DENIED when CUPTI failed (err says
 * why; the counter columns stay empty, timing is still valid); or the status of a
 * failed launch or CUDA call (MMB_STATUS_LAUNCH_ERROR, ...), which leaves the device
 * suspect. Clocks are not locked: compare with `ncu --clock-control none`. */
enum mmb_status mmb_profiler_measure(struct mmb_profiler *p, mmb_launch_fn launch, void *ctx, bool cold,
                                     struct mmb_row *row, double *duration_ns, int *passes, double *setup_s,
                                     char *err, size_t errlen);

/* One launch of a batch profiled together: the launches of a batch run one after
 * the other in every pass, each after its own L2 flush (and hot, its own warm-up
 * launch), so each is measured as if alone, and the profiler's per-pass cost
 * (Start and Stop, about 17 ms on an H100) is paid once for the batch. */
#define MMB_PROFILER_BATCH_MAX 32
/* The kernel ranges one pass records at most: CUPTI's range profiler kept 64 of a pass
 * of 72 (24 launches, each after a two-kernel L2 flush) on the H100 and the H200
 * (CUDA 13), whatever the image was sized for, so a batch stays within this. */
#define MMB_PROFILER_PASS_RANGES_MAX 64
struct mmb_profiled_launch {
    mmb_launch_fn launch;
    void *ctx;
    int kernels;          /* kernels one launch runs; 0: unknown, at most one such launch a batch */
    struct mmb_row *row;  /* its counter columns and counter_status are written */
    double duration_ns;   /* out: gpu__time_duration.sum of its kernels */
};

/* The kernel ranges one launch of kernels kernels adds to each pass of a batch: its L2
 * flush's and its own (hot: twice, with its warm-up launch). A batch's launches add up
 * to MMB_PROFILER_PASS_RANGES_MAX at most. */
size_t mmb_profiler_launch_ranges(const struct mmb_profiler *p, int kernels, bool cold);

/* As mmb_profiler_measure, for n (1..MMB_PROFILER_BATCH_MAX) launches at once, whose
 * ranges add up to MMB_PROFILER_PASS_RANGES_MAX at most; the returned status is the
 * batch's: on a failure no row has counters. */
enum mmb_status mmb_profiler_measure_batch(struct mmb_profiler *p, struct mmb_profiled_launch *batch, size_t n,
                                           bool cold, int *passes, double *setup_s, char *err, size_t errlen);

/* The steps of a measurement, whose times the profiler adds up over all of them:
 * where counter time goes (run -v prints them). */
enum mmb_profiler_step {
    MMB_PROFILER_STEP_SETUP,     /* enable (once) and configure */
    MMB_PROFILER_STEP_START,     /* cuptiRangeProfilerStart, per pass */
    MMB_PROFILER_STEP_LAUNCHES,  /* enqueueing the flush and the launches */
    MMB_PROFILER_STEP_STOP,      /* cuptiRangeProfilerStop */
    MMB_PROFILER_STEP_WAIT,      /* for the pass to finish on the GPU */
    MMB_PROFILER_STEP_EVALUATE,  /* decoding and evaluating the ranges */
    MMB_PROFILER_STEP_COUNT,
};
const char *mmb_profiler_step_text(enum mmb_profiler_step step);
/* Seconds in step over every measurement so far; 0 for a NULL profiler. */
double mmb_profiler_step_seconds(const struct mmb_profiler *p, enum mmb_profiler_step step);

/* Seconds of every measurement's pass number pass (0-based: Start to the end of its
 * wait), summed; 0 past the passes run. The passes of one config image run the same
 * counters in the same order in every measurement, so a pass that costs more than
 * the others (the SASS instruction counts, instrumented) shows here. */
double mmb_profiler_pass_seconds(const struct mmb_profiler *p, size_t pass);

/* Passes one measurement needs on this device; the CUPTI chip name ("GH100"). */
size_t mmb_profiler_passes(const struct mmb_profiler *p);
const char *mmb_profiler_chip(const struct mmb_profiler *p);

/* NULL is fine. */
void mmb_profiler_close(struct mmb_profiler *p);

#endif
