/* l2flush.c - the cold-L2 preparation shared by timing and counters (see l2flush.h). */
#include "cuda/l2flush.h"

#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"

/* mmb_l2_read reads the buffer (the impossible store keeps the loads); mmb_l2_reread
 * reads it a quarter of L2 at a time, twice, past L1, so that every line is hit once
 * in L2; mmb_l2_store writes it; mmb_l2_discard invalidates its lines without writing
 * them back. */
const char mmb_l2_flush_source[] =
    "#define GRID_STRIDE(i, from, to) \\\n"
    "    for (unsigned long long i = (from) + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; \\\n"
    "         i < (to); i += (unsigned long long)gridDim.x * blockDim.x)\n"
    "extern \"C\" __global__ void mmb_l2_read(unsigned long long *p, unsigned long long n)\n"
    "{\n"
    "    unsigned long long acc = 0;\n"
    "    GRID_STRIDE(i, 0, n) acc ^= p[i];\n"
    "    if (acc == 0x9e3779b97f4a7c15ULL)\n"
    "        p[0] = acc;\n"
    "}\n"
    "extern \"C\" __global__ void mmb_l2_reread(unsigned long long *p, unsigned long long n,\n"
    "                                          unsigned long long chunk)\n"
    "{\n"
    "    unsigned long long acc = 0;\n"
    "    for (unsigned long long c = 0; c < n; c += chunk)\n"
    "        for (int r = 0; r < 2; r++)\n"
    "            GRID_STRIDE(i, c, c + chunk < n ? c + chunk : n) acc ^= __ldcg(p + i);\n"
    "    if (acc == 0x9e3779b97f4a7c15ULL)\n"
    "        p[0] = acc;\n"
    "}\n"
    "extern \"C\" __global__ void mmb_l2_store(unsigned long long *p, unsigned long long n)\n"
    "{\n"
    "    GRID_STRIDE(i, 0, n) p[i] = i;\n"
    "}\n"
    "extern \"C\" __global__ void mmb_l2_discard(unsigned long long *p, unsigned long long n)\n"
    "{\n"
    "#if __CUDA_ARCH__ >= 800\n"
    "    GRID_STRIDE(i, 0, n / 16) asm volatile(\"discard.global.L2 [%0], 128;\" :: \"l\"(p + 16 * i) : \"memory\");\n"
    "#endif\n"
    "}\n";

/* Step s is bit s; each but the memset is a kernel of flush_source. */
enum flush_step { STEP_MEMSET = 1, STEP_STORE = 2, STEP_READ = 4, STEP_REREAD = 8 };
#define STEP_COUNT 4
static const char *const step_kernels[STEP_COUNT] = {NULL, "mmb_l2_store", "mmb_l2_read", "mmb_l2_reread"};

/* Steps run in bit order, then the discard unless `keep`. */
static const struct {
    const char *name;
    unsigned steps;
} flush_methods[] = {
    {"read", STEP_READ},
    {"reread", STEP_REREAD},
    {"store", STEP_STORE},
    {"memset", STEP_MEMSET},
    {"write+read", STEP_MEMSET | STEP_READ},
    {"store+reread", STEP_STORE | STEP_REREAD},
    {"none", 0},
    {NULL, 0},
};
#define DEFAULT_METHOD "read:8"

struct mmb_l2_flush {
    char method[MMB_L2_FLUSH_METHOD_LEN];
    unsigned steps;
    bool discard;
    void *buf;
    size_t bytes;
    unsigned long long words, chunk;
    long long grid;
    struct mmb_module *kernel[STEP_COUNT];
    struct mmb_module *discarder;
};

/* The method's table row, or -1; *factor and *keep from the suffix. */
static int parse_method(const char *how, unsigned *factor, bool *keep)
{
    size_t len = strcspn(how, ":");
    for (int i = 0; flush_methods[i].name; i++) {
        if (strlen(flush_methods[i].name) != len || strncmp(how, flush_methods[i].name, len) != 0)
            continue;
        const char *rest = how + len;
        int used = 0;
        *factor = 8;
        if (*rest && !(sscanf(rest, ":%u%n", factor, &used) == 1 && *factor >= 1 && *factor <= 64))
            return -1;
        rest += used;
        if (*rest && strcmp(rest, ":keep") != 0)
            return -1;
        *keep = *rest != '\0';
        return i;
    }
    return -1;
}

int mmb_l2_flush_check_method(const char *how, char *canon, size_t canonlen, char *err, size_t errlen)
{
    unsigned factor = 0;
    bool keep = false;
    int i = parse_method(how, &factor, &keep);
    if (i < 0) {
        char names[160] = "";
        for (size_t j = 0; flush_methods[j].name; j++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "",
                     flush_methods[j].name);
        mmb_errorf(err, errlen, "MMB_L2_SWEEP='%s': expected METHOD[:F[:keep]] with F in 1..64 and METHOD one of %s",
                   how, names);
        return -1;
    }
    if (flush_methods[i].steps == 0)
        snprintf(canon, canonlen, "none");
    else
        snprintf(canon, canonlen, "%s:%u%s", flush_methods[i].name, factor, keep ? ":keep" : "");
    return 0;
}

