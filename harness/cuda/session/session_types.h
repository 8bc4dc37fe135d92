/* session_types.h - the plain types of the session's interface (session.h): its
 * options, the options of one evaluation, where its time went, where rows go; apart
 * so that the session's inside (session_impl.h) has them without the interface. */
#ifndef MMB_SESSION_TYPES_H
#define MMB_SESSION_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cache.h"
#include "core/converge.h"
#include "model/profile_energy.h"
#include "results/metrics.h"
#include "results/row.h"

struct mmb_session_options {
    int device;
    const char *cache_dir;   /* cubin cache; NULL: none */
    bool counters;           /* read CUPTI counters for ok rows */
    const struct mmb_metric_set *metrics; /* the counters to read (copied); NULL: none */
    const char *l2_flush;    /* L2 flush method (MMB_L2_SWEEP, l2flush.h); NULL: the default */
    bool verbose;
    struct mmb_energy_spec energy; /* the energy phase and throttle retries (model/profile_energy.h) */
    const char *command;     /* "run", "tune": the session's lines on stderr start "mmbench COMMAND: " */
};

/* Where a session's wall time went, for the summary line of run and tune (and the
 * speed benchmark): each phase of evaluating configurations, opening problems, and
 * the kernels' own time inside the timing phase. */
enum mmb_phase {
    MMB_PHASE_PROBLEM,   /* inputs, reference and its check */
    MMB_PHASE_PREPARE,   /* geometry, limits, compile (or the cubin cache) and module load */
    MMB_PHASE_VERIFY,    /* the launch on a poisoned output and the comparison */
    MMB_PHASE_TIMING,    /* warm-up and timed launches */
    MMB_PHASE_COUNTERS,  /* the profiling passes and their evaluation */
    MMB_PHASE_ENERGY,    /* the energy windows (cuda/energy.h) */
    MMB_PHASE_COUNT,
};

struct mmb_phase_times {
    double seconds[MMB_PHASE_COUNT];
    double timed_kernel_seconds;  /* the event times of the launches of the timing phase, summed */
    size_t configurations;        /* evaluated (each phase it reached counted) */
    size_t counter_passes;        /* profiling passes run */
    double counter_setup_seconds; /* of the counters phase: profiler set-up per configuration */
    size_t energy_windows;        /* energy windows that measured */
    double update_ms_min, update_ms_max; /* the energy counter's update interval seen (0: none) */
    size_t throttle_retries;      /* configurations timed again because the clocks were throttled */
    size_t throttled_rows;        /* rows still throttled after their retries (flagged) */
    size_t throttled_kept;        /* rows throttled above throttle_threshold: flagged, not timed again */
};

struct mmb_eval_options {
    int warmup;
    struct mmb_converge_spec timing; /* a fixed count or a noise target (core/converge.h) */
    enum mmb_cache_mode cache;
    double tolerance;
    double time_limit;   /* seconds a configuration may take (the supervisor's); 0: none */
    bool time_only;      /* no counters now: the caller counts the rows it chooses later
                          * (counters = best: mmb_session_submit_best) */
    bool energy_later;   /* no energy window now (energy_status not_best): the caller measures
                          * the rows it chooses later (energy = best: mmb_session_submit_best) */
};

/* Where submitted rows go, in the order submitted, each with its timed launches'
 * times in ms in launch order (samples[0..nsamples), NULL and 0 when it was not timed;
 * valid during the call); nonzero stops the caller. */
typedef int (*mmb_row_sink)(void *ctx, struct mmb_row *row, const double *samples, size_t nsamples);

#endif
