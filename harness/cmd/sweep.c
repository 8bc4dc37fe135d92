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
#include "cuda/compile_pool.h"
#include "cuda/session/session.h"
#include "model/space.h"
#include "results/best/best.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/csv_samples.h"
#include "results/csv_status.h"
#include "results/protocol.h"

struct sweep {
    const struct mmb_profile *profile;
    const struct mmb_run_options *opts;
    struct mmb_session *session;
    struct mmb_csv_writer *csv;
    struct mmb_samples_writer *samples;
    struct mmb_run_summary *sum;
    struct mmb_best *best;           /* counters = best or energy = best: the groups held; NULL otherwise */
    struct mmb_compile_pool *pool;   /* NVRTC ahead of the GPU (--jobs); NULL: none */
    char *sources[MMB_MAX_KERNELS];  /* the kernels' texts, for the pool */
    size_t total, done;
    bool progress;
    double t0;
    double open_s, write_s;          /* the session's opening, the rows' writing */
    struct mmb_converge_spec timing; /* the profile's, with the command line's over it */
    struct mmb_eval_options eo;      /* how each configuration is measured, but its tolerance */
    char protocol[MMB_PROTOCOL_LEN]; /* of every row of this sweep */
    struct mmb_csv_statuses resumed; /* judge_resumed: the CSV's statuses when the sweep began */
};

/* The row of kernel k at cfg, size and dtype as this sweep writes it: its identity and
 * origin. */
static void row_identity(const struct sweep *sw, const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                         const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row)
{
    mmb_session_row_identity(sw->session, sw->profile, k, cfg, size, dtype, row);
    mmb_session_row_origin(sw->session, k, cfg, size, dtype, sw->protocol, row);
}

/* What the CSV's row of this run says to do (results/resume.h): from this GPU, or,
 * when it sweeps alone, from any GPU of its folder (a re-run on another GPU of the
 * model resumes). */
static enum mmb_resume resume_of(const struct sweep *sw, const struct mmb_row *row)
{
    return mmb_resume_decide(mmb_csv_writer_find(sw->csv, row, !sw->opts->gpu_keyed), row);
}

/* Whether the run of row is done: in the CSV as this sweep would measure it, or
 * measured otherwise and kept on purpose (--keep-stale). */
static bool done_before(const struct sweep *sw, const struct mmb_row *row)
{
    enum mmb_resume r = resume_of(sw, row);
    return r == MMB_RESUME_DONE || (mmb_resume_stale(r) && sw->opts->keep_stale);
}

/* Writes row, after its launch times when it has them; the supervisor's watch ends
 * separately (end_watch), since a row whose counters waited for a batch is written
 * after later configurations began. */
static int write_row(struct sweep *sw, struct mmb_row *row, const double *samples, size_t nsamples, char *err,
                     size_t errlen)
{
    double t = mmb_seconds_now();
    mmb_timestamp_utc(row->timestamp, sizeof row->timestamp);
    if (samples && nsamples && row->status == MMB_STATUS_OK &&
        mmb_samples_append(sw->samples, row, samples, nsamples, err, errlen) != 0)
        return -1;
    int rc = mmb_csv_append_row(sw->csv, row, err, errlen);
    sw->write_s += mmb_seconds_now() - t;
    if (rc != 0)
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
    int rc = write_row(sw, row, NULL, 0, err, errlen);
    end_watch(sw);
    return rc;
}

/* The session's sink (mmb_session_submit): rows measured, in order. */
struct sink_ctx {
    struct sweep *sw;
    char *err;
    size_t errlen;
};

static int sink_row(void *opaque, struct mmb_row *row, const double *samples, size_t nsamples)
{
    struct sink_ctx *c = opaque;
    return write_row(c->sw, row, samples, nsamples, c->err, c->errlen);
}

/* counters = best, energy = best: the session's sink for a group's fastest row, counted
 * and its energy measured, which completes its group; every group complete at the
 * front of the queue is then written. */
