/* verify.h - a kernel's output against the reference, on the GPU: one pass over C
 * that counts the elements beyond the tolerance, finds the first of them and the
 * largest relative error, with the rule of mmb_inputs_compare (model/inputs.h) to
 * the bit, so that the host's comparison remains the specification and the tests
 * hold the two together. On the GPU because copying C back and comparing it on the
 * host cost about 80 ms per configuration at 4096, more than most kernels under test
 * take; this way 24 bytes come back. */
#ifndef MMB_VERIFY_H
#define MMB_VERIFY_H

#include <stddef.h>

#include "core/dtype.h"
#include "core/status.h"
#include "model/inputs.h"

struct mmb_verifier;

/* For the current device: compiles the comparison kernel (NVRTC, through the disk
 * cache in cache_dir) and allocates the verdict's device and pinned host words. */
enum mmb_status mmb_verifier_open(struct mmb_verifier **out, int arch, const char *cache_dir, char *err,
                                  size_t errlen);

/* Compares count elements of out (dtype's output format) with ref (its reference
 * format), device pointers, on stream and waits for the verdict. ref_max is max |ref|
 * over all elements (1 for an all-zero reference), as mmb_inputs_compare computes it. */
enum mmb_status mmb_verifier_compare(struct mmb_verifier *v, void *stream, const void *out, const void *ref,
                                     size_t count, enum mmb_dtype dtype, double ref_max, double tolerance,
                                     struct mmb_compare *result, char *err, size_t errlen);

/* NULL is fine. */
void mmb_verifier_close(struct mmb_verifier *v);

/* Device functions that decode every storage format to double, exactly:
 * mmb_decode(pointer, index, enum mmb_format), for the kernels of the verifier and
 * of the reference (reference.c). */
extern const char mmb_device_formats_source[];
/* The verifier kernel's whole CUDA source (NVRTC), malloc'ed; NULL when out of
 * memory. For the tests too. */
char *mmb_verifier_source(void);

#endif
