/* grid.h - a kernel's tuning landscape: its median time over the two parameters
 * that vary the most, at one size, the others held at the fastest configuration's
 * values. */
#ifndef MMB_REPORT_GRID_H
#define MMB_REPORT_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "report/data.h"

/* A kernel's time over two of its parameters at one shape: the two that vary the
 * most, the others held at the best configuration's values. */
#define MMB_REPORT_GRID_MAX 24
struct mmb_report_grid {
    char xname[MMB_REPORT_NAME_MAX], yname[MMB_REPORT_NAME_MAX];
    double xs[MMB_REPORT_GRID_MAX], ys[MMB_REPORT_GRID_MAX];
    size_t nx, ny, cells;
    double ms[MMB_REPORT_GRID_MAX][MMB_REPORT_GRID_MAX]; /* [y][x], NaN when not measured */
    const char *why[MMB_REPORT_GRID_MAX][MMB_REPORT_GRID_MAX]; /* status text of a failed cell */
    size_t best_x, best_y;
    char fixed[256];          /* the other parameters, "" when none */
    size_t best_row;          /* overall best row of the kernel at that shape */
    size_t failed;            /* cells of the slice that are not ok */
};

/* Returns true and fills g when the kernel has a grid of at least four ok cells. */
bool mmb_report_grid_build(const struct mmb_report_data *d, size_t gpu, size_t kernel, size_t shape,
                           struct mmb_report_grid *g);

#endif
