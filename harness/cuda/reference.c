/* reference.c - cuBLAS (pedantic math) and an exact int32 reference kernel. */
#include "cuda/reference.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/compile.h"
#include "cuda/gpu.h"
#include "model/library.h"

/* Integer products of the inputs cannot overflow (inputs.h), so any summation order
 * gives the same exact result: one plain loop per output suffices. */
static const char int_reference_source[] =
    "extern \"C\" __global__ void mmb_reference_i32(int *C, const int *A, const int *B,\n"
    "                                                int M, int N, int K) {\n"
    "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (y >= M || x >= N) return;\n"
    "    long long s = 0;\n"
    "    for (int k = 0; k < K; k++) s += (long long)A[y * K + k] * B[k * N + x];\n"
    "    C[y * N + x] = (int)s;\n"
    "}\n";

struct mmb_reference {
    cublasHandle_t handle;
    struct mmb_module *int_kernel;
    void *stream;
};

enum mmb_status mmb_reference_open(struct mmb_reference **out, int arch, const char *cache_dir,
                                   void *stream, char *err, size_t errlen)
{
    struct mmb_reference *ref = calloc(1, sizeof *ref);
    if (!ref) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    ref->stream = stream;
    enum mmb_status st = MMB_STATUS_LAUNCH_ERROR;
    MMB_CHECK_CUBLAS(cublasCreate(&ref->handle), goto fail);
    MMB_CHECK_CUBLAS(cublasSetStream(ref->handle, (cudaStream_t)stream), goto fail);
    /* Pedantic: no TF32 or other reduced-precision shortcuts in the reference. */
    MMB_CHECK_CUBLAS(cublasSetMathMode(ref->handle, CUBLAS_PEDANTIC_MATH), goto fail);

    struct mmb_compile_request req = {
        .source_path = "mmb_reference_i32.cu", .source = int_reference_source,
        .function = "mmb_reference_i32", .arch = arch, .cache_dir = cache_dir,
    };
    struct mmb_kernel_attrs attrs;
    if ((st = mmb_module_build(&req, &ref->int_kernel, &attrs, err, errlen)) != MMB_STATUS_OK)
        goto fail;
    *out = ref;
    return MMB_STATUS_OK;
fail:
    mmb_reference_close(ref);
    return st == MMB_STATUS_OK ? MMB_STATUS_LAUNCH_ERROR : st;
}

void mmb_reference_close(struct mmb_reference *ref)
{
    if (!ref)
        return;
    if (ref->handle)
        cublasDestroy(ref->handle);
    mmb_module_unload(ref->int_kernel);
    free(ref);
}

enum mmb_status mmb_reference_cublas(struct mmb_reference *ref, enum mmb_dtype dtype,
                                     long long m, long long n, long long k,
                                     const void *A, const void *B, void *C, char *err, size_t errlen)
{
    /* Row-major C = A B is column-major C^T = B^T A^T: pass B first, swap m and n. */
    if (dtype == MMB_F32) {
        const float one = 1.0f, zero = 0.0f;
        MMB_CHECK_CUBLAS(cublasSgemm(ref->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
                                     B, (int)n, A, (int)k, &zero, C, (int)n),
                         return MMB_STATUS_LAUNCH_ERROR);
    } else if (dtype == MMB_F64) {
        const double one = 1.0, zero = 0.0;
        MMB_CHECK_CUBLAS(cublasDgemm(ref->handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
                                     B, (int)n, A, (int)k, &zero, C, (int)n),
                         return MMB_STATUS_LAUNCH_ERROR);
    } else {
        mmb_errorf(err, errlen, "cuBLAS has no %s GEMM", mmb_dtype_info(dtype)->text);
        return MMB_STATUS_SKIPPED;
    }
    return MMB_STATUS_OK;
}

enum mmb_status mmb_reference_gemm(struct mmb_reference *ref, enum mmb_dtype dtype,
                                   long long m, long long n, long long k,
                                   const void *A, const void *B, void *C, char *err, size_t errlen)
{
    if (mmb_library_reference()->dtypes & (1u << dtype))
        return mmb_reference_cublas(ref, dtype, m, n, k, A, B, C, err, errlen);
    int M = (int)m, N = (int)n, K = (int)k;
    void *args[] = {&C, (void *)&A, (void *)&B, &M, &N, &K};
    long long block[3] = {16, 16, 1};
    long long grid[3] = {(n + 15) / 16, (m + 15) / 16, 1};
    return mmb_module_launch(ref->int_kernel, grid, block, NULL, 0, args, ref->stream, err, errlen);
}
