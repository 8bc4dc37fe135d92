/* session.h - one GPU opened for measuring: its stream, L2 flush, timer, reference,
 * counters and loaded kernels; the problems (size x dtype, problem.h) opened on it;
 * and the evaluation of one configuration on one problem into one result row. `run`
 * and `tune` share it. */
#ifndef MMB_SESSION_H
#define MMB_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda/gpu.h"
#include "cuda/problem.h"
#include "model/profile.h"
#include "results/metrics.h"
#include "results/row.h"
#include "model/space.h"

struct mmb_session_options {
    int device;
    const char *cache_dir;   /* cubin cache; NULL: none */
    bool counters;           /* read CUPTI counters for ok rows */
    const struct mmb_metric_set *metrics; /* the counters to read (copied); NULL: none */
    const char *l2_flush;    /* L2 flush method (MMB_L2_SWEEP, l2flush.h); NULL: the default */
    bool verbose;
};

struct mmb_session;

int mmb_session_open(struct mmb_session **out, const struct mmb_session_options *opts,
                     char *err, size_t errlen);
void mmb_session_close(struct mmb_session *s);
const struct mmb_device_info *mmb_session_device(const struct mmb_session *s);
/* Starts row as the row of kernel k, configuration cfg (NULL: no params), at size and
 * dtype, in profile's cache mode on this session's GPU: every identity column
 * (gpu ... cuda, peaks, profile, kernel, params, dtype, shape, cache); the rest empty. */
void mmb_session_row_identity(const struct mmb_session *s, const struct mmb_profile *profile,
                              const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                              const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row);
/* Why counters are off for this session ("" when they are on). */
const char *mmb_session_counter_note(const struct mmb_session *s);

/* A problem on the session's device, with its reference (problem.h; close it with
 * mmb_problem_close). */
enum mmb_status mmb_problem_open(struct mmb_session *s, const struct mmb_size *size, enum mmb_dtype dtype,
                                 unsigned long long seed, struct mmb_problem **out,
                                 char *err, size_t errlen);

struct mmb_eval_options {
    int warmup;
    struct mmb_converge_spec timing; /* a fixed count or a noise target (core/converge.h) */
    enum mmb_cache_mode cache;
    double tolerance;
};

/* Evaluates cfg of kernel on problem: compile (cached), check limits, launch on a
 * poisoned output, verify, time, read counters. The row's identity must be filled;
 * this fills outcome, time, counters, derived and static columns. Returns the row's
 * status. *device_lost is set when the context is unusable afterwards: a sticky
 * error, after which only a new process gets a working GPU back (see run.c). */
enum mmb_status mmb_session_evaluate(struct mmb_session *s, struct mmb_problem *p,
                                     const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                     const struct mmb_eval_options *eo, struct mmb_row *row,
                                     bool *device_lost);

#endif
