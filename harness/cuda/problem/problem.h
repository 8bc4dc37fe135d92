/* problem.h - the buffers of one problem (size x dtype) on one GPU: seeded random A
 * and B (in the dtype's input format, B laid out as the dtype says) on the host and
 * the device, the reference C (in its reference format), checked on sampled elements
 * against a float64 host computation, and the output buffer the kernels write (in
 * the output format). The
 * reference stays on the device, where outputs are compared with it (verify.h). The
 * session opens problems on its GPU (mmb_session_problem_open) and reads these buffers
 * when it evaluates. */
#ifndef MMB_PROBLEM_H
#define MMB_PROBLEM_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"
#include "cuda/problem/reference.h"
#include "model/profile.h"

struct mmb_problem {
    struct mmb_size size;
    enum mmb_dtype dtype;
    size_t esize;            /* bytes per element of A and B (elem_size) */
    size_t osize, rsize;     /* of C and of the reference */
    void *dA, *dB, *dC;
    void *dRef;              /* the reference result, which outputs are compared with */
    void *hA, *hB, *hRef;    /* host copies, for the reference's check; NULL once it is made */
    double ref_max;          /* max |reference| (1 if all zero): the scale of relative errors */
    double ref_err;          /* the reference's own error on the sampled elements */
};

/* Allocates and fills A and B with random values (seeded), computes the reference
 * with ref on stream (the reference's) and checks it on sampled elements against a
 * float64 host computation: MMB_STATUS_WRONG_RESULT beyond the dtype's tolerance. */
enum mmb_status mmb_problem_open(struct mmb_reference *ref, void *stream, const struct mmb_size *size,
                                 enum mmb_dtype dtype, unsigned long long seed, struct mmb_problem **out, char *err,
                                 size_t errlen);
/* NULL is fine. */
void mmb_problem_close(struct mmb_problem *p);
/* The GPU memory p holds: A, B, C and the reference. */
size_t mmb_problem_device_bytes(const struct mmb_problem *p);

#endif
