/* session.c - measuring one configuration on one problem: prepare (session_kernels.c),
 * verify (a launch of the protocol's on a poisoned output, against the reference),
 * time, read counters.
 * Every failure becomes the row's status and reason. Counters read in batches are
 * session_batch.c's. Also what its rows say of their origin: each kernel's source
 * digest (read once per session), a library's name and version, a configuration's
 * NVRTC options on this GPU, and the protocol of the session's timing and counting. */
#include "cuda/session/session.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/cupti.h"
#include "cuda/l2flush.h"
#include "cuda/problem/blas.h"
#include "cuda/problem/reference.h"
#include "cuda/problem/verify.h"
#include "cuda/session/session_impl.h"
#include "cuda/timer.h"
#include "model/inputs.h"
#include "model/library.h"
#include "results/peaks.h"
#include "results/protocol.h"
#include "results/resume.h"

static enum mmb_status open_resources(struct mmb_session *s, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    MMB_CHECK_CUDA(e = cudaSetDevice(s->opts.device), return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking), return mmb_gpu_status_of(e));
    if ((st = mmb_l2_flush_open(&s->flush, s->opts.device, s->opts.l2_flush, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = mmb_timer_open(&s->timer, s->dev.uuid, s->stream, s->flush, err, errlen)) != MMB_STATUS_OK)
        return st;
    mmb_session_power_open(s);
    if ((st = mmb_reference_open(&s->ref, s->arch, s->opts.cache_dir, s->stream, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = mmb_verifier_open(&s->verifier, s->arch, s->opts.cache_dir, err, errlen)) != MMB_STATUS_OK)
        return st;
    s->counter_note[0] = '\0';
    if (s->opts.counters && mmb_metric_set_size(&s->metrics) > 0) {
        char why[512] = "";
        st = mmb_profiler_open(&s->profiler, s->opts.device, &s->metrics, s->flush, s->stream, why, sizeof why);
        if (st != MMB_STATUS_OK) {
            s->profiler = NULL;
            snprintf(s->counter_note, sizeof s->counter_note, "%s", why);
        }
    }
    return MMB_STATUS_OK;
}

static void close_resources(struct mmb_session *s)
{
    mmb_session_unload_modules(s);
    mmb_profiler_close(s->profiler);
    s->profiler = NULL;
    mmb_verifier_close(s->verifier);
    s->verifier = NULL;
    mmb_reference_close(s->ref);
    s->ref = NULL;
    mmb_timer_close(s->timer);
    s->timer = NULL;
    mmb_l2_flush_close(s->flush);
    s->flush = NULL;
    if (s->stream)
        cudaStreamDestroy(s->stream);
    s->stream = NULL;
}

int mmb_session_batch_size(int *out, char *err, size_t errlen)
{
    const char *text = getenv("MMB_COUNTER_BATCH");
    *out = MMB_PROFILER_BATCH_MAX;
    if (!text)
        return 0;
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > MMB_PROFILER_BATCH_MAX) {
        mmb_errorf(err, errlen, "MMB_COUNTER_BATCH=%s: expected a whole number from 1 to %d", text,
                   MMB_PROFILER_BATCH_MAX);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int mmb_session_open(struct mmb_session **out, const struct mmb_session_options *opts,
                     char *err, size_t errlen)
{
    struct mmb_session *s = calloc(1, sizeof *s);
    if (!s) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    s->opts = *opts;
    if (mmb_gpu_query(opts->device, &s->dev, err, errlen) != 0)
        goto fail;
    s->arch = s->dev.cc_major * 10 + s->dev.cc_minor;
    if (opts->counters && opts->metrics)
        s->metrics = *opts->metrics;
    s->opts.metrics = &s->metrics; /* not the caller's, which may go first */
    if (mmb_session_batch_size(&s->batch_max, err, errlen) != 0)
        goto fail;
    /* Aligned as its launch contexts' tensor maps are. */
    if (!(s->pending = aligned_alloc(_Alignof(struct pending_row), PENDING_MAX * sizeof *s->pending))) {
        mmb_errorf(err, errlen, "out of host memory");
        goto fail;
    }
    memset(s->pending, 0, PENDING_MAX * sizeof *s->pending);
    if (open_resources(s, err, errlen) != MMB_STATUS_OK)
        goto fail;
    *out = s;
    return 0;
fail:
    mmb_session_close(s);
    return -1;
}

void mmb_session_close(struct mmb_session *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nkept; i++) /* problems kept for a batch never measured */
        mmb_problem_close(s->kept[i]);
    s->nkept = 0;
    close_resources(s);
    mmb_session_free_sources(s);
    for (int i = 0; s->pending && i < s->npending; i++)
        free(s->pending[i].ctx.samples);
    free(s->pending);
    free(s->last_samples);
    free(s);
}

const struct mmb_device_info *mmb_session_device(const struct mmb_session *s)
{
    return &s->dev;
}

const char *mmb_session_counter_note(const struct mmb_session *s)
{
    if (!s->opts.counters)
        return "counters off (--no-counters)";
    return s->counter_note;
}

void mmb_session_row_identity(const struct mmb_session *s, const struct mmb_profile *profile,
                              const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                              const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row)
{
    mmb_row_init(row);
    snprintf(row->gpu, sizeof row->gpu, "%s", s->dev.name);
    snprintf(row->gpu_uuid, sizeof row->gpu_uuid, "%s", s->dev.uuid);
    snprintf(row->cc, sizeof row->cc, "%d.%d", s->dev.cc_major, s->dev.cc_minor);
    row->sm_count = s->dev.sm_count;
    snprintf(row->driver, sizeof row->driver, "%s", s->dev.driver);
    snprintf(row->cuda, sizeof row->cuda, "%s", s->dev.runtime);
    row->peak_gbps = s->dev.peak_gbps;
    row->peak_gflops = s->dev.peak_gflops;
    snprintf(row->profile, sizeof row->profile, "%s", profile->name);
    snprintf(row->kernel, sizeof row->kernel, "%s", k->name);
    if (cfg)
        mmb_space_format_params(k, cfg, row->params, sizeof row->params);
    snprintf(row->dtype, sizeof row->dtype, "%s", mmb_dtype_info(dtype)->text);
    /* the pipe whose peak the row is measured against: the library's for its dtype,
     * else the dtype's; its fallback where this GPU lacks it */
    enum mmb_pipe pipe = k->kind == MMB_KERNEL_SOURCE ? mmb_dtype_info(dtype)->pipe
                                                      : mmb_library_pipe(mmb_library_of(k->kind), dtype);
    pipe = mmb_pipe_on(s->dev.cc_major, s->dev.cc_minor, pipe);
    snprintf(row->pipe, sizeof row->pipe, "%s", mmb_pipe_info(pipe)->text);
    row->m = size->m;
    row->n = size->n;
    row->k = size->k;
    snprintf(row->cache, sizeof row->cache, "%s", mmb_cache_text(profile->cache));
    /* until measured: a row that never runs correctly keeps not_run (or off) */
    mmb_session_energy_status(row, s->opts.energy.mode == MMB_ENERGY_OFF ? MMB_ENERGY_STATUS_OFF
                                                                         : MMB_ENERGY_STATUS_NOT_RUN);
}

/* ---- a row's origin (results/resume.h): source digest, compile options, protocol ---- */

int mmb_session_protocol(const struct mmb_session *s, const struct mmb_eval_options *eo, enum mmb_counters counters,
                         char *out, size_t len)
{
    struct mmb_protocol_spec spec = {
        .version = MMB_VERSION, .warmup = eo->warmup, .timing = eo->timing, .cache = eo->cache,
        .l2_flush = s->flush ? mmb_l2_flush_method(s->flush) : NULL,
        .metrics = s->opts.counters ? &s->metrics : NULL, .counter_mode = mmb_counters_text(counters),
        .counter_batch = s->batch_max, .energy_known = true,
        .energy_mode = mmb_energy_mode_text(s->opts.energy.mode),
        .energy_seconds = s->opts.energy.seconds, .throttle_retries = s->opts.energy.throttle_retries,
        .throttle_threshold = s->opts.energy.throttle_threshold,
    };
    mmb_profiler_env_modes(&spec.cupti_setup, &spec.cupti_replay);
    return mmb_protocol_format(&spec, out, len);
}

/* "cuBLAS 13.1.0", or "cuBLASLt 13.1.0" for a dtype whose library call is
 * cuBLASLt's: the library that computes the row, and its version, asked once. */
static void library_version(struct mmb_session *s, const struct mmb_library *lib, enum mmb_dtype dtype, char *out,
                            size_t len)
{
    if (lib->kind != MMB_KERNEL_CUBLAS) {
        snprintf(out, len, "%s", lib->name);
        return;
    }
    if (!s->blas_versions_done) {
        char err[256];
        int built;
        if (mmb_blas_versions(&built, &s->blas_versions[0], &s->blas_versions[1], err, sizeof err) != 0)
            s->blas_versions[0] = s->blas_versions[1] = 0;
        s->blas_versions_done = true;
    }
    bool lt = mmb_dtype_info(dtype)->blas.api == MMB_BLAS_LT_MATMUL;
    int v = s->blas_versions[lt];
    if (v > 0)
        snprintf(out, len, "%s %d.%d.%d", lt ? "cuBLASLt" : "cuBLAS", v / 10000, v / 100 % 100, v % 100);
    else
        snprintf(out, len, "%s (version unknown)", lt ? "cuBLASLt" : "cuBLAS");
}

static void source_origin(struct mmb_session *s, const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                          const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row)
{
    char err[512];
    struct cached_source *src = mmb_session_source(s, k->source, err, sizeof err);
    if (src && !src->digest_done) {
        struct mmb_row tmp;
        mmb_row_init(&tmp);
        if (mmb_row_set_source_digest(&tmp, k, src->text, err, sizeof err) == 0)
            snprintf(src->digest, sizeof src->digest, "%s", tmp.source_digest);
        src->digest_done = true;
    }
    if (src)
        snprintf(row->source_digest, sizeof row->source_digest, "%s", src->digest);
    struct mmb_defines d;
    bool specific = false;
    if (!cfg || mmb_compile_defines(k, cfg, size, dtype, &d, err, sizeof err) != 0)
        return;
    (void)mmb_kernel_target(k, s->arch, &specific, err, sizeof err);
    struct mmb_compile_request req = {
        .source_path = k->source, .function = d.function, .defines = d.list, .arch = s->arch,
        .arch_specific = specific, .extra_options = k->nvrtc_options, .prelude = k->prelude,
    };
    if (mmb_compile_options_text(&req, k->nparams, row->compile_options, sizeof row->compile_options, err,
                                 sizeof err) != 0)
        row->compile_options[0] = '\0';
}

void mmb_session_row_origin(struct mmb_session *s, const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                            const struct mmb_size *size, enum mmb_dtype dtype, const char *protocol,
                            struct mmb_row *row)
{
    row->source_digest[0] = row->compile_options[0] = '\0';
    snprintf(row->protocol, sizeof row->protocol, "%s", protocol ? protocol : "");
    const struct mmb_library *lib = mmb_library_of(k->kind);
    if (lib)
        library_version(s, lib, dtype, row->source_digest, sizeof row->source_digest);
    else
        source_origin(s, k, cfg, size, dtype, row);
}

/* ---- where the time goes ---- */

static const char *const phase_names[MMB_PHASE_COUNT] = {"problems", "prepare", "verify", "timing", "counters",
                                                         "energy"};

const char *mmb_phase_text(enum mmb_phase phase)
{
    return (unsigned)phase < MMB_PHASE_COUNT ? phase_names[phase] : "?";
}

const struct mmb_phase_times *mmb_session_phase_times(const struct mmb_session *s)
{
    return &s->phases;
}

void mmb_phase_times_format(const struct mmb_phase_times *t, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "%zu configuration%s:", t->configurations,
                                   t->configurations == 1 ? "" : "s");
    const char *sep = " ";
    for (int i = 0; i < MMB_PHASE_COUNT && used < len; i++) {
        if (t->seconds[i] <= 0.0)
            continue;
        used += (size_t)snprintf(out + used, len - used, "%s%s %.2f s", sep, phase_names[i], t->seconds[i]);
        sep = ", ";
        if (i == MMB_PHASE_TIMING && used < len)
            used += (size_t)snprintf(out + used, len - used, " (kernels %.2f s)", t->timed_kernel_seconds);
        if (i == MMB_PHASE_COUNTERS && used < len)
            used += (size_t)snprintf(out + used, len - used, " (%zu passes, set-up %.2f s)", t->counter_passes,
                                     t->counter_setup_seconds);
        if (i == MMB_PHASE_ENERGY && used < len)
            used += mmb_session_energy_format(t, out + used, len - used);
    }
    if (t->throttle_retries && used < len)
        used += (size_t)snprintf(out + used, len - used,
                                 "; %zu timed again for throttled clocks, %zu still throttled (flagged)",
                                 t->throttle_retries, t->throttled_rows);
    if (t->throttled_kept && used < len)
        snprintf(out + used, len - used, "; %zu throttled above the threshold clock (flagged, not timed again)",
                 t->throttled_kept);
}

