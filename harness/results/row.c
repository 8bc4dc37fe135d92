/* row.c - one result: an empty row, the columns derived from the others (one set of
 * formulas, for the measurement and for the report's fallbacks), and which rows
 * measure the same problem. */
#include "results/row.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "model/library.h"
#include "results/columns.h"
#include "results/limiter.h"
#include "results/peaks.h"

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

/* The compulsory bytes of the problem: A and B in the input type, C in the output
 * type, once each (nvbench's declared global memory reads and writes in seed 004);
 * NaN for an unknown dtype. */
static double compulsory_bytes(const struct mmb_row *row)
{
    enum mmb_dtype t;
    if (isnan(work_flop(row)) || !mmb_dtype_parse(row->dtype, &t))
        return NAN;
    const struct mmb_dtype_info *d = mmb_dtype_info(t);
    double m = (double)row->m, n = (double)row->n, k = (double)row->k;
    return (m * k + k * n) * (double)d->size + m * n * (double)mmb_format_info(d->out)->size;
}

static double percent_of(double v, double peak)
{
    return isfinite(v) && positive(peak) ? 100.0 * v / peak : NAN;
}

bool mmb_row_pipe(const struct mmb_row *row, enum mmb_pipe *pipe)
{
    enum mmb_dtype t;
    if (row->pipe[0])
        return mmb_pipe_parse(row->pipe, pipe);
    if (!mmb_dtype_parse(row->dtype, &t))
        return false;
    /* written before the pipe column (f32, f64, i32: the CUDA cores' pipes) */
    *pipe = mmb_dtype_info(t)->pipe;
    return true;
}

/* The limiter kind of the row's pipe; FP32 when the pipe is unknown. */
static enum mmb_limiter_kind pipe_kind(const struct mmb_row *row)
{
    enum mmb_pipe pipe;
    const struct mmb_limiter *pl = mmb_row_pipe(row, &pipe) ? mmb_limiter_parse(mmb_pipe_info(pipe)->limiter) : NULL;
    return pl ? pl->value : MMB_LIMITER_FP32;
}

static bool bound_of(const struct mmb_row *row, double pipe_pct, struct mmb_row_bound *b)
{
    const struct {
        enum mmb_limiter_kind kind;
        double pct;
        bool required;
    } units[] = {{pipe_kind(row), pipe_pct, true},
                 {MMB_LIMITER_ISSUE, row->issue_pct, false},
                 {MMB_LIMITER_L1, row->l1_util_pct, true},
                 {MMB_LIMITER_L2, row->l2_util_pct, true},
                 {MMB_LIMITER_DRAM, row->dram_util_pct, true}};
    size_t best = 0;
    double sm_rivals = pipe_pct; /* what sm_util_pct includes and must exceed to be named */
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (!isfinite(units[i].pct)) {
            if (units[i].required)
                return false;
            continue;
        }
        if (units[i].kind == MMB_LIMITER_ISSUE)
            sm_rivals = fmax(sm_rivals, units[i].pct);
        if (units[i].pct > units[best].pct)
            best = i;
    }
    b->unit = units[best].kind;
    b->pct = units[best].pct;
    if (isfinite(row->sm_util_pct) && row->sm_util_pct > b->pct && row->sm_util_pct > sm_rivals + MMB_LIMITER_SM_MARGIN) {
        b->unit = MMB_LIMITER_SM;
        b->pct = row->sm_util_pct;
    }
    b->verdict = b->pct >= MMB_LIMITER_NEAR_PEAK ? b->unit : MMB_LIMITER_LATENCY;
    return true;
}

static void limiter_of(const struct mmb_row *row, double pipe_pct, char *out, size_t len)
{
    struct mmb_row_bound b;
    out[0] = '\0';
    if (bound_of(row, pipe_pct, &b))
        snprintf(out, len, "%s", mmb_limiter_info(b.verdict)->text);
}

