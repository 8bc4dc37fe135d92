/* test_limiter.c - the limiter rule on synthetic rows (results/row.h's mmb_row_bound,
 * Nsight Compute's Speed-of-Light rule: the busiest unit when at 60% of its peak or
 * more, else latency; the issue rate and the busiest SM unit among the units), the
 * limiter table's texts, and the stall reasons a row names (results/stall.h). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "results/columns.h"
#include "results/limiter.h"
#include "results/row.h"
#include "results/stall.h"

/* An f32 row on an H100 with the Speed-of-Light units as given (NaN: not measured). */
static struct mmb_row sol_row(double pipe, double issue, double sm, double l1, double l2, double dram)
{
    struct mmb_row r;
    mmb_row_init(&r);
    snprintf(r.dtype, sizeof r.dtype, "f32");
    snprintf(r.cc, sizeof r.cc, "9.0");
    r.pipe_pct = r.fp32_pct = pipe;
    r.issue_pct = issue;
    r.sm_util_pct = sm;
    r.l1_util_pct = l1;
    r.l2_util_pct = l2;
    r.dram_util_pct = dram;
    return r;
}

static const char *limiter(const struct mmb_row *r)
{
    static char buf[8];
    return mmb_row_limiter(r, buf, sizeof buf);
}

START_TEST(test_latency_when_nothing_near_peak)
{
    /* conflict-free step: FP32 51%, L1 49%: the busiest unit is FP32 but far from its peak */
    struct mmb_row r = sol_row(51, 45, 53, 49, 20, 5);
    struct mmb_row_bound b;
    ck_assert(mmb_row_bound(&r, &b));
    ck_assert_int_eq(b.unit, MMB_LIMITER_FP32);
    ck_assert(b.pct == 51);
    ck_assert_int_eq(b.verdict, MMB_LIMITER_LATENCY);
    ck_assert_str_eq(limiter(&r), "latency");
    /* the threshold itself names the unit; just under it does not */
    r = sol_row(60, 45, 61, 49, 20, 5);
    ck_assert_str_eq(limiter(&r), "fp32");
    r = sol_row(59.99, 45, 61, 49, 20, 5);
    ck_assert_str_eq(limiter(&r), "latency");
}
END_TEST

START_TEST(test_units_named)
{
    /* the tiled kernel: L1 89% (shared memory in the L1 unit), FP32 9% */
    struct mmb_row r = sol_row(9, 40, 77, 89, 30, 11);
    ck_assert_str_eq(limiter(&r), "l1");
    /* DRAM-bound */
    r = sol_row(5, 10, 12, 30, 40, 85);
    ck_assert_str_eq(limiter(&r), "dram");
    r = sol_row(5, 10, 12, 30, 75, 50);
    ck_assert_str_eq(limiter(&r), "l2");
    /* a lean main loop: the SM issues nearly every cycle, FP32 at 73% */
    r = sol_row(73.2, 82.9, 83.5, 60, 30, 10);
    struct mmb_row_bound b;
    ck_assert(mmb_row_bound(&r, &b));
    ck_assert_int_eq(b.unit, MMB_LIMITER_ISSUE); /* sm is within the margin of the issue rate */
    ck_assert(b.pct == 82.9);
    ck_assert_str_eq(limiter(&r), "issue");
    ck_assert(mmb_row_unit_pct(&r, MMB_LIMITER_ISSUE) == 82.9);
    ck_assert(mmb_row_unit_pct(&r, MMB_LIMITER_FP32) == 73.2);
    ck_assert(isnan(mmb_row_unit_pct(&r, MMB_LIMITER_FP64))); /* not this row's pipe */
    ck_assert(isnan(mmb_row_unit_pct(&r, MMB_LIMITER_LATENCY)));
    /* a tie between units keeps the first in the rule's order: the pipe */
    r = sol_row(70, 70, 70, 70, 70, 70);
    ck_assert_str_eq(limiter(&r), "fp32");
}
END_TEST

START_TEST(test_busiest_sm_unit)
{
    /* an older row without the issue rate: SM 64.8% against L1 58.6% */
    struct mmb_row r = sol_row(40, NAN, 64.8, 58.6, 25, 8);
    struct mmb_row_bound b;
    ck_assert(mmb_row_bound(&r, &b));
    ck_assert_int_eq(b.unit, MMB_LIMITER_SM);
    ck_assert(b.pct == 64.8);
    ck_assert_str_eq(limiter(&r), "sm");
    /* with the issue rate measured at 64%, sm is not 2 points above it: issue is named */
    r.issue_pct = 64.0;
    ck_assert_str_eq(limiter(&r), "issue");
    /* another SM unit (the LSU, say) well above the issue rate and the pipe */
    r.issue_pct = 40.0;
    ck_assert_str_eq(limiter(&r), "sm");
    /* sm below the busiest memory level: the level */
    r = sol_row(40, NAN, 64.8, 88, 25, 8);
    ck_assert_str_eq(limiter(&r), "l1");
    /* sm busy but under 60%: still latency */
    r = sol_row(20, NAN, 55, 30, 25, 8);
    ck_assert(mmb_row_bound(&r, &b) && b.unit == MMB_LIMITER_SM);
    ck_assert_str_eq(limiter(&r), "latency");
}
END_TEST

