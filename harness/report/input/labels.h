/* labels.h - how figures and tables name what they show: a configuration's
 * parameters in short, their legend, and a GPU's short name. */
#ifndef MMB_REPORT_LABELS_H
#define MMB_REPORT_LABELS_H

#include <stddef.h>

/* "block_size_x=32;tile_size_y=8" as "bx=32 ty=8" (each name's word initials, "size"
 * left out; full names where two would read alike), "-" for none; and the legend of
 * the short names, "bx = block_size_x, ty = tile_size_y". */
void mmb_report_label_params(const char *params, char *out, size_t len);
void mmb_report_label_params_legend(const char *params, char *out, size_t len);
/* "NVIDIA H100 80GB HBM3" as "H100 80GB HBM3", "GeForce GTX TITAN X" as "GTX TITAN X". */
void mmb_report_label_gpu(const char *name, char *out, size_t len);

#endif
