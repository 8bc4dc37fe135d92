/* problem.c - one problem's buffers: seeded inputs on host and device, the reference
 * result and its check against float64 on the host, the output kernels write. */
#include "cuda/problem/problem.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/errcheck.h"
#include "core/error.h"
#include "core/hash.h"
#include "cuda/gpu.h"
#include "model/inputs.h"

#define REFERENCE_SAMPLES 256

/* Sampled elements [start, end) of the check: their float64 sums. */
struct check_job {
    const struct mmb_problem *p;
    const long long *row, *col;
    int start, end;
    double *want;
};

static void *check_thread(void *opaque)
{
    struct check_job *j = opaque;
    const struct mmb_problem *p = j->p;
    const struct mmb_dtype_info *d = mmb_dtype_info(p->dtype);
    long long N = p->size.n, K = p->size.k;
    for (int i = j->start; i < j->end; i++) {
        double sum = 0.0;
        for (long long k = 0; k < K; k++)
            sum += mmb_inputs_element(p->hA, (size_t)(j->row[i] * K + k), d->in) *
                   mmb_inputs_element(p->hB, mmb_dtype_b_index(p->dtype, k, j->col[i], K, N), d->in);
        j->want[i] = sum;
    }
    return NULL;
}

/* The reference on sampled elements against float64 (exact for the small ints). */
static double check_reference(const struct mmb_problem *p, uint64_t seed)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(p->dtype);
    long long M = p->size.m, N = p->size.n;
    double worst = 0.0, scale = 0.0;
    double got[REFERENCE_SAMPLES], want[REFERENCE_SAMPLES];
    long long row[REFERENCE_SAMPLES], col[REFERENCE_SAMPLES];
    uint64_t state = seed ^ 0x5eedULL;
    int n = REFERENCE_SAMPLES;
    for (int i = 0; i < n; i++) {
        row[i] = (long long)(mmb_splitmix64(&state) % (uint64_t)M);
        col[i] = (long long)(mmb_splitmix64(&state) % (uint64_t)N);
    }
    /* in threads for large K: the column walks through B miss the caches at every k
     * (about 0.25 s for 256 samples at K = 8192 in one thread); each sample's sum runs
     * in the same order whatever the threads */
    int nthreads = (int)mmb_inputs_threads((size_t)p->size.k, 256);
    struct check_job jobs[MMB_INPUTS_THREADS_MAX];
    for (int t = 0; t < nthreads; t++)
        jobs[t] = (struct check_job){p, row, col, n * t / nthreads, n * (t + 1) / nthreads, want};
    mmb_inputs_run_threads(check_thread, jobs, sizeof jobs[0], (size_t)nthreads);
    for (int i = 0; i < n; i++) {
        got[i] = mmb_inputs_element(p->hRef, (size_t)(row[i] * N + col[i]), d->ref);
        if (fabs(want[i]) > scale)
            scale = fabs(want[i]);
    }
    if (scale == 0.0)
        scale = 1.0;
    for (int i = 0; i < n; i++) {
        double e = fabs(got[i] - want[i]) / scale;
        if (!(e <= worst))
            worst = isnan(e) ? INFINITY : e;
    }
    return worst;
}

/* Elements of A, B and C (and the reference) at size. */
static void element_counts(const struct mmb_size *size, size_t *a, size_t *b, size_t *c)
{
    *a = (size_t)size->m * (size_t)size->k;
    *b = (size_t)size->k * (size_t)size->n;
    *c = (size_t)size->m * (size_t)size->n;
}

size_t mmb_problem_device_bytes(const struct mmb_problem *p)
{
    size_t a, b, c;
    element_counts(&p->size, &a, &b, &c);
    return (a + b) * p->esize + c * (p->osize + p->rsize);
}

void mmb_problem_close(struct mmb_problem *p)
{
    if (!p)
        return;
    cudaFree(p->dA);
    cudaFree(p->dB);
    cudaFree(p->dC);
    cudaFree(p->dRef);
    free(p->hA);
    free(p->hB);
    free(p->hRef);
    free(p);
}

