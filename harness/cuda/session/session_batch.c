/* session_batch.c - evaluating configurations whose counters are read together
 * (mmb_profiler_measure_batch): each configuration is prepared, verified and timed at
 * once (or, counters = best, prepared again later to be counted:
 * mmb_session_submit_best); its row then waits in the session, in order, until the
 * batch's profiling passes are done, and goes to the caller's sink. The launches of a batch share the
 * passes (each after its own L2 flush, so each is measured as if alone), which every
 * pass's fixed CUPTI cost makes worth it; a launch whose passes take long anyway goes
 * alone, a batch holds one launch whose kernel count is not known
 * (kernel_engine.kernels: a library call whose graph capture holds more than
 * kernels) at most, and a batch stops at the ranges one pass records
 * (MMB_PROFILER_PASS_RANGES_MAX). A batch spans problems: the caller hands a problem
 * to mmb_session_problem_done, which keeps it open while rows of the batch launch on
 * it. The numbers:
 * docs/counters.md, "Cost, and batches". MMB_COUNTER_BATCH=N (1..32) caps a batch. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "cuda/session/session.h"
#include "cuda/session/session_impl.h"

/* A launch whose passes would take longer than this (kernel time) is measured alone:
 * it would fill a batch by itself. A shorter one shares the passes' fixed cost
 * (Start and Stop, about 24 ms a pass on an H100: 0.3 s a measurement of 13 passes). */
#define BATCH_LAUNCH_SECONDS 8.0
/* A batch is measured once its passes would take this long (kernel time), or a
 * quarter of a configuration's time limit, whichever is less: a batch is measured
 * within the time limit of the configuration submitted last. */
#define BATCH_SECONDS 8.0

static bool counters_wanted(const struct mmb_session *s)
{
    return s->opts.counters && mmb_metric_set_size(&s->metrics) > 0;
}

/* Kernel seconds of one launch's passes, from its timed median. */
static double passes_seconds(const struct mmb_session *s, const struct mmb_row *row, bool cold)
{
    double launches = cold ? 1.0 : 2.0; /* hot: a warm-up launch before the measured one */
    return row->time_ms_median / 1000.0 * launches * (double)mmb_profiler_passes(s->profiler);
}

/* No row waits any more: the batch starts empty, and the problems kept for it close. */
static void batch_reset(struct mmb_session *s)
{
    s->npending = s->nbatch = 0;
    s->batch_kernel_s = 0.0;
    s->batch_ranges = 0;
    s->batch_unknown = false;
    for (int i = 0; i < s->nkept; i++)
        mmb_problem_close(s->kept[i]);
    s->nkept = 0;
    s->kept_bytes = 0;
}

/* Reads the counters of the waiting batch, then sends every waiting row to sink in
 * order. Returns 0, or the sink's nonzero. */
static int flush_pending(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx)
{
    if (s->nbatch > 0) {
        struct mmb_profiled_launch batch[MMB_PROFILER_BATCH_MAX];
        bool cold = false;
        size_t n = 0;
        for (int i = 0; i < s->npending; i++) {
            struct pending_row *pr = &s->pending[i];
            if (!pr->wants_counters)
                continue;
            batch[n++] = (struct mmb_profiled_launch){.launch = pr->ctx.launch, .ctx = &pr->ctx,
                                                      .kernels = pr->kernels,
                                                      .row = &pr->row};
            cold = pr->cold;
        }
        double t = mmb_seconds_now(), setup_s = 0.0;
        char err[512] = "";
        int passes = 0;
        enum mmb_status st = mmb_profiler_measure_batch(s->profiler, batch, n, cold, &passes, &setup_s, err,
                                                        sizeof err);
        s->phases.counter_passes += (size_t)passes;
        s->phases.counter_setup_seconds += setup_s;
        if (s->opts.verbose || st != MMB_STATUS_OK)
            fprintf(stderr, "mmbench %s: %scounters of %zu launch%s together: %s, %d passes%s%s\n",
                    mmb_session_command(s), st != MMB_STATUS_OK ? "warning: " : "", n, n == 1 ? "" : "es",
                    mmb_status_text(st),
                    passes, err[0] ? ": " : "", err);
        for (size_t i = 0; i < n; i++) {
            batch[i].row->counter_status = st;
            mmb_row_derive(batch[i].row);
        }
        mmb_session_phase_end(s, MMB_PHASE_COUNTERS, &t);
    }
    int rc = 0;
    for (int i = 0; i < s->npending; i++) {
        struct pending_row *pr = &s->pending[i];
        if (pr->wants_counters && pr->ctx.cached)
            pr->ctx.cached->pins--;
        if (rc == 0)
            rc = sink(sink_ctx, &pr->row, pr->ctx.samples, pr->ctx.nsamples);
        free(pr->ctx.samples);
        pr->ctx.samples = NULL;
    }
    batch_reset(s);
    return rc;
}

