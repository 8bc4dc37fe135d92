/* tune.c - `mmbench tune`: the options and the profile's [tune] section become a
 * plan; for every size x dtype one problem is opened on the GPU, cuBLAS is measured
 * once as the reference, and each kernel is searched by the tuner with the session
 * as its evaluator and the compile pool running ahead of it. Rows go to the results
 * CSV (which is also the resume cache), a summary to stdout, a T4 file per kernel
 * and problem beside the CSV. */
#include "cmd/tune.h"
#include "search/tune_plan.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cuda/compile.h"
#include "cuda/compile_pool.h"
#include "results/csv.h"
#include "cuda/gpu.h"
#include "core/imap.h"
#include "results/metrics.h"
#include "cuda/session.h"
#include "model/space.h"
#include "search/strategy.h"
#include "results/t4.h"
#include "search/tune_spec.h"
#include "search/tuner.h"
#include "core/util.h"

#define EXIT_BAD_INPUT 2
#define EXIT_INTERRUPTED 130
/* Proposals the tuner peeks at after each one: sparse spaces (seed 002 keeps 44
 * of 288) need many to find enough allowed configurations for every worker. */
#define LOOKAHEAD 256

struct tune_run {
    const struct mmb_profile *profile;
    const struct mmb_tune_options *opt;
    const struct mmb_tune_plan *plan;
    const struct mmb_metric_set *metrics; /* the profile's, parsed */
    struct mmb_session *session;
    const struct mmb_device_info *dev;
    struct mmb_csv_writer *csv;
    char csv_path[MMB_PATH_MAX];
    struct mmb_compile_pool *pool;
    char *sources[MMB_MAX_KERNELS];
    bool progress;
    bool device_lost;
    int problems;
};

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
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    interrupted = 1;
}

/* Ctrl-C, or a sticky GPU error: the row that hit it is recorded, then the search
 * stops so that a fresh process can go on (main.c restarts it). */
static bool should_stop(void *ctx)
{
    const struct job *j = ctx;
    return interrupted != 0 || j->run->device_lost;
}

/* ---- the tuner's callbacks ---- */

static int job_evaluate(void *ctx, size_t index, const struct mmb_config *cfg, struct mmb_row *row,
                        char *err, size_t errlen)
{
    struct job *j = ctx;
    struct tune_run *r = j->run;
    if (r->pool && j->source) {
        double ms;
        bool from_cache;
        mmb_compile_pool_wait(r->pool, j->kernel, cfg, j->dtype, &ms, &from_cache);
        if (!isnan(ms) && mmb_imap_put(&j->compile_us, index, (uintptr_t)(ms * 1e3) + 1) != 0) {
            mmb_errorf(err, errlen, "out of host memory");
            return -1;
        }
    }
    if (r->progress) {
        fprintf(stderr, "\r\033[K[%zu measured, best %.4g ms] %s %s", j->measured, j->best_ms, j->kernel->name,
                row->params[0] ? row->params : "-");
        fflush(stderr);
    }
    bool lost = false;
    double t0 = mmb_seconds_now();
    mmb_session_evaluate(r->session, j->problem, j->kernel, cfg, &j->eo, row, &lost);
    j->measure_s += mmb_seconds_now() - t0;
    j->measured++;
    if (row->status == MMB_STATUS_OK && !(row->time_ms_median >= j->best_ms))
        j->best_ms = row->time_ms_median;
    r->device_lost |= lost;
    return 0;
}

static int job_record(void *ctx, const struct mmb_row *row, char *err, size_t errlen)
{
    struct job *j = ctx;
    struct tune_run *r = j->run;
    if (mmb_csv_append_row(r->csv, row, err, errlen) != 0)
        return -1;
    if (r->opt->verbose || !mmb_status_info(row->status)->quiet) {
        fprintf(stderr, "%s%s %s [%s] %lldx%lldx%lld: %s", r->progress ? "\r\033[K" : "", row->kernel,
                row->params[0] ? row->params : "-", row->dtype, row->m, row->n, row->k, mmb_status_text(row->status));
        if (row->status == MMB_STATUS_OK)
            fprintf(stderr, " %.4f ms, %.1f GFLOP/s\n", row->time_ms_median, row->gflops);
        else
            fprintf(stderr, ": %s\n", row->reason);
    }
    return 0;
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
        if (mmb_space_geometry(j->kernel, &cfgs[m], &j->size, mmb_dtype_info(j->dtype)->size, &geo, why,
                               sizeof why) != 0)
            continue;
        if (geo.block[0] * geo.block[1] * geo.block[2] > r->dev->max_threads_per_block)
            continue;
        m++;
    }
    (void)mmb_compile_pool_submit(r->pool, j->kernel, j->source, cfgs, m, j->dtype);
    free(cfgs);
}