void mmb_session_counter_steps(const struct mmb_session *s, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    if (!s->profiler)
        return;
    used += (size_t)snprintf(out, len, "counter steps:");
    for (int i = 0; i < MMB_PROFILER_STEP_COUNT && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s %s %.2f s", i ? "," : "",
                                 mmb_profiler_step_text((enum mmb_profiler_step)i),
                                 mmb_profiler_step_seconds(s->profiler, (enum mmb_profiler_step)i));
    const char *sep = "; by pass:";
    for (size_t i = 0; i < mmb_profiler_passes(s->profiler) + 4 && used < len; i++) {
        double sec = mmb_profiler_pass_seconds(s->profiler, i);
        if (sec <= 0.0)
            continue;
        used += (size_t)snprintf(out + used, len - used, "%s %zu %.2f s", sep, i + 1, sec);
        sep = ",";
    }
}

const char *mmb_session_command(const struct mmb_session *s)
{
    return s->opts.command ? s->opts.command : "mmbench";
}

void mmb_session_phase_end(struct mmb_session *s, enum mmb_phase phase, double *since)
{
    double now = mmb_seconds_now();
    s->phases.seconds[phase] += now - *since;
    *since = now;
}

/* ---- problems (problem.c) on this session's device ---- */

enum mmb_status mmb_session_problem_open(struct mmb_session *s, const struct mmb_size *size, enum mmb_dtype dtype,
                                         unsigned long long seed, struct mmb_problem **out, char *err, size_t errlen)
{
    double t0 = mmb_seconds_now();
    enum mmb_status st = mmb_problem_open(s->ref, s->stream, size, dtype, seed, out, err, errlen);
    mmb_session_phase_end(s, MMB_PHASE_PROBLEM, &t0);
    return st;
}