static int sink_counted(void *opaque, struct mmb_row *row, const double *samples, size_t nsamples)
{
    (void)samples, (void)nsamples; /* neither counting nor the energy window times: the group holds the row's
                                    * launch times */
    struct sink_ctx *c = opaque;
    if (mmb_best_completed(c->sw->best, row) != 0) {
        mmb_errorf(c->err, c->errlen, "%s %s: completed, but no group waits for it", row->kernel, row->params);
        return -1;
    }
    return mmb_best_drain(c->sw->best, sink_row, c);
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

/* What the sweep's groups give their fastest row after the timing (best.h). */
static unsigned best_what(const struct mmb_run_options *opts)
{
    return (opts->counters == MMB_COUNTERS_BEST ? MMB_BEST_COUNTERS : 0u) |
           (opts->energy == MMB_ENERGY_BEST ? MMB_BEST_ENERGY : 0u);
}

/* counters = best, energy = best: the end of kernel k's group at this problem (also
 * when Ctrl-C cut it short): its fastest row is counted and its energy measured, then
 * the group is written once complete. */
static int group_end(struct sweep *sw, struct mmb_problem *prob, const struct mmb_kernel_spec *k,
                     const struct mmb_eval_options *eo, struct sink_ctx *sink)
{
    struct mmb_config cfg;
    unsigned missing;
    const struct mmb_row *pick = mmb_best_close(sw->best, &cfg, &missing);
    mmb_cmd_best_missing_warn("run", k->name, &prob->size, sw->sum->csv_path, missing);
    if (pick) {
        struct mmb_row row = *pick, id;
        row_identity(sw, k, &cfg, &prob->size, prob->dtype, &id);
        announce(sw, &id); /* a counting or energy window that never ends is this configuration's timeout */
        unsigned what = best_what(sw->opts);
        int rc = mmb_session_submit_best(sw->session, prob, k, &cfg, eo, &row, what & MMB_BEST_COUNTERS,
                                         what & MMB_BEST_ENERGY, sink_counted, sink);
        end_watch(sw);
        if (rc != 0)
            return -1;
    }
    return mmb_best_drain(sw->best, sink_row, sink) != 0 ? -1 : 0;
}

/* A row that is not measured (restricted, invalid): written now, or held with its
 * group. */
static int settle(struct sweep *sw, struct mmb_row *row, char *err, size_t errlen)
{
    if (!sw->best)
        return emit(sw, row, err, errlen);
    if (mmb_best_hold(sw->best, row, NULL, NULL, 0) != 0) {
        mmb_errorf(err, errlen, "out of host memory holding the rows of %s", row->kernel);
        return -1;
    }
    return 0;
}

/* The configurations of this problem still to measure, handed to the compile pool
 * in the order they will be measured (each submit goes first: kernels last to
 * first), so that NVRTC runs on every CPU ahead of the GPU. */
static void compile_ahead(struct sweep *sw, const struct mmb_size *size, enum mmb_dtype dtype)
{
    const struct mmb_profile *p = sw->profile;
    const struct mmb_device_info *dev = mmb_session_device(sw->session);
    for (int ki = p->nkernels - 1; ki >= 0; ki--) {
        const struct mmb_kernel_spec *k = &p->kernels[ki];
        if (k->kind != MMB_KERNEL_SOURCE || !sw->sources[ki] || !mmb_kernel_runs_dtype(p, k, dtype))
            continue;
        size_t n = mmb_space_size(k), m = 0;
        struct mmb_config *cfgs = malloc((n ? n : 1) * sizeof *cfgs);
        if (!cfgs)
            return; /* compiling ahead only saves time: the session compiles what is missing */
        for (size_t i = 0; i < n; i++) {
            struct mmb_row row;
            struct mmb_geometry geo;
            int failed;
            char why[256];
            mmb_space_config_at(k, i, &cfgs[m]);
            row_identity(sw, k, &cfgs[m], size, dtype, &row);
            if (!mmb_shard_has_row(&sw->opts->shard, &row) || done_before(sw, &row) ||
                mmb_space_allowed(k, &cfgs[m], size, mmb_dtype_info(dtype)->size, &failed, why, sizeof why) != 1 ||
                mmb_space_geometry(k, &cfgs[m], size, mmb_dtype_info(dtype)->size, dev->sm_count, &geo, why,
                                   sizeof why) != 0 ||
                geo.block[0] * geo.block[1] * geo.block[2] > dev->max_threads_per_block)
                continue;
            m++;
        }
        (void)mmb_compile_pool_submit(sw->pool, k, sw->sources[ki], cfgs, m, size, dtype);
        free(cfgs);
    }
}

/* Measures cfg: its row reaches the CSV through the session's batches (neither
 * counters nor energy best), or is held with its group (either best: timed without
 * what is best, whose rows are chosen later; with counters = all, a held row's
 * counters are read alone, not in a batch). Returns 0, -1 with err, or 1 when
 * the device was lost (after its row is written and the groups held are dropped). */
static int measure(struct sweep *sw, struct mmb_problem *prob, const struct mmb_kernel_spec *k,
                   const struct mmb_config *cfg, const struct mmb_eval_options *eo, struct mmb_row *row,
                   struct sink_ctx *sink)
{
    bool lost = false;
    show_progress(sw, row);
    announce(sw, row);
    if (sw->pool && k->kind == MMB_KERNEL_SOURCE) { /* its compile done by the pool, or here, once */
        double ms;
        bool cached;
        mmb_compile_pool_wait(sw->pool, k, cfg, &prob->size, prob->dtype, &ms, &cached);
    }
    if (!sw->best) {
        int rc = mmb_session_submit(sw->session, prob, k, cfg, eo, row, sink_row, sink, &lost);
        end_watch(sw);
        return rc != 0 ? -1 : lost ? 1 : 0;
    }
    struct mmb_eval_options timed = *eo;
    timed.time_only = sw->opts->counters != MMB_COUNTERS_ALL;
    timed.energy_later = sw->opts->energy == MMB_ENERGY_BEST;
    const double *samples;
    size_t nsamples;
    mmb_session_evaluate(sw->session, prob, k, cfg, &timed, row, &samples, &nsamples, &lost);
    if (lost) {
        /* this row is recorded, so that a resumed sweep does not run it again; the
         * groups not yet written are measured again */
        size_t dropped = mmb_best_drop(sw->best);
        if (mmb_session_discard(sw->session, sink_row, sink) != 0 ||
            write_row(sw, row, samples, nsamples, sink->err, sink->errlen) != 0)
            return -1;
        end_watch(sw);
        if (dropped)
            fprintf(stderr, "mmbench run: %zu measured rows not yet written are measured again when the sweep goes "
                    "on\n", dropped);
        return 1;
    }
    end_watch(sw);
    if (mmb_best_hold(sw->best, row, cfg, samples, nsamples) != 0) {
        mmb_errorf(sink->err, sink->errlen, "out of host memory holding the rows of %s", k->name);
        return -1;
    }
    return 0;
}

/* Every configuration of kernel k at this problem. Returns as run_problem does. */
static int run_kernel(struct sweep *sw, struct mmb_problem *prob, const struct mmb_kernel_spec *k,
                      const struct mmb_eval_options *eo, struct sink_ctx *sink)
{
    const struct mmb_size *size = &prob->size;
    enum mmb_dtype dtype = prob->dtype;
    char *err = sink->err;
    size_t errlen = sink->errlen;
    int rc = 0;
    if (sw->best) {
        struct mmb_row id;
        row_identity(sw, k, NULL, size, dtype, &id);
        if (mmb_best_open(sw->best, &id) != 0) {
            mmb_errorf(err, errlen, "%s: a group of counters or energy = best is still open", k->name);
            return -1;
        }
    }
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
            rc = measure(sw, prob, k, &cfg, eo, &row, sink);
            continue;
        }
        if (settle(sw, &row, err, errlen) != 0)
            rc = -1;
    }
    /* a group cut short by Ctrl-C is counted and written as far as it got */
    if (sw->best && (rc == 0 || rc == 2) && group_end(sw, prob, k, eo, sink) != 0)
        rc = -1;
    return rc;
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
    if (sw->pool)
        compile_ahead(sw, size, dtype); /* while the problem's inputs and reference are made */
    enum mmb_status st = mmb_session_problem_open(sw->session, size, dtype, p->seed, &prob, why, sizeof why);
    if (st != MMB_STATUS_OK)
        return emit_problem_failure(sw, size, dtype, st, why, err, errlen);
    struct mmb_eval_options eo = sw->eo;
    eo.tolerance = mmb_dtype_tolerance_for(dtype, size->k, p->tolerance[dtype]);
    int rc = 0;
    struct sink_ctx sink = {sw, err, errlen};
    for (int ki = 0; ki < p->nkernels && rc == 0; ki++)
        if (mmb_kernel_runs_dtype(p, &p->kernels[ki], dtype))
            rc = run_kernel(sw, prob, &p->kernels[ki], &eo, &sink);
    mmb_row_sink to = sw->best ? sink_counted : sink_row;
    if (rc == 0) /* its rows waiting for counters share the next problem's batch */
        return mmb_session_problem_done(sw->session, prob, to, &sink) != 0 ? -1 : 0;
    if (rc != 1 && mmb_session_flush(sw->session, to, &sink) != 0)
        rc = -1;
    mmb_problem_close(prob);
    return rc;
}

