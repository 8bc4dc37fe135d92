/* dram_probe.c - DRAM bytes of simple kernels (read, write, copy of known sizes) as
 * mmbench's CUPTI counters see them, and, with --no-counters, the same launches for
 * `ncu` to measure: to tell what the in-process Range Profiler adds to dram__bytes_*
 * from what L2 does (scripts/l2-state.sh runs both). Each launch follows the cold-L2
 * flush (l2flush.h; MMB_L2_SWEEP picks its method, as for mmbench); sizes are MB
 * (10^6 bytes), as ncu prints them.
 *
 *   mmb-dram-probe [--no-counters] [--stream] [--hot]
 *
 * --stream launches on a non-blocking stream (mmbench's way) instead of the legacy
 * default stream; --hot leaves out the flush (the profiler's hot mode). */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/compile.h"
#include "cuda/cupti.h"
#include "cuda/gpu.h"
#include "cuda/l2flush.h"
#include "results/metrics.h"

static const char probe_source[] =
    "#define GRID_STRIDE(i, n) \\\n"
    "    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < (n); \\\n"
    "         i += (unsigned long long)gridDim.x * blockDim.x)\n"
    "extern \"C\" __global__ void probe_read(unsigned long long *dst, const unsigned long long *src,\n"
    "                                       unsigned long long n)\n"
    "{\n"
    "    unsigned long long acc = 0;\n"
    "    GRID_STRIDE(i, n) acc ^= src[i];\n"
    "    if (acc == 0x9e3779b97f4a7c15ULL)\n"
    "        dst[0] = acc;\n"
    "}\n"
    "extern \"C\" __global__ void probe_write(unsigned long long *dst, const unsigned long long *src,\n"
    "                                        unsigned long long n)\n"
    "{\n"
    "    GRID_STRIDE(i, n) dst[i] = i;\n"
    "}\n"
    "extern \"C\" __global__ void probe_copy(unsigned long long *dst, const unsigned long long *src,\n"
    "                                       unsigned long long n)\n"
    "{\n"
    "    GRID_STRIDE(i, n) dst[i] = src[i];\n"
    "}\n";

enum kind { READ, WRITE, COPY, KINDS };
static const char *const kernel_names[KINDS] = {"probe_read", "probe_write", "probe_copy"};

static const struct {
    enum kind kind;
    double mb;
} scenarios[] = {
    {READ, 8}, {READ, 256}, {WRITE, 1}, {WRITE, 4}, {WRITE, 16}, {WRITE, 64}, {WRITE, 256}, {COPY, 4}, {COPY, 64},
};
#define MAX_MB 256

struct launch {
    struct mmb_module *module;
    void *dst, *src;
    unsigned long long words;
    long long grid;
    void *stream;
    struct mmb_l2_flush *flush; /* --no-counters: flushed here before the launch */
};

/* Prints its own failure: the profiler keeps only that a launch failed. */
static enum mmb_status launch_probe(void *opaque, char *err, size_t errlen)
{
    struct launch *l = opaque;
    const long long grid[3] = {l->grid, 1, 1}, block[3] = {256, 1, 1};
    void *args[] = {&l->dst, &l->src, &l->words};
    enum mmb_status st;
    if (l->flush && (st = mmb_l2_flush_enqueue(l->flush, l->stream, err, errlen)) != MMB_STATUS_OK) {
        fprintf(stderr, "mmb-dram-probe: flush: %s\n", err);
        return st;
    }
    if ((st = mmb_module_launch(l->module, grid, block, NULL, 0, args, l->stream, err, errlen)) != MMB_STATUS_OK) {
        fprintf(stderr, "mmb-dram-probe: launch: %s\n", err);
        return st;
    }
    return MMB_STATUS_OK;
}

static int fail(const char *what, const char *err)
{
    fprintf(stderr, "mmb-dram-probe: %s: %s\n", what, err);
    return 1;
}