void mmb_session_read_counters(struct mmb_session *s, struct launch_ctx *c, bool cold, struct mmb_row *row)
{
    if (!s->opts.counters || mmb_metric_set_size(&s->metrics) == 0) {
        row->counter_status = MMB_STATUS_SKIPPED;
        return;
    }
    if (!s->profiler) {
        row->counter_status = MMB_STATUS_PROFILING_DENIED;
        return;
    }
    char err[512] = "";
    double duration_ns = NAN, setup_s = 0.0;
    int passes = 0;
    enum mmb_status st = mmb_profiler_measure(s->profiler, c->launch, c, cold, row, &duration_ns,
                                              &passes, &setup_s, err, sizeof err);
    row->counter_status = st;
    s->phases.counter_passes += (size_t)passes;
    s->phases.counter_setup_seconds += setup_s;
    if (s->opts.verbose || st != MMB_STATUS_OK)
        fprintf(stderr, "mmbench %s: %scounters: %s, %d passes, %.0f ns%s%s\n", mmb_session_command(s),
                st != MMB_STATUS_OK ? "warning: " : "", mmb_status_text(st), passes, duration_ns, err[0] ? ": " : "",
                err);
}

/* Which launch of the protocol is verified: correct first, one launch on a poisoned
 * output, compared on the GPU with the reference (verify.h). It is a launch the
 * protocol runs anyway where one is free to be: cold without warm-up the first timed
 * launch (after its flush, as every timed one), with warm-up the first warm-up
 * launch; hot without warm-up a launch of its own, which is then the timed launches'
 * warm-up. The comparison follows the launch, except hot with one warm-up: there it
 * follows the timed launches, so that these follow the warm-up as they would without
 * verification (the comparison reads C and the reference through L2). Every launch
 * writes all of C, so a C compared after more launches is still checked whole. */
