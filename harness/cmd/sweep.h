/* sweep.h - the sweep of `mmbench run`: every configuration of every kernel of a
 * profile at every size and dtype, one CSV row each, resumable. */
#ifndef MMB_CMD_SWEEP_H
#define MMB_CMD_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/counters.h"
#include "core/status.h"
#include "model/profile.h"
#include "results/metrics.h"
#include "results/resume.h"
#include "results/shard.h"

struct mmb_run_options {
    int device;
    const char *output;       /* CSV path; NULL: <data_dir>/<gpu>/<profile>.csv; a shard
                               * writes beside it (results/shard.h: mmb_shard_path) */
    const char *data_dir;     /* default "data" */
    const char *cache_dir;    /* cubin cache; NULL: none */
    int jobs;                 /* NVRTC threads compiling ahead into the cache (needs it); 0: none */
    enum mmb_counters counters; /* which rows get counters (mmb_profile_counters) */
    enum mmb_energy_mode energy; /* which rows get the energy phase (mmb_profile_energy) */
    const struct mmb_metric_set *metrics; /* the profile's, parsed; read unless counters is none */
    bool verbose;
    bool record_restricted;   /* write rows with status restricted too */
    struct mmb_timing_request timing; /* the command line's over the profile's (mmb_profile_timing) */
    int warmup;               /* >= 0 overrides the profile; -1 keeps it */
    double timeout;           /* > 0 overrides the profile's seconds per configuration */
    const char *l2_flush;     /* L2 flush method (MMB_L2_SWEEP); NULL: the default */
    struct mmb_shard shard;   /* the runs to do, in the shard's own CSV; n == 0: all */
    double started;           /* mmb_seconds_now() when the command began; 0: when the sweep did */
    bool gpu_keyed;           /* other GPUs of this model sweep into the same CSV at once:
                               * only this GPU's rows count as done */
    bool keep_stale;          /* a row measured before from another source, with other compile
                               * options or another protocol counts as done (results/resume.h) */
    bool judge_resumed;       /* tell the supervisor the statuses of the rows resumed (--fail-on) */
};

struct mmb_run_summary {
    size_t rows_written, rows_resumed, restricted;
    size_t stale[MMB_RESUME_COUNT]; /* rows already there, by why they are stale (measured
                                     * again, or kept with keep_stale) */
    size_t stale_total;
    size_t by_status[MMB_STATUS_COUNT];
    char csv_path[MMB_PATH_MAX];
    bool device_lost;         /* stopped after a sticky error: run again to go on */
    bool interrupted;         /* stopped by Ctrl-C after a whole row */
    bool busy;                /* the CSV is held by another run */
    size_t counter_passes;    /* profiling passes run (session.h's phases) */
};

/* Returns 0 when the sweep completed or Ctrl-C stopped it after a whole row
 * (summary->interrupted); failed configurations are rows, not errors. Returns -1 with
 * err on what stops a sweep: no GPU, an unwritable CSV, a CSV another run holds
 * (summary->busy), and a sticky GPU error, after which summary->device_lost is set
 * and a new process resumes the sweep. */
int mmb_run_profile(const struct mmb_profile *profile, const struct mmb_run_options *opts,
                    struct mmb_run_summary *summary, char *err, size_t errlen);

#endif
