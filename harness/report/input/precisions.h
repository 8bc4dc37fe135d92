/* precisions.h - what the Precisions section and figure show of a precisions profile
 * (role precisions) on one GPU: at one size, each dtype with an ok row (in the dtype
 * table's order) and each kernel's fastest ok row in it. */
#ifndef MMB_REPORT_PRECISIONS_H
#define MMB_REPORT_PRECISIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"
#include "report/input/data.h"

struct mmb_report_precisions {
    size_t p;                                 /* the profile */
    size_t g;                                 /* the GPU */
    struct mmb_report_shape s;                /* the reference size where it has ok rows, else its largest square */
    size_t ndtypes;
    const char *dtypes[MMB_DTYPE_COUNT];      /* with an ok row at s, in the dtype table's order */
    size_t nkernels;
    size_t kernels[MMB_REPORT_KERNELS_MAX];   /* with an ok row at s, in the profile's order, cuBLAS last */
    const struct mmb_report_row *best[MMB_DTYPE_COUNT][MMB_REPORT_KERNELS_MAX]; /* [dtype i][kernel index] */
};

/* The first precisions profile with ok rows on GPU g into out; false when none. */
bool mmb_report_precisions_at(const struct mmb_report_data *d, size_t g, struct mmb_report_precisions *out);

#endif
