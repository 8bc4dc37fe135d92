/* reference.c - the reference result of every dtype (cuBLAS pedantic, DGEMM over
 * widened inputs, exact integer kernels) and the library baselines (cuda/blas.h). */
#include "cuda/problem/reference.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"
#include "cuda/problem/blas.h"
#include "cuda/problem/verify.h"

/* mmb_widen: any storage format to double (mmb_decode, verify.c), a grid-stride pass.
 * The integer kernels: products of the inputs cannot overflow a long long, and their
 * sum fits an int for the inputs drawn (model/inputs.h), so any summation order gives
 * the same exact result: one plain loop per output suffices. One kernel per integer
 * input format, named mmb_reference_<format>, B in either layout. */
static const char reference_kernels[] =
    "extern \"C\" __global__ void mmb_widen(const void *in, int format, unsigned long long count, double *out) {\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count;\n"
    "         i += stride)\n"
    "        out[i] = mmb_decode(in, i, format);\n"
    "}\n"
    "template <typename T> __device__ void mmb_int_gemm(int *C, const T *A, const T *B, int M, int N, int K,\n"
    "                                                  int b_col_major) {\n"
    "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (y >= M || x >= N) return;\n"
    "    long long s = 0, bk = b_col_major ? 1 : N, bn = b_col_major ? K : 1;\n"
    "    for (int k = 0; k < K; k++) s += (long long)A[(long long)y * K + k] * B[k * bk + x * bn];\n"
    "    C[(long long)y * N + x] = (int)s;\n"
    "}\n"
    "extern \"C\" __global__ void mmb_reference_i32(int *C, const int *A, const int *B, int M, int N, int K,\n"
    "                                              int b_col_major) {\n"
    "    mmb_int_gemm(C, A, B, M, N, K, b_col_major);\n"
    "}\n"
    "extern \"C\" __global__ void mmb_reference_i8(int *C, const signed char *A, const signed char *B,\n"
    "                                             int M, int N, int K, int b_col_major) {\n"
    "    mmb_int_gemm(C, A, B, M, N, K, b_col_major);\n"
    "}\n";

struct mmb_reference {
    struct mmb_blas *blas;
    void *stream;
    int arch;
    char *cache_dir;
    char *source;                               /* mmb_device_formats_source + reference_kernels */
    struct mmb_module *widen;                   /* built when first needed */
    struct mmb_module *integer[MMB_FMT_COUNT];  /* by input format, built when first needed */
};

