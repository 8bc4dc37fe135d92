/* session_impl.h - inside the session (session.h): its state, the module cache and
 * the kernel engines (session_kernels.c), shared by session.c. Not for other modules. */
#ifndef MMB_SESSION_IMPL_H
#define MMB_SESSION_IMPL_H

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuda/clock_watch.h"
#include "cuda/cupti.h"
#include "cuda/gpu.h"
#include "cuda/nvml.h"
#include "cuda/problem/problem.h"
#include "cuda/session/session_types.h"
#include "cuda/tensor_map.h"
#include "model/space.h"

#define MODULE_CACHE 64

struct cached_module {
    uint64_t key;
    struct mmb_module *module;
    struct mmb_kernel_attrs attrs;
    enum mmb_status status; /* a failed compile is remembered too */
    int pins;               /* launches waiting for counters hold it loaded */
    char reason[256];
};

struct cached_source {
    char path[MMB_PATH_MAX];
    char *text;
    char digest[32];        /* the row's source_digest (session.c); "" until asked */
    bool digest_done;
};

/* What one launch of a configuration needs; args point into it, so it never moves
 * between preparing and the last launch. Its tensor maps align it to 128 bytes. */
struct launch_ctx {
    CUtensorMap tmaps[MMB_MAX_ARGS]; /* the tma(...) arguments, by argument index */
    struct mmb_session *s;
    struct mmb_problem *p;
    const struct mmb_kernel_spec *kernel;
    struct mmb_module *module;
    struct cached_module *cached; /* the module's cache entry, for pinning */
    struct mmb_geometry geo;
    int M, N, K;
    mmb_launch_fn launch;  /* the engine's */
    void *args[MMB_MAX_ARGS];
    int ints[MMB_MAX_ARGS];
    double *samples;       /* the timed launches' times, launch order (owned; NULL: not timed) */
    size_t nsamples;
};

/* How each kind of kernel is prepared and launched. */
struct kernel_engine {
    enum mmb_kernel_kind kind;
    enum mmb_status (*prepare)(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                               struct mmb_row *row);
    mmb_launch_fn launch;
    bool is_reference;   /* its error is the reference's own against float64 */
    /* Kernels one launch runs, to tell its profiler ranges apart in a batch
     * (cupti.h); 0 when it cannot be known: one such launch a batch, whose count
     * is what the others' leave of a pass's ranges. */
    int (*kernels)(struct launch_ctx *c);
};

/* NULL for a kind no engine runs. */
const struct kernel_engine *mmb_session_engine_of(enum mmb_kernel_kind kind);

/* A row evaluated by mmb_session_submit, waiting to go out in order. */
struct pending_row {
    struct launch_ctx ctx;
    struct mmb_row row;
    int kernels;           /* its launch's (kernel_engine.kernels) */
    bool wants_counters;   /* ok, and its counters come with the batch */
    bool cold;
};

#define PENDING_MAX 64
/* Problems kept open for the rows of a batch that spans problems (mmb_session_problem_done). */
#define KEPT_PROBLEMS_MAX 8

