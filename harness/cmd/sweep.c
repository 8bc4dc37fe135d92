/* sweep.c - the sweep: sizes x dtypes x kernels x configurations -> CSV rows, each
 * announced to the supervisor first with its time limit (supervise.h). */
#include "cmd/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/supervise.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/file.h"
#include "cuda/session/session.h"
#include "model/space.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/csv_status.h"

struct sweep {
    const struct mmb_profile *profile;
    const struct mmb_run_options *opts;
    struct mmb_session *session;
    struct mmb_csv_writer *csv;
    struct mmb_run_summary *sum;
    size_t total, done;
    bool progress;
    double t0;
    struct mmb_converge_spec timing; /* the profile's, with the command line's over it */
    struct mmb_csv_statuses resumed; /* judge_resumed: the CSV's statuses when the sweep began */
};

static void row_identity(const struct sweep *sw, const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                         const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row)
{
    mmb_session_row_identity(sw->session, sw->profile, k, cfg, size, dtype, row);
}

/* Whether the run of row is in the CSV already: from this GPU, or, when it sweeps
 * alone, from any GPU of its folder (a re-run on another GPU of the model resumes). */
static bool done_before(const struct sweep *sw, const struct mmb_row *row)
{
    return sw->opts->gpu_keyed ? mmb_csv_writer_has(sw->csv, row) : mmb_csv_writer_has_any_gpu(sw->csv, row);
}

/* Writes row; the supervisor's watch ends separately (end_watch), since a row whose
 * counters waited for a batch is written after later configurations began. */
static int write_row(struct sweep *sw, struct mmb_row *row, char *err, size_t errlen)
{
    mmb_timestamp_utc(row->timestamp, sizeof row->timestamp);
    if (mmb_csv_append_row(sw->csv, row, err, errlen) != 0)
        return -1;
    sw->sum->rows_written++;
    if ((unsigned)row->status < MMB_STATUS_COUNT)
        sw->sum->by_status[row->status]++;
    mmb_watch_row("run", row, sw->opts->verbose, sw->progress);
    return 0;
}

static void end_watch(const struct sweep *sw)
{
    mmb_watch_end(sw->done, sw->total);
}

static int emit(struct sweep *sw, struct mmb_row *row, char *err, size_t errlen)
{
    int rc = write_row(sw, row, err, errlen);
    end_watch(sw);
    return rc;
}

/* The session's sink (mmb_session_submit): rows measured, in order. */
struct sink_ctx {
    struct sweep *sw;
    char *err;
    size_t errlen;
};

static int sink_row(void *opaque, struct mmb_row *row)
{
    struct sink_ctx *c = opaque;
    return write_row(c->sw, row, c->err, c->errlen);
}

static void show_progress(struct sweep *sw, const struct mmb_row *row)
{
    sw->done++;
    if (!sw->progress)
        return;
    fprintf(stderr, "\r\033[Kmmbench run: [%zu/%zu %.0fs] %s %s %lldx%lldx%lld", sw->done, sw->total,
            mmb_seconds_now() - sw->t0, row->kernel, row->params, row->m, row->n, row->k);
    fflush(stderr);
}

/* Tells the supervisor which configuration runs now and what to record for it if it
 * never ends: the row's identity with status timeout, filled in by the supervisor. */
static void announce(const struct sweep *sw, const struct mmb_row *row)
{
    double limit = sw->opts->timeout > 0 ? sw->opts->timeout : sw->profile->timeout;
    mmb_watch_begin(row, sw->sum->csv_path, limit);
}

/* Rows for every remaining configuration of this problem that cannot run at all. */
static int emit_problem_failure(struct sweep *sw, const struct mmb_size *size, enum mmb_dtype dtype,
                                enum mmb_status st, const char *reason, char *err, size_t errlen)
{
    const struct mmb_profile *p = sw->profile;
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (!mmb_kernel_runs_dtype(p, k, dtype))
            continue;
        size_t n = mmb_space_size(k);
        for (size_t i = 0; i < n; i++) {
            struct mmb_config cfg;
            struct mmb_row row;
            mmb_space_config_at(k, i, &cfg);
            row_identity(sw, k, &cfg, size, dtype, &row);
            if (!mmb_shard_has_row(&sw->opts->shard, &row) || done_before(sw, &row))
                continue;
            int failed = 0;
            char why[256];
            if (mmb_space_allowed(k, &cfg, size, mmb_dtype_info(dtype)->size, &failed, why, sizeof why) != 1)
                continue;
            row.status = st;
            snprintf(row.reason, sizeof row.reason, "%s", reason);
            show_progress(sw, &row);
            if (emit(sw, &row, err, errlen) != 0)
                return -1;
        }
    }
    return 0;
}

