/* session_kernels.c - the session's kernels: the module cache (compiled through the
 * disk cache, loaded once, failures remembered) and the kernel engines, which prepare
 * (target, geometry, arguments and tensor maps, limits, module, residency) and launch
 * each kind of kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "core/file.h"
#include "cuda/compile.h"
#include "cuda/problem/reference.h"
#include "cuda/session/session_impl.h"
#include "model/library.h"

void mmb_session_unload_modules(struct mmb_session *s)
{
    for (int i = 0; i < s->nmodules; i++)
        mmb_module_unload(s->modules[i].module);
    s->nmodules = s->next_evict = 0;
}

void mmb_session_free_sources(struct mmb_session *s)
{
    for (int i = 0; i < s->nsources; i++)
        free(s->sources[i].text);
    s->nsources = 0;
}

struct cached_source *mmb_session_source(struct mmb_session *s, const char *path, char *err, size_t errlen)
{
    for (int i = 0; i < s->nsources; i++)
        if (strcmp(s->sources[i].path, path) == 0)
            return &s->sources[i];
    char *text = mmb_file_read(path, NULL, err, errlen);
    if (!text)
        return NULL;
    if (s->nsources == MMB_MAX_KERNELS) {
        free(s->sources[0].text);
        memmove(&s->sources[0], &s->sources[1], sizeof s->sources[0] * (MMB_MAX_KERNELS - 1));
        s->nsources--;
    }
    struct cached_source *cs = &s->sources[s->nsources++];
    memset(cs, 0, sizeof *cs);
    snprintf(cs->path, MMB_PATH_MAX, "%s", path);
    cs->text = text;
    return cs;
}

/* Compiles (through the disk cache) and loads cfg at size; remembers failures too.
 * NULL with err when its defines cannot be evaluated. */
static struct cached_module *module_for(struct mmb_session *s, const struct mmb_kernel_spec *kernel,
                                        const struct mmb_config *cfg, const struct mmb_size *size,
                                        enum mmb_dtype dtype, bool arch_specific, char *derr, size_t derrlen)
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
        /* The oldest entry no waiting launch holds (at most PENDING_MAX are held). */
        do {
            cm = &s->modules[s->next_evict];
            s->next_evict = (s->next_evict + 1) % MODULE_CACHE;
        } while (cm->pins > 0);
        mmb_module_unload(cm->module);
    }
    memset(cm, 0, sizeof *cm);
    cm->key = key;
    char *err = cm->reason;
    size_t errlen = sizeof cm->reason;
    const struct cached_source *src = mmb_session_source(s, kernel->source, err, errlen);
    const char *text = src ? src->text : NULL;
    if (!text) {
        cm->status = MMB_STATUS_COMPILE_ERROR;
        return cm;
    }
    struct mmb_compile_request req = {
        .source_path = kernel->source, .source = text, .function = d.function,
        .defines = d.list, .arch = s->arch, .arch_specific = arch_specific, .extra_options = kernel->nvrtc_options,
        .cache_dir = s->opts.cache_dir, .prelude = kernel->prelude,
        .cuda_headers = d.cuda_headers, .headers = d.headers,
    };
    cm->status = mmb_module_build(&req, &cm->module, &cm->attrs, err, errlen);
    return cm;
}

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
    return mmb_module_launch(c->module, c->geo.grid, c->geo.block, c->geo.cluster, (size_t)c->geo.smem_bytes,
                             c->args, c->s->stream, err, errlen);
}

/* The tensor map of argument i (a tma(...) item) of this configuration, encoded over
 * the problem's matrix. */
static enum mmb_status bind_tensor_map(struct launch_ctx *c, int i, const struct mmb_config *cfg, char *err,
                                       size_t errlen)
{
    const struct mmb_problem *p = c->p;
    struct mmb_tma_box box;
    if (mmb_space_tma_box(c->kernel, i, cfg, &p->size, p->esize, &box, err, errlen) != 0)
        return MMB_STATUS_INVALID_CONFIG;
    void *const bases[] = {[MMB_ARG_A] = p->dA, [MMB_ARG_B] = p->dB, [MMB_ARG_C] = p->dC};
    const struct mmb_size held = mmb_tma_size_held(p->dtype, box.matrix, &p->size);
    char why[384];
    enum mmb_status st = mmb_tensor_map_encode(&c->tmaps[i], &box, mmb_tma_type_of(p->dtype, box.matrix),
                                               bases[box.matrix], &held, why, sizeof why);
    if (st != MMB_STATUS_OK)
        mmb_errorf(err, errlen, "argument %d: %s", i + 1, why);
    c->args[i] = &c->tmaps[i];
    return st;
}

/* The call's arguments as the kernel's args list binds them: each matrix by its role,
 * each int evaluated at this configuration and size, each tensor map encoded. */
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
        enum mmb_status st = MMB_STATUS_OK;
        switch (k->args[i].kind) {
        case MMB_ARG_A: c->args[i] = &c->p->dA; break;
        case MMB_ARG_B: c->args[i] = &c->p->dB; break;
        case MMB_ARG_C: c->args[i] = &c->p->dC; break;
        case MMB_ARG_INT: c->args[i] = &c->ints[i]; break;
        case MMB_ARG_TMA: st = bind_tensor_map(c, i, cfg, err, errlen); break;
        }
        if (st != MMB_STATUS_OK)
            return st;
    }
    return MMB_STATUS_OK;
}

