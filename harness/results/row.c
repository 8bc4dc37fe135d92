/* row.c - one result: an empty row, the columns derived from the others (one set of
 * formulas, for the measurement and for the report's fallbacks), and which rows
 * measure the same problem. */
#include "results/row.h"

#include <math.h>
#include <string.h>

#include "model/library.h"
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

/* 2 m n k, the work the problem needs; NaN when a size is empty (MMB_INT_EMPTY is
 * negative) or not positive. */
static double work_flop(const struct mmb_row *row)
{
    if (row->m <= 0 || row->n <= 0 || row->k <= 0)
        return NAN;
    return 2.0 * (double)row->m * (double)row->n * (double)row->k;
}

/* DRAM bytes read and written; NaN unless both are known. */
static double dram_bytes(const struct mmb_row *row)
{
    if (isfinite(row->dram_read_bytes) && isfinite(row->dram_write_bytes))
        return row->dram_read_bytes + row->dram_write_bytes;
    return NAN;
}

static bool positive(double v)
{
    return isfinite(v) && v > 0.0;
}

/* amount per second of the median time, in giga; NaN without a time or an amount. */
static double giga_per_second(double amount, const struct mmb_row *row)
{
    if (isnan(amount) || !positive(row->time_ms_median))
        return NAN;
    return amount / (row->time_ms_median * 1e-3) / 1e9;
}

static double intensity_of(const struct mmb_row *row)
{
    double work = work_flop(row), bytes = dram_bytes(row);
    return !isnan(work) && positive(bytes) ? work / bytes : NAN;
}

void mmb_row_derive(struct mmb_row *row)
{
    row->gflops = giga_per_second(work_flop(row), row);
    row->flop_counted = NAN;
    if (!isnan(row->ffma) && !isnan(row->fadd) && !isnan(row->fmul))
        row->flop_counted = 2.0 * row->ffma + row->fadd + row->fmul;
    row->intensity = intensity_of(row);
}

double mmb_row_gflops(const struct mmb_row *row)
{
    return positive(row->gflops) ? row->gflops : giga_per_second(work_flop(row), row);
}

double mmb_row_intensity(const struct mmb_row *row)
{
    return positive(row->intensity) ? row->intensity : intensity_of(row);
}

double mmb_row_dram_gbps(const struct mmb_row *row)
{
    return isfinite(row->dram_gbps) ? row->dram_gbps : giga_per_second(dram_bytes(row), row);
}

double mmb_row_dram_pct(const struct mmb_row *row)
{
    double gbps = mmb_row_dram_gbps(row);
    if (isfinite(gbps) && positive(row->peak_gbps))
        return 100.0 * gbps / row->peak_gbps;
    return row->dram_util_pct;
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

const char *mmb_row_reference_kernel(void)
{
    return mmb_library_reference()->name;
}
