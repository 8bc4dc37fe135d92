/* blas.c - cuBLAS and cuBLASLt for each dtype's library call (blas.h). */
#include "cuda/problem/blas.h"

/* cublasLt.h declares a function without a prototype (`()`) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <cublasLt.h>
#pragma GCC diagnostic pop
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "cuda/gpu.h"

/* The library's name for each storage format, in enum mmb_format order. */
static const cudaDataType format_types[MMB_FMT_COUNT] = {
    [MMB_FMT_F32] = CUDA_R_32F,  [MMB_FMT_F64] = CUDA_R_64F,       [MMB_FMT_I32] = CUDA_R_32I,
    [MMB_FMT_F16] = CUDA_R_16F,  [MMB_FMT_BF16] = CUDA_R_16BF,     [MMB_FMT_TF32] = CUDA_R_32F,
    [MMB_FMT_E4M3] = CUDA_R_8F_E4M3, [MMB_FMT_I8] = CUDA_R_8I,
};

/* Each compute type, the type of alpha and beta it takes, and their values 1 and 0. */
static const struct {
    cublasComputeType_t compute;
    cudaDataType scale;
    union scalar { float f; int32_t i; double d; } one, zero;
} computes[MMB_COMPUTE_COUNT] = {
    [MMB_COMPUTE_32F] = {CUBLAS_COMPUTE_32F, CUDA_R_32F, {.f = 1.0f}, {.f = 0.0f}},
    [MMB_COMPUTE_32F_FAST_TF32] = {CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, {.f = 1.0f}, {.f = 0.0f}},
    [MMB_COMPUTE_32I] = {CUBLAS_COMPUTE_32I, CUDA_R_32I, {.i = 1}, {.i = 0}},
    [MMB_COMPUTE_64F] = {CUBLAS_COMPUTE_64F, CUDA_R_64F, {.d = 1.0}, {.d = 0.0}},
};

int mmb_blas_versions(int *built, int *cublas, int *cublas_lt, char *err, size_t errlen)
{
    int major = 0, minor = 0, patch = 0;
    *built = CUBLAS_VERSION;
    *cublas = 0;
    /* a library older than the one built against is found here, not at the first GEMM */
    *cublas_lt = (int)cublasLtGetVersion();
    MMB_CHECK_CUBLAS(cublasGetProperty(MAJOR_VERSION, &major), return -1);
    MMB_CHECK_CUBLAS(cublasGetProperty(MINOR_VERSION, &minor), return -1);
    MMB_CHECK_CUBLAS(cublasGetProperty(PATCH_LEVEL, &patch), return -1);
    *cublas = major * 10000 + minor * 100 + patch;
    return 0;
}

/* cuBLAS's recommendation for Hopper; more than any FP8 kernel asks for elsewhere. */
#define LT_WORKSPACE_BYTES (32u << 20)
#define LT_PLANS 8

/* One shape's cublasLtMatmul: descriptors and the heuristic's choice. */
struct lt_plan {
    bool used;
    enum mmb_dtype dtype;
    long long m, n, k;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t a, b, c;
    cublasLtMatmulAlgo_t algo;
    size_t workspace;
};

struct mmb_blas {
    cudaStream_t stream;
    int cc;
    cublasHandle_t pedantic; /* SGEMM and DGEMM: no TF32, no other shortcut */
    cublasHandle_t tensor;   /* cublasGemmEx: the compute type says the precision */
    cublasLtHandle_t lt;
    void *lt_workspace;
    struct lt_plan plans[LT_PLANS];
    int next_plan;
};

/* What a failed library call means for the row. */
static enum mmb_status status_of(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
    case CUBLAS_STATUS_INVALID_VALUE:
        return MMB_STATUS_INVALID_CONFIG;
    case CUBLAS_STATUS_ALLOC_FAILED:
        return MMB_STATUS_OUT_OF_MEMORY;
    default:
        return MMB_STATUS_LAUNCH_ERROR;
    }
}

static void plan_free(struct lt_plan *p)
{
    if (!p->used)
        return;
    if (p->a)
        cublasLtMatrixLayoutDestroy(p->a);
    if (p->b)
        cublasLtMatrixLayoutDestroy(p->b);
    if (p->c)
        cublasLtMatrixLayoutDestroy(p->c);
    if (p->op)
        cublasLtMatmulDescDestroy(p->op);
    memset(p, 0, sizeof *p);
}