/* Configurations of this problem still missing from the CSV and allowed. */
static size_t remaining(struct sweep *sw, const struct mmb_size *size, enum mmb_dtype dtype)
{
    const struct mmb_profile *p = sw->profile;
    size_t left = 0;
    for (int ki = 0; ki < p->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (!mmb_kernel_runs_dtype(p, k, dtype))
            continue;
        for (size_t i = 0; i < mmb_space_size(k); i++) {
            struct mmb_config cfg;
            struct mmb_row row;
            int failed;
            char why[256];
            mmb_space_config_at(k, i, &cfg);
            row_identity(sw, k, &cfg, size, dtype, &row);
            if (!mmb_shard_has_row(&sw->opts->shard, &row))
                continue;
            if (done_before(sw, &row)) {
                sw->sum->rows_resumed++;
                sw->done++;
                if (sw->opts->judge_resumed &&
                    mmb_csv_statuses_find(&sw->resumed, &row, &row.status, &row.counter_status))
                    mmb_watch_resumed(&row);
            } else if (mmb_space_allowed(k, &cfg, size, mmb_dtype_info(dtype)->size, &failed, why, sizeof why) != 0 ||
                       sw->opts->record_restricted) {
                left++;
            }
        }
    }
    return left;
}

/* One problem (size x dtype). Returns 0, -1 with err, 1 when the device was lost (the
 * CUDA context is unusable, and the sweep must go on in a fresh process, which skips
 * the finished rows through the CSV's keys), or 2 when Ctrl-C asked to stop. */
static int run_problem(struct sweep *sw, const struct mmb_size *size, enum mmb_dtype dtype, char *err, size_t errlen)
{
    const struct mmb_profile *p = sw->profile;
    char why[512] = "";
    struct mmb_problem *prob = NULL;
    if (remaining(sw, size, dtype) == 0)
        return 0; /* resumed: no buffers, no reference */
    enum mmb_status st = mmb_session_problem_open(sw->session, size, dtype, p->seed, &prob, why, sizeof why);
    if (st != MMB_STATUS_OK)
        return emit_problem_failure(sw, size, dtype, st, why, err, errlen);
    struct mmb_eval_options eo = {
        .warmup = sw->opts->warmup >= 0 ? sw->opts->warmup : p->warmup, .timing = sw->timing,
        .cache = p->cache, .tolerance = mmb_dtype_tolerance_for(dtype, size->k, p->tolerance[dtype]),
        .time_limit = sw->opts->timeout > 0 ? sw->opts->timeout : p->timeout,
    };
    int rc = 0;
    struct sink_ctx sink = {sw, err, errlen};
    for (int ki = 0; ki < p->nkernels && rc == 0; ki++) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (!mmb_kernel_runs_dtype(p, k, dtype))
            continue;
        size_t n = mmb_space_size(k);
        for (size_t i = 0; i < n && rc == 0; i++) {
            struct mmb_config cfg;
            struct mmb_row row;
            if (mmb_watch_interrupted()) {
                rc = 2;
                break;
            }
            mmb_space_config_at(k, i, &cfg);
            row_identity(sw, k, &cfg, size, dtype, &row);
            if (!mmb_shard_has_row(&sw->opts->shard, &row) || done_before(sw, &row))
                continue; /* another shard's, or counted by remaining() */
            int failed = -1;
            int allowed = mmb_space_allowed(k, &cfg, size, mmb_dtype_info(dtype)->size, &failed,
                                            row.reason, sizeof row.reason);
            if (allowed == 0) {
                sw->sum->restricted++;
                if (!sw->opts->record_restricted)
                    continue;
                row.status = MMB_STATUS_RESTRICTED;
                snprintf(row.reason, sizeof row.reason, "%s", mmb_expr_text(k->restrictions[failed].expr));
            } else if (allowed < 0) {
                row.status = MMB_STATUS_INVALID_CONFIG;
            } else {
                show_progress(sw, &row);
                announce(sw, &row);
                bool lost = false;
                if (mmb_session_submit(sw->session, prob, k, &cfg, &eo, &row, sink_row, &sink, &lost) != 0)
                    rc = -1;
                else if (lost)
                    rc = 1;
                end_watch(sw);
                continue;
            }
            if (emit(sw, &row, err, errlen) != 0)
                rc = -1;
        }
    }
    if (rc != 1 && mmb_session_flush(sw->session, sink_row, &sink) != 0)
        rc = -1;
    mmb_problem_close(prob);
    return rc;
}

static int count_allowed(void *ctx, const struct mmb_shard_run *run)
{
    *(size_t *)ctx += run->allowed == 1;
    return 0;
}

/* The allowed runs of this sweep's shard, for the progress line. */
static size_t count_work(const struct mmb_profile *p, const struct mmb_shard *shard)
{
    size_t total = 0;
    mmb_shard_each_run(p, shard, count_allowed, &total);
    return total;
}

/* Where the sweep's time went (session.h's phases), on one line. */
static void print_phases(const struct sweep *sw)
{
    char line[512];
    mmb_phase_times_format(mmb_session_phase_times(sw->session), line, sizeof line);
    fprintf(stderr, "mmbench run: %.1f s, %s\n", mmb_seconds_now() - sw->t0, line);
    mmb_session_counter_steps(sw->session, line, sizeof line);
    if (sw->opts->verbose && line[0])
        fprintf(stderr, "mmbench run: %s\n", line);
}