static double job_compile_ms(void *ctx, const struct mmb_row *row)
{
    struct job *j = ctx;
    struct mmb_config cfg;
    size_t index;
    uintptr_t us;
    if (mmb_space_parse_params(j->kernel, row->params, &cfg, &index) != 0 ||
        !mmb_imap_get(&j->compile_us, index, &us))
        return NAN;
    return (double)(us - 1) / 1e3;
}

/* ---- one kernel at one problem ---- */

static void identity_of(const struct tune_run *r, const struct mmb_kernel_spec *k, const struct mmb_size *size,
                        enum mmb_dtype dtype, struct mmb_row *id)
{
    mmb_row_init(id);
    mmb_session_fill_identity(r->session, id);
    snprintf(id->profile, sizeof id->profile, "%s", r->profile->name);
    snprintf(id->kernel, sizeof id->kernel, "%s", k->name);
    snprintf(id->dtype, sizeof id->dtype, "%s", mmb_dtype_info(dtype)->text);
    id->m = size->m;
    id->n = size->n;
    id->k = size->k;
    snprintf(id->cache, sizeof id->cache, "%s", mmb_cache_text(r->profile->cache));
}

static void t4_path_of(const struct tune_run *r, const struct mmb_row *id, char *out, size_t len)
{
    if (r->opt->t4) {
        snprintf(out, len, "%s", r->opt->t4);
        return;
    }
    size_t stem = strlen(r->csv_path);
    if (stem > 4 && !strcmp(r->csv_path + stem - 4, ".csv"))
        stem -= 4;
    snprintf(out, len, "%.*s-%s-%lldx%lldx%lld-%s.t4.json", (int)stem, r->csv_path, id->kernel, id->m, id->n, id->k,
             id->dtype);
}

