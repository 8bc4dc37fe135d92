/* errcheck.h - one macro per library that checks a call and, on failure, writes
 * "file:line: call: NAME: library's text" into the caller's err buffer and runs
 * on_fail (a return or a goto). Functions that use them take (char *err, size_t errlen). */
#ifndef MMB_ERRCHECK_H
#define MMB_ERRCHECK_H

#include <stddef.h>

#include "core/error.h"

#define MMB_CHECK_CUDA(call, on_fail)                                                      \
    do {                                                                                   \
        cudaError_t mmb_e_ = (call);                                                       \
        if (mmb_e_ != cudaSuccess) {                                                       \
            mmb_error_set(err, errlen, __FILE__, __LINE__, #call, cudaGetErrorName(mmb_e_), \
                          cudaGetErrorString(mmb_e_));                                     \
            on_fail;                                                                       \
        }                                                                                  \
    } while (0)

#define MMB_CHECK_NVRTC(call, on_fail)                                                     \
    do {                                                                                   \
        nvrtcResult mmb_r_ = (call);                                                       \
        if (mmb_r_ != NVRTC_SUCCESS) {                                                     \
            mmb_error_set(err, errlen, __FILE__, __LINE__, #call, "nvrtcResult",           \
                          nvrtcGetErrorString(mmb_r_));                                    \
            on_fail;                                                                       \
        }                                                                                  \
    } while (0)

#define MMB_CHECK_CUBLAS(call, on_fail)                                                    \
    do {                                                                                   \
        cublasStatus_t mmb_s_ = (call);                                                    \
        if (mmb_s_ != CUBLAS_STATUS_SUCCESS) {                                             \
            mmb_error_set(err, errlen, __FILE__, __LINE__, #call, cublasGetStatusName(mmb_s_), \
                          cublasGetStatusString(mmb_s_));                                  \
            on_fail;                                                                       \
        }                                                                                  \
    } while (0)

/* libc calls that return -1/NULL and set errno. */
#define MMB_CHECK_ERRNO(cond_ok, what, on_fail)                                            \
    do {                                                                                   \
        if (!(cond_ok)) {                                                                  \
            mmb_error_set(err, errlen, __FILE__, __LINE__, what, "errno", strerror(errno)); \
            on_fail;                                                                       \
        }                                                                                  \
    } while (0)

#endif
