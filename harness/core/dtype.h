/* dtype.h - element types a sweep can run, named once. */
#ifndef MMB_DTYPE_H
#define MMB_DTYPE_H

#include <stdbool.h>
#include <stddef.h>

enum mmb_dtype { MMB_F32, MMB_F64, MMB_I32, MMB_DTYPE_COUNT };

struct mmb_dtype_info {
    enum mmb_dtype value;
    const char *text;      /* in profiles and CSVs: f32 */
    const char *ctype;     /* passed to NVRTC as -Delem_t=<ctype> */
    size_t size;
    double default_tolerance; /* max |C - ref| / max |ref|; 0 means exact */
};

extern const struct mmb_dtype_info mmb_dtype_table[]; /* ends with a NULL text sentinel */

const struct mmb_dtype_info *mmb_dtype_info(enum mmb_dtype dtype);
bool mmb_dtype_parse(const char *text, enum mmb_dtype *out);

#endif
