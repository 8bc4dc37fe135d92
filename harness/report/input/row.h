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

/* The occupancy a set of rows shows alike: theoretical (theoretical_occupancy_pct, the
 * occupancy API's, which needs no counters) when every row has it, else achieved
 * (occupancy_pct, counted: rows of runs before the theoretical column) when any row
 * has it, else none. */
enum mmb_report_occupancy { MMB_REPORT_OCCUPANCY_NONE, MMB_REPORT_OCCUPANCY_THEORETICAL, MMB_REPORT_OCCUPANCY_ACHIEVED };
enum mmb_report_occupancy mmb_report_row_occupancy_kind(const struct mmb_report_data *d, const size_t *rows, size_t n);
/* The row's occupancy of that kind in %; NaN when it has none. */
double mmb_report_row_occupancy(const struct mmb_report_row *r, enum mmb_report_occupancy kind);
/* "theoretical" or "achieved" ("" for none), for titles and labels. */
const char *mmb_report_row_occupancy_text(enum mmb_report_occupancy kind);

/* Groups the rows rows[0..n) (every row when rows is NULL) by key in O(n log n):
 * group[p] is the group of the row at position p, groups numbered in the order of
 * their first member, and first[g] that member's position (ascending). Both
 * arrays hold n. Returns the number of groups, -1 without memory. */
long mmb_report_row_group(const struct mmb_report_data *d, const size_t *rows, size_t n,
                          int (*key)(const struct mmb_report_row *a, const struct mmb_report_row *b), size_t *group,
                          size_t *first);

#endif
