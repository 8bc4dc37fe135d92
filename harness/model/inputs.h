/* inputs.h - reproducible random inputs and the comparison with the reference,
 * on the host (no CUDA: unit-tested on any machine). */
#ifndef MMB_INPUTS_H
#define MMB_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/dtype.h"

/* Fills count elements: floats uniform in [-1, 1), ints uniform in [-8, 8] (small
 * enough that no K up to 2^15 overflows int32, so integer results are exact). */
void mmb_inputs_fill(void *data, size_t count, enum mmb_dtype dtype, uint64_t seed);

/* The byte with which outputs are poisoned before a launch: 0xFF makes every float
 * and double a NaN; 0x7F makes every int 0x7F7F7F7F, beyond any result of the inputs
 * above. An element the kernel never wrote therefore always fails the comparison. */
int mmb_inputs_poison_byte(enum mmb_dtype dtype);

/* Element i of data as a double, exact for every f32, f64 and i32; NaN for a dtype
 * outside the table. */
double mmb_inputs_element(const void *data, size_t i, enum mmb_dtype dtype);

struct mmb_compare {
    double max_rel_err;   /* max |out - ref| / max |ref| (NaN counts as infinite) */
    size_t mismatches;    /* elements beyond the tolerance (exact types: unequal) */
    size_t first_bad;     /* index of the first such element */
    bool ok;
};

/* max |ref| over count elements, or 1 when all are zero: the scale of relative errors. */
double mmb_inputs_ref_max(const void *ref, size_t count, enum mmb_dtype dtype);
void mmb_inputs_compare(const void *out, const void *ref, size_t count, enum mmb_dtype dtype,
                        double tolerance, struct mmb_compare *result);

#endif