enum verified_launch { VERIFY_OWN, VERIFY_FIRST_TIMED, VERIFY_FIRST_WARMUP };

static enum verified_launch verified_launch_of(const struct mmb_eval_options *eo)
{
    bool cold = eo->cache == MMB_CACHE_COLD;
    if (eo->warmup >= 1)
        return VERIFY_FIRST_WARMUP;
    return cold ? VERIFY_FIRST_TIMED : VERIFY_OWN;
}

static bool compare_after_timing(const struct mmb_eval_options *eo)
{
    return eo->cache != MMB_CACHE_COLD && eo->warmup == 1;
}

/* Poisons C and enqueues the verified launch. */
static enum mmb_status verify_launch(struct mmb_session *s, struct launch_ctx *c, enum verified_launch which,
                                     bool cold, struct mmb_row *row, bool *device_lost)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    cudaError_t e;
    enum mmb_status st;
    struct mmb_problem *p = c->p;
    size_t count = (size_t)p->size.m * (size_t)p->size.n;
    MMB_CHECK_CUDA(e = cudaMemsetAsync(p->dC, mmb_inputs_poison_byte(p->dtype), count * p->osize, s->stream),
                   *device_lost = true; return mmb_gpu_status_of(e));
    if (which == VERIFY_FIRST_TIMED)
        st = mmb_timer_launch_first(s->timer, c->launch, c, true, err, errlen);
    else if (which == VERIFY_FIRST_WARMUP)
        st = mmb_timer_launch_warmup(s->timer, c->launch, c, cold, err, errlen);
    else
        st = c->launch(c, err, errlen);
    if (st != MMB_STATUS_OK)
        *device_lost = st == MMB_STATUS_LAUNCH_ERROR;
    return st;
}

