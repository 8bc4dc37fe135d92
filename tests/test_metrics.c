/* test_metrics.c - the metric table is consistent with the column table, metric sets
 * parse (and unknown names get close matches), and the derived columns and the
 * report's fallbacks (results/row.h) compute what they promise. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "results/columns.h"
#include "results/metrics.h"
#include "results/peaks.h"
#include "results/row.h"

static bool real_close(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(1.0, fabs(b));
}

/* A row whose counter and derived cells are empty, as row.h defines empty. */
static void row_empty(struct mmb_row *row)
{
    memset(row, 0, sizeof *row);
    row->m = row->n = row->k = MMB_INT_EMPTY;
    row->time_ms_median = NAN;
    for (const struct mmb_metric *m = mmb_metrics; m->cupti; m++)
        if (m->column)
            *mmb_metric_field(row, m) = NAN;
    row->gflops = row->flop_counted = row->intensity = NAN;
    row->pipe_pct = row->fp32_pct = NAN; /* not derived yet, as mmb_row_init leaves a row */
}

START_TEST(test_table_consistent)
{
    size_t n = mmb_metrics_count();
    ck_assert_uint_ge(n, 13);
    ck_assert_uint_le(n, MMB_METRIC_MAX);
    ck_assert_str_eq(mmb_metrics[MMB_METRIC_DURATION].cupti, "gpu__time_duration.sum");
    ck_assert_ptr_null(mmb_metrics[MMB_METRIC_DURATION].column);

    size_t first = offsetof(struct mmb_row, dram_read_bytes);
    size_t last = offsetof(struct mmb_row, stall_lg_throttle);
    for (size_t i = 0; i < n; i++) {
        const struct mmb_metric *a = &mmb_metrics[i];
        ck_assert_msg(strchr(a->cupti, '.') != NULL, "%s lacks its roll-up suffix", a->cupti);
        ck_assert(a->cupti_unit && strlen(a->cupti_unit) > 0);
        ck_assert(a->scale > 0.0);
        ck_assert_ptr_eq(mmb_metric_find(a->cupti), a);
        if (a->column) {
            /* the field is one of row.h's counter doubles, and the column is named as it */
            ck_assert_uint_ge(a->offset, first);
            ck_assert_uint_le(a->offset, last);
            ck_assert_uint_eq(a->offset % sizeof(double), 0);
            ck_assert_uint_le(a->offset + sizeof(double), sizeof(struct mmb_row));
            ck_assert_ptr_eq(mmb_metric_find(a->column), a);
            /* the column table describes it: a real counter column at the same field */
            const struct mmb_column *c = mmb_column_find(a->column);
            ck_assert_msg(c && c->role == MMB_ROLE_COUNTER && c->type == MMB_COL_REAL, "%s", a->column);
            ck_assert_uint_eq(c->offset, a->offset);
            ck_assert(c->unit && strlen(c->description) > 0);
        }
        for (size_t j = i + 1; j < n; j++) {
            const struct mmb_metric *b = &mmb_metrics[j];
            ck_assert_str_ne(a->cupti, b->cupti);
            if (a->column && b->column) {
                ck_assert_str_ne(a->column, b->column);
                ck_assert_uint_ne(a->offset, b->offset);
            }
        }
    }
    /* every counter field of the row has a metric */
    size_t columns = 0;
    for (size_t i = 0; i < n; i++)
        columns += mmb_metrics[i].column != NULL;
    ck_assert_uint_eq(columns, (last - first) / sizeof(double) + 1);
    /* and every real counter column has one */
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (c->role == MMB_ROLE_COUNTER && c->type == MMB_COL_REAL)
            ck_assert_msg(mmb_metric_find(c->name) && mmb_metric_find(c->name)->column, "%s", c->name);
}
END_TEST