static enum mmb_status check_limits(const struct mmb_session *s, const struct launch_ctx *c,
                                    const struct mmb_kernel_attrs *attrs, char *err, size_t errlen);
static enum mmb_status check_residency(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                       struct mmb_row *row);

/* A library kernel runs the dtypes that have a library call, on GPUs that can make it. */
static enum mmb_status prepare_library(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                       struct mmb_row *row)
{
    const struct mmb_library *lib = mmb_library_of(c->kernel->kind);
    if (!mmb_library_computes(lib, c->p->dtype)) {
        mmb_errorf(row->reason, sizeof row->reason, "%s has no %s GEMM (%s)", lib ? lib->name : "the library",
                   mmb_dtype_info(c->p->dtype)->text, mmb_dtype_info(c->p->dtype)->blas.text);
        return MMB_STATUS_SKIPPED;
    }
    return mmb_reference_library_supports(s->ref, c->p->dtype, row->reason, sizeof row->reason);
}

/* A source kernel: its target, its geometry, its arguments, the device's limits, then
 * its module (compiled or cached), whose registers and shared memory the limits are
 * checked against again, and whether it can be resident (which a grid naming
 * max_active_clusters needs to know). What the device cannot run is invalid_config. */
static enum mmb_status prepare_source(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                      struct mmb_row *row)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    enum mmb_status st;
    bool arch_specific;
    if (!mmb_kernel_target(c->kernel, s->arch, &arch_specific, err, errlen))
        return MMB_STATUS_INVALID_CONFIG;
    if (mmb_space_geometry(c->kernel, cfg, &c->p->size, c->p->esize, s->dev.sm_count, &c->geo, err, errlen) != 0)
        return MMB_STATUS_INVALID_CONFIG;
    if ((st = bind_args(c, cfg, err, errlen)) != MMB_STATUS_OK)
        return st;
    if ((st = check_limits(s, c, NULL, err, errlen)) != MMB_STATUS_OK)
        return st;
    struct cached_module *cm = module_for(s, c->kernel, cfg, &c->p->size, c->p->dtype, arch_specific, err, errlen);
    if (!cm)
        return MMB_STATUS_COMPILE_ERROR;
    if (cm->status != MMB_STATUS_OK) {
        snprintf(row->reason, sizeof row->reason, "%s", cm->reason);
        return cm->status;
    }
    c->module = cm->module;
    c->cached = cm;
    row->registers = cm->attrs.registers;
    row->smem_bytes = (long long)cm->attrs.static_smem + c->geo.smem_bytes;
    if ((st = check_limits(s, c, &cm->attrs, err, errlen)) != MMB_STATUS_OK)
        return st;
    return check_residency(s, c, cfg, row);
}

static int one_kernel(struct launch_ctx *c)
{
    (void)c;
    return 1;
}

/* Graph nodes that run no kernel, so record no range in a profiling pass: cuBLAS's
 * stream-ordered workspace (cudaMallocAsync and cudaFreeAsync at small sizes: an
 * allocation, a kernel, a free on the H100), events, empty nodes. */
static bool node_runs_nothing(enum cudaGraphNodeType type)
{
    return type == cudaGraphNodeTypeMemAlloc || type == cudaGraphNodeTypeMemFree || type == cudaGraphNodeTypeEmpty ||
           type == cudaGraphNodeTypeEventRecord || type == cudaGraphNodeTypeWaitEvent;
}

/* What one library call runs is its heuristic's choice (one kernel, or a split-K
 * kernel and its reduction): counted by capturing the call into a graph, which runs
 * nothing. Any other node that does something (a memset, which a pass may or may not
 * record as a range) or a capture that fails leaves it unknown, 0: its count is then
 * what a pass's ranges leave once the batch's other launches are counted, one such
 * launch a batch (docs/counters.md, "Cost, and batches"). */
