/* profiles.h - which profile tells the report's story, what the others are for, and
 * each profile's kernels, sizes and best rows (a precisions profile's per dtype). */
#ifndef MMB_REPORT_PROFILES_H
#define MMB_REPORT_PROFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"
#include "report/input/data.h"

/* Sets each profile's role, the main profile (want, or NULL: `course` when present,
 * else the one with the most ok rows) and every row's profile and story flag
 * (profiles.c); -1 with err when want names no profile with an ok row. */
int mmb_report_profiles_pick(struct mmb_report_data *d, const char *want, char *err, size_t errlen);
/* The kernels of profile p in its order (its INI's, else first appearance), cuBLAS
 * last: kernel indices into out (MMB_REPORT_KERNELS_MAX); returns how many. */
size_t mmb_report_profile_kernels(const struct mmb_report_data *d, size_t p, size_t *out);
/* The fastest ok row of profile p on GPU g for each kernel at m x n x k in dtype
 * (cache mode as the selection's), into best[MMB_REPORT_KERNELS_MAX] (NULL none). */
void mmb_report_profile_best(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                             const struct mmb_report_shape *s, const struct mmb_report_row **best);
/* The sizes a profile's section shows on GPU g in the selected dtype: the reference
 * size when it has an ok row there, and its largest square size; into out (2).
 * Returns how many. */
size_t mmb_report_profile_sizes(const struct mmb_report_data *d, size_t p, size_t g, struct mmb_report_shape *out);
/* The same in another dtype. */
size_t mmb_report_profile_sizes_in(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                                   struct mmb_report_shape *out);
/* The dtypes a ladder profile is shown in: the report's own when it has ok rows there,
 * else each of its dtypes with ok rows (a tensor-core ladder's f16 and bf16), into out
 * (MMB_DTYPE_COUNT); returns how many. */
size_t mmb_report_profile_dtypes(const struct mmb_report_data *d, size_t p, const char **out);
/* The name of profile p's ladder figure on GPU g in dtype: <profile>-<gpu> in the
 * report's own dtype, <profile>-<dtype>-<gpu> in another. */
void mmb_report_profile_figure_name(const struct mmb_report_data *d, size_t p, size_t g, const char *dtype,
                                    char *out, size_t len);
/* The profiles of role r in the data's order into out (MMB_REPORT_PROFILES_MAX). */
size_t mmb_report_profiles_of(const struct mmb_report_data *d, enum mmb_report_role r, size_t *out);

/* Each profile's kernels ranked by the order of the [kernel NAME] sections of
 * <root>/profiles/<name>.ini (read by mmb_report_profiles_pick through model/profile.c)
 * where that file loads and names them: the order its sections show them in. */
void mmb_report_profiles_rank(struct mmb_report_data *d);
/* What profile p's INI says of kernel (summary, motivation, source); NULL when the INI
 * is not there or does not name it. */
const struct mmb_report_kernel_doc *mmb_report_profile_doc(const struct mmb_report_data *d, size_t p,
                                                           const char *kernel);

/* What the Precisions section and figure show of a precisions profile (role precisions)
 * on one GPU: at one size, each dtype with an ok row (in the dtype table's order) and
 * each kernel's fastest ok row in it. */
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
bool mmb_report_profile_precisions_at(const struct mmb_report_data *d, size_t g, struct mmb_report_precisions *out);

#endif