/* Compares C, as the verified launch (and any launch after it) left it, with the
 * reference. Returns the row's status. */
static enum mmb_status verify_compare(struct mmb_session *s, struct launch_ctx *c, const struct kernel_engine *engine,
                                      const struct mmb_eval_options *eo, struct mmb_row *row, bool *device_lost)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    struct mmb_problem *p = c->p;
    size_t count = (size_t)p->size.m * (size_t)p->size.n;
    struct mmb_compare cmp;
    enum mmb_status st = mmb_verifier_compare(s->verifier, s->stream, p->dC, p->dRef, count, p->dtype, p->ref_max,
                                              eo->tolerance, &cmp, err, errlen);
    if (st != MMB_STATUS_OK) {
        *device_lost = true; /* the kernel under test ran just before: its fault shows here */
        return st;
    }
    /* cuBLAS's own output is the reference for f32 and f64: its error is the reference's
     * against the host; for the other dtypes it is checked as any kernel's */
    bool is_reference = engine->is_reference && mmb_dtype_info(p->dtype)->ref_kind == MMB_REF_CUBLAS;
    row->max_rel_err = is_reference ? p->ref_err : cmp.max_rel_err;
    if (!cmp.ok) {
        mmb_errorf(err, errlen, "%zu of %zu elements beyond tolerance %.3g; first at row %lld column %lld",
                   cmp.mismatches, count, eo->tolerance, (long long)(cmp.first_bad / (size_t)p->size.n),
                   (long long)(cmp.first_bad % (size_t)p->size.n));
        return MMB_STATUS_WRONG_RESULT;
    }
    return MMB_STATUS_OK;
}