struct mmb_session {
    struct mmb_session_options opts;
    struct mmb_device_info dev;
    int arch;
    cudaStream_t stream;
    struct mmb_l2_flush *flush; /* one for the timer and the profiler: both prepare L2 alike */
    struct mmb_timer *timer;
    struct mmb_reference *ref;
    struct mmb_verifier *verifier;
    struct mmb_profiler *profiler;
    struct mmb_phase_times phases;
    struct mmb_metric_set metrics;
    char counter_note[256];
    struct cached_module modules[MODULE_CACHE];
    int nmodules, next_evict;
    struct cached_source sources[MMB_MAX_KERNELS];
    int nsources;
    struct pending_row *pending;  /* PENDING_MAX of them */
    int npending, nbatch;         /* rows waiting; of them, waiting for counters */
    double batch_kernel_s;        /* the batch's passes' kernel time, estimated */
    size_t batch_ranges;          /* kernel ranges a pass of the batch records */
    bool batch_unknown;           /* it holds a launch whose kernel count is not known */
    int batch_max;                /* launches per batch: MMB_COUNTER_BATCH, else MMB_PROFILER_BATCH_MAX */
    struct mmb_problem *kept[KEPT_PROBLEMS_MAX]; /* done with, open for the batch's rows */
    int nkept;
    size_t kept_bytes;            /* their device memory */
    struct mmb_nvml_device nvml;  /* the GPU as NVML knows it */
    bool have_nvml;
    char power_note[256];         /* why clocks, reasons, power and energy go unmeasured; "" */
    char energy_note[256];        /* why the last energy window measured nothing; "" */
    struct mmb_clock_watch watch; /* of the row being measured */
    double max_sm_mhz;            /* the GPU's maximum SM clock (throttle_threshold's 100%); NaN: unknown */
    double window_min_mhz;        /* the last energy window's lowest SM clock; NaN: unknown */
    double *last_samples;         /* mmb_session_evaluate's last row's times (owned) */
    int blas_versions[2];         /* cuBLAS's and cuBLASLt's (mmb_blas_versions; 0: unknown) */
    bool blas_versions_done;      /* asked already */
};

/* The launch of cfg on problem p into c, as the engine prepares it (geometry,
 * arguments, module, limits), without launching; the row's status (its reason on
 * failure), and its static columns. */
enum mmb_status mmb_session_prepare(struct mmb_session *s, struct launch_ctx *c, struct mmb_problem *p,
                                    const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                    struct mmb_row *row);
/* Everything of mmb_session_evaluate but the counters, into c (which must then stay
 * where it is while launches use it). */
enum mmb_status mmb_session_measure(struct mmb_session *s, struct launch_ctx *c, struct mmb_problem *p,
                                    const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                    const struct mmb_eval_options *eo, struct mmb_row *row, bool *device_lost);
/* The counters of one launch alone into row (its counter_status always set). */
void mmb_session_read_counters(struct mmb_session *s, struct launch_ctx *c, bool cold, struct mmb_row *row);
/* The command the session's lines name ("run"; "mmbench" when none was given). */
const char *mmb_session_command(const struct mmb_session *s);
/* Adds the time since *since to phase and moves *since to now. */
void mmb_session_phase_end(struct mmb_session *s, enum mmb_phase phase, double *since);

/* Clocks, power and energy (session_power.c): NVML's device for the session (or
 * power_note says why none); the row's clocks, throttle words, power and energy
 * after its timed launches, which ran under s->watch (launch_ms their median time);
 * whether a throttled row is to be timed again after this attempt (throttle_retries
 * at most, and only where its lowest clock fell below throttle_threshold of the
 * maximum: core/throttle.h; counted, said with -v); the energy part of the summary line. */
void mmb_session_power_open(struct mmb_session *s);
enum mmb_status mmb_session_measure_power(struct mmb_session *s, struct launch_ctx *c, double launch_ms, bool later,
                                          struct mmb_row *row, char *err, size_t errlen);
/* energy = best: the energy window of a row timed before (its clocks kept; the
 * window's throttle words added to its own), prepared into c again; a window that
 * throttles is run again up to throttle_retries times (below throttle_threshold, as
 * the timed launches). Returns a status other than ok
 * only when the GPU failed (err says how). */
enum mmb_status mmb_session_energy_again(struct mmb_session *s, struct launch_ctx *c, struct mmb_row *row,
                                         char *err, size_t errlen);
bool mmb_session_throttled_again(struct mmb_session *s, const struct mmb_row *row, int attempt);
size_t mmb_session_energy_format(const struct mmb_phase_times *t, char *out, size_t len);

/* Frees the module cache (on close). */
void mmb_session_unload_modules(struct mmb_session *s);
/* Frees the kernel sources read (on close). */
void mmb_session_free_sources(struct mmb_session *s);
/* The text of the kernel source at path, read once per session; NULL with err. */
struct cached_source *mmb_session_source(struct mmb_session *s, const char *path, char *err, size_t errlen);

#endif