START_TEST(test_field_by_offset)
{
    struct mmb_row row;
    row_empty(&row);
    *mmb_metric_field(&row, mmb_metric_find("dram_gbps")) = 1.5;
    *mmb_metric_field(&row, mmb_metric_find("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")) = 7;
    *mmb_metric_field(&row, mmb_metric_find("occupancy_pct")) = 50;
    ck_assert(row.dram_gbps == 1.5);
    ck_assert(row.ffma == 7);
    ck_assert(row.occupancy_pct == 50);
    ck_assert_ptr_null(mmb_metric_field(&row, &mmb_metrics[MMB_METRIC_DURATION]));
    ck_assert(real_close(mmb_metric_find("dram_gbps")->scale, 1e-9)); /* CUPTI: byte/second */
}
END_TEST

static bool set_has_name(const struct mmb_metric_set *set, const char *name)
{
    const struct mmb_metric *m = mmb_metric_find(name);
    ck_assert_msg(m != NULL, "%s", name);
    return mmb_metric_set_has(set, (size_t)(m - mmb_metrics));
}

START_TEST(test_named_sets)
{
    struct mmb_metric_set set;
    char err[256];
    ck_assert_int_eq(mmb_metric_set_parse("default", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), mmb_metrics_count() - 1);
    ck_assert(!mmb_metric_set_has(&set, MMB_METRIC_DURATION));
    struct mmb_metric_set null_text;
    ck_assert_int_eq(mmb_metric_set_parse(NULL, &null_text, err, sizeof err), 0);
    ck_assert_uint_eq(null_text.count, set.count);
    ck_assert_mem_eq(null_text.index, set.index, set.count);

    ck_assert_int_eq(mmb_metric_set_parse("memory", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 8);
    const char *memory[] = {"dram_read_bytes", "dram_write_bytes", "dram_gbps", "dram_util_pct",
                            "l1_hit_pct", "l2_hit_pct", "l1_bytes", "l2_bytes"};
    for (size_t i = 0; i < 8; i++)
        ck_assert_msg(set_has_name(&set, memory[i]), "memory lacks %s", memory[i]);

    ck_assert_int_eq(mmb_metric_set_parse("compute", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 7);
    const char *compute[] = {"sm_util_pct", "occupancy_pct", "smem_bank_conflicts", "tensor_pct", "tensor_inst",
                             "issue_pct", "smem_wavefronts"};
    for (size_t i = 0; i < 7; i++)
        ck_assert_msg(set_has_name(&set, compute[i]), "compute lacks %s", compute[i]);

    /* the instrumented FP32 instruction counts, apart: their pass runs the kernel slower */
    ck_assert_int_eq(mmb_metric_set_parse("instructions", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 3);
    ck_assert(set_has_name(&set, "ffma") && set_has_name(&set, "fadd") && set_has_name(&set, "fmul"));
    for (size_t i = 0; i < set.count; i++)
        ck_assert_msg(strncmp(mmb_metrics[set.index[i]].cupti, "smsp__sass_", 11) == 0, "%s",
                      mmb_metrics[set.index[i]].cupti);

    ck_assert_int_eq(mmb_metric_set_parse("tensor", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 2);
    ck_assert(set_has_name(&set, "tensor_pct") && set_has_name(&set, "tensor_inst"));

    /* the warp-stall reasons and their total, nothing else */
    ck_assert_int_eq(mmb_metric_set_parse("stalls", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 9);
    ck_assert(set_has_name(&set, "warp_cycles_per_issue") && set_has_name(&set, "stall_long_scoreboard") &&
              set_has_name(&set, "stall_barrier") && !set_has_name(&set, "issue_pct"));
    for (size_t i = 0; i < set.count; i++)
        ck_assert_msg(strncmp(mmb_metrics[set.index[i]].cupti, "smsp__average_warp", 18) == 0, "%s",
                      mmb_metrics[set.index[i]].cupti);

    struct mmb_metric_set all;
    ck_assert_int_eq(mmb_metric_set_parse(" memory , compute, stalls, instructions, l1_util_pct, l2_util_pct ", &all, err,
                                           sizeof err), 0);
    ck_assert_int_eq(mmb_metric_set_parse("default", &set, err, sizeof err), 0);
    ck_assert_uint_eq(all.count, set.count);
    for (size_t i = 0; i < all.count; i++)
        ck_assert(mmb_metric_set_has(&set, all.index[i]));

    ck_assert_int_eq(mmb_metric_set_parse("none", &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 0);
}
END_TEST

START_TEST(test_explicit_list)
{
    struct mmb_metric_set set;
    char err[256];
    ck_assert_int_eq(mmb_metric_set_parse("dram_gbps,lts__t_sector_hit_rate.pct, ffma,dram_gbps",
                                          &set, err, sizeof err), 0);
    ck_assert_uint_eq(mmb_metric_set_size(&set), 3);
    ck_assert_str_eq(mmb_metrics[set.index[0]].column, "dram_gbps"); /* in the order named */
    ck_assert_str_eq(mmb_metrics[set.index[1]].column, "l2_hit_pct");
    ck_assert(set_has_name(&set, "dram_gbps"));
    ck_assert(set_has_name(&set, "l2_hit_pct"));
    ck_assert(set_has_name(&set, "ffma"));
    ck_assert_int_eq(mmb_metric_set_parse("gpu__time_duration.sum", &set, err, sizeof err), 0);
    ck_assert(mmb_metric_set_has(&set, MMB_METRIC_DURATION));
}
END_TEST

START_TEST(test_unknown_names)
{
    struct mmb_metric_set set;
    char err[256];
    ck_assert_int_eq(mmb_metric_set_parse("dram_gpbs", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "'dram_gpbs'") && strstr(err, "did you mean dram_gbps"), "%s", err);

    ck_assert_int_eq(mmb_metric_set_parse("memory,dram__bytes_read", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "dram__bytes_read.sum"), "%s", err);
    ck_assert_uint_eq(set.count, 0);

    ck_assert_int_eq(mmb_metric_set_parse("defualt", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "did you mean default"), "%s", err);

    ck_assert_int_eq(mmb_metric_set_parse("L2_HIT_PCT", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "l2_hit_pct"), "%s", err);

    ck_assert_int_eq(mmb_metric_set_parse("qwertyuiop", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "expected default, memory, compute, tensor, stalls, instructions, none"), "%s", err);

    ck_assert_int_eq(mmb_metric_set_parse("ffma,,fadd", &set, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "empty name"), "%s", err);
    ck_assert_int_eq(mmb_metric_set_parse("", &set, err, sizeof err), -1);
}
END_TEST

START_TEST(test_derive_known_inputs)
{
    struct mmb_row row;
    row_empty(&row);
    row.m = 1024, row.n = 2048, row.k = 512;
    row.time_ms_median = 0.5;
    row.ffma = 1024.0 * 2048 * 512; /* an FMA-only kernel: one FFMA per multiply-add */
    row.fadd = 10, row.fmul = 6;
    row.dram_read_bytes = 4.0 * (1024 * 512 + 512 * 2048);
    row.dram_write_bytes = 4.0 * 1024 * 2048;
    mmb_row_derive(&row);

    double work = 2.0 * 1024 * 2048 * 512;
    ck_assert(real_close(row.gflops, work / 0.5e-3 / 1e9)); /* 4294.967296 */
    ck_assert(real_close(row.gflops, 4294.967296));
    ck_assert(real_close(row.flop_counted, work + 16));
    ck_assert(real_close(row.intensity, work / (4.0 * (524288 + 1048576 + 2097152))));
}
END_TEST

START_TEST(test_derive_empty_inputs)
{
    struct mmb_row row;
    row_empty(&row);
    row.m = 256, row.n = 256, row.k = 256;
    row.time_ms_median = 0.25;
    mmb_row_derive(&row); /* profiling denied: no counters */
    ck_assert(real_close(row.gflops, 2.0 * 256 * 256 * 256 / 0.25e-3 / 1e9));
    ck_assert(isnan(row.flop_counted));
    ck_assert(isnan(row.intensity));

    row.ffma = 100, row.fadd = 1; /* fmul empty: no partial sum */
    row.dram_read_bytes = 0, row.dram_write_bytes = 0; /* all in L2: no false infinity */
    mmb_row_derive(&row);
    ck_assert(isnan(row.flop_counted));
    ck_assert(isnan(row.intensity));

    row.time_ms_median = NAN; /* not timed */
    row.dram_read_bytes = 1e6, row.dram_write_bytes = NAN;
    mmb_row_derive(&row);
    ck_assert(isnan(row.gflops));
    ck_assert(isnan(row.intensity));

    row.m = MMB_INT_EMPTY, row.time_ms_median = 1.0, row.dram_write_bytes = 1e6;
    mmb_row_derive(&row);
    ck_assert(isnan(row.gflops));
    ck_assert(isnan(row.intensity));
}
END_TEST

START_TEST(test_fallbacks)
{
    struct mmb_row row;
    row_empty(&row);
    row.dram_gbps = row.dram_util_pct = row.peak_gbps = NAN;
    row.m = 1024, row.n = 1024, row.k = 1024;
    row.time_ms_median = 2.0;
    row.ffma = 3.0 * 1024 * 1024 * 1024, row.fadd = 0, row.fmul = 0; /* a kernel that wastes FLOPs */
    row.flop_counted = 6.0 * 1024 * 1024 * 1024;
    row.dram_read_bytes = 3e6, row.dram_write_bytes = 1e6;
    double work = 2.0 * 1024 * 1024 * 1024;

    /* a row without the derived cells (an older file): the same formulas as mmb_row_derive */
    ck_assert(real_close(mmb_row_gflops(&row), work / 2e-3 / 1e9));
    ck_assert(real_close(mmb_row_intensity(&row), work / 4e6)); /* 2 m n k, not flop_counted */
    ck_assert(real_close(mmb_row_dram_gbps(&row), 4e6 / 2e-3 / 1e9));
    ck_assert(isnan(mmb_row_dram_pct(&row)));
    row.peak_gbps = 4.0;
    ck_assert(real_close(mmb_row_dram_pct(&row), 50.0));
    struct mmb_row derived = row;
    mmb_row_derive(&derived);
    ck_assert(derived.gflops == mmb_row_gflops(&row) && derived.intensity == mmb_row_intensity(&row));

    /* a cell that holds a value wins */
    row.gflops = 7.0, row.intensity = 8.0, row.dram_gbps = 1.0;
    ck_assert(mmb_row_gflops(&row) == 7.0 && mmb_row_intensity(&row) == 8.0 && mmb_row_dram_gbps(&row) == 1.0);
    ck_assert(real_close(mmb_row_dram_pct(&row), 25.0));
    row.peak_gbps = NAN, row.dram_util_pct = 33.0;
    ck_assert(mmb_row_dram_pct(&row) == 33.0);

    /* nothing to derive from */
    row_empty(&row);
    row.dram_gbps = NAN;
    ck_assert(isnan(mmb_row_gflops(&row)) && isnan(mmb_row_intensity(&row)) && isnan(mmb_row_dram_gbps(&row)));
}
END_TEST

/* The columns of the Speed-of-Light view: each pipe's use against its own peak, nvbench's
 * declared bandwidth, and the limiter. */
START_TEST(test_derive_pipe_and_limiter)
{
    struct mmb_row row;
    row_empty(&row);
    snprintf(row.cc, sizeof row.cc, "9.0");
    snprintf(row.dtype, sizeof row.dtype, "f32");
    row.m = row.n = row.k = 4096;
    row.time_ms_median = 21.41;
    row.peak_gflops = 66908.16, row.peak_gbps = 3352.32;
    row.l1_util_pct = 80.0, row.l2_util_pct = 30.0, row.dram_util_pct = 6.0;
    mmb_row_derive(&row);
    double gflops = 2.0 * 4096 * 4096 * 4096 / 21.41e-3 / 1e9; /* 6419 */
    ck_assert(real_close(row.peak_gflops, 66908.16));
    ck_assert(real_close(row.fp32_pct, 100.0 * gflops / 66908.16)); /* 9.6% */
    double declared = 3.0 * 4096 * 4096 * 4 / 21.41e-3 / 1e9; /* 9.4 GB/s: 3 x 4096^2 x 4 B over 21.41 ms */
    ck_assert(real_close(row.declared_gbps, declared));
    ck_assert(real_close(row.declared_bw_pct, 100.0 * declared / 3352.32));
    ck_assert_str_eq(row.limiter, "l1");

    /* an f64 row on Hopper: the FP64 pipe has half the FP32 lanes */
    struct mmb_row f64 = row;
    snprintf(f64.dtype, sizeof f64.dtype, "f64");
    f64.peak_gflops = 66908.16, f64.l1_util_pct = 10.0, f64.l2_util_pct = 15.0;
    f64.pipe_pct = f64.fp32_pct = NAN; /* a fresh row, as the device fills it in */
    mmb_row_derive(&f64);
    ck_assert(real_close(f64.peak_gflops, 33454.08));
    ck_assert(real_close(f64.fp32_pct, 100.0 * gflops / 33454.08));
    /* its busiest unit is the FP64 pipe, at 19%: latency-bound (tests/test_limiter.c) */
    struct mmb_row_bound bound;
    ck_assert(mmb_row_bound(&f64, &bound) && bound.unit == MMB_LIMITER_FP64);
    ck_assert_str_eq(f64.limiter, "latency");
    ck_assert(real_close(f64.declared_gbps, 2 * declared));
    /* an older f64 row: FP32 peak, no fp32_pct; the report scales it once */
    struct mmb_row old = f64;
    old.peak_gflops = 66908.16, old.fp32_pct = old.pipe_pct = NAN, old.limiter[0] = '\0';
    ck_assert(real_close(mmb_row_pipe_peak(&old), 33454.08));
    ck_assert(real_close(mmb_row_fp32_pct(&old), f64.fp32_pct));
    char buf[8];
    ck_assert_str_eq(mmb_row_limiter(&old, buf, sizeof buf), "latency");
    ck_assert(mmb_row_bound(&old, &bound) && bound.unit == MMB_LIMITER_FP64 && real_close(bound.pct, f64.fp32_pct));
    ck_assert(real_close(mmb_row_pipe_peak(&f64), 33454.08)); /* derived: not scaled twice */

    /* without L1 and L2 throughput (older files) there is no limiter to name */
    row_empty(&row);
    snprintf(row.cc, sizeof row.cc, "9.0");
    snprintf(row.dtype, sizeof row.dtype, "i32");
    row.m = row.n = row.k = 1024, row.time_ms_median = 1.0, row.peak_gflops = 66908.16, row.dram_util_pct = 5;
    mmb_row_derive(&row);
    ck_assert(real_close(row.peak_gflops, 33454.08)); /* INT32: 64 lanes per SM on 9.0 */
    ck_assert_str_eq(row.limiter, "");
    ck_assert_str_eq(mmb_row_limiter(&row, buf, sizeof buf), "");
    /* a compute capability the table does not know: no peak rather than a wrong one */
    snprintf(row.cc, sizeof row.cc, "3.5");
    row.peak_gflops = 5000;
    mmb_row_derive(&row);
    ck_assert(isnan(row.peak_gflops) && isnan(row.fp32_pct));
}
END_TEST

/* The rates of the whitepapers: each checked against a datasheet peak as rate x SMs x
 * clock (results/peaks.c says which), and the GeForce halving and DMMA's fallback. */
START_TEST(test_pipe_rates)
{
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_FP32, false), 256);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_F16, false), 4096);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_BF16, false), 4096);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_TF32, false), 2048);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_FP8, false), 8192);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_I8, false), 8192);
    ck_assert_int_eq(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_F64, false), 256);
    ck_assert_int_eq(mmb_pipe_rate(8, 0, MMB_PIPE_TENSOR_F64, false), 128);
    ck_assert_int_eq(mmb_pipe_rate(8, 0, MMB_PIPE_TENSOR_FP8, false), 0); /* no FP8 before Ada */
    ck_assert_int_eq(mmb_pipe_rate(8, 9, MMB_PIPE_TENSOR_FP8, false), 2048);
    ck_assert_int_eq(mmb_pipe_rate(8, 9, MMB_PIPE_TENSOR_FP8, true), 1024);  /* GeForce: half */
    ck_assert_int_eq(mmb_pipe_rate(8, 9, MMB_PIPE_TENSOR_I8, true), 2048);   /* INT8: full */
    ck_assert_int_eq(mmb_pipe_rate(8, 6, MMB_PIPE_TENSOR_TF32, true), 256);
    ck_assert_int_eq(mmb_pipe_rate(7, 0, MMB_PIPE_TENSOR_F16, false), 1024);
    ck_assert_int_eq(mmb_pipe_rate(7, 0, MMB_PIPE_TENSOR_BF16, false), 0);
    ck_assert_int_eq(mmb_pipe_rate(10, 0, MMB_PIPE_TENSOR_F16, false), 0);  /* not in the cited papers */
    /* datasheet peaks as rate x SMs x clock, in TFLOP/s */
    ck_assert(fabs(mmb_pipe_rate(9, 0, MMB_PIPE_TENSOR_F16, false) * 132 * 1.830e9 / 1e12 - 989.4) < 0.1);
    ck_assert(fabs(mmb_pipe_rate(8, 0, MMB_PIPE_TENSOR_F16, false) * 108 * 1.410e9 / 1e12 - 311.9) < 0.1);
    ck_assert(fabs(mmb_pipe_rate(8, 0, MMB_PIPE_TENSOR_F64, false) * 108 * 1.410e9 / 1e12 - 19.5) < 0.1);
    ck_assert(fabs(mmb_pipe_rate(8, 9, MMB_PIPE_TENSOR_F16, true) * 128 * 2.520e9 / 1e12 - 165.2) < 0.1);
    ck_assert(fabs(mmb_pipe_rate(7, 0, MMB_PIPE_TENSOR_F16, false) * 80 * 1.530e9 / 1e12 - 125.3) < 0.1);
    /* DGEMM: the FP64 tensor cores where they exist, else the FP64 pipe */
    ck_assert_int_eq(mmb_pipe_on(9, 0, MMB_PIPE_TENSOR_F64), MMB_PIPE_TENSOR_F64);
    ck_assert_int_eq(mmb_pipe_on(8, 9, MMB_PIPE_TENSOR_F64), MMB_PIPE_FP64);
    ck_assert_int_eq(mmb_pipe_on(8, 9, MMB_PIPE_TENSOR_FP8), MMB_PIPE_TENSOR_FP8);
    ck_assert_int_eq(mmb_pipe_on(8, 0, MMB_PIPE_TENSOR_FP8), MMB_PIPE_TENSOR_FP8); /* no fallback: no peak */
    ck_assert(mmb_gpu_is_geforce("NVIDIA GeForce RTX 4090") && !mmb_gpu_is_geforce("NVIDIA H100 80GB HBM3"));
    /* peaks from the FP32 peak of an H100 SXM (1980 MHz): FP16 tensor 16x, FP64 tensor 1x */
    ck_assert(real_close(mmb_pipe_peak(66908.16, "9.0", MMB_PIPE_TENSOR_F16, "NVIDIA H100 80GB HBM3"), 16 * 66908.16));
    ck_assert(real_close(mmb_pipe_peak(66908.16, "9.0", MMB_PIPE_TENSOR_F64, "NVIDIA H100 80GB HBM3"), 66908.16));
    ck_assert(isnan(mmb_pipe_peak(66908.16, "8.0", MMB_PIPE_TENSOR_FP8, "NVIDIA A100-SXM4-80GB")));
    ck_assert(isnan(mmb_pipe_peak(10000, "7.5", MMB_PIPE_TENSOR_F16, "NVIDIA GeForce GTX 1660"))); /* no tensor cores */
    ck_assert(real_close(mmb_pipe_peak(10000, "7.5", MMB_PIPE_TENSOR_F16, "NVIDIA GeForce RTX 2080 Ti"), 40000));
    ck_assert(real_close(mmb_pipe_peak(10000, "7.5", MMB_PIPE_TENSOR_F16, "Quadro RTX 6000"), 80000));
}
END_TEST