int main(int argc, char **argv)
{
    bool counters = true, use_stream = false, hot = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-counters") == 0)
            counters = false;
        else if (strcmp(argv[i], "--stream") == 0)
            use_stream = true;
        else if (strcmp(argv[i], "--hot") == 0)
            hot = true;
        else {
            fprintf(stderr, "mmb-dram-probe: unknown argument '%s'; expected --no-counters, --stream, --hot\n",
                    argv[i]);
            return 2;
        }
    }
    char err[1024] = "";
    cudaError_t e;
    int major = 0, minor = 0, sms = 0;
    if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaFree(0)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0)) != cudaSuccess)
        return fail("device 0", cudaGetErrorString(e));

    struct launch l = {.grid = 8LL * sms};
    if (use_stream && (e = cudaStreamCreateWithFlags((cudaStream_t *)&l.stream, cudaStreamNonBlocking)))
        return fail("cudaStreamCreateWithFlags", cudaGetErrorString(e));
    size_t max_bytes = (size_t)MAX_MB * 1000000;
    if ((e = cudaMalloc(&l.dst, max_bytes)) != cudaSuccess || (e = cudaMalloc(&l.src, max_bytes)) != cudaSuccess ||
        (e = cudaMemset(l.dst, 1, max_bytes)) != cudaSuccess || (e = cudaMemset(l.src, 2, max_bytes)) != cudaSuccess)
        return fail("buffers", cudaGetErrorString(e));

    const char *const no_defines[] = {NULL};
    struct mmb_compile_request req = {.source_path = "dram_probe.c", .source = probe_source,
                                      .function = "probe_read", .defines = no_defines, .arch = major * 10 + minor};
    struct mmb_cubin cubin;
    if (mmb_compile(&req, &cubin, err, sizeof err) != MMB_STATUS_OK)
        return fail("NVRTC", err);
    struct mmb_module *modules[KINDS];
    struct mmb_kernel_attrs attrs;
    for (int k = 0; k < KINDS; k++)
        if (mmb_module_load(cubin.data, cubin.size, kernel_names[k], &modules[k], &attrs, err, sizeof err))
            return fail(kernel_names[k], err);
    mmb_cubin_free(&cubin);

    struct mmb_profiler *p = NULL;
    struct mmb_l2_flush *pass_flush = NULL; /* the profiler's, before every pass */
    const char *method = getenv("MMB_L2_SWEEP");
    if (counters) {
        struct mmb_metric_set set;
        if (mmb_metric_set_parse("dram_read_bytes,dram_write_bytes", &set, err, sizeof err) != 0)
            return fail("metric set", err);
        if (mmb_l2_flush_open(&pass_flush, 0, method, err, sizeof err) != MMB_STATUS_OK)
            return fail("L2 flush", err);
        if (mmb_profiler_open(&p, 0, &set, pass_flush, l.stream, err, sizeof err) != MMB_STATUS_OK)
            return fail("profiler", err);
    } else if (!hot && mmb_l2_flush_open(&l.flush, 0, method, err, sizeof err) != MMB_STATUS_OK) {
        return fail("L2 flush", err);
    }

    printf("%-6s %8s %12s %12s   (%s, %s stream, %s)\n", "kernel", "MB", "DRAM read MB", "DRAM write MB",
           counters ? "mmbench's CUPTI counters" : "launches only", use_stream ? "non-blocking" : "default",
           hot ? "hot" : "cold");
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        l.module = modules[scenarios[i].kind];
        l.words = (unsigned long long)(scenarios[i].mb * 1e6) / 8;
        struct mmb_row row;
        memset(&row, 0, sizeof row);
        row.dram_read_bytes = row.dram_write_bytes = NAN;
        if (counters) {
            double ns = NAN;
            int passes = 0;
            if (mmb_profiler_measure(p, launch_probe, &l, !hot, &row, &ns, &passes, NULL, err, sizeof err) != MMB_STATUS_OK)
                return fail(kernel_names[scenarios[i].kind], err);
        } else {
            if (launch_probe(&l, err, sizeof err) != MMB_STATUS_OK || (e = cudaDeviceSynchronize()) != cudaSuccess)
                return fail(kernel_names[scenarios[i].kind], cudaGetErrorString(e));
        }
        printf("%-6s %8.1f %12.3f %12.3f\n", kernel_names[scenarios[i].kind] + 6, scenarios[i].mb,
               row.dram_read_bytes * 1e-6, row.dram_write_bytes * 1e-6);
    }
    mmb_profiler_close(p);
    mmb_l2_flush_close(pass_flush);
    mmb_l2_flush_close(l.flush);
    for (int k = 0; k < KINDS; k++)
        mmb_module_unload(modules[k]);
    cudaFree(l.dst);
    cudaFree(l.src);
    if (l.stream)
        cudaStreamDestroy((cudaStream_t)l.stream);
    return 0;
}
