/* tune.c - `mmbench tune PROFILE`: the options and the profile's [tune] section become
 * a plan, checked before any GPU work; then a supervised worker process per GPU (one,
 * or every GPU with --devices all, the GPUs of one model splitting the space) opens
 * its GPU, and for every size x dtype one problem: cuBLAS measured once as the
 * reference, then each kernel searched (tune_kernel.c). Rows go to the results CSV,
 * which is also the resume cache, so a restarted worker goes on where the last one
 * stopped. */
#include "cmd/tune/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/clocks.h"
#include "cmd/common.h"
#include "cmd/devices.h"
#include "cmd/supervise.h"
#include "cmd/tune/tune_impl.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/file.h"
#include "cuda/gpu.h"
#include "results/csv_name.h"
#include "search/tune_spec.h"

static int csv_path_of(struct tune_run *r, char *err, size_t errlen)
{
    const struct mmb_cmd_settings *o = r->settings;
    if (o->output) {
        if (mmb_shard_path(o->output, &o->shard, r->csv_path, sizeof r->csv_path) != 0)
            return mmb_failf(err, errlen, "%s: path too long for a shard's file", o->output);
        return 0;
    }
    char dir[MMB_PATH_MAX - 128];
    snprintf(dir, sizeof dir, "%.800s/%.60s", o->data_dir, r->dev->slug);
    if (mmb_mkdir_p(dir, err, errlen) != 0)
        return -1;
    char stem[128], unsharded[MMB_PATH_MAX];
    if (mmb_csv_name_stem(r->profile->name, true, stem, sizeof stem) != 0)
        return mmb_failf(err, errlen, "profile '%s': too long a name for its results file", r->profile->name);
    if ((size_t)snprintf(unsharded, sizeof unsharded, "%s/%s.csv", dir, stem) >= sizeof unsharded)
        return mmb_failf(err, errlen, "%s/%s.csv: too long a path", dir, stem);
    if (mmb_shard_path(unsharded, &o->shard, r->csv_path, sizeof r->csv_path) != 0)
        return mmb_failf(err, errlen, "%s: path too long for a shard's file", unsharded);
    return 0;
}

/* The first configurations of every kernel tuned at this problem to the compile pool,
 * once (the first problem's go before the session opens, and tune_problem finds them
 * handed over). */
static void prefetch_problem(struct tune_run *r, const struct mmb_size *size, enum mmb_dtype dtype)
{
    if (!r->pool || r->have_prefetch_base)
        return;
    mmb_compile_pool_stats(r->pool, &r->prefetch_base);
    r->have_prefetch_base = true;
    for (int i = 0; i < r->plan->nkernels; i++)
        if (mmb_kernel_runs_dtype(r->profile, r->plan->kernels[i], dtype))
            mmb_tune_kernel_prefetch(r, r->plan->kernels[i], r->sources[i], size, dtype);
}

static int open_run(struct tune_run *r, char *err, size_t errlen)
{
    const struct mmb_cmd_settings *o = r->settings;
    struct mmb_session_options so = {.device = r->device, .cache_dir = o->cache_dir,
                                     .counters = r->counters != MMB_COUNTERS_NONE, .metrics = r->metrics,
                                     .l2_flush = r->l2_flush, .verbose = o->verbose, .command = "tune"};
    mmb_energy_spec_of(r->profile, r->energy, &so.energy);
    for (int i = 0; i < r->plan->nkernels; i++)
        if (!(r->sources[i] = mmb_file_read(r->plan->kernels[i]->source, NULL, err, errlen)))
            return -1;
    /* the pool first, so that the first problem's compiles run while the session opens */
    if (o->jobs > 0 && o->cache_dir) {
        if (mmb_gpu_query(r->device, &r->found, err, errlen) != 0)
            return -1;
        r->dev = &r->found;
        if (mmb_compile_pool_open(&r->pool, o->jobs, r->found.cc_major * 10 + r->found.cc_minor, o->cache_dir, err,
                                  errlen) != 0)
            return -1;
        if (r->plan->nsizes > 0)
            for (int d = 0; d < MMB_DTYPE_COUNT; d++)
                if (r->profile->dtypes & (1u << d)) {
                    prefetch_problem(r, &r->plan->sizes[0], (enum mmb_dtype)d);
                    break;
                }
    }
    if (mmb_session_open(&r->session, &so, err, errlen) != 0)
        return -1;
    r->dev = mmb_session_device(r->session);
    if (csv_path_of(r, err, errlen) != 0 || !(r->csv = mmb_csv_writer_open(r->csv_path, err, errlen)) ||
        mmb_csv_writer_lock(r->csv, r->dev->uuid, err, errlen) != 0 ||
        !(r->samples = mmb_samples_writer_open(r->csv_path, err, errlen)))
        return -1;
    return 0;
}

