/* tune_kernel.c - `mmbench tune` for one kernel at one problem: the tuner with the
 * session as its evaluator (each configuration announced to the supervisor with its
 * time limit first), the compile pool running ahead of it, rows to the results CSV,
 * then a summary against cuBLAS and the T4 file. */
#include "cmd/tune/tune_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/common.h"
#include "cmd/supervise.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/imap.h"
#include "model/space.h"
#include "results/best/best.h"
#include "results/protocol.h"
#include "results/resume.h"
#include "results/t4/t4.h"
#include "search/strategy.h"
#include "search/tuner.h"

/* Proposals the tuner peeks at after each one: sparse spaces (seed 002's kernel keeps
 * 44 of 288) need many to find enough allowed configurations for every worker. */
#define LOOKAHEAD 256

/* The callbacks' context: one kernel at one problem. */
struct job {
    struct tune_run *run;
    const struct mmb_kernel_spec *kernel;
    const char *source;              /* NULL: nothing to compile (cuBLAS) */
    struct mmb_problem *problem;
    struct mmb_size size;
    enum mmb_dtype dtype;
    struct mmb_eval_options eo;
    struct mmb_imap compile_us;      /* index -> compile microseconds + 1 */
    double measure_s;
    size_t measured;
    double best_ms;
    char protocol[MMB_PROTOCOL_LEN]; /* of every row of the tune */
    /* the launch times of the row evaluated last, until it is recorded */
    double *samples;
    size_t nsamples;
    char samples_params[MMB_PARAMS_LEN];
    size_t stale[MMB_RESUME_COUNT];  /* rows of the file left out as measured otherwise */
    struct mmb_best *best;           /* counters or energy = best: this search's rows, held; NULL otherwise */
    struct mmb_config last_cfg;      /* of the row evaluated last, for holding it */
    bool last_evaluated;
    bool best_oom;
};

/* row with its origin as this tune writes it (results/resume.h): the configuration's
 * source digest, compile options and the tune's protocol. */
static void job_origin(const struct job *j, struct mmb_row *row)
{
    struct mmb_config cfg;
    size_t index;
    bool parsed = mmb_space_parse_params(j->kernel, row->params, &cfg, &index) == 0;
    mmb_session_row_origin(j->run->session, j->kernel, parsed ? &cfg : NULL, &j->size, j->dtype, j->protocol, row);
}

/* The history's filter: a row of the file counts unless it was measured otherwise
 * than this tune would measure it (another source, compile options or protocol, or
 * none recorded), which --keep-stale keeps. */
static bool job_keep(void *ctx, size_t index, const struct mmb_row *row)
{
    struct job *j = ctx;
    struct mmb_row want = *row;
    struct mmb_row_version v;
    job_origin(j, &want);
    mmb_row_version_of(row, &v);
    enum mmb_resume r = mmb_resume_decide(&v, &want);
    if (!mmb_resume_stale(r))
        return true;
    j->stale[r]++;
    return j->run->settings->keep_stale;
}

/* Ctrl-C, or a sticky GPU error: the row that hit it is recorded, then the search
 * stops so that a fresh process can go on (main.c restarts it). */
static bool should_stop(void *ctx)
{
    const struct job *j = ctx;
    return mmb_watch_interrupted() || j->run->device_lost;
}

/* ---- the tuner's callbacks ---- */