START_TEST(test_unknown_and_cell)
{
    /* the pipe, L1, L2 and DRAM are needed; without L2 nothing is named */
    struct mmb_row r = sol_row(80, 50, 82, 40, NAN, 8);
    struct mmb_row_bound b;
    ck_assert(!mmb_row_bound(&r, &b));
    ck_assert_str_eq(limiter(&r), "");
    /* a file whose counters are gone keeps its cell */
    snprintf(r.limiter, sizeof r.limiter, "dram");
    ck_assert_str_eq(limiter(&r), "dram");
    /* a cell written by an older rule gives way to the counters */
    r = sol_row(51, NAN, 53, 49, 20, 5);
    snprintf(r.limiter, sizeof r.limiter, "fp32");
    ck_assert_str_eq(limiter(&r), "latency");
    /* derive writes the verdict into the cell */
    r = sol_row(NAN, 45, 53, 49, 20, 5);
    r.m = r.n = r.k = 4096;
    r.time_ms_median = 5.0;
    r.peak_gflops = 66908.16;
    mmb_row_derive(&r); /* 27.5 TFLOP/s: 41% of the FP32 peak */
    ck_assert_str_eq(r.limiter, "latency");
    r.l1_util_pct = 91;
    mmb_row_derive(&r);
    ck_assert_str_eq(r.limiter, "l1");
}
END_TEST

START_TEST(test_table_texts)
{
    for (const struct mmb_limiter *l = mmb_limiter_table; l->text; l++) {
        ck_assert_ptr_eq(mmb_limiter_parse(l->text), l);
        ck_assert_ptr_eq(mmb_limiter_info(l->value), l);
        ck_assert_uint_lt(strlen(l->text), sizeof(((struct mmb_row *)0)->limiter));
        ck_assert(strlen(l->meaning) > 0);
    }
    ck_assert_ptr_nonnull(mmb_limiter_parse("latency"));
    ck_assert_ptr_nonnull(mmb_limiter_parse("issue"));
    ck_assert_ptr_null(mmb_limiter_parse("compute"));
    ck_assert_ptr_null(mmb_limiter_info(MMB_LIMITER_COUNT));
}
END_TEST

START_TEST(test_stalls)
{
    /* every stall column is a counter column at the table's field, and the reverse */
    size_t n = 0;
    for (const struct mmb_stall *s = mmb_stall_table; s->column; s++, n++) {
        const struct mmb_column *c = mmb_column_find(s->column);
        ck_assert_msg(c && c->role == MMB_ROLE_COUNTER && c->offset == s->offset, "%s", s->column);
        ck_assert_ptr_eq(mmb_stall_find(s->column), s);
    }
    size_t columns = 0;
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        columns += strncmp(c->name, "stall_", 6) == 0;
    ck_assert_uint_eq(n, columns);
    ck_assert_ptr_null(mmb_stall_find("warp_cycles_per_issue"));

    /* the naive kernel on the H100 (data/h100-80gb-hbm3/bench/ncu-stalls.txt) */
    struct mmb_row r;
    mmb_row_init(&r);
    struct mmb_stall_value top[3];
    ck_assert_uint_eq(mmb_row_stalls_top(&r, top, 3), 0);
    r.stall_long_scoreboard = 20.268, r.stall_lg_throttle = 6.513, r.stall_not_selected = 4.175;
    r.stall_wait = 2.316, r.stall_math_pipe_throttle = 0.186, r.stall_barrier = 0;
    ck_assert_uint_eq(mmb_row_stalls_top(&r, top, 2), 2);
    ck_assert_str_eq(top[0].stall->column, "stall_long_scoreboard");
    ck_assert(top[0].cycles == 20.268);
    ck_assert_str_eq(top[1].stall->name, "LG Throttle");
    ck_assert_uint_eq(mmb_row_stalls_top(&r, top, 3), 3);
    ck_assert_str_eq(top[2].stall->column, "stall_not_selected");
    /* ties keep the table's order; max 0 writes nothing */
    mmb_row_init(&r);
    r.stall_wait = 1.0, r.stall_mio_throttle = 1.0, r.stall_barrier = 0.5;
    ck_assert_uint_eq(mmb_row_stalls_top(&r, top, 3), 3);
    ck_assert_str_eq(top[0].stall->column, "stall_mio_throttle");
    ck_assert_str_eq(top[1].stall->column, "stall_wait");
    ck_assert_str_eq(top[2].stall->column, "stall_barrier");
    ck_assert_uint_eq(mmb_row_stalls_top(&r, top, 0), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("limiter");
    TCase *tc = tcase_create("rule");
    tcase_add_test(tc, test_latency_when_nothing_near_peak);
    tcase_add_test(tc, test_units_named);
    tcase_add_test(tc, test_busiest_sm_unit);
    tcase_add_test(tc, test_unknown_and_cell);
    tcase_add_test(tc, test_table_texts);
    tcase_add_test(tc, test_stalls);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