enum mmb_status mmb_reference_open(struct mmb_reference **out, int arch, const char *cache_dir,
                                   void *stream, char *err, size_t errlen)
{
    struct mmb_reference *ref = calloc(1, sizeof *ref);
    size_t a = strlen(mmb_device_formats_source), b = strlen(reference_kernels);
    *out = NULL;
    if (ref)
        ref->source = malloc(a + b + 1);
    if (!ref || !ref->source || (cache_dir && !(ref->cache_dir = strdup(cache_dir)))) {
        mmb_errorf(err, errlen, "out of host memory");
        mmb_reference_close(ref);
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    memcpy(ref->source, mmb_device_formats_source, a);
    memcpy(ref->source + a, reference_kernels, b + 1);
    ref->stream = stream;
    ref->arch = arch;
    enum mmb_status st = mmb_blas_open(&ref->blas, stream, arch, err, errlen);
    if (st != MMB_STATUS_OK) {
        mmb_reference_close(ref);
        return st;
    }
    *out = ref;
    return MMB_STATUS_OK;
}

void mmb_reference_close(struct mmb_reference *ref)
{
    if (!ref)
        return;
    mmb_blas_close(ref->blas);
    mmb_module_unload(ref->widen);
    for (int i = 0; i < MMB_FMT_COUNT; i++)
        mmb_module_unload(ref->integer[i]);
    free(ref->source);
    free(ref->cache_dir);
    free(ref);
}

/* One of the reference's kernels, compiled (through the disk cache) on first use. */
static enum mmb_status kernel_of(struct mmb_reference *ref, struct mmb_module **slot, const char *function,
                                 char *err, size_t errlen)
{
    if (*slot)
        return MMB_STATUS_OK;
    struct mmb_compile_request req = {
        .source_path = "mmb_reference.cu", .source = ref->source, .function = function,
        .arch = ref->arch, .cache_dir = ref->cache_dir,
    };
    struct mmb_kernel_attrs attrs;
    return mmb_module_build(&req, slot, &attrs, err, errlen);
}

enum mmb_status mmb_reference_library_supports(struct mmb_reference *ref, enum mmb_dtype dtype, char *err,
                                               size_t errlen)
{
    return mmb_blas_supports(ref->blas, dtype, err, errlen);
}

enum mmb_status mmb_reference_cublas(struct mmb_reference *ref, enum mmb_dtype dtype,
                                     long long m, long long n, long long k,
                                     const void *A, const void *B, void *C, char *err, size_t errlen)
{
    return mmb_blas_gemm(ref->blas, dtype, m, n, k, A, B, C, err, errlen);
}

/* in (count elements of format) as doubles in a new device buffer *out. */
static enum mmb_status widen(struct mmb_reference *ref, const void *in, enum mmb_format format, size_t count,
                             double **out, char *err, size_t errlen)
{
    cudaError_t e;
    enum mmb_status st = kernel_of(ref, &ref->widen, "mmb_widen", err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    MMB_CHECK_CUDA(e = cudaMalloc((void **)out, count * sizeof(double)), return mmb_gpu_status_of(e));
    int fmt = (int)format;
    unsigned long long n = count;
    void *args[] = {(void *)&in, &fmt, &n, (void *)out};
    long long blocks = (long long)((count + 255) / 256);
    long long block[3] = {256, 1, 1}, grid[3] = {blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks, 1, 1};
    return mmb_module_launch(ref->widen, grid, block, NULL, 0, args, ref->stream, err, errlen);
}

/* DGEMM of A and B widened to double, into the double C. */
static enum mmb_status reference_wide(struct mmb_reference *ref, const struct mmb_dtype_info *d, long long m,
                                      long long n, long long k, const void *A, const void *B, void *C, char *err,
                                      size_t errlen)
{
    double *A64 = NULL, *B64 = NULL;
    enum mmb_status st = widen(ref, A, d->in, (size_t)(m * k), &A64, err, errlen);
    if (st == MMB_STATUS_OK)
        st = widen(ref, B, d->in, (size_t)(k * n), &B64, err, errlen);
    if (st == MMB_STATUS_OK)
        st = mmb_blas_dgemm(ref->blas, d->b_col_major, m, n, k, A64, B64, C, err, errlen);
    cudaError_t e;
    if (st == MMB_STATUS_OK)
        MMB_CHECK_CUDA(e = cudaStreamSynchronize((cudaStream_t)ref->stream), st = mmb_gpu_status_of(e));
    cudaFree(A64);
    cudaFree(B64);
    return st;
}

enum mmb_status mmb_reference_gemm(struct mmb_reference *ref, enum mmb_dtype dtype,
                                   long long m, long long n, long long k,
                                   const void *A, const void *B, void *C, char *err, size_t errlen)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d) {
        mmb_errorf(err, errlen, "no reference for dtype %d", (int)dtype);
        return MMB_STATUS_SKIPPED;
    }
    if (d->ref_kind == MMB_REF_CUBLAS)
        return mmb_blas_gemm(ref->blas, dtype, m, n, k, A, B, C, err, errlen);
    if (d->ref_kind == MMB_REF_WIDE)
        return reference_wide(ref, d, m, n, k, A, B, C, err, errlen);
    char function[64];
    snprintf(function, sizeof function, "mmb_reference_%s", mmb_format_info(d->in)->text);
    enum mmb_status st = kernel_of(ref, &ref->integer[d->in], function, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    int M = (int)m, N = (int)n, K = (int)k, b_col_major = d->b_col_major;
    void *args[] = {&C, (void *)&A, (void *)&B, &M, &N, &K, &b_col_major};
    long long block[3] = {16, 16, 1};
    long long grid[3] = {(n + 15) / 16, (m + 15) / 16, 1};
    return mmb_module_launch(ref->integer[d->in], grid, block, NULL, 0, args, ref->stream, err, errlen);
}
