/* row.c - one result: an empty row, the columns derived from the others, and which
 * rows measure the same problem. */
#include "results/row.h"

#include <math.h>
#include <string.h>

#include "results/columns.h"

void mmb_row_init(struct mmb_row *row)
{
    memset(row, 0, sizeof *row);
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        void *p = (char *)row + c->offset;
        if (c->type == MMB_COL_INT)
            *(long long *)p = MMB_INT_EMPTY;
        else if (c->type == MMB_COL_REAL)
            *(double *)p = NAN;
    }
    row->status = MMB_STATUS_OK;
    row->counter_status = MMB_STATUS_SKIPPED;
}

static bool int_empty(long long v)
{
    return v == MMB_INT_EMPTY || v <= 0;
}

void mmb_row_derive(struct mmb_row *row)
{
    double work = NAN;
    if (!int_empty(row->m) && !int_empty(row->n) && !int_empty(row->k))
        work = 2.0 * (double)row->m * (double)row->n * (double)row->k;

    row->gflops = NAN;
    if (!isnan(work) && isfinite(row->time_ms_median) && row->time_ms_median > 0.0)
        row->gflops = work / (row->time_ms_median * 1e-3) / 1e9;

    row->flop_counted = NAN;
    if (!isnan(row->ffma) && !isnan(row->fadd) && !isnan(row->fmul))
        row->flop_counted = 2.0 * row->ffma + row->fadd + row->fmul;

    row->intensity = NAN;
    double bytes = row->dram_read_bytes + row->dram_write_bytes; /* NaN when either is */
    if (!isnan(work) && isfinite(bytes) && bytes > 0.0)
        row->intensity = work / bytes;
}

static bool cell_equal(const struct mmb_column *c, const struct mmb_row *a, const struct mmb_row *b)
{
    const void *pa = (const char *)a + c->offset, *pb = (const char *)b + c->offset;
    switch (c->type) {
    case MMB_COL_STR:
        return strcmp(pa, pb) == 0;
    case MMB_COL_INT:
        return *(const long long *)pa == *(const long long *)pb;
    case MMB_COL_REAL: {
        double x = *(const double *)pa, y = *(const double *)pb;
        return x == y || (isnan(x) && isnan(y));
    }
    case MMB_COL_STATUS:
        return *(const enum mmb_status *)pa == *(const enum mmb_status *)pb;
    }
    return false;
}

bool mmb_row_same_problem(const struct mmb_row *a, const struct mmb_row *b)
{
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (c->role == MMB_ROLE_KEY && !cell_equal(c, a, b))
            return false;
    return true;
}