/* The end of the sweep (or of its last problem): the batch still waiting is measured
 * and its rows written; then no group of counters or energy = best may be left. */
static int run_finish(struct sweep *sw, char *err, size_t errlen)
{
    struct sink_ctx sink = {sw, err, errlen};
    if (mmb_session_flush(sw->session, sw->best ? sink_counted : sink_row, &sink) != 0)
        return -1;
    if (sw->best && mmb_best_held(sw->best) != 0) {
        mmb_errorf(err, errlen, "%zu groups of counters or energy = best left unwritten", mmb_best_held(sw->best));
        return -1;
    }
    return 0;
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

/* ---- rows measured before otherwise ---- */

struct stale_scan {
    struct sweep *sw;
    char kernels[MMB_RESUME_COUNT][256]; /* the kernels of each reason, listed once */
    char protocol_why[192];              /* how a stale row's protocol differs, the first one */
};

static int scan_run(void *ctx, const struct mmb_shard_run *run)
{
    struct stale_scan *sc = ctx;
    struct sweep *sw = sc->sw;
    if (run->allowed == 0 && !sw->opts->record_restricted)
        return 0; /* never written */
    struct mmb_row row;
    row_identity(sw, run->kernel, &run->cfg, run->size, run->dtype, &row);
    const struct mmb_row_version *v = mmb_csv_writer_find(sw->csv, &row, !sw->opts->gpu_keyed);
    enum mmb_resume r = mmb_resume_decide(v, &row);
    if (!mmb_resume_stale(r))
        return 0;
    sw->sum->stale[r]++;
    sw->sum->stale_total++;
    char *list = sc->kernels[r];
    char word[80];
    snprintf(word, sizeof word, "%s, ", run->kernel->name);
    if (!strstr(list, word) && strlen(list) + strlen(word) < sizeof sc->kernels[r])
        strcat(list, word);
    const char *before = r == MMB_RESUME_PROTOCOL ? mmb_csv_writer_protocol(sw->csv, v->protocol) : NULL;
    if (before && !sc->protocol_why[0])
        mmb_protocol_difference(before, row.protocol, sc->protocol_why, sizeof sc->protocol_why);
    return 0;
}

/* Counts the rows already in the CSV that this sweep would measure otherwise (another
 * source, other compile options, another protocol, or no origin recorded) and says
 * how many and why, and whether they are measured again or kept (--keep-stale). */
static void stale_report(struct sweep *sw)
{
    struct stale_scan *sc = calloc(1, sizeof *sc);
    if (!sc)
        return; /* only the message is lost: each row is still decided when it comes */
    sc->sw = sw;
    mmb_shard_each_run(sw->profile, &sw->opts->shard, scan_run, sc);
    const struct mmb_run_summary *sum = sw->sum;
    if (sum->stale_total) {
        fprintf(stderr, "mmbench run: %zu row%s of %s %s measured otherwise than this run measures:",
                sum->stale_total, sum->stale_total == 1 ? "" : "s", sum->csv_path,
                sum->stale_total == 1 ? "was" : "were");
        const char *sep = " ";
        for (int r = 0; r < MMB_RESUME_COUNT; r++) {
            if (!sum->stale[r])
                continue;
            size_t n = strlen(sc->kernels[r]);
            if (n >= 2)
                sc->kernels[r][n - 2] = '\0';
            fprintf(stderr, "%s%zu %s (%s%s%s)", sep, sum->stale[r], mmb_resume_text((enum mmb_resume)r),
                    sc->kernels[r], r == MMB_RESUME_PROTOCOL && sc->protocol_why[0] ? "; " : "",
                    r == MMB_RESUME_PROTOCOL ? sc->protocol_why : "");
            sep = "; ";
        }
        fprintf(stderr, sw->opts->keep_stale ? "; kept as they are (--keep-stale)\n"
                                             : "; measuring them again, the new rows superseding the old "
                                               "(--keep-stale keeps them)\n");
    }
    free(sc);
}

/* Where the sweep's time went, on one line, from the command line's start to the
 * session's close: the start (profile, worker), the session's opening (context,
 * cuBLAS, CUPTI, L2 flush buffer), its phases (session.h), the waits for the
 * compile pool, the CSV's writing, what is left (other), and the close. */
static void print_phases(const struct sweep *sw, const struct mmb_phase_times *t, double waits, double close_s)
{
    char line[640];
    double now = mmb_seconds_now(), began = sw->opts->started > 0 ? sw->opts->started : sw->t0;
    double known = (sw->t0 - began) + sw->open_s + waits + sw->write_s + close_s;
    for (int i = 0; i < MMB_PHASE_COUNT; i++)
        known += t->seconds[i];
    mmb_phase_times_format(t, line, sizeof line);
    fprintf(stderr, "mmbench run: %.1f s: start %.2f s, session %.2f s, %s, compile waits %.2f s, writing %.2f s, "
            "other %.2f s, close %.2f s\n", now - began, sw->t0 - began, sw->open_s, line, waits, sw->write_s,
            now - began - known > 0 ? now - began - known : 0.0, close_s);
}

/* counters or energy = best, the filter of the file's rows that a group's new fastest row is
 * compared with: a row counts when this sweep would not measure it again (the same
 * origin, or kept on purpose: --keep-stale), as resume decides. A stale row (another
 * source, compile options or protocol, or none recorded) is measured again, so its
 * time says nothing of the group as measured now. A row of a kernel or configuration
 * that is not in the profile any more counts: nothing of this sweep supersedes it. */
static bool history_keeps(void *ctx, const struct mmb_row *row)
{
    const struct sweep *sw = ctx;
    if (sw->opts->keep_stale)
        return true;
    const struct mmb_profile *p = sw->profile;
    const struct mmb_kernel_spec *k = NULL;
    for (int i = 0; i < p->nkernels && !k; i++)
        if (!strcmp(p->kernels[i].name, row->kernel))
            k = &p->kernels[i];
    struct mmb_config cfg;
    size_t index;
    enum mmb_dtype dtype;
    if (!k || mmb_space_parse_params(k, row->params, &cfg, &index) != 0 || !mmb_dtype_parse(row->dtype, &dtype))
        return true;
    struct mmb_size size = {row->m, row->n, row->k};
    struct mmb_row planned;
    struct mmb_row_version v;
    row_identity(sw, k, &cfg, &size, dtype, &planned);
    mmb_row_version_of(row, &v);
    return !mmb_resume_stale(mmb_resume_decide(&v, &planned));
}

/* What the sweep opened after its session: the groups of counters or energy = best and what
 * the file holds of them, the compile pool and the sources it compiles. */
static int sweep_extras_open(struct sweep *sw, char *err, size_t errlen)
{
    const struct mmb_run_options *opts = sw->opts;
    if (best_what(opts)) {
        /* what an earlier run left of each group, as this one measures, decides what it measures */
        if (!(sw->best = mmb_best_new(opts->gpu_keyed, best_what(opts)))) {
            mmb_errorf(err, errlen, "out of host memory");
            return -1;
        }
        if (mmb_best_history_load(sw->best, sw->sum->csv_path, history_keeps, sw, err, errlen) != 0)
            return -1;
    }
    if (opts->jobs <= 0 || !opts->cache_dir)
        return 0;
    const struct mmb_device_info *dev = mmb_session_device(sw->session);
    if (mmb_compile_pool_open(&sw->pool, opts->jobs, dev->cc_major * 10 + dev->cc_minor, opts->cache_dir, err,
                              errlen) != 0)
        return -1;
    for (int ki = 0; ki < sw->profile->nkernels; ki++) {
        const struct mmb_kernel_spec *k = &sw->profile->kernels[ki];
        if (k->kind == MMB_KERNEL_SOURCE && !(sw->sources[ki] = mmb_file_read(k->source, NULL, err, errlen)))
            return -1;
    }
    return 0;
}

/* Closes what the sweep opened; returns the seconds the session took to close, and
 * the compile pool's waits into *waits. */
static double sweep_close(struct sweep *sw, double *waits)
{
    *waits = 0.0;
    if (sw->pool) {
        struct mmb_compile_pool_stats st;
        mmb_compile_pool_stats(sw->pool, &st);
        *waits = st.wait_seconds;
    }
    mmb_compile_pool_close(sw->pool); /* before the sources it reads */
    for (int ki = 0; ki < MMB_MAX_KERNELS; ki++)
        free(sw->sources[ki]);
    mmb_samples_writer_close(sw->samples);
    if (sw->csv)
        mmb_csv_writer_close(sw->csv);
    mmb_csv_statuses_free(&sw->resumed);
    mmb_best_free(sw->best);
    double t = mmb_seconds_now();
    mmb_session_close(sw->session);
    return mmb_seconds_now() - t;
}

int mmb_run_profile(const struct mmb_profile *profile, const struct mmb_run_options *opts,
                    struct mmb_run_summary *summary, char *err, size_t errlen)
{
    struct sweep sw = {.profile = profile, .opts = opts, .sum = summary, .t0 = mmb_seconds_now()};
    double waits;
    memset(summary, 0, sizeof *summary);
    if (mmb_profile_timing(profile, &opts->timing, &sw.timing, err, errlen) != 0)
        return -1;
    struct mmb_session_options so = {
        .device = opts->device, .cache_dir = opts->cache_dir, .counters = opts->counters != MMB_COUNTERS_NONE,
        .metrics = opts->metrics, .l2_flush = opts->l2_flush, .verbose = opts->verbose, .command = "run",
    };
    mmb_energy_spec_of(profile, opts->energy, &so.energy);
    double t_open = mmb_seconds_now();
    if (mmb_session_open(&sw.session, &so, err, errlen) != 0)
        return -1;
    sw.open_s = mmb_seconds_now() - t_open;
    sw.eo = (struct mmb_eval_options){
        .warmup = opts->warmup >= 0 ? opts->warmup : profile->warmup, .timing = sw.timing, .cache = profile->cache,
        .time_limit = opts->timeout > 0 ? opts->timeout : profile->timeout,
    };
    if (mmb_session_protocol(sw.session, &sw.eo, opts->counters, sw.protocol, sizeof sw.protocol) != 0) {
        mmb_errorf(err, errlen, "the protocol of this run does not fit its column (%d bytes)", MMB_PROTOCOL_LEN);
        goto fail;
    }
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
    if (!(sw.samples = mmb_samples_writer_open(summary->csv_path, err, errlen)))
        goto fail;
    stale_report(&sw);
    if (sweep_extras_open(&sw, err, errlen) != 0 ||
        (opts->judge_resumed &&
         mmb_csv_statuses_load(&sw.resumed, summary->csv_path, opts->gpu_keyed, err, errlen) != 0))
        goto fail;
    const char *note = mmb_session_counter_note(sw.session);
    if (note[0] && opts->counters != MMB_COUNTERS_NONE)
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
    if (run_finish(&sw, err, errlen) != 0)
        goto fail;
    if (sw.progress)
        fputs("\r\033[K", stderr);
    struct mmb_phase_times phases = *mmb_session_phase_times(sw.session);
    char steps[1024];
    mmb_session_counter_steps(sw.session, steps, sizeof steps);
    summary->counter_passes = phases.counter_passes;
    double close_s = sweep_close(&sw, &waits);
    print_phases(&sw, &phases, waits, close_s);
    if (opts->verbose && steps[0])
        fprintf(stderr, "mmbench run: %s\n", steps);
    return 0;
fail:
    if (sw.progress)
        fputs("\r\033[K", stderr);
    (void)sweep_close(&sw, &waits);
    return -1;
}