static int job_evaluate(void *ctx, size_t index, const struct mmb_config *cfg, struct mmb_row *row,
                        char *err, size_t errlen)
{
    struct job *j = ctx;
    struct tune_run *r = j->run;
    job_origin(j, row); /* before the supervisor's watch: a timeout row carries it too */
    if (r->pool && j->source) {
        double ms;
        bool from_cache;
        mmb_compile_pool_wait(r->pool, j->kernel, cfg, &j->size, j->dtype, &ms, &from_cache);
        if (!isnan(ms) && mmb_imap_put(&j->compile_us, index, (uintptr_t)(ms * 1e3) + 1) != 0) {
            mmb_errorf(err, errlen, "out of host memory");
            return -1;
        }
    }
    if (r->progress) {
        fprintf(stderr, "\r\033[Kmmbench tune: [%zu measured, best %.4g ms] %s %s", j->measured, j->best_ms,
                j->kernel->name,
                row->params[0] ? row->params : "-");
        fflush(stderr);
    }
    double limit = r->settings->timeout > 0 ? r->settings->timeout : r->profile->timeout;
    mmb_watch_begin(row, r->csv_path, limit);
    bool lost = false;
    double t0 = mmb_seconds_now();
    struct mmb_eval_options eo = j->eo;
    eo.time_only = j->best && r->counters != MMB_COUNTERS_ALL;
    eo.energy_later = r->energy == MMB_ENERGY_BEST;
    const double *samples = NULL;
    size_t nsamples = 0;
    mmb_session_evaluate(r->session, j->problem, j->kernel, cfg, &eo, row, &samples, &nsamples, &lost);
    j->last_cfg = *cfg;
    j->last_evaluated = true;
    free(j->samples);
    j->samples = NULL;
    j->nsamples = 0;
    if (samples && nsamples && (j->samples = malloc(nsamples * sizeof *samples))) {
        memcpy(j->samples, samples, nsamples * sizeof *samples);
        j->nsamples = nsamples;
        snprintf(j->samples_params, sizeof j->samples_params, "%s", row->params);
    }
    j->measure_s += mmb_seconds_now() - t0;
    j->measured++;
    r->measured++;
    if (row->status == MMB_STATUS_OK && !(row->time_ms_median >= j->best_ms))
        j->best_ms = row->time_ms_median;
    r->device_lost |= lost;
    return 0;
}

/* A row to the results file now, after its launch times (samples[0..nsamples), when
 * it has them). */
static int row_write(struct job *j, const struct mmb_row *row, const double *samples, size_t nsamples, char *err,
                     size_t errlen)
{
    struct tune_run *r = j->run;
    if (samples && nsamples && row->status == MMB_STATUS_OK &&
        mmb_samples_append(r->samples, row, samples, nsamples, err, errlen) != 0)
        return -1;
    if (mmb_csv_append_row(r->csv, row, err, errlen) != 0)
        return -1;
    mmb_watch_row("tune", row, r->settings->verbose, r->progress);
    return 0;
}

/* The row with its origin, and its launch times when it was the one evaluated last:
 * with counters or energy = best held with its search's, unless the device was lost measuring
 * it: then it is written now, so that a resumed tune does not run it again, and the
 * rows held are measured again. */
static int job_record(void *ctx, const struct mmb_row *measured, char *err, size_t errlen)
{
    struct job *j = ctx;
    struct mmb_row out = *measured, *row = &out;
    job_origin(j, row);
    const struct mmb_config *cfg = j->last_evaluated ? &j->last_cfg : NULL;
    j->last_evaluated = false;
    bool timed = j->samples && !strcmp(j->samples_params, row->params);
    const double *samples = timed ? j->samples : NULL;
    size_t nsamples = timed ? j->nsamples : 0;
    int rc = 0;
    if (j->best && !j->run->device_lost) {
        if (mmb_best_hold(j->best, row, cfg, samples, nsamples) != 0) {
            mmb_errorf(err, errlen, "out of host memory holding the rows of %s", j->kernel->name);
            rc = -1;
        }
    } else {
        rc = row_write(j, row, samples, nsamples, err, errlen);
    }
    free(j->samples);
    j->samples = NULL;
    j->nsamples = 0;
    if (rc != 0)
        return -1;
    mmb_watch_end(j->run->measured, 0); /* no total: the strategy decides when it is done */
    return 0;
}

/* counters or energy = best, the sinks of the search's rows: the fastest row, counted
 * and its energy measured, completes the group, whose rows are then written. */
struct best_sink {
    struct job *j;
    char *err;
    size_t errlen;
};

static int best_write(void *opaque, struct mmb_row *row, const double *samples, size_t nsamples)
{
    struct best_sink *b = opaque;
    return row_write(b->j, row, samples, nsamples, b->err, b->errlen);
}

static int best_counted(void *opaque, struct mmb_row *row, const double *samples, size_t nsamples)
{
    struct best_sink *b = opaque;
    (void)samples, (void)nsamples; /* neither counting nor the energy window times: the search holds the row's
                                    * launch times */
    if (mmb_best_completed(b->j->best, row) != 0) {
        mmb_errorf(b->err, b->errlen, "%s %s: completed, but no search waits for it", row->kernel, row->params);
        return -1;
    }
    return mmb_best_drain(b->j->best, best_write, b);
}

/* counters or energy = best: the search is over (or was stopped): its fastest row is
 * counted and its energy measured, then its rows are written; after a lost device
 * they are dropped instead. */
