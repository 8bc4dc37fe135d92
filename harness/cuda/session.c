/* session.c - measuring one configuration on one problem: compile (cached), check
 * the device's limits, launch on a poisoned output, verify against the reference,
 * time, read counters. Every failure becomes the row's status and reason. */
#include "cuda/session.h"

#include <cuda_runtime_api.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/timer.h"
#include "core/errcheck.h"
#include "cuda/compile.h"
#include "cuda/cupti.h"
#include "cuda/l2flush.h"
#include "model/inputs.h"
#include "results/metrics.h"
#include "cuda/reference.h"
#include "model/library.h"
#include "core/util.h"

#define MODULE_CACHE 64

struct cached_module {
    uint64_t key;
    struct mmb_module *module;
    struct mmb_kernel_attrs attrs;
    enum mmb_status status; /* a failed compile is remembered too */
    char reason[256];
};

struct cached_source {
    char path[MMB_PATH_MAX];
    char *text;
};

struct mmb_session {
    struct mmb_session_options opts;
    struct mmb_device_info dev;
    int arch;
    cudaStream_t stream;
    struct mmb_l2_flush *flush; /* one for the timer and the profiler: both prepare L2 alike */
    struct mmb_timer *timer;
    struct mmb_reference *ref;
    struct mmb_profiler *profiler;
    struct mmb_metric_set metrics;
    char counter_note[256];
    struct cached_module modules[MODULE_CACHE];
    int nmodules, next_evict;
    struct cached_source sources[MMB_MAX_KERNELS];
    int nsources;
};