static void print_summary(const struct tune_run *r, const struct job *j, const struct mmb_tuner_result *res,
                          const struct mmb_row *reference, const struct mmb_compile_pool_stats *pool)
{
    const struct mmb_tune_plan *p = r->plan;
    printf("%s @ %lldx%lldx%lld %s: %s, objective %s; %zu configurations", j->kernel->name, j->size.m, j->size.n,
           j->size.k, mmb_dtype_info(j->dtype)->text, p->strategy->name, p->objective.text, res->space);
    if (res->allowed)
        printf(", %zu allowed, %zu removed by restrictions", res->allowed, res->space - res->allowed);
    printf("\n  %zu results used (%zu measured now, %zu from %s), %zu restricted met; stopped: %s\n", res->fevals,
           res->evaluated, res->resumed, r->csv_path, res->restricted, mmb_tuner_stop_text(res->stop));
    printf("  rows written:");
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        if (res->by_status[s])
            printf(" %s %zu", mmb_status_text((enum mmb_status)s), res->by_status[s]);
    printf("%s\n", res->recorded ? "" : " none");
    if (!res->have_best) {
        printf("  best: none (no configuration ran correctly)\n");
    } else {
        const struct mmb_row *b = &res->best;
        printf("  best: %s  %.4f ms  %.1f GFLOP/s", b->params, b->time_ms_median, b->gflops);
        if (strcmp(p->objective.column->name, "time_ms_median") && strcmp(p->objective.column->name, "gflops"))
            printf("  %s %.6g", p->objective.column->name, mmb_objective_value(&p->objective, b));
        if (reference && reference->status == MMB_STATUS_OK && reference->time_ms_median > 0)
            printf("  = %.1f%% of cuBLAS (%.4f ms, %.1f GFLOP/s)", 100.0 * reference->time_ms_median / b->time_ms_median,
                   reference->time_ms_median, reference->gflops);
        else
            printf("  (no cuBLAS reference at this size)");
        printf("\n");
    }
    double other = res->seconds - j->measure_s - pool->wait_seconds;
    printf("  time: %.1f s = measuring %.1f s + waiting for the compiler %.1f s + other %.1f s; "
           "NVRTC %.1f s on %d thread%s (%zu through NVRTC, %zu from the cubin cache, %zu compile errors)\n",
           res->seconds, j->measure_s, pool->wait_seconds, other > 0 ? other : 0.0, pool->nvrtc_seconds,
           r->opt->jobs, r->opt->jobs == 1 ? "" : "s", pool->compiled, pool->cache_hits, pool->failed);
    /* One line for scripts (scripts/bench-tune.sh). */
    printf("  timing kernel=%s size=%lldx%lldx%lld dtype=%s wall_s=%.3f measure_s=%.3f wait_s=%.3f nvrtc_s=%.3f "
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

/* Searches kernel at the open problem. reference: measure it once (cuBLAS) and copy
 * its row out. Returns 0, EXIT_BAD_INPUT, or 1 with err. */
static int tune_kernel(struct tune_run *r, const struct mmb_kernel_spec *k, const char *source,
                       struct mmb_problem *problem, const struct mmb_size *size, enum mmb_dtype dtype,
                       const struct mmb_row *reference, struct mmb_row *reference_out, char *err, size_t errlen)
{
    const struct mmb_tune_plan *p = r->plan;
    const struct mmb_profile *pr = r->profile;
    bool is_reference = reference_out != NULL;
    struct mmb_row id;
    identity_of(r, k, size, dtype, &id);
    struct job j = {
        .run = r, .kernel = k, .source = source, .problem = problem, .size = *size, .dtype = dtype,
        .eo = {.warmup = pr->warmup, .repeats = r->opt->repeats > 0 ? r->opt->repeats : pr->repeats,
               .cache = pr->cache, .tolerance = pr->tolerance[dtype]},
        .best_ms = INFINITY,
    };
    struct mmb_tune_history *h = mmb_tune_history_new();
    if (!h) {
        mmb_errorf(err, errlen, "out of host memory");
        return 1;
    }
    size_t loaded = 0, stale = 0;
    if (mmb_tune_history_load(h, r->csv_path, k, &id, &loaded, &stale, err, errlen) != 0) {
        mmb_tune_history_free(h);
        return EXIT_BAD_INPUT;
    }
    if (stale)
        fprintf(stderr, "mmbench tune: %s: %zu rows of %s are not in its current space (the profile changed); "
                "they stay in the file and are not used\n", r->csv_path, stale, k->name);
    struct mmb_tuner_options o = {
        .kernel = k, .identity = &id, .size = *size, .elem_size = mmb_dtype_info(dtype)->size,
        .strategy = is_reference ? mmb_strategy_find("brute_force") : p->strategy, .seed = p->seed,
        .max_fevals = is_reference ? 0 : p->max_fevals, .time_limit = is_reference ? 0 : p->time_limit,
        .objective = p->objective, .record_restricted = p->record_restricted,
        .lookahead = r->pool && source ? LOOKAHEAD : 0,
    };
    if (is_reference && mmb_objective_parse("time", &o.objective, err, errlen) != 0) {
        mmb_tune_history_free(h);
        return 1;
    }
    struct mmb_tuner_callbacks cb = {.evaluate = job_evaluate, .record = job_record, .prefetch = job_prefetch,
                                     .interrupted = should_stop, .ctx = &j};
    struct mmb_compile_pool_stats before = {0}, pool;
    if (r->pool)
        mmb_compile_pool_stats(r->pool, &before);
    struct mmb_tuner_result *res = malloc(sizeof *res);
    if (!res) {
        mmb_tune_history_free(h);
        mmb_errorf(err, errlen, "out of host memory");
        return 1;
    }
    int rc = mmb_tuner_run(&o, &cb, h, res, err, errlen) == 0 ? 0 : 1;
    if (r->progress)
        fputs("\r\033[K", stderr);
    stats_delta(r->pool, &before, &pool);
    if (rc == 0 && is_reference) {
        *reference_out = res->have_best ? res->best : id;
        if (!res->have_best)
            reference_out->status = MMB_STATUS_SKIPPED;
    } else if (rc == 0) {
        print_summary(r, &j, res, reference, &pool);
        if (!r->opt->no_t4) {
            char path[MMB_PATH_MAX + 128];
            size_t count = 0;
            t4_path_of(r, &id, path, sizeof path);
            if (mmb_t4_export_csv(r->csv_path, &id, p->objective.text, job_compile_ms, &j, path, &count, err,
                                  errlen) != 0)
                rc = 1;
            else
                printf("  t4: %s (%zu results)\n", path, count);
        }
        fflush(stdout);
    }
    free(res);
    mmb_imap_free(&j.compile_us);
    mmb_tune_history_free(h);
    return rc;
}

/* ---- the run ---- */

static int csv_path_of(struct tune_run *r, char *err, size_t errlen)
{
    const struct mmb_tune_options *o = r->opt;
    if (o->output) {
        snprintf(r->csv_path, sizeof r->csv_path, "%s", o->output);
        return 0;
    }
    char dir[MMB_PATH_MAX - 128];
    snprintf(dir, sizeof dir, "%.800s/%.60s", o->data_dir, r->dev->slug);
    if (mmb_mkdir_p(dir, err, errlen) != 0)
        return -1;
    /* tune-seed.ini -> tune-seed.csv; course.ini -> tune-course.csv (not run's file). */
    const char *name = r->profile->name;
    snprintf(r->csv_path, sizeof r->csv_path, "%s/%s%.64s.csv", dir, strncmp(name, "tune", 4) ? "tune-" : "", name);
    return 0;
}

static int open_run(struct tune_run *r, char *err, size_t errlen)
{
    const struct mmb_tune_options *o = r->opt;
    struct mmb_session_options so = {.device = o->device, .cache_dir = o->cache_dir, .counters = o->counters,
                                     .metrics = r->metrics, .l2_flush = getenv("MMB_L2_SWEEP"),
                                     .verbose = o->verbose};
    if (mmb_session_open(&r->session, &so, err, errlen) != 0)
        return -1;
    r->dev = mmb_session_device(r->session);
    if (csv_path_of(r, err, errlen) != 0 || !(r->csv = mmb_csv_writer_open(r->csv_path, err, errlen)))
        return -1;
    for (int i = 0; i < r->plan->nkernels; i++)
        if (!(r->sources[i] = mmb_file_read(r->plan->kernels[i]->source, NULL, err, errlen)))
            return -1;
    if (o->jobs > 0 && o->cache_dir &&
        mmb_compile_pool_open(&r->pool, o->jobs, r->dev->cc_major * 10 + r->dev->cc_minor, o->cache_dir, err,
                              errlen) != 0)
        return -1;
    return 0;
}

static void close_run(struct tune_run *r)
{
    mmb_compile_pool_close(r->pool);
    for (int i = 0; i < r->plan->nkernels; i++)
        free(r->sources[i]);
    if (r->csv)
        mmb_csv_writer_close(r->csv);
    mmb_session_close(r->session);
}

/* Every tuned kernel at one size x dtype. Returns 0, EXIT_BAD_INPUT or 1. */
static int tune_problem(struct tune_run *r, const struct mmb_size *size, enum mmb_dtype dtype, char *err,
                        size_t errlen)
{
    const struct mmb_tune_plan *plan = r->plan;
    bool any = false;
    for (int i = 0; i < plan->nkernels; i++)
        any |= mmb_kernel_runs_dtype(r->profile, plan->kernels[i], dtype);
    if (!any)
        return 0;
    struct mmb_problem *problem = NULL;
    char why[512];
    enum mmb_status st = mmb_problem_open(r->session, size, dtype, r->profile->seed, &problem, why, sizeof why);
    if (st != MMB_STATUS_OK) {
        fprintf(stderr, "mmbench tune: %lldx%lldx%lld %s: %s: %s; not tuned at this size\n", size->m, size->n,
                size->k, mmb_dtype_info(dtype)->text, mmb_status_text(st), why);
        return 0;
    }
    struct mmb_row reference;
    int rc = tune_kernel(r, plan->cublas, NULL, problem, size, dtype, NULL, &reference, err, errlen);
    for (int i = 0; i < plan->nkernels && rc == 0 && !interrupted && !r->device_lost; i++)
        if (mmb_kernel_runs_dtype(r->profile, plan->kernels[i], dtype))
            rc = tune_kernel(r, plan->kernels[i], r->sources[i], problem, size, dtype, &reference, NULL, err,
                             errlen);
    mmb_problem_close(problem);
    return rc;
}

int mmb_tune_main(int argc, char **argv)
{
    struct mmb_tune_options opt;
    char cache[MMB_PATH_MAX], err[2048];
    mmb_compile_default_cache_dir(cache, sizeof cache);
    int rc = mmb_tune_options_parse(argc, argv, &opt, cache, sizeof cache);
    if (rc)
        return rc > 0 ? 0 : EXIT_BAD_INPUT;
    struct mmb_profile *profile = calloc(1, sizeof *profile);
    struct mmb_tune_plan *plan = calloc(1, sizeof *plan);
    struct mmb_metric_set set;
    struct tune_run r = {.opt = &opt, .plan = plan, .metrics = &set};
    if (!profile || !plan) {
        fprintf(stderr, "mmbench tune: out of host memory\n");
        free(profile);
        free(plan);
        return 1;
    }
    r.profile = profile;
    rc = EXIT_BAD_INPUT;
    if (mmb_profile_load(argv[optind], profile, err, sizeof err) != 0 ||
        mmb_tune_spec_check(profile, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench: %s\n", err);
        goto out;
    }
    if (mmb_metric_set_parse(profile->metrics, &set, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s: metrics: %s\n", argv[optind], err);
        goto out;
    }
    if (mmb_tune_plan_make(profile, &opt, plan) != 0)
        goto out;
    r.problems = mmb_tune_plan_problems(profile, plan);
    if (opt.t4 && r.problems != 1) {
        fprintf(stderr, "mmbench tune: --t4 names one file, but this tune has %d kernel x size x dtype "
                "combinations; expected one (or drop --t4: one file each beside the CSV)\n", r.problems);
        goto out;
    }
    int ndev = mmb_gpu_count(err, sizeof err);
    if (ndev <= 0) {
        fprintf(stderr, "mmbench tune: no GPU: %s\n", err);
        rc = EX_UNAVAILABLE;
        goto out;
    }
    if (opt.device >= ndev) {
        fprintf(stderr, "mmbench tune: --device %d, but there %s %d GPU%s\n", opt.device, ndev == 1 ? "is" : "are",
                ndev, ndev == 1 ? "" : "s");
        goto out;
    }
    rc = 1;
    if (open_run(&r, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s\n", err);
        goto out;
    }
    const char *note = mmb_session_counter_note(r.session);
    if (note[0] && opt.counters)
        fprintf(stderr, "mmbench tune: warning: %s\n", note);
    r.progress = isatty(STDERR_FILENO) && !opt.verbose;
    fprintf(stderr, "mmbench tune: %s on %s (sm_%d%d), %d kernel x size x dtype, %s, compiles ahead on %d "
            "thread%s -> %s\n", profile->name, r.dev->name, r.dev->cc_major, r.dev->cc_minor, r.problems,
            plan->strategy->name, r.pool ? opt.jobs : 0, r.pool && opt.jobs == 1 ? "" : "s", r.csv_path);
    struct sigaction sa = {.sa_handler = on_interrupt, .sa_flags = (int)SA_RESETHAND};
    if (sigemptyset(&sa.sa_mask) != 0 || sigaction(SIGINT, &sa, NULL) != 0)
        fprintf(stderr, "mmbench tune: warning: sigaction: %s; Ctrl-C stops without a summary\n", strerror(errno));
    rc = 0;
    for (int si = 0; si < plan->nsizes && rc == 0 && !interrupted && !r.device_lost; si++)
        for (int d = 0; d < MMB_DTYPE_COUNT && rc == 0 && !interrupted && !r.device_lost; d++)
            if (profile->dtypes & (1u << d))
                rc = tune_problem(&r, &plan->sizes[si], (enum mmb_dtype)d, err, sizeof err);
    if (rc)
        fprintf(stderr, "mmbench tune: %s\n", err);
    else if (r.device_lost) {
        fprintf(stderr, "mmbench tune: the GPU reported a sticky error; a fresh process must go on\n");
        rc = MMB_TUNE_DEVICE_LOST;
    } else if (interrupted) {
        fprintf(stderr, "mmbench tune: interrupted; run the same command again to continue\n");
        rc = EXIT_INTERRUPTED;
    }
out:
    if (r.session)
        close_run(&r);
    mmb_profile_free(profile);
    free(profile);
    free(plan);
    return rc;
}
