/* dtype.h - element types a sweep can run, named once. */
#ifndef MMB_DTYPE_H
#define MMB_DTYPE_H

#include <stdbool.h>
#include <stddef.h>

enum mmb_dtype { MMB_F32, MMB_F64, MMB_I32, MMB_DTYPE_COUNT };

/* How the tensor memory accelerator (TMA) reads and writes an element: the values of
 * the driver's CUtensorMapDataType, which cuda/tma.c checks against cuda.h (core/
 * builds without CUDA). TMA copies bits: an 8-bit type (e4m3, i8) is MMB_TMA_U8. */
enum mmb_tma_type {
    MMB_TMA_NONE = -1,
    MMB_TMA_U8 = 0, MMB_TMA_U16 = 1, MMB_TMA_U32 = 2, MMB_TMA_I32 = 3, MMB_TMA_U64 = 4, MMB_TMA_I64 = 5,
    MMB_TMA_F16 = 6, MMB_TMA_F32 = 7, MMB_TMA_F64 = 8, MMB_TMA_BF16 = 9, MMB_TMA_F32_FTZ = 10,
    MMB_TMA_TF32 = 11, MMB_TMA_TF32_FTZ = 12,
};

struct mmb_dtype_info {
    enum mmb_dtype value;
    const char *text;      /* in profiles and CSVs: f32 */
    const char *ctype;     /* passed to NVRTC as -Delem_t=<ctype> */
    size_t size;
    double default_tolerance; /* max |C - ref| / max |ref|; 0 means exact */
    /* The TMA element type of the inputs A and B (elem_t) and of the output C (out_t),
     * for tensor maps (args = tma(...)); MMB_TMA_NONE: no tensor map of it. */
    struct { enum mmb_tma_type in, out; } tma;
};

extern const struct mmb_dtype_info mmb_dtype_table[]; /* ends with a NULL text sentinel */

const struct mmb_dtype_info *mmb_dtype_info(enum mmb_dtype dtype);
bool mmb_dtype_parse(const char *text, enum mmb_dtype *out);

#endif
