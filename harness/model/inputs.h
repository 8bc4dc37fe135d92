/* inputs.h - reproducible random inputs and the comparison with the reference,
 * on the host (no CUDA: unit-tested on any machine), and the threads these passes
 * over large matrices run on. */
#ifndef MMB_INPUTS_H
#define MMB_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"

/* Fills count elements of format fmt: reals uniform in [-1, 1) rounded to the format
 * (to nearest, ties to even: exactly representable, so a kernel and the reference
 * see the same numbers); integers uniform in the format's range (i32 [-8, 8], small
 * enough that no K up to 2^25 overflows int32; i8 [-128, 127], exact for K up to
 * 2^17). Element i is the (i+1)-th draw of splitmix64 from seed in every format. */
void mmb_inputs_fill_format(void *data, size_t count, enum mmb_format fmt, uint64_t seed);
/* The inputs (A and B) of dtype: its input format. */
void mmb_inputs_fill(void *data, size_t count, enum mmb_dtype dtype, uint64_t seed);

/* The byte with which dtype's outputs are poisoned before a launch: 0xFF makes every
 * float, double, half and bfloat16 a NaN; 0x7F makes every int 0x7F7F7F7F, beyond
 * any result of the inputs above. An element the kernel never wrote therefore always
 * fails the comparison. */
int mmb_inputs_poison_byte(enum mmb_dtype dtype);

/* Element i of data in format fmt as a double: exact for every format. */
double mmb_inputs_element(const void *data, size_t i, enum mmb_format fmt);

struct mmb_compare {
    double max_rel_err;   /* max |out - ref| / max |ref| (NaN counts as infinite) */
    size_t mismatches;    /* elements beyond the tolerance (exact types: unequal) */
    size_t first_bad;     /* index of the first such element */
    bool ok;
};

/* max |ref| over count elements of format fmt, or 1 when all are zero: the scale of
 * relative errors. */
double mmb_inputs_ref_max(const void *ref, size_t count, enum mmb_format fmt);
/* out (dtype's output format) against ref (its reference format), element by
 * element: for exact dtypes any difference fails; else an element fails unless
 *     |out - ref| / ref_max <= tolerance + u_out |ref| / ref_max,
 * u_out = mmb_dtype_out_roundoff(dtype) (the second term left out when it is 0),
 * evaluated in double in that order; a NaN or infinite output has an infinite error.
 * The GPU's comparison (cuda/problem/verify.h) follows this to the bit. */
void mmb_inputs_compare(const void *out, const void *ref, size_t count, enum mmb_dtype dtype,
                        double tolerance, struct mmb_compare *result);

/* A host pass over a large matrix on threads (the fill, the reference's maximum, the
 * reference's float64 check in cuda/problem/problem.c): fn on each of the n jobs (at
 * most MMB_INPUTS_THREADS_MAX) of job_size bytes at jobs, job 0 on the caller's
 * thread, job i on a thread of its own, a job whose thread cannot start on the
 * caller's too, so that every job runs once; returns once all are done. */
#define MMB_INPUTS_THREADS_MAX 16
void mmb_inputs_run_threads(void *(*fn)(void *), void *jobs, size_t job_size, size_t n);
/* Threads worth one pass: one per per_thread items, at least 1, at most
 * MMB_INPUTS_THREADS_MAX and the cores online. */
size_t mmb_inputs_threads(size_t items, size_t per_thread);

#endif