static void record_timing(struct mmb_session *s, struct launch_ctx *c, struct mmb_timing *tm, struct mmb_row *row)
{
    c->samples = tm->samples;
    c->nsamples = tm->stats.n;
    tm->samples = NULL;
    row->repeats = (long long)tm->stats.n;
    row->time_ms_median = tm->stats.median;
    row->time_ms_min = tm->stats.min;
    row->time_ms_max = tm->stats.max;
    row->time_ms_stddev = tm->stats.stddev;
    row->noise_pct = 100.0 * tm->noise;
    const char *stop = mmb_stop_text(tm->stop);
    snprintf(row->stopped_by, sizeof row->stopped_by, "%s", stop ? stop : "");
    row->sm_clock_mhz = tm->sm_clock_mhz;
    s->phases.timed_kernel_seconds += tm->launched_ms / 1000.0;
    if (s->opts.verbose)
        fprintf(stderr, "mmbench %s: timing: %zu launches, noise %.3g%%, stopped by %s\n", mmb_session_command(s),
                tm->stats.n, row->noise_pct, row->stopped_by);
}

/* What any launch of kernel on p needs before its engine prepares it: an engine, and
 * matrices the kernel ABI can index. Returns the engine, or NULL with the row's
 * status (skipped) and reason. */
static const struct kernel_engine *launch_start(struct mmb_session *s, struct launch_ctx *c, struct mmb_problem *p,
                                                const struct mmb_kernel_spec *kernel, struct mmb_row *row)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    *c = (struct launch_ctx){.s = s, .p = p, .kernel = kernel,
                             .M = (int)p->size.m, .N = (int)p->size.n, .K = (int)p->size.k};
    size_t count = (size_t)p->size.m * (size_t)p->size.n;
    row->reason[0] = '\0';
    const struct kernel_engine *engine = mmb_session_engine_of(kernel->kind);
    if (!engine) {
        mmb_errorf(err, errlen, "kernel '%s' is of no kind this session can run", kernel->name);
        row->status = MMB_STATUS_SKIPPED;
        return NULL;
    }
    c->launch = engine->launch;
    if (p->size.m * p->size.k > INT32_MAX || p->size.k * p->size.n > INT32_MAX || (long long)count > INT32_MAX) {
        mmb_errorf(err, errlen, "a matrix of more than 2^31 elements: the kernel ABI indexes with int");
        row->status = MMB_STATUS_SKIPPED;
        return NULL;
    }
    return engine;
}

enum mmb_status mmb_session_prepare(struct mmb_session *s, struct launch_ctx *c, struct mmb_problem *p,
                                    const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                    struct mmb_row *row)
{
    const struct kernel_engine *engine = launch_start(s, c, p, kernel, row);
    return engine ? engine->prepare(s, c, cfg, row) : row->status;
}

