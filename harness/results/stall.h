/* stall.h - why warps wait: the warp-stall reasons a row carries (the stall_ counter
 * columns, Nsight Compute's Warp State Statistics), named once, and a row's largest. */
#ifndef MMB_STALL_H
#define MMB_STALL_H

#include <stddef.h>

#include "results/row_fields.h"

struct mmb_stall {
    const char *column;  /* stall_long_scoreboard */
    const char *name;    /* as ncu names it: "Long Scoreboard" */
    const char *meaning; /* "waiting for global memory" */
    size_t offset;       /* offsetof(struct mmb_row, column's field): a double */
};

/* The reasons in the column table's order, ending with a NULL column sentinel. */
extern const struct mmb_stall mmb_stall_table[];

/* NULL when column names no stall reason. */
const struct mmb_stall *mmb_stall_find(const char *column);

struct mmb_stall_value {
    const struct mmb_stall *stall;
    double cycles; /* warp cycles per issued instruction spent in it */
};

/* The row's stall reasons with a value, largest first (the table's order on ties), at
 * most max of them into out; returns how many. 0 for a row without stall counters. */
size_t mmb_row_stalls_top(const struct mmb_row *row, struct mmb_stall_value *out, size_t max);

#endif