static enum mmb_status open_resources(struct mmb_session *s, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    MMB_CHECK_CUDA(e = cudaSetDevice(s->opts.device), return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking), return mmb_gpu_status_of(e));
    if ((st = mmb_l2_flush_open(&s->flush, s->opts.device, s->opts.l2_flush, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = mmb_timer_open(&s->timer, s->dev.uuid, s->stream, s->flush, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = mmb_reference_open(&s->ref, s->arch, s->opts.cache_dir, s->stream, err, errlen)) != MMB_STATUS_OK)
        return st;
    s->counter_note[0] = '\0';
    if (s->opts.counters && mmb_metric_set_size(&s->metrics) > 0) {
        char why[512] = "";
        st = mmb_profiler_open(&s->profiler, s->opts.device, &s->metrics, s->flush, why, sizeof why);
        if (st != MMB_STATUS_OK) {
            s->profiler = NULL;
            snprintf(s->counter_note, sizeof s->counter_note, "%s", why);
        }
    }
    return MMB_STATUS_OK;
}

static void close_resources(struct mmb_session *s)
{
    for (int i = 0; i < s->nmodules; i++)
        mmb_module_unload(s->modules[i].module);
    s->nmodules = s->next_evict = 0;
    mmb_profiler_close(s->profiler);
    s->profiler = NULL;
    mmb_reference_close(s->ref);
    s->ref = NULL;
    mmb_timer_close(s->timer);
    s->timer = NULL;
    mmb_l2_flush_close(s->flush);
    s->flush = NULL;
    if (s->stream)
        cudaStreamDestroy(s->stream);
    s->stream = NULL;
}

int mmb_session_open(struct mmb_session **out, const struct mmb_session_options *opts,
                     char *err, size_t errlen)
{
    struct mmb_session *s = calloc(1, sizeof *s);
    if (!s) {
        mmb_errorf(err, errlen, "out of host memory");
        return -1;
    }
    s->opts = *opts;
    if (mmb_gpu_query(opts->device, &s->dev, err, errlen) != 0)
        goto fail;
    s->arch = s->dev.cc_major * 10 + s->dev.cc_minor;
    if (opts->counters && opts->metrics)
        s->metrics = *opts->metrics;
    s->opts.metrics = &s->metrics; /* not the caller's, which may go first */
    if (open_resources(s, err, errlen) != MMB_STATUS_OK)
        goto fail;
    *out = s;
    return 0;
fail:
    mmb_session_close(s);
    return -1;
}

void mmb_session_close(struct mmb_session *s)
{
    if (!s)
        return;
    close_resources(s);
    for (int i = 0; i < s->nsources; i++)
        free(s->sources[i].text);
    free(s);
}

const struct mmb_device_info *mmb_session_device(const struct mmb_session *s)
{
    return &s->dev;
}

const char *mmb_session_counter_note(const struct mmb_session *s)
{
    if (!s->opts.counters)
        return "counters off (--no-counters)";
    return s->counter_note;
}

void mmb_session_row_identity(const struct mmb_session *s, const struct mmb_profile *profile,
                              const struct mmb_kernel_spec *k, const struct mmb_config *cfg,
                              const struct mmb_size *size, enum mmb_dtype dtype, struct mmb_row *row)
{
    mmb_row_init(row);
    snprintf(row->gpu, sizeof row->gpu, "%s", s->dev.name);
    snprintf(row->gpu_uuid, sizeof row->gpu_uuid, "%s", s->dev.uuid);
    snprintf(row->cc, sizeof row->cc, "%d.%d", s->dev.cc_major, s->dev.cc_minor);
    row->sm_count = s->dev.sm_count;
    snprintf(row->driver, sizeof row->driver, "%s", s->dev.driver);
    snprintf(row->cuda, sizeof row->cuda, "%s", s->dev.runtime);
    row->peak_gbps = s->dev.peak_gbps;
    row->peak_gflops = s->dev.peak_gflops;
    snprintf(row->profile, sizeof row->profile, "%s", profile->name);
    snprintf(row->kernel, sizeof row->kernel, "%s", k->name);
    if (cfg)
        mmb_space_format_params(k, cfg, row->params, sizeof row->params);
    snprintf(row->dtype, sizeof row->dtype, "%s", mmb_dtype_info(dtype)->text);
    row->m = size->m;
    row->n = size->n;
    row->k = size->k;
    snprintf(row->cache, sizeof row->cache, "%s", mmb_cache_text(profile->cache));
}

/* ---- problems (problem.c) on this session's device ---- */

enum mmb_status mmb_problem_open(struct mmb_session *s, const struct mmb_size *size, enum mmb_dtype dtype,
                                 unsigned long long seed, struct mmb_problem **out,
                                 char *err, size_t errlen)
{
    return mmb_problem_create(s->ref, s->stream, size, dtype, seed, out, err, errlen);
}

/* ---- configurations ---- */

static const char *source_text(struct mmb_session *s, const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < s->nsources; i++)
        if (strcmp(s->sources[i].path, path) == 0)
            return s->sources[i].text;
    char *text = mmb_file_read(path, NULL, err, errlen);
    if (!text)
        return NULL;
    if (s->nsources == MMB_MAX_KERNELS) {
        free(s->sources[0].text);
        memmove(&s->sources[0], &s->sources[1], sizeof s->sources[0] * (MMB_MAX_KERNELS - 1));
        s->nsources--;
    }
    snprintf(s->sources[s->nsources].path, MMB_PATH_MAX, "%s", path);
    s->sources[s->nsources++].text = text;
    return text;
}

/* Compiles (through the disk cache) and loads cfg at size; remembers failures too.
 * NULL with err when its defines cannot be evaluated. */
static struct cached_module *module_for(struct mmb_session *s, const struct mmb_kernel_spec *kernel,
                                        const struct mmb_config *cfg, const struct mmb_size *size,
                                        enum mmb_dtype dtype, char *derr, size_t derrlen)
{
    struct mmb_defines d;
    if (mmb_compile_defines(kernel, cfg, size, dtype, &d, derr, derrlen) != 0)
        return NULL;
    uint64_t key = mmb_compile_key(kernel, d.list);
    for (int i = 0; i < s->nmodules; i++)
        if (s->modules[i].key == key)
            return &s->modules[i];