static int best_finish(struct job *j, char *err, size_t errlen)
{
    struct tune_run *r = j->run;
    if (r->device_lost) {
        size_t dropped = mmb_best_drop(j->best);
        if (dropped)
            fprintf(stderr, "mmbench tune: %zu measured rows not yet written are measured again when the tune goes "
                    "on\n", dropped);
        return 0;
    }
    struct best_sink sink = {j, err, errlen};
    struct mmb_config cfg;
    unsigned missing;
    const struct mmb_row *pick = mmb_best_close(j->best, &cfg, &missing);
    mmb_cmd_best_missing_warn("tune", j->kernel->name, &j->size, r->csv_path, missing);
    if (pick) {
        struct mmb_row row = *pick, id;
        mmb_session_row_identity(r->session, r->profile, j->kernel, &cfg, &j->size, j->dtype, &id);
        double limit = r->settings->timeout > 0 ? r->settings->timeout : r->profile->timeout;
        mmb_watch_begin(&id, r->csv_path, limit); /* a counting or window that never ends: its timeout */
        int rc = mmb_session_submit_best(r->session, j->problem, j->kernel, &cfg, &j->eo, &row,
                                         r->counters == MMB_COUNTERS_BEST, r->energy == MMB_ENERGY_BEST,
                                         best_counted, &sink);
        if (rc == 0)
            rc = mmb_session_flush(r->session, best_counted, &sink);
        mmb_watch_end(r->measured, 0);
        if (rc != 0)
            return -1;
    }
    return mmb_best_drain(j->best, best_write, &sink);
}

/* counters or energy = best: the rows the file already holds of this search, for mmb_best_close. */
static void best_history_row(void *ctx, size_t index, const struct mmb_row *row)
{
    struct job *j = ctx;
    if (mmb_best_history_add(j->best, row) != 0)
        j->best_oom = true;
}

/* Compiles ahead what the session would compile: not what the device refuses
 * before compiling (too many threads), nor what has no geometry. */
static void job_prefetch(void *ctx, const size_t *indices, size_t n)
{
    struct job *j = ctx;
    struct tune_run *r = j->run;
    if (!r->pool || !j->source)
        return;
    struct mmb_config *cfgs = malloc(n * sizeof *cfgs);
    if (!cfgs)
        return; /* compiling ahead is an optimisation: the session compiles anyway */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct mmb_geometry geo;
        char why[8];
        mmb_space_config_at(j->kernel, indices[i], &cfgs[m]);
        if (mmb_space_geometry(j->kernel, &cfgs[m], &j->size, mmb_dtype_info(j->dtype)->size, r->dev->sm_count, &geo, why,
                               sizeof why) != 0)
            continue;
        if (geo.block[0] * geo.block[1] * geo.block[2] > r->dev->max_threads_per_block)
            continue;
        m++;
    }
    (void)mmb_compile_pool_submit(r->pool, j->kernel, j->source, cfgs, m, &j->size, j->dtype);
    free(cfgs);
}

/* The search of kernel k at size x dtype as the plan asks for it (the reference: every
 * configuration, by time, in every worker), compiling ahead or not. */
static struct mmb_tuner_options tuner_options_of(const struct tune_run *r, const struct mmb_kernel_spec *k,
                                                 const struct mmb_row *id, const struct mmb_size *size,
                                                 enum mmb_dtype dtype, bool is_reference, bool compiles_ahead)
{
    const struct mmb_tune_plan *p = r->plan;
    return (struct mmb_tuner_options){
        .kernel = k, .identity = id, .size = *size, .elem_size = mmb_dtype_info(dtype)->size,
        .strategy = is_reference ? mmb_strategy_find("brute_force") : p->strategy, .seed = p->seed,
        .max_fevals = is_reference ? 0 : p->max_fevals, .time_limit = is_reference ? 0 : p->time_limit,
        .objective = p->objective, .record_restricted = p->record_restricted,
        .lookahead = compiles_ahead ? LOOKAHEAD : 0,
        .shard = is_reference ? (struct mmb_shard){0, 0} : r->shard, /* each worker needs the reference */
    };
}

