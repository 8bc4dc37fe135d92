/* tune_impl.h - private to tune.c and tune_kernel.c: one tune's state, and the search
 * of one kernel at one open problem. */
#ifndef MMB_CMD_TUNE_IMPL_H
#define MMB_CMD_TUNE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/options.h"
#include "cuda/compile_pool.h"
#include "cuda/session/session.h"
#include "results/csv.h"
#include "results/csv_samples.h"
#include "results/metrics.h"
#include "search/tune_plan.h"

struct tune_run {
    const struct mmb_profile *profile;
    const struct mmb_cmd_settings *settings;
    const struct mmb_tune_options *opt;
    const struct mmb_tune_plan *plan;
    const struct mmb_metric_set *metrics; /* the profile's, parsed */
    const char *l2_flush;                 /* MMB_L2_SWEEP, checked */
    struct mmb_converge_spec timing;      /* the profile's, with the command line's over it */
    enum mmb_counters counters;           /* the plan's; none when the metric set is empty */
    enum mmb_energy_mode energy;          /* the plan's: which rows get the energy window */
    struct mmb_session *session;
    const struct mmb_device_info *dev;    /* the session's; before it opens, found: */
    struct mmb_device_info found;         /* the GPU as mmb_gpu_query sees it, for compiling ahead */
    struct mmb_csv_writer *csv;
    struct mmb_samples_writer *samples;   /* the CSV's side file of launch times */
    char csv_path[MMB_PATH_MAX];
    struct mmb_compile_pool *pool;
    struct mmb_compile_pool_stats prefetch_base; /* the pool before the problem's prefetch: the first */
    bool have_prefetch_base;                     /* kernel tuned there counts the compiles from it; true
                                                  * from the prefetch until then: handed over */
    char *sources[MMB_MAX_KERNELS];
    bool progress;
    bool device_lost;
    int problems;
    int device;                           /* this worker's GPU */
    bool check_device;                    /* the worker looks for it (one GPU: no count before) */
    int nworkers;                         /* GPUs tuning at once (--devices all) */
    struct mmb_shard shard;               /* this worker's part of the space: --shard, split
                                           * between the GPUs of its model */
    size_t measured;                      /* configurations this worker measured, for progress */
};

/* Searches kernel k at the open problem and prints its summary and T4 file; source is
 * its text (NULL for a library kernel). With reference_out, k is the reference: it is
 * measured once and its row copied out; otherwise reference is that row, for the
 * summary. Returns 0, MMB_EXIT_BAD_INPUT, or MMB_EXIT_FAILED with err. */
int mmb_tune_kernel(struct tune_run *r, const struct mmb_kernel_spec *k, const char *source,
                    struct mmb_problem *problem, const struct mmb_size *size, enum mmb_dtype dtype,
                    const struct mmb_row *reference, struct mmb_row *reference_out, char *err, size_t errlen);

/* Hands the compile pool what the search of kernel k (source its text) at size and
 * dtype measures first (mmb_tuner_first), before the problem is made: its compiles
 * then run while the inputs and the reference are made, and the reference timed, and
 * for the first problem while the session opens. Nothing without a pool. */
void mmb_tune_kernel_prefetch(struct tune_run *r, const struct mmb_kernel_spec *k, const char *source,
                              const struct mmb_size *size, enum mmb_dtype dtype);

#endif