static void close_run(struct tune_run *r)
{
    mmb_compile_pool_close(r->pool);
    for (int i = 0; i < r->plan->nkernels; i++)
        free(r->sources[i]);
    mmb_samples_writer_close(r->samples);
    if (r->csv)
        mmb_csv_writer_close(r->csv);
    mmb_session_close(r->session);
}

static bool stopping(const struct tune_run *r)
{
    return mmb_watch_interrupted() || r->device_lost;
}

/* Every tuned kernel at one size x dtype. Returns 0, MMB_EXIT_BAD_INPUT or MMB_EXIT_FAILED. */
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
    prefetch_problem(r, size, dtype); /* while the problem is made */
    enum mmb_status st = mmb_session_problem_open(r->session, size, dtype, r->profile->seed, &problem, why, sizeof why);
    if (st != MMB_STATUS_OK) {
        fprintf(stderr, "mmbench tune: %lldx%lldx%lld %s: %s: %s; not tuned at this size\n", size->m, size->n,
                size->k, mmb_dtype_info(dtype)->text, mmb_status_text(st), why);
        r->have_prefetch_base = false;
        return 0;
    }
    struct mmb_row reference;
    int rc = mmb_tune_kernel(r, plan->cublas, NULL, problem, size, dtype, NULL, &reference, err, errlen);
    for (int i = 0; i < plan->nkernels && rc == 0 && !stopping(r); i++)
        if (mmb_kernel_runs_dtype(r->profile, plan->kernels[i], dtype))
            rc = mmb_tune_kernel(r, plan->kernels[i], r->sources[i], problem, size, dtype, &reference, NULL, err,
                                 errlen);
    r->have_prefetch_base = false; /* the next problem's prefetch takes its own */
    mmb_problem_close(problem);
    return rc;
}

/* This worker's part of the space: its --shard, split between the GPUs of its model
 * that tune at once (each model's GPUs share their folder's results file). */
static int take_part(struct tune_run *r, char *err, size_t errlen)
{
    unsigned part = 0, parts = 1;
    if (r->nworkers > 1 && mmb_cmd_device_part(r->device, r->nworkers, &part, &parts, err, errlen) != 0)
        return -1;
    if (mmb_shard_split(&r->opt->shard, part, parts, &r->shard) != 0)
        return mmb_failf(err, errlen, "%u GPUs of one model: expected at most %d", parts, MMB_SHARD_PARTS_MAX);
    if (parts > 1)
        fprintf(stderr, "mmbench tune: GPU %d: part %u of %u of the space (GPUs of one model share the work)\n",
                r->device, part + 1, parts);
    return 0;
}

/* The time in the session and around it, on one line: from the command line to the
 * worker (start), opening the session, compile pool and CSV (session), the session's
 * phases (the compile pool's waits are in prepare), other, close. */