int mmb_run_profile(const struct mmb_profile *profile, const struct mmb_run_options *opts,
                    struct mmb_run_summary *summary, char *err, size_t errlen)
{
    struct sweep sw = {.profile = profile, .opts = opts, .sum = summary, .t0 = mmb_seconds_now()};
    memset(summary, 0, sizeof *summary);
    if (mmb_profile_timing(profile, &opts->timing, &sw.timing, err, errlen) != 0)
        return -1;
    struct mmb_session_options so = {
        .device = opts->device, .cache_dir = opts->cache_dir, .counters = opts->counters,
        .metrics = opts->metrics, .l2_flush = opts->l2_flush, .verbose = opts->verbose, .command = "run",
    };
    mmb_energy_spec_of(profile, opts->no_energy, &so.energy);
    if (mmb_session_open(&sw.session, &so, err, errlen) != 0)
        return -1;
    const struct mmb_device_info *dev = mmb_session_device(sw.session);
    char unsharded[MMB_PATH_MAX];
    if (opts->output) {
        snprintf(unsharded, sizeof unsharded, "%s", opts->output);
    } else {
        char dir[MMB_PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", opts->data_dir ? opts->data_dir : "data", dev->slug);
        if (mmb_mkdir_p(dir, err, errlen) != 0)
            goto fail;
        char stem[128];
        if (mmb_csv_name_stem(profile->name, false, stem, sizeof stem) != 0) {
            mmb_errorf(err, errlen, "profile '%s': too long a name for its results file", profile->name);
            goto fail;
        }
        snprintf(unsharded, sizeof unsharded, "%.900s/%.64s.csv", dir, stem);
    }
    if (mmb_shard_path(unsharded, &opts->shard, summary->csv_path, sizeof summary->csv_path) != 0) {
        mmb_errorf(err, errlen, "%s: path too long for a shard's file", unsharded);
        goto fail;
    }
    sw.csv = mmb_csv_writer_open(summary->csv_path, err, errlen);
    if (!sw.csv || mmb_csv_writer_lock(sw.csv, dev->uuid, err, errlen) != 0) {
        summary->busy = sw.csv != NULL;
        goto fail;
    }
    if (opts->judge_resumed &&
        mmb_csv_statuses_load(&sw.resumed, summary->csv_path, opts->gpu_keyed, err, errlen) != 0)
        goto fail;
    const char *note = mmb_session_counter_note(sw.session);
    if (note[0] && opts->counters)
        fprintf(stderr, "mmbench run: warning: %s\n", note);
    if ((note = mmb_session_power_note(sw.session))[0])
        fprintf(stderr, "mmbench run: warning: clocks, throttle, power and energy not measured: %s\n", note);
    sw.total = count_work(profile, &opts->shard);
    sw.progress = isatty(STDERR_FILENO) && !opts->verbose;
    char shard[32] = "";
    if (!mmb_shard_is_all(&opts->shard)) {
        strcpy(shard, " of shard ");
        mmb_shard_text(&opts->shard, shard + strlen(shard), sizeof shard - strlen(shard));
    }
    fprintf(stderr, "mmbench run: %s on %s (sm_%d%d), %zu runs%s -> %s\n", profile->name, dev->name, dev->cc_major,
            dev->cc_minor, sw.total, shard, summary->csv_path);

    for (int si = 0; si < profile->nsizes && !summary->interrupted; si++)
        for (int d = 0; d < MMB_DTYPE_COUNT && !summary->interrupted; d++) {
            if (!(profile->dtypes & (1u << d)))
                continue;
            int rc = run_problem(&sw, &profile->sizes[si], (enum mmb_dtype)d, err, errlen);
            if (rc < 0)
                goto fail;
            if (rc == 2) {
                summary->interrupted = true;
                break;
            }
            if (rc == 1) {
                /* cudaDeviceReset does not bring the context back everywhere (seen on an
                 * H200 VM: cudaSetDevice then fails with cudaErrorDevicesUnavailable);
                 * a fresh process always does. */
                summary->device_lost = true;
                mmb_errorf(err, errlen, "the GPU reported a sticky error; a fresh process must go on");
                goto fail;
            }
        }
    if (sw.progress)
        fputs("\r\033[K", stderr);
    print_phases(&sw);
    summary->counter_passes = mmb_session_phase_times(sw.session)->counter_passes;
    if (sw.csv)
        mmb_csv_writer_close(sw.csv);
    mmb_csv_statuses_free(&sw.resumed);
    mmb_session_close(sw.session);
    return 0;
fail:
    if (sw.progress)
        fputs("\r\033[K", stderr);
    if (sw.csv)
        mmb_csv_writer_close(sw.csv);
    mmb_csv_statuses_free(&sw.resumed);
    mmb_session_close(sw.session);
    return -1;
}
