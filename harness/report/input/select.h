/* select.h - what the report shows: the story's rows of the selected dtype, cache
 * mode and shapes, and the best row per (GPU, kernel, shape). */
#ifndef MMB_REPORT_SELECT_H
#define MMB_REPORT_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"

/* Picks the story's profile (profile, or NULL: profiles.c's rule), groups the rows
 * and picks the best story row per (GPU, kernel, shape). dtype and cache may be NULL
 * (f32 when present; cold when present, else hot); ref may be NULL (4096^3 when
 * present, else the shape most (GPU, kernel) pairs reach). Returns -1 with err when
 * a named profile, dtype, cache mode or size has no ok row. */
int mmb_report_select(struct mmb_report_data *d, const char *profile, const char *dtype, const char *cache,
                      const struct mmb_report_shape *ref, char *err, size_t errlen);

const struct mmb_report_row *mmb_report_select_best(const struct mmb_report_data *d, size_t gpu, size_t kernel,
                                                    size_t shape);
/* True when the GPU has any selected row for which have(row) holds. */
bool mmb_report_select_gpu_has(const struct mmb_report_data *d, size_t gpu,
                               bool (*have)(const struct mmb_report_row *));

#endif