void mmb_blas_close(struct mmb_blas *b)
{
    if (!b)
        return;
    for (int i = 0; i < LT_PLANS; i++)
        plan_free(&b->plans[i]);
    if (b->lt)
        cublasLtDestroy(b->lt);
    if (b->lt_workspace)
        cudaFree(b->lt_workspace);
    if (b->tensor)
        cublasDestroy(b->tensor);
    if (b->pedantic)
        cublasDestroy(b->pedantic);
    free(b);
}

enum mmb_status mmb_blas_open(struct mmb_blas **out, void *stream, int cc, char *err, size_t errlen)
{
    struct mmb_blas *b = calloc(1, sizeof *b);
    *out = NULL;
    if (!b) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    b->stream = (cudaStream_t)stream;
    b->cc = cc;
    MMB_CHECK_CUBLAS(cublasCreate(&b->pedantic), goto fail);
    MMB_CHECK_CUBLAS(cublasSetStream(b->pedantic, b->stream), goto fail);
    MMB_CHECK_CUBLAS(cublasSetMathMode(b->pedantic, CUBLAS_PEDANTIC_MATH), goto fail);
    MMB_CHECK_CUBLAS(cublasCreate(&b->tensor), goto fail);
    MMB_CHECK_CUBLAS(cublasSetStream(b->tensor, b->stream), goto fail);
    MMB_CHECK_CUBLAS(cublasSetMathMode(b->tensor, CUBLAS_DEFAULT_MATH), goto fail);
    MMB_CHECK_CUBLAS(cublasLtCreate(&b->lt), goto fail);
    *out = b;
    return MMB_STATUS_OK;
fail:
    mmb_blas_close(b);
    return MMB_STATUS_LAUNCH_ERROR;
}

enum mmb_status mmb_blas_supports(const struct mmb_blas *b, enum mmb_dtype dtype, char *err, size_t errlen)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d || d->blas.api == MMB_BLAS_NONE) {
        mmb_errorf(err, errlen, "no library call for %s (%s)", d ? d->text : "this dtype",
                   d ? d->blas.text : "unknown dtype");
        return MMB_STATUS_SKIPPED;
    }
    if (b->cc < d->blas.min_cc) {
        mmb_errorf(err, errlen, "%s needs compute capability %d.%d; this GPU has %d.%d", d->blas.text,
                   d->blas.min_cc / 10, d->blas.min_cc % 10, b->cc / 10, b->cc % 10);
        return MMB_STATUS_SKIPPED;
    }
    return MMB_STATUS_OK;
}

/* The cuBLASLt plan of dtype at m x n x k: cached, else made (descriptors in the
 * library's column-major terms: its A is our B, K-major, transposed; its B is our A). */
static enum mmb_status lt_plan_for(struct mmb_blas *b, const struct mmb_dtype_info *d, long long m, long long n,
                                   long long k, struct lt_plan **out, char *err, size_t errlen)
{
    for (int i = 0; i < LT_PLANS; i++) {
        struct lt_plan *p = &b->plans[i];
        if (p->used && p->dtype == d->value && p->m == m && p->n == n && p->k == k) {
            *out = p;
            return MMB_STATUS_OK;
        }
    }
    cudaError_t e;
    if (!b->lt_workspace)
        MMB_CHECK_CUDA(e = cudaMalloc(&b->lt_workspace, LT_WORKSPACE_BYTES), return mmb_gpu_status_of(e));
    struct lt_plan *p = &b->plans[b->next_plan];
    b->next_plan = (b->next_plan + 1) % LT_PLANS;
    plan_free(p);
    p->used = true;
    p->dtype = d->value;
    p->m = m, p->n = n, p->k = k;
    cublasOperation_t ta = d->b_col_major ? CUBLAS_OP_T : CUBLAS_OP_N, tb = CUBLAS_OP_N;
    cudaDataType in = format_types[d->in], outt = format_types[d->out];
    cublasLtMatmulPreference_t pref = NULL;
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    size_t ws = LT_WORKSPACE_BYTES;
    enum mmb_status st = MMB_STATUS_LAUNCH_ERROR;
    MMB_CHECK_CUBLAS(cublasLtMatmulDescCreate(&p->op, computes[d->blas.compute].compute,
                                              computes[d->blas.compute].scale), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&p->a, in, d->b_col_major ? (uint64_t)k : (uint64_t)n,
                                                d->b_col_major ? (uint64_t)n : (uint64_t)k,
                                                d->b_col_major ? (int64_t)k : (int64_t)n), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&p->b, in, (uint64_t)k, (uint64_t)m, (int64_t)k), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&p->c, outt, (uint64_t)n, (uint64_t)m, (int64_t)n), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref), goto fail);
    MMB_CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                                          sizeof ws), goto fail);
    cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(b->lt, p->op, p->a, p->b, p->c, p->c, pref, 1, &result, &found);
    if (hs != CUBLAS_STATUS_SUCCESS && hs != CUBLAS_STATUS_NOT_SUPPORTED) {
        MMB_CHECK_CUBLAS(hs, st = status_of(mmb_s_); goto fail);
    }
    if (hs == CUBLAS_STATUS_NOT_SUPPORTED || found < 1) {
        mmb_errorf(err, errlen, "cublasLtMatmulAlgoGetHeuristic: no %s kernel for %lldx%lldx%lld (%s; cuBLASLt "
                   "needs K-major operands 16-byte aligned: K a multiple of 16, N of 8)", d->text, m, n, k,
                   d->blas.text);
        st = MMB_STATUS_INVALID_CONFIG;
        goto fail;
    }
    p->algo = result.algo;
    p->workspace = result.workspaceSize;
    cublasLtMatmulPreferenceDestroy(pref);
    *out = p;
    return MMB_STATUS_OK;
