/* dtype.c - the element-type table. */
#include "core/dtype.h"

#include <string.h>

/* Tolerances: FP32 sums of K products of uniform [-1,1) values in any order stay
 * within ~1e-6 * sqrt(K) of each other relative to the largest output; 1e-4 leaves
 * room for K up to 16k while a single wrong or unwritten element still fails. */
const struct mmb_dtype_info mmb_dtype_table[] = {
    {MMB_F32, "f32", "float", 4, 1e-4, {MMB_TMA_F32, MMB_TMA_F32}},
    {MMB_F64, "f64", "double", 8, 1e-11, {MMB_TMA_F64, MMB_TMA_F64}},
    {MMB_I32, "i32", "int", 4, 0.0, {MMB_TMA_I32, MMB_TMA_I32}},
    {MMB_DTYPE_COUNT, NULL, NULL, 0, 0.0, {MMB_TMA_NONE, MMB_TMA_NONE}},
};

const struct mmb_dtype_info *mmb_dtype_info(enum mmb_dtype dtype)
{
    if ((unsigned)dtype >= MMB_DTYPE_COUNT)
        return NULL;
    return &mmb_dtype_table[dtype];
}

bool mmb_dtype_parse(const char *text, enum mmb_dtype *out)
{
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++) {
        if (strcmp(d->text, text) == 0) {
            *out = d->value;
            return true;
        }
    }
    return false;
}
