/* reference.h - the reference and ceiling: cuBLAS GEMM in pedantic FP32/FP64 (no
 * TF32), row-major through the swapped-operand identity, and an exact integer
 * kernel for i32 (cuBLAS has no int32 GEMM). */
#ifndef MMB_REFERENCE_H
#define MMB_REFERENCE_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"

struct mmb_reference;

enum mmb_status mmb_reference_open(struct mmb_reference **out, int arch, const char *cache_dir,
                                   void *stream, char *err, size_t errlen);
void mmb_reference_close(struct mmb_reference *ref);

/* C = A * B through cuBLAS (row-major; asynchronous on the stream). */
enum mmb_status mmb_reference_cublas(struct mmb_reference *ref, enum mmb_dtype dtype,
                                     long long m, long long n, long long k,
                                     const void *A, const void *B, void *C, char *err, size_t errlen);
/* C = A * B with the reference for dtype: cuBLAS or the exact integer kernel. */
enum mmb_status mmb_reference_gemm(struct mmb_reference *ref, enum mmb_dtype dtype,
                                   long long m, long long n, long long k,
                                   const void *A, const void *B, void *C, char *err, size_t errlen);

#endif
