/* inputs.c - random inputs and result comparison on the host. */
#include "model/inputs.h"

#include <math.h>
#include <string.h>

#include "core/util.h"

void mmb_inputs_fill(void *data, size_t count, enum mmb_dtype dtype, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = mmb_splitmix64(&state);
        double u = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0; /* [-1, 1) */
        switch (dtype) {
        case MMB_F32: ((float *)data)[i] = (float)u; break;
        case MMB_F64: ((double *)data)[i] = u; break;
        case MMB_I32: ((int32_t *)data)[i] = (int32_t)(r % 17) - 8; break;
        default: break;
        }
    }
}

int mmb_inputs_poison_byte(enum mmb_dtype dtype)
{
    return dtype == MMB_I32 ? 0x7F : 0xFF;
}

double mmb_inputs_element(const void *p, size_t i, enum mmb_dtype dtype)
{
    switch (dtype) {
    case MMB_F32: return ((const float *)p)[i];
    case MMB_F64: return ((const double *)p)[i];
    case MMB_I32: return ((const int32_t *)p)[i];
    default: return NAN;
    }
}

void mmb_inputs_compare(const void *out, const void *ref, size_t count, enum mmb_dtype dtype,
                        double tolerance, struct mmb_compare *result)
{
    double ref_max = 0.0, err_max = 0.0;
    for (size_t i = 0; i < count; i++) {
        double r = fabs(mmb_inputs_element(ref, i, dtype));
        if (r > ref_max)
            ref_max = r;
    }
    if (ref_max == 0.0)
        ref_max = 1.0; /* an all-zero reference: compare absolute errors */
    result->mismatches = 0;
    result->first_bad = count;
    for (size_t i = 0; i < count; i++) {
        double o = mmb_inputs_element(out, i, dtype), r = mmb_inputs_element(ref, i, dtype);
        double e = isnan(o) || isinf(o) ? INFINITY : fabs(o - r) / ref_max;
        bool bad = dtype == MMB_I32 ? ((const int32_t *)out)[i] != ((const int32_t *)ref)[i]
                                    : !(e <= tolerance);
        if (bad) {
            if (result->mismatches++ == 0)
                result->first_bad = i;
        }
        if (e > err_max || isnan(e))
            err_max = isnan(e) ? INFINITY : e;
    }
    result->max_rel_err = err_max;
    result->ok = result->mismatches == 0;
}
