/* verify.c - the output against the reference on the GPU (verify.h): one grid-stride
 * pass, a warp reduction, three atomics per warp into a 24-byte verdict. */
#include "cuda/verify.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"

/* The rule of mmb_inputs_compare, element by element: the error of a NaN or infinite
 * output is infinite, any other is |out - ref| / ref_max in double (exact conversions,
 * a correctly rounded subtraction and division, as on the host); an element is bad
 * when its error is not within the tolerance, for i32 when it differs at all. The
 * largest error is kept as the bits of a non-negative double, whose order as unsigned
 * integers is their order as numbers (infinity above every finite one). */
const char mmb_verifier_source[] =
    "struct mmb_verdict { unsigned long long mismatches, first_bad, max_err_bits; };\n"
    "extern \"C\" __global__ void mmb_verify(const void *out, const void *ref, unsigned long long count,\n"
    "                                        int dtype, double ref_max, double tol, mmb_verdict *v) {\n"
    "    unsigned long long bad = 0, first = ~0ull;\n"
    "    double worst = 0.0;\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;\n"
    "         i += stride) {\n"
    "        double o, r;\n"
    "        bool differs;\n"
    "        if (dtype == 0) { float a = ((const float *)out)[i], b = ((const float *)ref)[i]; o = a; r = b; }\n"
    "        else if (dtype == 1) { o = ((const double *)out)[i]; r = ((const double *)ref)[i]; }\n"
    "        else { int a = ((const int *)out)[i], b = ((const int *)ref)[i]; o = a; r = b; }\n"
    "        double e = (isnan(o) || isinf(o)) ? __longlong_as_double(0x7ff0000000000000ll)\n"
    "                                          : __ddiv_rn(fabs(__dsub_rn(o, r)), ref_max);\n"
    "        if (isnan(e)) e = __longlong_as_double(0x7ff0000000000000ll);\n"
    "        differs = dtype == 2 ? ((const int *)out)[i] != ((const int *)ref)[i] : !(e <= tol);\n"
    "        if (differs) { if (bad++ == 0) first = i; }\n"
    "        if (e > worst) worst = e;\n"
    "    }\n"
    "    unsigned long long bits = (unsigned long long)__double_as_longlong(worst);\n"
    "    for (int d = 16; d > 0; d /= 2) {\n"
    "        bad += __shfl_down_sync(0xffffffffu, bad, d);\n"
    "        unsigned long long f = __shfl_down_sync(0xffffffffu, first, d);\n"
    "        unsigned long long b = __shfl_down_sync(0xffffffffu, bits, d);\n"
    "        first = f < first ? f : first;\n"
    "        bits = b > bits ? b : bits;\n"
    "    }\n"
    "    if ((threadIdx.x & 31) == 0) {\n"
    "        if (bad) { atomicAdd(&v->mismatches, bad); atomicMin(&v->first_bad, first); }\n"
    "        atomicMax(&v->max_err_bits, bits);\n"
    "    }\n"
    "}\n";

struct verdict {
    unsigned long long mismatches, first_bad, max_err_bits;
};

struct mmb_verifier {
    struct mmb_module *kernel;
    struct verdict *d_verdict;     /* device */
    struct verdict *h_verdict;     /* pinned host */
};

enum mmb_status mmb_verifier_open(struct mmb_verifier **out, int arch, const char *cache_dir, char *err,
                                  size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    struct mmb_verifier *v = calloc(1, sizeof *v);
    *out = NULL;
    if (!v) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    struct mmb_compile_request req = {
        .source_path = "mmb_verify.cu", .source = mmb_verifier_source, .function = "mmb_verify",
        .arch = arch, .cache_dir = cache_dir,
    };
    struct mmb_kernel_attrs attrs;
    if ((st = mmb_module_build(&req, &v->kernel, &attrs, err, errlen)) != MMB_STATUS_OK)
        goto fail;
    MMB_CHECK_CUDA(e = cudaMalloc((void **)&v->d_verdict, sizeof *v->d_verdict), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMallocHost((void **)&v->h_verdict, sizeof *v->h_verdict), st = mmb_gpu_status_of(e);
                   goto fail);
    *out = v;
    return MMB_STATUS_OK;
fail:
    mmb_verifier_close(v);
    return st;
}

void mmb_verifier_close(struct mmb_verifier *v)
{
    if (!v)
        return;
    mmb_module_unload(v->kernel);
    if (v->d_verdict)
        cudaFree(v->d_verdict);
    if (v->h_verdict)
        cudaFreeHost(v->h_verdict);
    free(v);
}

static int kernel_dtype(enum mmb_dtype dtype)
{
    switch (dtype) {
    case MMB_F32: return 0;
    case MMB_F64: return 1;
    case MMB_I32: return 2;
    default: return -1;
    }
}

enum mmb_status mmb_verifier_compare(struct mmb_verifier *v, void *stream, const void *out, const void *ref,
                                     size_t count, enum mmb_dtype dtype, double ref_max, double tolerance,
                                     struct mmb_compare *result, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st;
    cudaStream_t s = (cudaStream_t)stream;
    int kd = kernel_dtype(dtype);
    if (kd < 0) {
        mmb_errorf(err, errlen, "no GPU comparison for dtype %d", (int)dtype);
        return MMB_STATUS_INVALID_CONFIG;
    }
    const struct verdict fresh = {0, ~0ull, 0};
    *v->h_verdict = fresh;
    MMB_CHECK_CUDA(e = cudaMemcpyAsync(v->d_verdict, v->h_verdict, sizeof fresh, cudaMemcpyHostToDevice, s),
                   return mmb_gpu_status_of(e));
    unsigned long long n = count;
    void *args[] = {(void *)&out, (void *)&ref, &n, &kd, &ref_max, &tolerance, &v->d_verdict};
    long long block[3] = {256, 1, 1};
    long long blocks = (long long)((count + 255) / 256);
    long long grid[3] = {blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks, 1, 1};
    if ((st = mmb_module_launch(v->kernel, grid, block, NULL, 0, args, stream, err, errlen)) != MMB_STATUS_OK)
        return st;
    MMB_CHECK_CUDA(e = cudaMemcpyAsync(v->h_verdict, v->d_verdict, sizeof fresh, cudaMemcpyDeviceToHost, s),
                   return mmb_gpu_status_of(e));
    MMB_CHECK_CUDA(e = cudaStreamSynchronize(s), return mmb_gpu_status_of(e));
    double worst;
    memcpy(&worst, &v->h_verdict->max_err_bits, sizeof worst);
    result->mismatches = (size_t)v->h_verdict->mismatches;
    result->first_bad = v->h_verdict->mismatches ? (size_t)v->h_verdict->first_bad : count;
    result->max_rel_err = worst;
    result->ok = result->mismatches == 0;
    return MMB_STATUS_OK;
}