enum mmb_status mmb_session_measure(struct mmb_session *s, struct launch_ctx *c, struct mmb_problem *p,
                                    const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                    const struct mmb_eval_options *eo, struct mmb_row *row, bool *device_lost)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    double t = mmb_seconds_now();
    *device_lost = false;
    const struct kernel_engine *engine = launch_start(s, c, p, kernel, row);
    if (!engine)
        return row->status;
    s->phases.configurations++;
    row->status = engine->prepare(s, c, cfg, row);
    mmb_session_phase_end(s, MMB_PHASE_PREPARE, &t);
    if (row->status != MMB_STATUS_OK)
        return row->status;

    bool cold = eo->cache == MMB_CACHE_COLD;
    enum verified_launch which = verified_launch_of(eo);
    bool compare_late = compare_after_timing(eo);
    row->status = verify_launch(s, c, which, cold, row, device_lost);
    if (row->status == MMB_STATUS_OK && !compare_late)
        row->status = verify_compare(s, c, engine, eo, row, device_lost);
    mmb_session_phase_end(s, MMB_PHASE_VERIFY, &t);
    if (row->status != MMB_STATUS_OK)
        return row->status;

    /* timed again, a bounded number of times, while a limit throttles the clocks; the
     * verified launch and a late comparison belong to the first attempt only */
    for (int attempt = 0;; attempt++) {
        struct mmb_timing tm;
        bool first = attempt == 0;
        int warmup = first && which == VERIFY_FIRST_WARMUP ? eo->warmup - 1 : eo->warmup;
        mmb_clock_watch_reset(&s->watch, s->have_nvml ? &s->nvml : NULL);
        row->status = mmb_timer_measure(s->timer, c->launch, c, warmup, &eo->timing, cold,
                                        first && which == VERIFY_FIRST_TIMED, &tm, err, errlen);
        mmb_session_phase_end(s, MMB_PHASE_TIMING, &t);
        if (row->status != MMB_STATUS_OK) {
            *device_lost = row->status == MMB_STATUS_LAUNCH_ERROR;
            return row->status;
        }
        if (first && compare_late) {
            row->status = verify_compare(s, c, engine, eo, row, device_lost);
            mmb_session_phase_end(s, MMB_PHASE_VERIFY, &t);
            if (row->status != MMB_STATUS_OK) {
                free(tm.samples); /* the timing of a wrong result is not kept */
                return row->status;
            }
        }
        record_timing(s, c, &tm, row);
        row->status = mmb_session_measure_power(s, c, tm.stats.median, eo->energy_later, row, err, errlen);
        mmb_session_phase_end(s, MMB_PHASE_ENERGY, &t);
        if (row->status != MMB_STATUS_OK) {
            *device_lost = row->status == MMB_STATUS_LAUNCH_ERROR;
            return row->status;
        }
        if (!mmb_session_throttled_again(s, row, attempt))
            return row->status;
    }
}

enum mmb_status mmb_session_evaluate(struct mmb_session *s, struct mmb_problem *p,
                                     const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                     const struct mmb_eval_options *eo, struct mmb_row *row,
                                     const double **samples, size_t *nsamples, bool *device_lost)
{
    struct launch_ctx c;
    enum mmb_status st = mmb_session_measure(s, &c, p, kernel, cfg, eo, row, device_lost);
    free(s->last_samples);
    s->last_samples = c.samples;
    if (samples)
        *samples = c.samples;
    if (nsamples)
        *nsamples = c.samples ? c.nsamples : 0;
    if (st == MMB_STATUS_OK && !eo->time_only) {
        double t = mmb_seconds_now();
        mmb_session_read_counters(s, &c, eo->cache == MMB_CACHE_COLD, row);
        mmb_session_phase_end(s, MMB_PHASE_COUNTERS, &t);
    }
    if (row->status == MMB_STATUS_OK)
        mmb_row_derive(row);
    return row->status;
}
