/* tma.c - the rules of TMA tensor maps (tma.h), from cuTensorMapEncodeTiled's
 * documented requirements, so that a configuration the driver would refuse is a
 * message naming the rule rather than CUDA_ERROR_INVALID_VALUE. */
#include "model/tma.h"

#include "core/array.h"
#include "core/error.h"

const char *mmb_tma_matrix_name(enum mmb_arg_kind matrix)
{
    switch (matrix) {
    case MMB_ARG_A: return "A";
    case MMB_ARG_B: return "B";
    case MMB_ARG_C: return "C";
    default: return "?";
    }
}

enum mmb_tma_type mmb_tma_type_of(enum mmb_dtype dtype, enum mmb_arg_kind matrix)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (!d)
        return MMB_TMA_NONE;
    return matrix == MMB_ARG_C ? d->tma.out : d->tma.in;
}

size_t mmb_tma_type_bytes(enum mmb_tma_type type)
{
    /* Indexed by the value, as CUtensorMapDataType numbers them. */
    static const size_t bytes[] = {
        [MMB_TMA_U8] = 1,  [MMB_TMA_U16] = 2, [MMB_TMA_U32] = 4,  [MMB_TMA_I32] = 4,      [MMB_TMA_U64] = 8,
        [MMB_TMA_I64] = 8, [MMB_TMA_F16] = 2, [MMB_TMA_F32] = 4,  [MMB_TMA_F64] = 8,      [MMB_TMA_BF16] = 2,
        [MMB_TMA_F32_FTZ] = 4, [MMB_TMA_TF32] = 4, [MMB_TMA_TF32_FTZ] = 4,
    };
    if (type < 0 || (size_t)type >= MMB_COUNT(bytes))
        return 0;
    return bytes[type];
}

void mmb_tma_extent(enum mmb_arg_kind matrix, const struct mmb_size *size, long long *rows, long long *cols)
{
    *rows = matrix == MMB_ARG_B ? size->k : size->m;
    *cols = matrix == MMB_ARG_A ? size->k : size->n;
}

struct mmb_size mmb_tma_size_held(enum mmb_dtype dtype, enum mmb_arg_kind matrix, const struct mmb_size *size)
{
    const struct mmb_dtype_info *d = mmb_dtype_info(dtype);
    if (matrix != MMB_ARG_B || !d || !d->b_col_major)
        return *size;
    return (struct mmb_size){size->m, size->k, size->n};
}

int mmb_tma_check_swizzle(long long swizzle, char *err, size_t errlen)
{
    if (swizzle == 0 || swizzle == 32 || swizzle == 64 || swizzle == 128)
        return 0;
    return mmb_failf(err, errlen, "swizzle %lld; expected 0 (none), 32, 64 or 128 bytes", swizzle);
}

int mmb_tma_check_box_dim(const char *what, long long elements, char *err, size_t errlen)
{
    if (elements >= 1 && elements <= MMB_TMA_BOX_MAX)
        return 0;
    return mmb_failf(err, errlen, "%s %lld; expected 1 to %d elements", what, elements, MMB_TMA_BOX_MAX);
}

int mmb_tma_check_box(const struct mmb_tma_box *box, size_t elem_bytes, char *err, size_t errlen)
{
    if (mmb_tma_check_box_dim("box_inner", box->inner, err, errlen) ||
        mmb_tma_check_box_dim("box_outer", box->outer, err, errlen) ||
        mmb_tma_check_swizzle(box->swizzle, err, errlen))
        return -1;
    long long bytes = box->inner * (long long)elem_bytes;
    if (bytes % MMB_TMA_ALIGN)
        return mmb_failf(err, errlen, "the box's inner extent is %lld x %zu = %lld bytes; expected a multiple of %d",
                         box->inner, elem_bytes, bytes, MMB_TMA_ALIGN);
    if (box->swizzle && bytes > box->swizzle)
        return mmb_failf(err, errlen, "the box's inner extent is %lld x %zu = %lld bytes; expected at most the "
                         "swizzle span, %lld bytes", box->inner, elem_bytes, bytes, box->swizzle);
    return 0;
}

int mmb_tma_check_matrix(enum mmb_arg_kind matrix, const struct mmb_size *size, size_t elem_bytes, char *err,
                         size_t errlen)
{
    long long rows, cols;
    mmb_tma_extent(matrix, size, &rows, &cols);
    const long long dim_max = 1LL << 32, pitch_max = 1LL << 40;
    const char *name = mmb_tma_matrix_name(matrix);
    if (rows < 1 || cols < 1 || rows > dim_max || cols > dim_max)
        return mmb_failf(err, errlen, "%s is %lld x %lld; a tensor map's dimensions are 1 to 2^32", name, rows, cols);
    long long pitch = cols * (long long)elem_bytes;
    if (pitch % MMB_TMA_ALIGN)
        return mmb_failf(err, errlen, "%s's row pitch is %lld x %zu = %lld bytes; a tensor map needs a multiple of %d",
                         name, cols, elem_bytes, pitch, MMB_TMA_ALIGN);
    if (pitch >= pitch_max)
        return mmb_failf(err, errlen, "%s's row pitch is %lld bytes; a tensor map needs less than 2^40", name, pitch);
    return 0;
}