fail:
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    plan_free(p);
    return st;
}

static enum mmb_status lt_matmul(struct mmb_blas *b, const struct mmb_dtype_info *d, long long m, long long n,
                                 long long k, const void *A, const void *B, void *C, char *err, size_t errlen)
{
    struct lt_plan *p = NULL;
    enum mmb_status st = lt_plan_for(b, d, m, n, k, &p, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    const union scalar *one = &computes[d->blas.compute].one, *zero = &computes[d->blas.compute].zero;
    MMB_CHECK_CUBLAS(cublasLtMatmul(b->lt, p->op, one, B, p->a, A, p->b, zero, C, p->c, C, p->c, &p->algo,
                                    b->lt_workspace, p->workspace, b->stream),
                     return status_of(mmb_s_));
    return MMB_STATUS_OK;
}

enum mmb_status mmb_blas_gemm(struct mmb_blas *b, enum mmb_dtype dtype, long long m, long long n, long long k,
                              const void *A, const void *B, void *C, char *err, size_t errlen)
{
    enum mmb_status st = mmb_blas_supports(b, dtype, err, errlen);
    if (st != MMB_STATUS_OK)
        return st;
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    int M = (int)m, N = (int)n, K = (int)k;
    cublasOperation_t ob = d->b_col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
    int ldb = d->b_col_major ? K : N;
    switch (d->blas.api) {
    case MMB_BLAS_SGEMM: {
        const float one = 1.0f, zero = 0.0f;
        MMB_CHECK_CUBLAS(cublasSgemm(b->pedantic, ob, CUBLAS_OP_N, N, M, K, &one, B, ldb, A, K, &zero, C, N),
                         return status_of(mmb_s_));
        return MMB_STATUS_OK;
    }
    case MMB_BLAS_DGEMM:
        return mmb_blas_dgemm(b, d->b_col_major, m, n, k, A, B, C, err, errlen);
    case MMB_BLAS_GEMM_EX: {
        const union scalar *one = &computes[d->blas.compute].one, *zero = &computes[d->blas.compute].zero;
        MMB_CHECK_CUBLAS(cublasGemmEx(b->tensor, ob, CUBLAS_OP_N, N, M, K, one, B, format_types[d->in], ldb, A,
                                      format_types[d->in], K, zero, C, format_types[d->out], N,
                                      computes[d->blas.compute].compute, CUBLAS_GEMM_DEFAULT),
                         return status_of(mmb_s_));
        return MMB_STATUS_OK;
    }
    case MMB_BLAS_LT_MATMUL:
        return lt_matmul(b, d, m, n, k, A, B, C, err, errlen);
    case MMB_BLAS_NONE:
        break;
    }
    return MMB_STATUS_SKIPPED;
}

enum mmb_status mmb_blas_dgemm(struct mmb_blas *b, bool b_col_major, long long m, long long n, long long k,
                               const double *A, const double *B, double *C, char *err, size_t errlen)
{
    const double one = 1.0, zero = 0.0;
    int M = (int)m, N = (int)n, K = (int)k;
    MMB_CHECK_CUBLAS(cublasDgemm(b->pedantic, b_col_major ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B,
                                 b_col_major ? K : N, A, K, &zero, C, N),
                     return status_of(mmb_s_));
    return MMB_STATUS_OK;
}
