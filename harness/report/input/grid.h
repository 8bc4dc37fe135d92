/* grid.h - a kernel's tuning landscape at one size, as a table of cells: with two
 * parameters, one per axis; with more, the configurations the space allows (the
 * profile's restrictions leave out the rest) as rows of the other parameters'
 * values against the one parameter that leaves the fewest cells empty, so that
 * every cell is a configuration that ran or failed, none a restricted one. */
#ifndef MMB_REPORT_GRID_H
#define MMB_REPORT_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "report/input/data.h"

#define MMB_REPORT_GRID_MAX 24
struct mmb_report_grid {
    char xname[MMB_REPORT_NAME_MAX];  /* the column parameter */
    char yname[128];                  /* the row parameter, or the short names of the rows' ("bx, by, ty") */
    double xs[MMB_REPORT_GRID_MAX];
    char ylabels[MMB_REPORT_GRID_MAX][64]; /* "16", or "32, 4, 8" */
    size_t nx, ny, cells;
    double ms[MMB_REPORT_GRID_MAX][MMB_REPORT_GRID_MAX]; /* [y][x], NaN when not measured */
    const char *why[MMB_REPORT_GRID_MAX][MMB_REPORT_GRID_MAX]; /* status text of a failed cell */
    size_t best_x, best_y;
    char legend[256];         /* "bx = block_size_x, ...", "" with two parameters */
    size_t best_row;          /* the fastest ok row of the grid */
    size_t profile;           /* the grid's rows are of this profile */
    size_t failed;            /* cells that are not ok */
    size_t restricted;        /* configurations of the slice the restrictions removed */
};

/* Returns true and fills g when the kernel (of the story, on that GPU at that shape)
 * has a grid of at least four ok cells. The cells are the rows of one profile: the
 * one with the most configurations of it there (a tuning run's rather than the
 * story's few), the main profile first of equals. */
bool mmb_report_grid_build(const struct mmb_report_data *d, size_t gpu, size_t kernel, size_t shape,
                           struct mmb_report_grid *g);

#endif