static void phases_print(const struct mmb_phase_times *t, double started, double t_worker, double open_s,
                         double close_s, bool jsonl)
{
    char line[512];
    double now = mmb_seconds_now(), began = started > 0 ? started : t_worker;
    double known = (t_worker - began) + open_s + close_s;
    for (int i = 0; i < MMB_PHASE_COUNT; i++)
        known += t->seconds[i];
    mmb_phase_times_format(t, line, sizeof line);
    struct mmb_cmd_summary out;
    fprintf(mmb_cmd_summary_open(&out, "tune", jsonl),
            "time: %.2f s: start %.2f s, session %.2f s, %s, other %.2f s, close %.2f s\n", now - began,
            t_worker - began, open_s, line, now - began - known > 0 ? now - began - known : 0.0, close_s);
    mmb_cmd_summary_close(&out);
}

/* The worker: one GPU, every problem of the plan. */
static int tune_worker(void *ctx)
{
    struct tune_run *r = ctx;
    const struct mmb_tune_plan *plan = r->plan;
    char err[2048];
    int rc = MMB_EXIT_FAILED;
    int n = r->check_device ? mmb_cmd_gpu_count_here("tune", r->device) : 1;
    if (n < 0)
        return n == -1 ? MMB_EXIT_NO_GPU : MMB_EXIT_BAD_INPUT;
    double t_worker = mmb_seconds_now(), open_s = 0;
    if (take_part(r, err, sizeof err) != 0 || open_run(r, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s\n", err);
        goto out;
    }
    open_s = mmb_seconds_now() - t_worker;
    const char *note = mmb_session_counter_note(r->session);
    if (note[0] && r->counters != MMB_COUNTERS_NONE)
        fprintf(stderr, "mmbench tune: warning: %s\n", note);
    if ((note = mmb_session_power_note(r->session))[0])
        fprintf(stderr, "mmbench tune: warning: clocks, throttle, power and energy not measured: %s\n", note);
    r->progress = isatty(STDERR_FILENO) && !r->settings->verbose;
    fprintf(stderr,
            "mmbench tune: %s on %s (sm_%d%d), %d kernel x size x dtype, %s, compiles ahead on %d "
            "thread%s -> %s\n",
            r->profile->name, r->dev->name, r->dev->cc_major, r->dev->cc_minor, r->problems, plan->strategy->name,
            r->pool ? r->settings->jobs : 0, r->pool && r->settings->jobs == 1 ? "" : "s", r->csv_path);
    rc = 0;
    for (int si = 0; si < plan->nsizes && rc == 0 && !stopping(r); si++)
        for (int d = 0; d < MMB_DTYPE_COUNT && rc == 0 && !stopping(r); d++)
            if (r->profile->dtypes & (1u << d))
                rc = tune_problem(r, &plan->sizes[si], (enum mmb_dtype)d, err, sizeof err);
    struct mmb_phase_times phases = *mmb_session_phase_times(r->session);
    if (rc)
        fprintf(stderr, "mmbench tune: %s\n", err);
    else if (r->device_lost) {
        fprintf(stderr, "mmbench tune: the GPU reported a sticky error; a fresh process goes on\n");
        rc = MMB_EXIT_DEVICE_LOST;
    } else if (mmb_watch_interrupted()) {
        fprintf(stderr, "mmbench tune: interrupted: every finished row is in %s; run the same command again to "
                "continue\n", r->csv_path);
        rc = MMB_EXIT_INTERRUPTED;
    }
out:
    if (r->session) {
        double t_close = mmb_seconds_now();
        close_run(r);
        if (rc == 0) /* where the time went, from the command line to the close (run's line) */
            phases_print(&phases, r->settings->started, t_worker, open_s, mmb_seconds_now() - t_close,
                         r->settings->format == MMB_FORMAT_JSONL);
    }
    return rc;
}

/* Everything that can be bad input, checked before a GPU is touched. */
static int plan_tune(struct tune_run *r, struct mmb_profile *profile, struct mmb_tune_plan *plan,
                     struct mmb_metric_set *set)
{
    const struct mmb_cmd_settings *s = r->settings;
    char err[2048];
    if (mmb_cmd_l2_flush_method("tune", &r->l2_flush) != 0 ||
        mmb_cmd_load_profile("tune", s->profile, profile, set) != 0)
        return -1;
    if (mmb_profile_timing(profile, &s->timing, &r->timing, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s\n", err);
        return -1;
    }
    if (mmb_tune_plan_make(profile, &s->tune, plan, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench tune: %s\n", err);
        return -1;
    }
    if (s->all_devices && !plan->strategy->splits) {
        fprintf(stderr, "mmbench tune: --devices all splits the space between the GPUs of one model, and strategy "
                "%s walks from a configuration to its neighbours, which a split takes apart; expected --strategy "
                "brute_force or random, or one GPU (--device N)\n", plan->strategy->name);
        return -1;
    }
    r->counters = mmb_metric_set_size(set) == 0 ? MMB_COUNTERS_NONE : plan->counters;
    r->energy = plan->energy;
    r->problems = mmb_tune_plan_problems(profile, plan);
    if (s->t4 && r->problems != 1) {
        fprintf(stderr, "mmbench tune: --t4 names one file, but this tune has %d kernel x size x dtype "
                "combinations; expected one (or drop --t4: one file each beside the CSV)\n", r->problems);
        return -1;
    }
    return 0;
}

int mmb_cmd_tune(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_TUNE, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    struct mmb_profile *profile = calloc(1, sizeof *profile);
    struct mmb_tune_plan *plan = calloc(1, sizeof *plan);
    struct mmb_metric_set set;
    struct tune_run r = {.profile = profile, .settings = &s, .opt = &s.tune, .plan = plan, .metrics = &set};
    if (!profile || !plan) {
        fprintf(stderr, "mmbench tune: out of host memory\n");
        free(profile);
        free(plan);
        return MMB_EXIT_FAILED;
    }
    rc = MMB_EXIT_BAD_INPUT;
    if (plan_tune(&r, profile, plan, &set) != 0)
        goto out;
    /* All GPUs: counted in a child first; one GPU: its worker looks for it (run.c) */
    int ndev = 1;
    r.check_device = !s.all_devices;
    if (s.all_devices && (ndev = mmb_cmd_gpu_count("tune")) < 0) {
        rc = MMB_EXIT_NO_GPU;
        goto out;
    }
    int nworkers = s.all_devices ? (ndev < MMB_SHARD_PARTS_MAX ? ndev : MMB_SHARD_PARTS_MAX) : 1;
    struct tune_run *runs = calloc((size_t)nworkers, sizeof *runs);
    struct mmb_worker *workers = calloc((size_t)nworkers, sizeof *workers);
    if (!runs || !workers) {
        fprintf(stderr, "mmbench tune: out of host memory\n");
        rc = MMB_EXIT_FAILED;
    } else {
        for (int i = 0; i < nworkers; i++) {
            runs[i] = r;
            runs[i].device = s.all_devices ? i : s.device;
            runs[i].nworkers = nworkers;
            workers[i] = (struct mmb_worker){.work = tune_worker, .ctx = &runs[i]};
            snprintf(workers[i].name, sizeof workers[i].name, "GPU %d", runs[i].device);
        }
        int devices[MMB_SHARD_PARTS_MAX];
        for (int i = 0; i < nworkers; i++)
            devices[i] = runs[i].device;
        struct mmb_cmd_clocks clocks;
        if ((rc = mmb_cmd_clocks_lock("tune", &s.lock, devices, nworkers, &clocks)) == 0) {
            struct mmb_supervise_rows rows = {.jsonl = s.format == MMB_FORMAT_JSONL, .fail_on = s.fail_on};
            rc = mmb_supervise_verdict("tune", &rows, mmb_supervise("tune", workers, nworkers, &rows));
            int restored = mmb_cmd_clocks_restore("tune", &clocks);
            rc = rc ? rc : restored;
        }
    }
    free(runs);
    free(workers);
out:
    mmb_profile_free(profile);
    free(profile);
    free(plan);
    return rc;
}