static int library_kernels(struct launch_ctx *c)
{
    cudaStream_t stream = c->s->stream;
    cudaGraph_t graph = NULL;
    char err[256];
    if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: the stream is as it was */
        return 0;
    }
    enum mmb_status launched = c->launch(c, err, sizeof err);
    cudaError_t e = cudaStreamEndCapture(stream, &graph);
    int kernels = 0;
    size_t n = 0;
    cudaGraphNode_t *nodes = NULL;
    if (launched == MMB_STATUS_OK && e == cudaSuccess && graph && cudaGraphGetNodes(graph, NULL, &n) == cudaSuccess &&
        n > 0 && n <= 64 && (nodes = malloc(n * sizeof *nodes)) && cudaGraphGetNodes(graph, nodes, &n) == cudaSuccess) {
        for (size_t i = 0; i < n; i++) {
            enum cudaGraphNodeType type;
            bool got = cudaGraphNodeGetType(nodes[i], &type) == cudaSuccess;
            if (got && node_runs_nothing(type))
                continue;
            if (!got || type != cudaGraphNodeTypeKernel) {
                if (c->s->opts.verbose)
                    fprintf(stderr, "  %s %lldx%lldx%lld: node %zu of %zu of its graph is of type %d, which may "
                            "run as a kernel: its kernel count is what a pass leaves\n", c->kernel->name,
                            c->p->size.m, c->p->size.n, c->p->size.k, i + 1, n, got ? (int)type : -1);
                kernels = 0;
                break;
            }
            kernels++;
        }
        if (kernels > 0 && c->s->opts.verbose)
            fprintf(stderr, "  %s %lldx%lldx%lld: %d kernel%s in its graph of %zu nodes\n", c->kernel->name,
                    c->p->size.m, c->p->size.n, c->p->size.k, kernels, kernels == 1 ? "" : "s", n);
    } else if (c->s->opts.verbose) {
        fprintf(stderr, "  %s %lldx%lldx%lld: no graph of its call (%s, %s, %zu nodes): its kernel count is what a "
                "pass leaves\n", c->kernel->name, c->p->size.m, c->p->size.n, c->p->size.k,
                launched == MMB_STATUS_OK ? "launched" : mmb_status_text(launched), cudaGetErrorName(e), n);
    }
    free(nodes);
    if (graph)
        cudaGraphDestroy(graph);
    (void)cudaGetLastError(); /* a failed capture's error is the capture's, not the stream's */
    return kernels;
}

/* Ends with a sentinel without prepare. */
static const struct kernel_engine engines[] = {
    {MMB_KERNEL_SOURCE, prepare_source, launch_source, false, one_kernel},
    {MMB_KERNEL_CUBLAS, prepare_library, launch_cublas, true, library_kernels},
    {MMB_KERNEL_SOURCE, NULL, NULL, false, NULL},
};

const struct kernel_engine *mmb_session_engine_of(enum mmb_kernel_kind kind)
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
    long long cluster = g->cluster[0] * g->cluster[1] * g->cluster[2];
    if (cluster > 1 && !s->dev.cluster_launch) {
        mmb_errorf(err, errlen, "a cluster of %lldx%lldx%lld blocks; thread-block clusters need compute capability "
                   "9.0 or newer, and this GPU is %d.%d", g->cluster[0], g->cluster[1], g->cluster[2],
                   s->dev.cc_major, s->dev.cc_minor);
        return MMB_STATUS_INVALID_CONFIG;
    }
    if (g->grid[0] > 2147483647LL || g->grid[1] > 65535 || g->grid[2] > 65535) {
        mmb_errorf(err, errlen, "grid %lldx%lldx%lld exceeds the device's limits", g->grid[0], g->grid[1], g->grid[2]);
        return MMB_STATUS_INVALID_CONFIG;
    }
    return MMB_STATUS_OK;
}

/* The occupancy the API allows: blocks resident per SM (for clusters, the device's
 * clusters' blocks spread over its SMs) times warps per block, as a percentage of the
 * warps an SM holds, as ncu's Theoretical Occupancy. NaN when the device did not say. */
static double theoretical_occupancy(const struct mmb_session *s, const struct mmb_geometry *g, long long active)
{
    long long threads = g->block[0] * g->block[1] * g->block[2];
    long long cluster = g->cluster[0] * g->cluster[1] * g->cluster[2];
    if (s->dev.max_threads_per_sm <= 0 || s->dev.sm_count <= 0 || threads <= 0)
        return NAN;
    double blocks_per_sm = cluster > 1 ? (double)active * (double)cluster / s->dev.sm_count
                                       : (double)active / s->dev.sm_count;
    double warps = blocks_per_sm * (double)((threads + 31) / 32), most = s->dev.max_threads_per_sm / 32.0;
    return 100.0 * (warps < most ? warps : most) / most;
}

/* Whether a cluster (or a block) of this configuration fits on the device at all, so
 * that one that cannot be resident is invalid_config, not a launch error; the count
 * that fits at once is max_active_clusters, which completes a grid that names it. */
static enum mmb_status check_residency(struct mmb_session *s, struct launch_ctx *c, const struct mmb_config *cfg,
                                       struct mmb_row *row)
{
    char *err = row->reason;
    size_t errlen = sizeof row->reason;
    long long active = 0;
    enum mmb_status st = mmb_module_occupancy(c->module, c->geo.block, c->geo.cluster, (size_t)c->geo.smem_bytes,
                                              s->dev.sm_count, &active, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    row->theoretical_occupancy_pct = theoretical_occupancy(s, &c->geo, active);
    if (!c->geo.grid_pending)
        return st;
    if (mmb_space_grid(c->kernel, cfg, &c->p->size, c->p->esize, s->dev.sm_count, active, &c->geo, err, errlen) != 0)
        return MMB_STATUS_INVALID_CONFIG;
    return check_limits(s, c, NULL, err, errlen);
}
