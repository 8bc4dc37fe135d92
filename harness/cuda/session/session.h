/* session.h - one GPU opened for measuring: its stream, L2 flush, timer, reference,
 * counters and loaded kernels; the problems (size x dtype, problem.h) opened on it;
 * and the evaluation of one configuration on one problem into one result row. `run`
 * and `tune` share it. */
#ifndef MMB_SESSION_H
#define MMB_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/counters.h"
#include "cuda/gpu.h"
#include "cuda/problem/problem.h"
#include "cuda/session/session_types.h"
#include "model/profile.h"
#include "results/metrics.h"
#include "results/row.h"
#include "model/space.h"

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
/* Why clocks, throttle reasons, power and energy go unmeasured in this session (NVML
 * or the GPU missing from it); "" when they are measured. */
const char *mmb_session_power_note(const struct mmb_session *s);
/* The protocol column of the rows this session measures with eo (results/protocol.h):
 * eo's timing, the session's L2 flush, counter set, the counters mode of the sweep or
 * tune (which rows are counted: counter_mode), the environment's CUPTI modes and
 * batch size, the energy phase and throttle retries, this mmbench's version. Returns 0, or -1 when out is too small. */
int mmb_session_protocol(const struct mmb_session *s, const struct mmb_eval_options *eo, enum mmb_counters counters,
                         char *out, size_t len);
/* Fills row's origin for kernel k at cfg, size and dtype: source_digest (the source and
 * its includes, read once per session; a library's name and version), compile_options
 * (what NVRTC gets besides the parameters' -D macros, on this session's GPU; empty for
 * a library) and protocol. A cell that cannot be had is left empty (the row's own
 * measurement then says what is wrong). */
void mmb_session_row_origin(struct mmb_session *s, const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                            const struct mmb_size *size, enum mmb_dtype dtype, const char *protocol,
                            struct mmb_row *row);
/* Why counters are off for this session ("" when they are on). */
const char *mmb_session_counter_note(const struct mmb_session *s);

/* The phase names the summary uses ("problems", "prepare", ...). */
const char *mmb_phase_text(enum mmb_phase phase);
const struct mmb_phase_times *mmb_session_phase_times(const struct mmb_session *s);
/* One line: "N configurations: problems 1.2 s, prepare ..., timing 20.1 s (kernels
 * 18.0 s), counters 25.0 s (250 passes, set-up 0.3 s)"; what is 0 is left out. */
void mmb_phase_times_format(const struct mmb_phase_times *t, char *out, size_t len);

/* With counters, where their time went ("counter steps: set-up 0.1 s, start ...;
 * by pass: 1 0.4 s, 2 ..." the passes by their number in a measurement); ""
 * without a profiler. */
void mmb_session_counter_steps(const struct mmb_session *s, char *out, size_t len);

/* A problem on the session's device, with its reference (mmb_problem_open, its time
 * counted as the session's problems phase; close it with mmb_problem_close). */
enum mmb_status mmb_session_problem_open(struct mmb_session *s, const struct mmb_size *size, enum mmb_dtype dtype,
                                         unsigned long long seed, struct mmb_problem **out, char *err, size_t errlen);


/* Evaluates cfg of kernel on problem: compile (cached), check limits, launch on a
 * poisoned output, verify, time, read counters (unless eo->time_only). The row's identity must be filled;
 * this fills outcome, time, counters, derived and static columns. Returns the row's
 * status. *samples (when not NULL) gets the timed launches' times in ms, in launch
 * order, *nsamples of them (NULL and 0 when it was not timed), valid until the next
 * evaluation. *device_lost is set when the context is unusable afterwards: a sticky
 * error, after which only a new process gets a working GPU back (see run.c). */
enum mmb_status mmb_session_evaluate(struct mmb_session *s, struct mmb_problem *p,
                                     const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                     const struct mmb_eval_options *eo, struct mmb_row *row,
                                     const double **samples, size_t *nsamples, bool *device_lost);

/* MMB_COUNTER_BATCH (session_batch.c), the launches whose counters are read
 * together at most: MMB_PROFILER_BATCH_MAX when unset; -1 with err when it is not a
 * whole number in 1..MMB_PROFILER_BATCH_MAX. */
int mmb_session_batch_size(int *out, char *err, size_t errlen);


/* As mmb_session_evaluate, with identity as the row's start, but the counters of a
 * short launch of a source kernel are read together with those of the launches
 * submitted after it (session_batch.c says why), so its row may reach sink only from
 * a later submit or from mmb_session_flush. Rows reach sink in the order submitted.
 * When the device is lost, rows still waiting for counters are dropped (unfinished:
 * a resumed sweep measures them again) and the others sent. Returns 0 or the sink's
 * nonzero. Flush before the problem closes, or hand it to mmb_session_problem_done. */
int mmb_session_submit(struct mmb_session *s, struct mmb_problem *p, const struct mmb_kernel_spec *kernel,
                       const struct mmb_config *cfg, const struct mmb_eval_options *eo, const struct mmb_row *identity,
                       mmb_row_sink sink, void *sink_ctx, bool *device_lost);
/* Reads the waiting counters and sends every waiting row. Returns 0 or the sink's nonzero. */
int mmb_session_flush(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx);
/* The caller is done with p (opened by mmb_session_problem_open): closed now, or,
 * while rows of the waiting batch launch on it, once that batch is measured, so that
 * a batch spans problems and the next problem's launches share its passes. Where
 * keeping it would hold more than KEPT_PROBLEMS_MAX problems or a quarter of the
 * GPU's free memory, the batch is measured first. p is closed or kept whatever this
 * returns: 0 or the sink's nonzero. */
int mmb_session_problem_done(struct mmb_session *s, struct mmb_problem *p, mmb_row_sink sink, void *sink_ctx);

/* What a row timed before without them (eo->time_only, eo->energy_later: counters =
 * best, energy = best) gets now: cfg of kernel on problem is prepared again, its
 * energy window run (energy) and its counters read (counters), in a batch as
 * mmb_session_submit reads them, into a copy of measured that reaches sink in the
 * order submitted; its times stay. Returns 0 or the sink's nonzero. */
int mmb_session_submit_best(struct mmb_session *s, struct mmb_problem *p, const struct mmb_kernel_spec *kernel,
                            const struct mmb_config *cfg, const struct mmb_eval_options *eo,
                            const struct mmb_row *measured, bool counters, bool energy, mmb_row_sink sink,
                            void *sink_ctx);
/* Sets row's energy_status (core/counters.h). */
void mmb_session_energy_status(struct mmb_row *row, enum mmb_energy_status st);
/* After a lost device: the rows waiting for counters are dropped (measured again by a
 * resumed sweep), the others sent. Returns 0 or the sink's nonzero. */
int mmb_session_discard(struct mmb_session *s, mmb_row_sink sink, void *sink_ctx);

#endif