    struct cached_module *cm;
    if (s->nmodules < MODULE_CACHE) {
        cm = &s->modules[s->nmodules++];
    } else {
        cm = &s->modules[s->next_evict];
        s->next_evict = (s->next_evict + 1) % MODULE_CACHE;
        mmb_module_unload(cm->module);
    }
    memset(cm, 0, sizeof *cm);
    cm->key = key;
    char *err = cm->reason;
    size_t errlen = sizeof cm->reason;
    const char *text = source_text(s, kernel->source, err, errlen);
    if (!text) {
        cm->status = MMB_STATUS_COMPILE_ERROR;
        return cm;
    }
    struct mmb_compile_request req = {
        .source_path = kernel->source, .source = text, .function = d.function,
        .defines = d.list, .arch = s->arch, .extra_options = kernel->nvrtc_options,
        .cache_dir = s->opts.cache_dir, .prelude = kernel->prelude,
    };
    struct mmb_cubin cubin;
    cm->status = mmb_compile(&req, &cubin, err, errlen);
    if (cm->status != MMB_STATUS_OK)
        return cm;
    cm->status = mmb_module_load(cubin.data, cubin.size, cubin.function, &cm->module, &cm->attrs, err, errlen);
    mmb_cubin_free(&cubin);
    return cm;
}

struct launch_ctx {
    struct mmb_session *s;
    struct mmb_problem *p;
    const struct mmb_kernel_spec *kernel;
    struct mmb_module *module;
    struct mmb_geometry geo;
    int M, N, K;
    mmb_launch_fn launch;  /* the engine's */
    void *args[MMB_MAX_ARGS];
    int ints[MMB_MAX_ARGS];
};

/* ---- kernel engines: how each kind of kernel is prepared and launched ---- */

static enum mmb_status launch_cublas(void *opaque, char *err, size_t errlen)
{
    struct launch_ctx *c = opaque;
    return mmb_reference_cublas(c->s->ref, c->p->dtype, c->p->size.m, c->p->size.n, c->p->size.k, c->p->dA,
                                c->p->dB, c->p->dC, err, errlen);
}

static enum mmb_status launch_source(void *opaque, char *err, size_t errlen)
{
    struct launch_ctx *c = opaque;
    return mmb_module_launch(c->module, c->geo.grid, c->geo.block, (size_t)c->geo.smem_bytes, c->args,
                             c->s->stream, err, errlen);
}

/* The call's arguments as the kernel's args list binds them: each matrix by its role,
 * each int evaluated at this configuration and size. */
static enum mmb_status bind_args(struct launch_ctx *c, const struct mmb_config *cfg, char *err, size_t errlen)
{
    const struct mmb_kernel_spec *k = c->kernel;
    if (k->nargs == 0) { /* built by hand, not by the profile reader: the mmbench ABI */
        void *abi[] = {&c->p->dC, &c->p->dA, &c->p->dB, &c->M, &c->N, &c->K};
        memcpy(c->args, abi, sizeof abi);
        return MMB_STATUS_OK;
    }
    if (mmb_space_int_args(k, cfg, &c->p->size, c->p->esize, c->ints, err, errlen) != 0)
        return MMB_STATUS_INVALID_CONFIG;
    for (int i = 0; i < k->nargs; i++) {
        switch (k->args[i].kind) {
        case MMB_ARG_A: c->args[i] = &c->p->dA; break;
        case MMB_ARG_B: c->args[i] = &c->p->dB; break;
        case MMB_ARG_C: c->args[i] = &c->p->dC; break;
        case MMB_ARG_INT: c->args[i] = &c->ints[i]; break;
        }
    }
    return MMB_STATUS_OK;
}

static enum mmb_status check_limits(const struct mmb_session *s, const struct launch_ctx *c,
                                    const struct mmb_kernel_attrs *attrs, char *err, size_t errlen);

/* A library kernel runs the dtypes its row of the library table names. */
static enum mmb_status prepare_library(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                       struct mmb_row *row)
{
    const struct mmb_library *lib = mmb_library_of(c->kernel->kind);
    if (!lib || !(lib->dtypes & (1u << c->p->dtype))) {
        mmb_errorf(row->reason, sizeof row->reason, "%s has no %s GEMM", lib ? lib->name : "the library",
                   mmb_dtype_info(c->p->dtype)->text);
        return MMB_STATUS_SKIPPED;
    }
    return MMB_STATUS_OK;
}

/* A source kernel: its geometry, the device's limits, then its module (compiled or
 * cached), whose registers and shared memory the limits are checked against again. */