enum mmb_status mmb_problem_open(struct mmb_reference *ref, void *stream, const struct mmb_size *size,
                                 enum mmb_dtype dtype, unsigned long long seed, struct mmb_problem **out, char *err,
                                 size_t errlen)
{
    cudaError_t e;
    enum mmb_status st = MMB_STATUS_OUT_OF_MEMORY;
    struct mmb_problem *p = calloc(1, sizeof *p);
    if (!p) {
        mmb_errorf(err, errlen, "out of host memory");
        return MMB_STATUS_OUT_OF_MEMORY;
    }
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    p->size = *size;
    p->dtype = dtype;
    p->esize = d->size;
    p->osize = mmb_format_info(d->out)->size;
    p->rsize = mmb_format_info(d->ref)->size;
    size_t a, b, c;
    element_counts(size, &a, &b, &c);
    p->hA = malloc(a * p->esize);
    p->hB = malloc(b * p->esize);
    p->hRef = malloc(c * p->rsize);
    if (!p->hA || !p->hB || !p->hRef) {
        mmb_errorf(err, errlen, "out of host memory for %lldx%lldx%lld", size->m, size->n, size->k);
        goto fail;
    }
    MMB_CHECK_CUDA(e = cudaMalloc(&p->dA, a * p->esize), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMalloc(&p->dB, b * p->esize), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMalloc(&p->dC, c * p->osize), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMalloc(&p->dRef, c * p->rsize), st = mmb_gpu_status_of(e); goto fail);
    uint64_t base = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)(size->m * 131 + size->n * 17 + size->k) * 31 + dtype;
    mmb_inputs_fill(p->hA, a, dtype, base);
    mmb_inputs_fill(p->hB, b, dtype, base + 1);
    MMB_CHECK_CUDA(e = cudaMemcpy(p->dA, p->hA, a * p->esize, cudaMemcpyHostToDevice), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMemcpy(p->dB, p->hB, b * p->esize, cudaMemcpyHostToDevice), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMemsetAsync(p->dRef, mmb_format_info(d->ref)->poison_byte, c * p->rsize,
                                       (cudaStream_t)stream),
                   st = mmb_gpu_status_of(e); goto fail);
    st = mmb_reference_gemm(ref, dtype, size->m, size->n, size->k, p->dA, p->dB, p->dRef, err, errlen);
    if (st != MMB_STATUS_OK)
        goto fail;
    MMB_CHECK_CUDA(e = cudaStreamSynchronize((cudaStream_t)stream), st = mmb_gpu_status_of(e); goto fail);
    MMB_CHECK_CUDA(e = cudaMemcpy(p->hRef, p->dRef, c * p->rsize, cudaMemcpyDeviceToHost), st = mmb_gpu_status_of(e); goto fail);
    p->ref_max = mmb_inputs_ref_max(p->hRef, c, d->ref);
    p->ref_err = check_reference(p, base);
    /* a reference in double (DGEMM of widened inputs) is held to f64's tolerance */
    double tol = mmb_dtype_tolerance(d->ref_kind == MMB_REF_WIDE ? MMB_F64 : dtype, size->k);
    if (!(p->ref_err <= tol)) {
        mmb_errorf(err, errlen, "the reference itself differs from a float64 host computation by %.3g "
                   "(tolerance %.3g) on sampled elements", p->ref_err, tol);
        st = MMB_STATUS_WRONG_RESULT;
        goto fail;
    }
    /* outputs are compared with dRef on the GPU: the host copies are done with (a
     * problem may stay open for a counter batch that spans problems) */
    free(p->hA);
    free(p->hB);
    free(p->hRef);
    p->hA = p->hB = p->hRef = NULL;
    *out = p;
    return MMB_STATUS_OK;
fail:
    mmb_problem_close(p);
    return st;
}