static enum mmb_status load_kernels(struct mmb_l2_flush *f, int arch, char *err, size_t errlen)
{
    const char *const no_defines[] = {NULL};
    struct mmb_compile_request req = {.source_path = "l2flush.c", .source = mmb_l2_flush_source,
                                      .function = "mmb_l2_read", .defines = no_defines, .arch = arch};
    struct mmb_cubin cubin;
    enum mmb_status st = mmb_compile(&req, &cubin, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    struct mmb_kernel_attrs attrs;
    for (unsigned s = 1; s < STEP_COUNT && st == MMB_STATUS_OK; s++)
        if (f->steps & (1u << s))
            st = mmb_module_load(cubin.data, cubin.size, step_kernels[s], &f->kernel[s], &attrs, err, errlen);
    if (st == MMB_STATUS_OK && f->discard && arch >= 80)
        st = mmb_module_load(cubin.data, cubin.size, "mmb_l2_discard", &f->discarder, &attrs, err, errlen);
    mmb_cubin_free(&cubin);
    return st;
}

static enum mmb_status open_steps(struct mmb_l2_flush *f, int device, const char *how, char *err, size_t errlen)
{
    cudaError_t e;
    if (mmb_l2_flush_check_method(how && *how ? how : DEFAULT_METHOD, f->method, sizeof f->method, err, errlen))
        return MMB_STATUS_PROFILING_DENIED;
    unsigned factor = 8;
    bool keep = false;
    int row = parse_method(f->method, &factor, &keep);
    f->steps = flush_methods[row].steps;
    f->discard = f->steps != 0 && !keep;
    int major = 0, minor = 0, sms = 0, l2 = 0;
    MMB_CHECK_CUDA(e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                   return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                   return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
                   return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), return mmb_gpu_status_of(e));
    size_t l2_bytes = l2 > 0 ? (size_t)l2 : (size_t)64 << 20;
    f->bytes = (size_t)factor * l2_bytes;
    f->words = f->bytes / sizeof(unsigned long long);
    f->chunk = l2_bytes / 4 / sizeof(unsigned long long);
    f->grid = 8LL * (sms > 0 ? sms : 1);
    MMB_CHECK_CUDA(e = cudaMalloc(&f->buf, f->bytes), return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaMemset(f->buf, 0, f->bytes), return mmb_gpu_status_of(e));
    return load_kernels(f, major * 10 + minor, err, errlen);
}

enum mmb_status mmb_l2_flush_open(struct mmb_l2_flush **out, int device, const char *method, char *err,
                                  size_t errlen)
{
    *out = NULL;
    struct mmb_l2_flush *f = calloc(1, sizeof *f);
    if (!f) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    enum mmb_status st = open_steps(f, device, method, err, errlen);
    if (st != MMB_STATUS_OK) {
        mmb_l2_flush_close(f);
        return st;
    }
    *out = f;
    return MMB_STATUS_OK;
}

enum mmb_status mmb_l2_flush_enqueue(struct mmb_l2_flush *f, void *stream, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    const long long grid[3] = {f->grid, 1, 1}, block[3] = {256, 1, 1};
    void *args[] = {&f->buf, &f->words, &f->chunk};
    if (f->steps & STEP_MEMSET)
        MMB_CHECK_CUDA(e = cudaMemsetAsync(f->buf, 0, f->bytes, (cudaStream_t)stream), return mmb_gpu_status_of(e));
    for (unsigned s = 1; s < STEP_COUNT; s++)
        if ((f->steps & (1u << s)) &&
            (st = mmb_module_launch(f->kernel[s], grid, block, NULL, 0, args, stream, err, errlen)) != MMB_STATUS_OK)
            return st;
    if (f->discarder && (st = mmb_module_launch(f->discarder, grid, block, NULL, 0, args, stream, err, errlen)))
        return st;
    return MMB_STATUS_OK;
}

int mmb_l2_flush_kernels(const struct mmb_l2_flush *f)
{
    int n = f->discarder != NULL;
    for (unsigned s = 1; s < STEP_COUNT; s++)
        n += (f->steps & (1u << s)) != 0;
    return n;
}

const char *mmb_l2_flush_method(const struct mmb_l2_flush *f)
{
    return f->method;
}

void mmb_l2_flush_close(struct mmb_l2_flush *f)
{
    if (!f)
        return;
    for (unsigned s = 0; s < STEP_COUNT; s++)
        mmb_module_unload(f->kernel[s]);
    mmb_module_unload(f->discarder);
    if (f->buf)
        cudaFree(f->buf); /* nothing to do on failure: the context may be gone */
    free(f);
}