static enum mmb_status prepare_source(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                      struct mmb_row *row)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    enum mmb_status st;
    if (mmb_space_geometry(c->kernel, cfg, &c->p->size, c->p->esize, &c->geo, err, errlen) != 0)
        return MMB_STATUS_INVALID_CONFIG;
    if ((st = bind_args(c, cfg, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = check_limits(s, c, NULL, err, errlen)) != MMB_STATUS_OK)
        return st;
    struct cached_module *cm = module_for(s, c->kernel, cfg, &c->p->size, c->p->dtype, err, errlen);
    if (!cm)
        return MMB_STATUS_COMPILE_ERROR;
    if (cm->status != MMB_STATUS_OK) {
        snprintf(row->reason, sizeof row->reason, "%s", cm->reason);
        return cm->status;
    }
    c->module = cm->module;
    row->registers = cm->attrs.registers;
    row->smem_bytes = (long long)cm->attrs.static_smem + c->geo.smem_bytes;
    return check_limits(s, c, &cm->attrs, err, errlen);
}

struct kernel_engine {
    enum mmb_kernel_kind kind;
    enum mmb_status (*prepare)(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                               struct mmb_row *row);
    mmb_launch_fn launch;
    bool is_reference;   /* its error is the reference's own against float64 */
};

static const struct kernel_engine engines[] = {
    {MMB_KERNEL_SOURCE, prepare_source, launch_source, false},
    {MMB_KERNEL_CUBLAS, prepare_library, launch_cublas, true},
    {MMB_KERNEL_SOURCE, NULL, NULL, false},
};

static const struct kernel_engine *engine_of(enum mmb_kernel_kind kind)
{
    const struct kernel_engine *e = engines;
    while (e->prepare && e->kind != kind)
        e++;
    return e->prepare ? e : NULL;
}

static enum mmb_status check_limits(const struct mmb_session *s, const struct launch_ctx *c,
                                    const struct mmb_kernel_attrs *attrs, char *err, size_t errlen)
{
    const struct mmb_geometry *g = &c->geo;
    long long threads = g->block[0] * g->block[1] * g->block[2];
    if (threads > s->dev.max_threads_per_block) {
        mmb_errorf(err, errlen, "%lld threads per block; the device allows %d", threads, s->dev.max_threads_per_block);
        return MMB_STATUS_INVALID_CONFIG;
    }
    if (attrs && threads > attrs->max_threads_per_block) {
        mmb_errorf(err, errlen, "%lld threads per block; with %d registers per thread this kernel allows %d",
                   threads, attrs->registers, attrs->max_threads_per_block);
        return MMB_STATUS_INVALID_CONFIG;
    }
    if (attrs && attrs->static_smem + (size_t)g->smem_bytes > s->dev.smem_per_block_optin) {
        mmb_errorf(err, errlen, "%zu bytes of shared memory per block; the device allows %zu",
                   attrs->static_smem + (size_t)g->smem_bytes, s->dev.smem_per_block_optin);
        return MMB_STATUS_INVALID_CONFIG;
    }
    if (g->grid[0] > 2147483647LL || g->grid[1] > 65535 || g->grid[2] > 65535) {
        mmb_errorf(err, errlen, "grid %lldx%lldx%lld exceeds the device's limits", g->grid[0], g->grid[1], g->grid[2]);
        return MMB_STATUS_INVALID_CONFIG;
    }
    return MMB_STATUS_OK;
}

static void read_counters(struct mmb_session *s, struct launch_ctx *c, bool cold, struct mmb_row *row)
{
    if (!s->opts.counters || mmb_metric_set_size(&s->metrics) == 0) {
        row->counter_status = MMB_STATUS_SKIPPED;
        return;
    }
    if (!s->profiler) {
        row->counter_status = MMB_STATUS_PROFILING_DENIED;
        return;
    }
    char err[512] = "";
    double duration_ns = NAN;
    int passes = 0;
    enum mmb_status st = mmb_profiler_measure(s->profiler, c->launch, c, cold, row, &duration_ns,
                                              &passes, err, sizeof err);
    row->counter_status = st;
    if (s->opts.verbose)
        fprintf(stderr, "  counters: %s, %d passes, %.0f ns%s%s\n", mmb_status_text(st), passes, duration_ns,
                err[0] ? ": " : "", err);
}