void mmb_tune_kernel_prefetch(struct tune_run *r, const struct mmb_kernel_spec *k, const char *source,
                              const struct mmb_size *size, enum mmb_dtype dtype)
{
    if (!r->pool || !source)
        return;
    struct mmb_row id; /* what the shard of a configuration is decided on */
    mmb_row_init(&id);
    snprintf(id.kernel, sizeof id.kernel, "%s", k->name);
    snprintf(id.dtype, sizeof id.dtype, "%s", mmb_dtype_info(dtype)->text);
    id.m = size->m, id.n = size->n, id.k = size->k;
    struct mmb_tuner_options o = tuner_options_of(r, k, &id, size, dtype, false, true);
    /* the history is the tune's to load: what it holds is in the disk cache already */
    struct mmb_tune_history *h = mmb_tune_history_new();
    size_t *first = malloc((LOOKAHEAD + 1) * sizeof *first);
    if (h && first) {
        struct job j = {.run = r, .kernel = k, .source = source, .size = *size, .dtype = dtype};
        size_t n = mmb_tuner_first(&o, h, first, LOOKAHEAD + 1);
        if (n)
            job_prefetch(&j, first, n);
    }
    free(first);
    mmb_tune_history_free(h);
}

static double job_compile_ms(void *ctx, size_t index)
{
    struct job *j = ctx;
    uintptr_t us;
    return mmb_imap_get(&j->compile_us, index, &us) ? (double)(us - 1) / 1e3 : NAN;
}

/* ---- one kernel at one problem ---- */

static int t4_path_of(const struct tune_run *r, const struct mmb_row *id, char *out, size_t len)
{
    if (!r->settings->t4)
        return mmb_t4_path(r->csv_path, id, out, len);
    snprintf(out, len, "%s", r->settings->t4);
    return 0;
}

/* The T4 file of the problem, from the history: this run's rows and the resumed ones.
 * GPUs of one model share the CSV, so with other workers the rows they appended are
 * read in first. */
static int t4_export(FILE *f, const struct tune_run *r, struct job *j, struct mmb_tune_history *h,
                     const struct mmb_row *id, char *err, size_t errlen)
{
    char path[MMB_PATH_MAX + 128];
    size_t count = 0;
    if (t4_path_of(r, id, path, sizeof path) != 0) {
        mmb_errorf(err, errlen, "%s: too long a path for its T4 files", r->csv_path);
        return MMB_EXIT_FAILED;
    }
    if (r->nworkers > 1 && mmb_tune_history_load(h, r->csv_path, j->kernel, id, NULL, NULL, err, errlen) != 0)
        return MMB_EXIT_FAILED;
    char names[64];
    mmb_objective_names(&r->plan->objective, names, sizeof names);
    if (mmb_tune_history_export_t4(h, names, job_compile_ms, j, path, &count, err, errlen) != 0)
        return MMB_EXIT_FAILED;
    fprintf(f, "  t4: %s (%zu results)\n", path, count);
    return 0;
}

/* A two-objective search's front, best first objective first. */
static void print_front(FILE *f, const struct mmb_tune_plan *p, const struct mmb_tuner_result *res)
{
    const struct mmb_objective *o = &p->objective;
    if (!o->second)
        return;
    fprintf(f, "  Pareto front (%s, %s): %zu configuration%s\n", o->column->name, o->second->name, res->front.n,
           res->front.n == 1 ? "" : "s");
    for (size_t i = 0; i < res->front.n; i++) {
        const struct mmb_row *b = &res->front.v[i].row;
        fprintf(f, "    %s  %s %.6g  %s %.6g  (%.4f ms, %.1f GFLOP/s, %.4g J, %.1f W)\n", b->params, o->column->name,
               mmb_objective_value(o, b), o->second->name, res->front.v[i].score[1] * (o->second_maximize ? -1 : 1),
               b->time_ms_median, b->gflops, b->energy_j, b->power_w);
    }
}

