/* blas.h - the library call of every dtype (core/dtype.h's blas): cuBLAS SGEMM and
 * DGEMM with pedantic math (no TF32), cublasGemmEx with the dtype's compute type for
 * f16, bf16, tf32 and i8, and cublasLtMatmul for e4m3, whose B cuBLASLt needs
 * K-major ("TN"). Row-major C = A B as column-major C^T = B^T A^T. Owns the handles,
 * cuBLASLt's workspace and its plans (descriptors and the heuristic's algorithm per
 * shape, made once, so that a timed launch is the matmul alone). */
#ifndef MMB_BLAS_H
#define MMB_BLAS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"

struct mmb_blas;

/* The cuBLAS mmbench was compiled with (CUBLAS_VERSION: 130100 for 13.1.0) and the
 * cuBLAS and cuBLASLt libraries it runs with, in the same form; no GPU needed. Returns 0,
 * or -1 with err (the versions found so far kept, the others 0). */
int mmb_blas_versions(int *built, int *cublas, int *cublas_lt, char *err, size_t errlen);

/* For the current device (compute capability cc, major * 10 + minor), on stream. */
enum mmb_status mmb_blas_open(struct mmb_blas **out, void *stream, int cc, char *err, size_t errlen);
/* NULL is fine. */
void mmb_blas_close(struct mmb_blas *b);

/* MMB_STATUS_OK when this GPU can make dtype's library call, else SKIPPED with why. */
enum mmb_status mmb_blas_supports(const struct mmb_blas *b, enum mmb_dtype dtype, char *err, size_t errlen);

/* C = A B in dtype's types, asynchronously on the stream. A configuration the library
 * has no kernel for is INVALID_CONFIG with the library's word. */
enum mmb_status mmb_blas_gemm(struct mmb_blas *b, enum mmb_dtype dtype, long long m, long long n, long long k,
                              const void *A, const void *B, void *C, char *err, size_t errlen);

/* C = A B in double (pedantic DGEMM), B column-major when b_col_major: the reference
 * of widened inputs. */
enum mmb_status mmb_blas_dgemm(struct mmb_blas *b, bool b_col_major, long long m, long long n, long long k,
                               const double *A, const double *B, double *C, char *err, size_t errlen);

#endif