enum mmb_status mmb_session_evaluate(struct mmb_session *s, struct mmb_problem *p,
                                     const struct mmb_kernel_spec *kernel, const struct mmb_config *cfg,
                                     const struct mmb_eval_options *eo, struct mmb_row *row,
                                     bool *device_lost)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    cudaError_t e;
    struct launch_ctx c = {.s = s, .p = p, .kernel = kernel,
                           .M = (int)p->size.m, .N = (int)p->size.n, .K = (int)p->size.k};
    size_t count = (size_t)p->size.m * (size_t)p->size.n;
    *device_lost = false;
    row->reason[0] = '\0';

    const struct kernel_engine *engine = engine_of(kernel->kind);
    if (!engine) {
        mmb_errorf(err, errlen, "kernel '%s' is of no kind this session can run", kernel->name);
        return row->status = MMB_STATUS_SKIPPED;
    }
    c.launch = engine->launch;
    if (p->size.m * p->size.k > INT32_MAX || p->size.k * p->size.n > INT32_MAX || (long long)count > INT32_MAX) {
        mmb_errorf(err, errlen, "a matrix of more than 2^31 elements: the kernel ABI indexes with int");
        return row->status = MMB_STATUS_SKIPPED;
    }
    if ((row->status = engine->prepare(s, &c, cfg, row)) != MMB_STATUS_OK)
        return row->status;

    /* Correct first: one launch on a poisoned output, compared with the reference. */
    MMB_CHECK_CUDA(e = cudaMemsetAsync(p->dC, mmb_inputs_poison_byte(p->dtype), count * p->esize, s->stream),
                   *device_lost = true; return row->status = mmb_gpu_status_of(e));
    if ((row->status = c.launch(&c, err, errlen)) != MMB_STATUS_OK) {
        *device_lost = row->status == MMB_STATUS_LAUNCH_ERROR;
        return row->status;
    }
    MMB_CHECK_CUDA(e = cudaStreamSynchronize(s->stream), *device_lost = true; return row->status = mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaMemcpy(p->hOut, p->dC, count * p->esize, cudaMemcpyDeviceToHost),
                   *device_lost = true; return row->status = mmb_gpu_status_of(e));
    struct mmb_compare cmp;
    mmb_inputs_compare(p->hOut, p->hRef, count, p->dtype, eo->tolerance, &cmp);
    row->max_rel_err = engine->is_reference ? p->ref_err : cmp.max_rel_err;
    if (!cmp.ok) {
        mmb_errorf(err, errlen, "%zu of %zu elements beyond tolerance %.3g; first at row %lld column %lld",
                   cmp.mismatches, count, eo->tolerance, (long long)(cmp.first_bad / (size_t)p->size.n),
                   (long long)(cmp.first_bad % (size_t)p->size.n));
        return row->status = MMB_STATUS_WRONG_RESULT;
    }

    struct mmb_timing tm;
    row->status = mmb_timer_measure(s->timer, c.launch, &c, eo->warmup, &eo->timing, eo->cache == MMB_CACHE_COLD,
                                    &tm, err, errlen);
    if (row->status != MMB_STATUS_OK) {
        *device_lost = row->status == MMB_STATUS_LAUNCH_ERROR;
        return row->status;
    }
    row->repeats = (long long)tm.stats.n;
    row->time_ms_median = tm.stats.median;
    row->time_ms_min = tm.stats.min;
    row->time_ms_max = tm.stats.max;
    row->time_ms_stddev = tm.stats.stddev;
    row->noise_pct = 100.0 * tm.noise;
    const char *stop = mmb_stop_text(tm.stop);
    snprintf(row->stopped_by, sizeof row->stopped_by, "%s", stop ? stop : "");
    row->sm_clock_mhz = tm.sm_clock_mhz;
    if (s->opts.verbose)
        fprintf(stderr, "  timing: %zu launches, noise %.3g%%, stopped by %s\n", tm.stats.n, row->noise_pct,
                row->stopped_by);
    read_counters(s, &c, eo->cache == MMB_CACHE_COLD, row);
    mmb_row_derive(row);
    return row->status;
}