/* The context is gone: rows still waiting for counters are dropped (they were not
 * finished; a resumed sweep measures them again), the others go out. */
static int flush_after_loss(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx)
{
    int rc = 0;
    for (int i = 0; i < s->npending; i++) {
        struct pending_row *pr = &s->pending[i];
        if (pr->wants_counters && pr->ctx.cached)
            pr->ctx.cached->pins--;
        else if (!pr->wants_counters && rc == 0)
            rc = sink(sink_ctx, &pr->row, pr->ctx.samples, pr->ctx.nsamples);
        free(pr->ctx.samples);
        pr->ctx.samples = NULL;
    }
    batch_reset(s);
    return rc;
}

/* Makes room for one more waiting row: measures the batch when the queue is full or
 * when it holds launches of the other cache mode. Returns 0 or the sink's nonzero. */
static int make_room(struct mmb_session *s, bool cold, mmb_row_sink sink, void *sink_ctx)
{
    if (s->npending == PENDING_MAX || (s->nbatch > 0 && s->pending[0].cold != cold))
        return flush_pending(s, sink, sink_ctx);
    return 0;
}

/* The counters of pr's launch (prepared, its row ok): into the batch when it may
 * share passes, else read alone now. Returns the kernel ranges it adds to a pass. */
static size_t counters_take(struct mmb_session *s, struct pending_row *pr, const struct mmb_kernel_spec *kernel,
                            const struct mmb_eval_options *eo, bool cold)
{
    const struct kernel_engine *engine = mmb_session_engine_of(kernel->kind);
    double alone = s->profiler ? passes_seconds(s, &pr->row, cold) : INFINITY;
    if (counters_wanted(s) && s->profiler && alone <= BATCH_LAUNCH_SECONDS &&
        (eo->time_limit <= 0 || alone <= eo->time_limit / 8) &&
        ((pr->kernels = engine->kernels(&pr->ctx)) > 0 || !s->batch_unknown)) {
        pr->wants_counters = true;
        s->batch_unknown = s->batch_unknown || pr->kernels == 0;
        if (pr->ctx.cached)
            pr->ctx.cached->pins++;
        s->nbatch++;
        s->batch_kernel_s += alone;
        size_t ranges = mmb_profiler_launch_ranges(s->profiler, pr->kernels, cold);
        s->batch_ranges += ranges;
        return ranges;
    }
    double t = mmb_seconds_now();
    mmb_session_read_counters(s, &pr->ctx, cold, &pr->row);
    mmb_session_phase_end(s, MMB_PHASE_COUNTERS, &t);
    mmb_row_derive(&pr->row);
    return 0;
}

/* Measures the batch once it is as large as it may grow, or now when nothing waits
 * for counters. Returns 0 or the sink's nonzero. */
static int batch_close(struct mmb_session *s, const struct mmb_eval_options *eo, size_t launch_ranges,
                       mmb_row_sink sink, void *sink_ctx)
{
    double most = BATCH_SECONDS;
    if (eo->time_limit > 0 && eo->time_limit / 4 < most)
        most = eo->time_limit / 4;
    /* measured once another launch like this one would not fit in a pass's ranges */
    bool ranges_full = s->batch_ranges + launch_ranges > MMB_PROFILER_PASS_RANGES_MAX;
    if (s->nbatch == 0 || s->nbatch >= s->batch_max || s->npending == PENDING_MAX || s->batch_kernel_s >= most ||
        ranges_full)
        return flush_pending(s, sink, sink_ctx);
    return 0;
}