static void print_summary(FILE *f, const struct tune_run *r, const struct job *j, const struct mmb_tuner_result *res,
                          const struct mmb_row *reference, const struct mmb_compile_pool_stats *pool)
{
    const struct mmb_tune_plan *p = r->plan;
    fprintf(f, "%s @ %lldx%lldx%lld %s: %s, objective %s; %zu configurations", j->kernel->name, j->size.m, j->size.n,
           j->size.k, mmb_dtype_info(j->dtype)->text, p->strategy->name, p->objective.text, res->space);
    if (!mmb_shard_is_all(&r->shard)) {
        char part[32];
        mmb_shard_text(&r->shard, part, sizeof part);
        fprintf(f, ", %zu of them in part %s", res->space - res->elsewhere, part);
    }
    if (res->allowed)
        fprintf(f, ", %zu allowed, %zu removed by restrictions", res->allowed, res->space - res->elsewhere - res->allowed);
    fprintf(f, "\n  %zu results used (%zu measured now, %zu from %s), %zu restricted met; stopped: %s\n", res->fevals,
           res->evaluated, res->resumed, r->csv_path, res->restricted, mmb_tuner_stop_text(res->stop));
    fprintf(f, "  rows written:");
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        if (res->by_status[s])
            fprintf(f, " %s %zu", mmb_status_text((enum mmb_status)s), res->by_status[s]);
    fprintf(f, "%s\n", res->recorded ? "" : " none");
    if (!res->have_best) {
        fprintf(f, "  best: none (no configuration ran correctly)\n");
    } else {
        const struct mmb_row *b = &res->best;
        fprintf(f, "  best: %s  %.4f ms  %.1f GFLOP/s", b->params, b->time_ms_median, b->gflops);
        if (strcmp(p->objective.column->name, "time_ms_median") && strcmp(p->objective.column->name, "gflops"))
            fprintf(f, "  %s %.6g", p->objective.column->name, mmb_objective_value(&p->objective, b));
        if (reference && reference->status == MMB_STATUS_OK && reference->time_ms_median > 0)
            fprintf(f, "  = %.1f%% of cuBLAS (%.4f ms, %.1f GFLOP/s)", 100.0 * reference->time_ms_median / b->time_ms_median,
                   reference->time_ms_median, reference->gflops);
        else
            fprintf(f, "  (no cuBLAS reference at this size)");
        fprintf(f, "\n");
    }
    print_front(f, p, res);
    double other = res->seconds - j->measure_s - pool->wait_seconds;
    fprintf(f, "  time: %.1f s = measuring %.1f s + waiting for the compiler %.1f s + other %.1f s; "
           "NVRTC %.1f s on %d thread%s (%zu through NVRTC, %zu from the cubin cache, %zu compile errors)\n",
           res->seconds, j->measure_s, pool->wait_seconds, other > 0 ? other : 0.0, pool->nvrtc_seconds,
           r->settings->jobs, r->settings->jobs == 1 ? "" : "s", pool->compiled, pool->cache_hits, pool->failed);
    /* One line for scripts (scripts/bench-tune.sh). */
    fprintf(f, "  timing kernel=%s size=%lldx%lldx%lld dtype=%s wall_s=%.3f measure_s=%.3f wait_s=%.3f nvrtc_s=%.3f "
           "compiled=%zu cache_hits=%zu measured=%zu\n",
           j->kernel->name, j->size.m, j->size.n, j->size.k, mmb_dtype_info(j->dtype)->text, res->seconds,
           j->measure_s, pool->wait_seconds, pool->nvrtc_seconds, pool->compiled, pool->cache_hits, res->evaluated);
}

static void stats_delta(struct mmb_compile_pool *pool, const struct mmb_compile_pool_stats *before,
                        struct mmb_compile_pool_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!pool)
        return;
    struct mmb_compile_pool_stats now;
    mmb_compile_pool_stats(pool, &now);
    out->submitted = now.submitted - before->submitted;
    out->compiled = now.compiled - before->compiled;
    out->cache_hits = now.cache_hits - before->cache_hits;
    out->failed = now.failed - before->failed;
    out->inline_compiles = now.inline_compiles - before->inline_compiles;
    out->nvrtc_seconds = now.nvrtc_seconds - before->nvrtc_seconds;
    out->wait_seconds = now.wait_seconds - before->wait_seconds;
}

/* --fail-on: a row of the history, in the CSV before this tune, told to the supervisor. */
static void resumed_tell(void *ctx, size_t index, const struct mmb_row *row)
{
    mmb_watch_resumed(row);
}