/* A row of a tensor pipe: its peak, pipe_pct (and fp32_pct, the same), the limiter
 * naming the tensor cores; the device's FP32 peak recovered from it; cuBLAS DGEMM's
 * row against the FP64 tensor cores. */
START_TEST(test_derive_tensor_rows)
{
    struct mmb_row row;
    row_empty(&row);
    snprintf(row.gpu, sizeof row.gpu, "NVIDIA H100 80GB HBM3");
    snprintf(row.cc, sizeof row.cc, "9.0");
    snprintf(row.dtype, sizeof row.dtype, "f16");
    snprintf(row.pipe, sizeof row.pipe, "tensor_f16");
    row.m = row.n = row.k = 4096;
    row.time_ms_median = 0.2;
    row.peak_gflops = 66908.16;
    row.l1_util_pct = 40.0, row.l2_util_pct = 30.0, row.dram_util_pct = 20.0;
    mmb_row_derive(&row);
    double gflops = 2.0 * 4096 * 4096 * 4096 / 0.2e-3 / 1e9; /* 687 TFLOP/s */
    ck_assert(real_close(row.peak_gflops, 16 * 66908.16));
    ck_assert(real_close(row.pipe_pct, 100.0 * gflops / (16 * 66908.16))); /* 64% */
    ck_assert(real_close(row.fp32_pct, row.pipe_pct));
    ck_assert_str_eq(row.limiter, "tensor");
    ck_assert(real_close(mmb_row_fp32_peak(&row), 66908.16));
    ck_assert(real_close(mmb_row_pipe_pct(&row), row.pipe_pct));
    /* derived again (timed, then counted under counters = best): the same peak, not 16 x 16 */
    mmb_row_derive(&row);
    ck_assert(real_close(row.peak_gflops, 16 * 66908.16));
    ck_assert(real_close(row.pipe_pct, 100.0 * gflops / (16 * 66908.16)));
    /* compulsory bytes: f16 in and out */
    ck_assert(real_close(row.declared_gbps, 3.0 * 4096 * 4096 * 2 / 0.2e-3 / 1e9));

    struct mmb_row i8 = row;
    snprintf(i8.dtype, sizeof i8.dtype, "i8");
    snprintf(i8.pipe, sizeof i8.pipe, "tensor_i8");
    i8.peak_gflops = 66908.16, i8.pipe_pct = i8.fp32_pct = NAN; /* as the device fills it in */
    mmb_row_derive(&i8);
    ck_assert(real_close(i8.peak_gflops, 32 * 66908.16));
    /* int8 in, int32 out */
    ck_assert(real_close(i8.declared_gbps, (2.0 * 4096 * 4096 * 1 + 4096.0 * 4096 * 4) / 0.2e-3 / 1e9));

    struct mmb_row dgemm = row;
    snprintf(dgemm.dtype, sizeof dgemm.dtype, "f64");
    snprintf(dgemm.pipe, sizeof dgemm.pipe, "tensor_f64");
    dgemm.peak_gflops = 66908.16, dgemm.time_ms_median = 2.5, dgemm.pipe_pct = dgemm.fp32_pct = NAN;
    mmb_row_derive(&dgemm);
    ck_assert(real_close(dgemm.peak_gflops, 66908.16)); /* not 33454: the 143% of the FP64 pipe */
    ck_assert(dgemm.pipe_pct < 100.0);
    ck_assert(real_close(mmb_row_fp32_peak(&dgemm), 66908.16));

    struct mmb_row bad = row;
    snprintf(bad.pipe, sizeof bad.pipe, "tensor");
    bad.peak_gflops = 66908.16, bad.pipe_pct = bad.fp32_pct = NAN;
    mmb_row_derive(&bad);
    ck_assert(isnan(bad.peak_gflops) && isnan(bad.pipe_pct));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("metrics");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_table_consistent);
    tcase_add_test(tc, test_field_by_offset);
    tcase_add_test(tc, test_named_sets);
    tcase_add_test(tc, test_explicit_list);
    tcase_add_test(tc, test_unknown_names);
    tcase_add_test(tc, test_derive_known_inputs);
    tcase_add_test(tc, test_derive_empty_inputs);
    tcase_add_test(tc, test_fallbacks);
    tcase_add_test(tc, test_derive_pipe_and_limiter);
    tcase_add_test(tc, test_pipe_rates);
    tcase_add_test(tc, test_derive_tensor_rows);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