int mmb_session_submit(struct mmb_session *s, struct mmb_problem *p, const struct mmb_kernel_spec *kernel,
                       const struct mmb_config *cfg, const struct mmb_eval_options *eo, const struct mmb_row *identity,
                       mmb_row_sink sink, void *sink_ctx, bool *device_lost)
{
    bool cold = eo->cache == MMB_CACHE_COLD;
    size_t launch_ranges = 0; /* of this launch, when it joins the batch */
    int rc;
    if ((rc = make_room(s, cold, sink, sink_ctx)) != 0)
        return rc;
    struct pending_row *pr = &s->pending[s->npending++];
    pr->row = *identity;
    pr->cold = cold;
    pr->wants_counters = false;
    enum mmb_status st = mmb_session_measure(s, &pr->ctx, p, kernel, cfg, eo, &pr->row, device_lost);
    if (*device_lost)
        return flush_after_loss(s, sink, sink_ctx);
    if (st == MMB_STATUS_OK && eo->time_only)
        mmb_row_derive(&pr->row);
    else if (st == MMB_STATUS_OK)
        launch_ranges = counters_take(s, pr, kernel, eo, cold);
    return batch_close(s, eo, launch_ranges, sink, sink_ctx);
}

int mmb_session_submit_best(struct mmb_session *s, struct mmb_problem *p, const struct mmb_kernel_spec *kernel,
                            const struct mmb_config *cfg, const struct mmb_eval_options *eo,
                            const struct mmb_row *measured, bool counters, bool energy, mmb_row_sink sink,
                            void *sink_ctx)
{
    bool cold = eo->cache == MMB_CACHE_COLD;
    int rc;
    if ((rc = make_room(s, cold, sink, sink_ctx)) != 0)
        return rc;
    struct pending_row *pr = &s->pending[s->npending++];
    pr->row = *measured;
    pr->cold = cold;
    pr->wants_counters = false;
    double t = mmb_seconds_now();
    /* the module is in the session's cache, or its cubin in the disk cache */
    enum mmb_status st = mmb_session_prepare(s, &pr->ctx, p, kernel, cfg, &pr->row);
    mmb_session_phase_end(s, energy ? MMB_PHASE_ENERGY : MMB_PHASE_COUNTERS, &t);
    size_t launch_ranges = 0;
    if (st != MMB_STATUS_OK) { /* it was prepared before: what changed is said, the timing kept */
        if (counters)
            pr->row.counter_status = st;
        if (energy)
            mmb_session_energy_status(&pr->row, MMB_ENERGY_STATUS_FAILED);
        fprintf(stderr, "mmbench %s: warning: %s %s: preparing it again for its %s failed: %s\n",
                mmb_session_command(s), kernel->name, pr->row.params,
                counters && energy ? "counters and energy" : counters ? "counters" : "energy", pr->row.reason);
        pr->row.status = measured->status;
        snprintf(pr->row.reason, sizeof pr->row.reason, "%s", measured->reason);
        return batch_close(s, eo, launch_ranges, sink, sink_ctx);
    }
    if (energy) {
        char err[512] = "";
        st = mmb_session_energy_again(s, &pr->ctx, &pr->row, err, sizeof err);
        mmb_session_phase_end(s, MMB_PHASE_ENERGY, &t);
        if (st != MMB_STATUS_OK) { /* the GPU failed in the window: the row's timing stands */
            mmb_session_energy_status(&pr->row, MMB_ENERGY_STATUS_FAILED);
            fprintf(stderr, "mmbench %s: warning: %s %s: its energy window failed: %s: %s\n", mmb_session_command(s),
                    kernel->name, pr->row.params, mmb_status_text(st), err);
        }
    }
    if (counters)
        launch_ranges = counters_take(s, pr, kernel, eo, cold);
    else
        mmb_row_derive(&pr->row);
    return batch_close(s, eo, launch_ranges, sink, sink_ctx);
}

int mmb_session_discard(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx)
{
    return s->npending ? flush_after_loss(s, sink, sink_ctx) : 0;
}

int mmb_session_flush(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx)
{
    return s->npending ? flush_pending(s, sink, sink_ctx) : 0;
}

int mmb_session_problem_done(struct mmb_session *s, struct mmb_problem *p, mmb_row_sink sink, void *sink_ctx)
{
    bool waited_on = false;
    for (int i = 0; i < s->npending && !waited_on; i++)
        waited_on = s->pending[i].wants_counters && s->pending[i].ctx.p == p;
    if (!waited_on) {
        mmb_problem_close(p);
        return 0;
    }
    size_t free_b = 0, total_b = 0, bytes = mmb_problem_device_bytes(p);
    bool room = s->nkept < KEPT_PROBLEMS_MAX && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess &&
                s->kept_bytes + bytes <= free_b / 4;
    if (!room) { /* the batch now, and every problem it kept with p */
        int rc = flush_pending(s, sink, sink_ctx);
        mmb_problem_close(p);
        return rc;
    }
    s->kept[s->nkept++] = p;
    s->kept_bytes += bytes;
    return 0;
}
