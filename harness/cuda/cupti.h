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
 * the profiler is. Returns
 *   MMB_STATUS_OK;
 *   MMB_STATUS_PROFILING_DENIED  counters cannot be read here: err has the cause
 *                                and the fix on one line (no GPU, privileges, vGPU,
 *                                another profiler, a chip this CUPTI does not know);
 *   MMB_STATUS_SKIPPED           the set is empty (`none`);
 *   another status               a CUDA call failed (err names it).
 * *out is NULL unless MMB_STATUS_OK. */
enum mmb_status mmb_profiler_open(struct mmb_profiler **out, int device, const struct mmb_metric_set *set,
                                  struct mmb_l2_flush *flush, char *err, size_t errlen);

/* Replays launch(ctx) under the profiler until every pass is collected, evaluates
 * the metrics and writes them (scaled) into row's counter columns, then sets
 * row->counter_status. cold chooses the cache state every pass starts from:
 *   cold: L2 flushed (l2flush.h) before the launch in each pass, as
 *         `ncu --cache-control all` flushes before each pass;
 *   hot:  L2 flushed, then the launch once, then the measured launch: the
 *         timing loop's steady state, where a launch follows the same kernel.
 * When the launch runs several kernels, counts are summed and rates averaged over
 * the kernels' durations. *duration_ns: gpu__time_duration.sum (all kernels);
 * *passes: the times the launch ran under the profiler.
 * Returns MMB_STATUS_OK; MMB_STATUS_PROFILING_DENIED when CUPTI failed (err says
 * why; the counter columns stay empty, timing is still valid); or the status of a
 * failed launch or CUDA call (MMB_STATUS_LAUNCH_ERROR, ...), which leaves the device
 * suspect. Clocks are not locked: compare with `ncu --clock-control none`. */
enum mmb_status mmb_profiler_measure(struct mmb_profiler *p, mmb_launch_fn launch, void *ctx, bool cold,
                                     struct mmb_row *row, double *duration_ns, int *passes,
                                     char *err, size_t errlen);

/* Passes one measurement needs on this device; the CUPTI chip name ("GH100"). */
size_t mmb_profiler_passes(const struct mmb_profiler *p);
const char *mmb_profiler_chip(const struct mmb_profiler *p);

/* NULL is fine. */
void mmb_profiler_close(struct mmb_profiler *p);

#endif
