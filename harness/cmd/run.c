/* run.c - `mmbench run PROFILE`: the profile checked before any GPU work, then one
 * supervised worker process per GPU (--devices all) or for the one GPU asked for,
 * each sweeping the whole profile (or its --shard) into its GPU's CSV (sweep.c). */
#include "cmd/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/clocks.h"
#include "cmd/common.h"
#include "cmd/devices.h"
#include "cmd/options.h"
#include "cmd/supervise.h"
#include "cmd/sweep.h"
#include "results/metrics.h"

struct run_job {
    const struct mmb_profile *profile;
    struct mmb_run_options opts; /* device set per worker */
    int nworkers;                /* GPUs sweeping at once (--devices all) */
    bool check_device;           /* the worker looks for its GPU (one GPU: no count before) */
    bool jsonl;                  /* stdout carries the rows: the summary goes to stderr */
};

static int run_worker(void *ctx)
{
    struct run_job *job = ctx;
    struct mmb_run_summary sum;
    char err[2048];
    unsigned part, parts = 1;
    int n = job->check_device ? mmb_cmd_gpu_count_here("run", job->opts.device) : 1;
    if (n < 0)
        return n == -1 ? MMB_EXIT_NO_GPU : MMB_EXIT_BAD_INPUT;
    /* GPUs of one model share their folder's CSV: each sweeps it all, keyed by its UUID. */
    if (job->nworkers > 1 && mmb_cmd_device_part(job->opts.device, job->nworkers, &part, &parts, err, sizeof err)) {
        fprintf(stderr, "mmbench run: GPU %d: %s\n", job->opts.device, err);
        return MMB_EXIT_FAILED;
    }
    job->opts.gpu_keyed = parts > 1;
    if (mmb_run_profile(job->profile, &job->opts, &sum, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench run: %s\n", err);
        return sum.device_lost ? MMB_EXIT_DEVICE_LOST : MMB_EXIT_FAILED;
    }
    struct mmb_cmd_summary out;
    FILE *f = mmb_cmd_summary_open(&out, "run", job->jsonl);
    fprintf(f, "%s: %zu rows written, %zu already there, %zu configurations removed by restrictions\n", sum.csv_path,
            sum.rows_written, sum.rows_resumed, sum.restricted);
    if (sum.stale_total)
        fprintf(f, "  %zu of the rows already there were measured otherwise: %s\n", sum.stale_total,
                job->opts.keep_stale ? "kept (--keep-stale)" : "measured again, the new rows superseding them");
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        if (sum.by_status[s])
            fprintf(f, "  %-16s %zu\n", mmb_status_text((enum mmb_status)s), sum.by_status[s]);
    mmb_cmd_summary_close(&out);
    if (sum.interrupted) {
        fprintf(stderr, "mmbench run: interrupted: %zu rows kept in %s (%zu written now); run the same command "
                "again to go on from there\n", sum.rows_resumed + sum.rows_written, sum.csv_path, sum.rows_written);
        return MMB_EXIT_INTERRUPTED;
    }
    return 0;
}

int mmb_cmd_run(int argc, char **argv)
{
    struct mmb_cmd_settings s;
    int rc = mmb_cmd_options_parse(MMB_CMD_RUN, argc, argv, &s);
    if (rc)
        return rc > 0 ? 0 : MMB_EXIT_BAD_INPUT;
    const char *l2_flush;
    if (mmb_cmd_l2_flush_method("run", &l2_flush) != 0)
        return MMB_EXIT_BAD_INPUT;
    struct mmb_profile *p = calloc(1, sizeof *p);
    if (!p) {
        perror("mmbench run");
        return MMB_EXIT_FAILED;
    }
    char err[1024];
    struct mmb_metric_set set;
    int ndev;
    struct run_job job = {.profile = p, .opts = {.device = s.device, .output = s.output, .data_dir = s.data_dir,
                                                 .cache_dir = s.cache_dir, .jobs = s.jobs, .started = s.started,
                                                 .metrics = &set, .verbose = s.verbose,
                                                 .record_restricted = s.record_restricted, .timing = s.timing,
                                                 .warmup = s.warmup, .timeout = s.timeout, .l2_flush = l2_flush,
                                                 .shard = s.shard, .keep_stale = s.keep_stale,
                                                 .judge_resumed = s.fail_on != 0},
                          .jsonl = s.format == MMB_FORMAT_JSONL};
    if (mmb_cmd_load_profile("run", s.profile, p, &set) != 0) {
        free(p);
        return MMB_EXIT_BAD_INPUT;
    }
    job.opts.counters = mmb_profile_counters(p, s.counters_set, s.counters, MMB_COUNTERS_BEST,
                                             mmb_metric_set_size(&set) == 0);
    job.opts.energy = mmb_profile_energy(p, s.energy_set, s.energy, MMB_ENERGY_OFF);
    rc = MMB_EXIT_BAD_INPUT;
    struct mmb_converge_spec timing; /* checked before a GPU is looked for; each worker's sweep resolves it */
    if (mmb_profile_timing(p, &s.timing, &timing, err, sizeof err) != 0) {
        fprintf(stderr, "mmbench run: %s\n", err);
        goto out;
    }
    /* All GPUs: counted in a child first; one GPU: its worker looks for it, which
     * spares a process and a CUDA initialisation */
    if (!s.all_devices) {
        ndev = 1;
        job.check_device = true;
    } else if ((ndev = mmb_cmd_gpu_count("run")) < 0) {
        rc = MMB_EXIT_NO_GPU;
        goto out;
    }
    int nworkers = s.all_devices ? (ndev < 64 ? ndev : 64) : 1;
    struct mmb_worker workers[64];
    struct run_job jobs[64];
    for (int i = 0; i < nworkers; i++) {
        jobs[i] = job;
        jobs[i].opts.device = s.all_devices ? i : s.device;
        jobs[i].nworkers = nworkers;
        workers[i] = (struct mmb_worker){.work = run_worker, .ctx = &jobs[i]};
        snprintf(workers[i].name, sizeof workers[i].name, "GPU %d", jobs[i].opts.device);
    }
    int devices[64];
    for (int i = 0; i < nworkers; i++)
        devices[i] = jobs[i].opts.device;
    struct mmb_cmd_clocks clocks;
    if ((rc = mmb_cmd_clocks_lock("run", &s.lock, devices, nworkers, &clocks)) != 0)
        goto out;
    struct mmb_supervise_rows rows = {.jsonl = job.jsonl, .fail_on = s.fail_on};
    rc = mmb_supervise_verdict("run", &rows, mmb_supervise("run", workers, nworkers, &rows));
    int restored = mmb_cmd_clocks_restore("run", &clocks);
    rc = rc ? rc : restored;
out:
    mmb_profile_free(p);
    free(p);
    return rc;
}