int mmb_tune_kernel(struct tune_run *r, const struct mmb_kernel_spec *k, const char *source,
                       struct mmb_problem *problem, const struct mmb_size *size, enum mmb_dtype dtype,
                       const struct mmb_row *reference, struct mmb_row *reference_out, char *err, size_t errlen)
{
    const struct mmb_profile *pr = r->profile;
    bool is_reference = reference_out != NULL;
    struct mmb_row id;
    mmb_session_row_identity(r->session, r->profile, k, NULL, size, dtype, &id);
    struct job j = {
        .run = r, .kernel = k, .source = source, .problem = problem, .size = *size, .dtype = dtype,
        .eo = {.warmup = r->settings->warmup >= 0 ? r->settings->warmup : pr->warmup, .timing = r->timing,
               .cache = pr->cache, .tolerance = mmb_dtype_tolerance_for(dtype, size->k, pr->tolerance[dtype])},
        .best_ms = INFINITY,
    };
    if (mmb_session_protocol(r->session, &j.eo, r->counters, j.protocol, sizeof j.protocol) != 0) {
        mmb_errorf(err, errlen, "the protocol of this tune does not fit its column (%d bytes)", MMB_PROTOCOL_LEN);
        return MMB_EXIT_FAILED;
    }
    struct mmb_tune_history *h = mmb_tune_history_new();
    if (!h) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_EXIT_FAILED;
    }
    mmb_tune_history_filter(h, job_keep, &j);
    size_t loaded = 0, stale = 0;
    if (mmb_tune_history_load(h, r->csv_path, k, &id, &loaded, &stale, err, errlen) != 0) {
        mmb_tune_history_free(h);
        return MMB_EXIT_BAD_INPUT;
    }
    if (stale)
        fprintf(stderr, "mmbench tune: %s: %zu rows of %s are not in its current space (the profile changed); "
                "they stay in the file and are not used\n", r->csv_path, stale, k->name);
    for (int s = 0; s < MMB_RESUME_COUNT; s++)
        if (j.stale[s])
            fprintf(stderr, "mmbench tune: %s: %zu rows of %s at %lldx%lldx%lld %s: %s; %s\n", r->csv_path,
                    j.stale[s], k->name, size->m, size->n, size->k, mmb_dtype_info(dtype)->text,
                    mmb_resume_text((enum mmb_resume)s),
                    r->settings->keep_stale ? "kept as they are (--keep-stale)"
                                            : "measuring them again, the new rows superseding the old (--keep-stale "
                                              "keeps them)");
    if (r->settings->fail_on)
        mmb_tune_history_each(h, resumed_tell, NULL);
    struct mmb_tuner_options o = tuner_options_of(r, k, &id, size, dtype, is_reference, r->pool && source);
    if (is_reference && mmb_objective_parse("time", &o.objective, err, errlen) != 0) {
        mmb_tune_history_free(h);
        return MMB_EXIT_FAILED;
    }
    unsigned what = (r->counters == MMB_COUNTERS_BEST ? MMB_BEST_COUNTERS : 0u) |
                    (r->energy == MMB_ENERGY_BEST ? MMB_BEST_ENERGY : 0u);
    if (what) {
        if (!(j.best = mmb_best_new(r->nworkers > 1, what)) || mmb_best_open(j.best, &id) != 0) {
            mmb_best_free(j.best);
            mmb_tune_history_free(h);
            mmb_errorf(err, errlen, "out of host memory");
            return MMB_EXIT_FAILED;
        }
        mmb_tune_history_each(h, best_history_row, &j);
    }
    struct mmb_tuner_callbacks cb = {.evaluate = job_evaluate, .record = job_record, .prefetch = job_prefetch,
                                     .interrupted = should_stop, .ctx = &j};
    struct mmb_compile_pool_stats before = {0}, pool;
    if (r->pool && source && r->have_prefetch_base) { /* the compiles handed over before the problem was made */
        before = r->prefetch_base;
        r->have_prefetch_base = false;
    } else if (r->pool) {
        mmb_compile_pool_stats(r->pool, &before);
    }
    struct mmb_tuner_result *res = malloc(sizeof *res);
    if (!res) {
        mmb_tune_history_free(h);
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_EXIT_FAILED;
    }
    int rc = mmb_tuner_run(&o, &cb, h, res, err, errlen) == 0 ? 0 : MMB_EXIT_FAILED;
    if (r->progress)
        fputs("\r\033[K", stderr);
    if (rc == 0 && j.best_oom) {
        mmb_errorf(err, errlen, "out of host memory");
        rc = MMB_EXIT_FAILED;
    }
    if (rc == 0 && j.best && best_finish(&j, err, errlen) != 0)
        rc = MMB_EXIT_FAILED;
    mmb_best_free(j.best);
    stats_delta(r->pool, &before, &pool);
    if (rc == 0 && is_reference) {
        *reference_out = res->have_best ? res->best : id;
        if (!res->have_best)
            reference_out->status = MMB_STATUS_SKIPPED;
    } else if (rc == 0) {
        struct mmb_cmd_summary out;
        FILE *f = mmb_cmd_summary_open(&out, "tune", r->settings->format == MMB_FORMAT_JSONL);
        print_summary(f, r, &j, res, reference, &pool);
        if (!r->settings->no_t4)
            rc = t4_export(f, r, &j, h, &id, err, errlen);
        mmb_cmd_summary_close(&out);
    }
    mmb_pareto_free(&res->front);
    free(res);
    free(j.samples);
    mmb_imap_free(&j.compile_us);
    mmb_tune_history_free(h);
    return rc;
}

