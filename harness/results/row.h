/* row.h - one result (struct mmb_row, in row_fields.h): an empty row, the derived
 * columns, which rows measure the same problem, and values with fallbacks. */
#ifndef MMB_ROW_H
#define MMB_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/dtype.h"
#include "results/limiter.h"
#include "results/row_fields.h"

/* Sets every cell empty; status ok, counter_status skipped. */
void mmb_row_init(struct mmb_row *row);

/* Fills the derived columns from the others; empty (NaN, "") whatever lacks an input:
 *   gflops          = 2 m n k / (time_ms_median 1e-3) / 1e9
 *   flop_counted    = 2 ffma + fadd + fmul                    (counted FP32 work)
 *   intensity       = 2 m n k / (dram_read_bytes + dram_write_bytes)
 *   peak_gflops     = the device's FP32 peak, as the caller filled it in, scaled to
 *                     the row's pipe (the pipe column; without one the CUDA cores'
 *                     pipe of the dtype: FP32, FP64 for f64, INT32 for i32;
 *                     results/peaks.h)
 *   pipe_pct        = 100 gflops / peak_gflops
 *   fp32_pct        = pipe_pct (its name before pipe_pct, kept for older readers)
 *   declared_gbps   = (m k + k n + m n) x element size / median time (nvbench's
 *                     GlobalMem BW of seed 004: compulsory bytes, not measured ones)
 *   declared_bw_pct = 100 declared_gbps / peak_gbps (nvbench's BWUtil)
 *   limiter         = mmb_row_bound's verdict, as limiter.h names it: the busiest
 *                     unit if at MMB_LIMITER_NEAR_PEAK or above, else latency; ""
 *                     unless pipe_pct, l1_util_pct, l2_util_pct and dram_util_pct
 *                     are known
 * intensity uses 2 m n k, not flop_counted, so that the roofline places every kernel
 * by the work the problem needs, the same for every kernel of a size: one that wastes
 * FLOPs (padding, recomputed tiles) gains no intensity from the waste, and rows
 * without FP32 counters (set `memory`) still have one. Call it once per row: it
 * scales peak_gflops. A row that has pipe_pct or fp32_pct thus carries its pipe's
 * peak. */
void mmb_row_derive(struct mmb_row *row);

/* The row's pipe: its pipe cell, else its dtype's (rows written before that column
 * are f32, f64 and i32, on the CUDA cores' pipes); false for an unknown pipe or dtype. */
bool mmb_row_pipe(const struct mmb_row *row, enum mmb_pipe *pipe);

/* Values the report needs: the row's cell when it holds one (positive for gflops
 * and intensity, finite for dram_gbps), else derived from the others with
 * mmb_row_derive's formulas, for rows that lack the column (older files, published
 * rows); NaN when neither can be had. dram_pct is dram_gbps as a percentage of
 * peak_gbps, else the dram_util_pct cell. */
double mmb_row_gflops(const struct mmb_row *row);
double mmb_row_intensity(const struct mmb_row *row);
double mmb_row_dram_gbps(const struct mmb_row *row);
double mmb_row_dram_pct(const struct mmb_row *row);
/* The peak of the row's pipe: peak_gflops in a row that has pipe_pct or fp32_pct
 * (derived), else peak_gflops scaled from FP32 to the row's pipe, because older rows
 * carry the FP32 peak whatever their dtype. */
double mmb_row_pipe_peak(const struct mmb_row *row);
/* The device's FP32 peak, whatever the row's pipe: what a GPU's peak_gflops means
 * when rows of several pipes are read together. */
double mmb_row_fp32_peak(const struct mmb_row *row);
/* The use of the row's pipe: pipe_pct, else fp32_pct (older files), else derived. */
double mmb_row_pipe_pct(const struct mmb_row *row);
/* mmb_row_pipe_pct, under the name the report knows it by. */
double mmb_row_fp32_pct(const struct mmb_row *row);
double mmb_row_declared_gbps(const struct mmb_row *row);
double mmb_row_declared_pct(const struct mmb_row *row);
/* (m k + k n + m n) x element size; NaN without sizes or a known dtype. */
double mmb_row_compulsory_bytes(const struct mmb_row *row);
/* What bounds a kernel, by Nsight Compute's Speed-of-Light rule: the busiest of the
 * row's pipe (pipe_pct, as the pipe table's limiter names it: fp32, fp64, int32,
 * tensor), the SM's issue rate (issue_pct), L1, L2 and DRAM throughput, in that order
 * on ties; the busiest SM unit (sm_util_pct) in their stead when it exceeds the pipe
 * and the issue rate by more than MMB_LIMITER_SM_MARGIN points. issue_pct and
 * sm_util_pct count where known (older files lack the issue rate); the other four
 * must be. verdict is unit when its pct is at least MMB_LIMITER_NEAR_PEAK, else
 * MMB_LIMITER_LATENCY. False when a required level is unknown. */
struct mmb_row_bound {
    enum mmb_limiter_kind unit;    /* the busiest unit */
    double pct;                    /* its use, percent of its peak */
    enum mmb_limiter_kind verdict; /* unit, or MMB_LIMITER_LATENCY */
};
bool mmb_row_bound(const struct mmb_row *row, struct mmb_row_bound *bound);
/* A unit's use in percent of its peak (the pipe's kinds: pipe_pct when the row runs
 * on that pipe); NaN unknown or for MMB_LIMITER_LATENCY. */
double mmb_row_unit_pct(const struct mmb_row *row, enum mmb_limiter_kind unit);
/* The verdict of mmb_row_bound as text, computed into buf (len >= 8) from the
 * counters, else the row's limiter cell (a file whose counters were left out), else "". */
const char *mmb_row_limiter(const struct mmb_row *row, char *buf, size_t len);

/* True when a and b measure the same problem: every key column (kernel, dtype, m,
 * n, k, cache) equal; the configuration may differ. The rows of one tune. */
bool mmb_row_same_problem(const struct mmb_row *a, const struct mmb_row *b);
/* The row's key as text: the cells of the key and config columns (kernel, params,
 * dtype, m, n, k, cache), and with_device the device's (gpu_uuid), each followed by
 * \x1f (unit separator), which occurs in no name, params or dtype, so that joined
 * cells cannot collide. One row per key in a file (results/csv.h). MMB_ROW_KEY_LEN
 * holds any. */
#define MMB_ROW_KEY_LEN 1024
void mmb_row_key(const struct mmb_row *row, bool with_device, char *out, size_t len);

/* The name the reference library's rows carry in the kernel column ("cublas"), from
 * the library table, for readers of results that cannot see the model. */
const char *mmb_row_reference_kernel(void);

#endif
