/* reference.h - the reference of every dtype and the library baselines. The
 * reference is computed as the dtype table says (core/dtype.h's ref_kind): cuBLAS in
 * pedantic FP32/FP64 for f32 and f64 (no TF32; row-major through the swapped-operand
 * identity), cuBLAS DGEMM over the inputs widened to double on the GPU for the
 * rounding types (f16, bf16, tf32, e4m3: their products are exact in double and the
 * sums err by about K 2^-53), and an exact integer kernel for i32 and i8. The
 * library baseline of each dtype is its library call (cuda/blas.h). */
#ifndef MMB_REFERENCE_H
#define MMB_REFERENCE_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"

struct mmb_reference;

/* For the current device (arch: major * 10 + minor), on stream. */
enum mmb_status mmb_reference_open(struct mmb_reference **out, int arch, const char *cache_dir,
                                   void *stream, char *err, size_t errlen);
void mmb_reference_close(struct mmb_reference *ref);

/* MMB_STATUS_OK when this GPU can make dtype's library call, else SKIPPED with why. */
enum mmb_status mmb_reference_library_supports(struct mmb_reference *ref, enum mmb_dtype dtype, char *err,
                                               size_t errlen);
/* C = A * B through dtype's library call, cuBLAS or cuBLASLt (row-major; B as the
 * dtype lays it out; asynchronous on the stream). */
enum mmb_status mmb_reference_cublas(struct mmb_reference *ref, enum mmb_dtype dtype,
                                     long long m, long long n, long long k,
                                     const void *A, const void *B, void *C, char *err, size_t errlen);
/* C = A * B in dtype's reference format, computed as its ref_kind says (asynchronous
 * on the stream; the widened inputs' buffers are freed before it returns). */
enum mmb_status mmb_reference_gemm(struct mmb_reference *ref, enum mmb_dtype dtype,
                                   long long m, long long n, long long k,
                                   const void *A, const void *B, void *C, char *err, size_t errlen);

#endif
