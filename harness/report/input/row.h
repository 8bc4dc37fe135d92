/* row.h - the values of a report row that figures and tables need, and rows grouped
 * by a key. */
#ifndef MMB_REPORT_ROW_H
#define MMB_REPORT_ROW_H

#include <stdbool.h>

#include "report/input/data.h"

/* Values a figure needs, from the row's column or derived from others; NaN when
 * neither can be had. */
double mmb_report_row_gflops(const struct mmb_report_row *r);
double mmb_report_row_intensity(const struct mmb_report_row *r);
double mmb_report_row_dram_gbps(const struct mmb_report_row *r);
double mmb_report_row_dram_pct(const struct mmb_report_row *r); /* of peak_gbps, else dram_util_pct */
bool mmb_report_row_has_util(const struct mmb_report_row *r);
bool mmb_report_row_has_bandwidth(const struct mmb_report_row *r);
bool mmb_report_row_has_roofline(const struct mmb_report_row *r);

/* Groups the rows rows[0..n) (every row when rows is NULL) by key in O(n log n):
 * group[p] is the group of the row at position p, groups numbered in the order of
 * their first member, and first[g] that member's position (ascending). Both
 * arrays hold n. Returns the number of groups, -1 without memory. */
long mmb_report_row_group(const struct mmb_report_data *d, const size_t *rows, size_t n,
                          int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t *group,
                          size_t *first);

#endif