void mmb_row_derive(struct mmb_row *row)
{
    row->gflops = giga_per_second(work_flop(row), row);
    row->flop_counted = NAN;
    if (!isnan(row->ffma) && !isnan(row->fadd) && !isnan(row->fmul))
        row->flop_counted = 2.0 * row->ffma + row->fadd + row->fmul;
    row->intensity = intensity_of(row);
    /* the device gives its FP32 peak; the row's pipe may be another. A row derived
     * before (timed, then counted under counters = best) holds its pipe's peak already:
     * scaled from the FP32 peak again, not from itself. */
    enum mmb_pipe pipe;
    double fp32_peak = mmb_row_fp32_peak(row);
    row->peak_gflops = mmb_row_pipe(row, &pipe) ? mmb_pipe_peak(fp32_peak, row->cc, pipe, row->gpu) : NAN;
    row->pipe_pct = percent_of(row->gflops, row->peak_gflops);
    row->fp32_pct = row->pipe_pct;
    row->declared_gbps = giga_per_second(compulsory_bytes(row), row);
    row->declared_bw_pct = percent_of(row->declared_gbps, row->peak_gbps);
    limiter_of(row, row->pipe_pct, row->limiter, sizeof row->limiter);
    row->gflops_per_watt = positive(row->energy_j) && !isnan(work_flop(row)) ? work_flop(row) / row->energy_j / 1e9
                                                                            : NAN;
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

double mmb_row_pipe_peak(const struct mmb_row *row)
{
    enum mmb_pipe pipe;
    if (isfinite(row->pipe_pct) || isfinite(row->fp32_pct))
        return row->peak_gflops;
    return mmb_row_pipe(row, &pipe) ? mmb_pipe_peak(row->peak_gflops, row->cc, pipe, row->gpu) : NAN;
}

double mmb_row_fp32_peak(const struct mmb_row *row)
{
    enum mmb_pipe pipe;
    if (!(isfinite(row->pipe_pct) || isfinite(row->fp32_pct)))
        return row->peak_gflops; /* not derived: the device's FP32 peak as filled in */
    if (!mmb_row_pipe(row, &pipe))
        return NAN;
    double one = mmb_pipe_peak(1.0, row->cc, pipe, row->gpu);
    return isfinite(one) && one > 0.0 ? row->peak_gflops / one : NAN;
}

double mmb_row_pipe_pct(const struct mmb_row *row)
{
    if (isfinite(row->pipe_pct))
        return row->pipe_pct;
    return isfinite(row->fp32_pct) ? row->fp32_pct : percent_of(mmb_row_gflops(row), mmb_row_pipe_peak(row));
}

double mmb_row_fp32_pct(const struct mmb_row *row)
{
    return mmb_row_pipe_pct(row);
}

double mmb_row_declared_gbps(const struct mmb_row *row)
{
    return positive(row->declared_gbps) ? row->declared_gbps : giga_per_second(compulsory_bytes(row), row);
}

double mmb_row_declared_pct(const struct mmb_row *row)
{
    return isfinite(row->declared_bw_pct) ? row->declared_bw_pct
                                          : percent_of(mmb_row_declared_gbps(row), row->peak_gbps);
}

double mmb_row_compulsory_bytes(const struct mmb_row *row)
{
    return compulsory_bytes(row);
}

bool mmb_row_bound(const struct mmb_row *row, struct mmb_row_bound *bound)
{
    return bound_of(row, mmb_row_pipe_pct(row), bound);
}

double mmb_row_unit_pct(const struct mmb_row *row, enum mmb_limiter_kind unit)
{
    switch (unit) {
    case MMB_LIMITER_ISSUE:
        return row->issue_pct;
    case MMB_LIMITER_SM:
        return row->sm_util_pct;
    case MMB_LIMITER_L1:
        return row->l1_util_pct;
    case MMB_LIMITER_L2:
        return row->l2_util_pct;
    case MMB_LIMITER_DRAM:
        return row->dram_util_pct;
    case MMB_LIMITER_LATENCY:
    case MMB_LIMITER_COUNT:
        return NAN;
    default:
        return unit == pipe_kind(row) ? mmb_row_pipe_pct(row) : NAN;
    }
}

const char *mmb_row_limiter(const struct mmb_row *row, char *buf, size_t len)
{
    limiter_of(row, mmb_row_pipe_pct(row), buf, len);
    return buf[0] ? buf : row->limiter;
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

void mmb_row_key(const struct mmb_row *row, bool with_device, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const struct mmb_column *c = mmb_columns; c->name && o < len; c++) {
        if (c->role != MMB_ROLE_KEY && c->role != MMB_ROLE_CONFIG && !(with_device && c->role == MMB_ROLE_DEVICE))
            continue;
        char cell[512];
        mmb_column_format(c, row, cell, sizeof cell);
        int w = snprintf(out + o, len - o, "%s\x1f", cell);
        if (w < 0)
            break;
        o += (size_t)w;
    }
}

const char *mmb_row_reference_kernel(void)
{
    return mmb_library_reference()->name;
}
