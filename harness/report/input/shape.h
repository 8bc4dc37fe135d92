/* shape.h - a matrix shape M x N x K, written and read as the report shows it. */
#ifndef MMB_REPORT_SHAPE_H
#define MMB_REPORT_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

struct mmb_report_shape {
    long long m, n, k;
};

/* "4096" for a cube, else "4096x2048x1024". */
void mmb_report_shape_label(const struct mmb_report_shape *s, char *out, size_t len);
bool mmb_report_shape_parse(const char *text, struct mmb_report_shape *out);

#endif
