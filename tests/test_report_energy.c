/* test_report_energy.c - the report's Energy efficiency section, its Pareto figure and
 * its throttle caveat (report/doc/energy_doc.c, report/figures/plot_energy.c,
 * report/input/energy.c) from a synthetic CSV with energy columns
 * (tests/fixtures/csv/energy: an H100 course under energy = best with one throttled
 * best row, a time,energy tune of five configurations with a throttled one, and an H200
 * file older than the energy columns), every number checked against the one worked out
 * by hand; and data without energy (tests/fixtures/csv/good) gets none of it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "report_run.h"

static bool gnuplot_on_path(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static char *readme(const char *out)
{
    char path[1200];
    ck_assert_int_lt(snprintf(path, sizeof path, "%s/README.md", out), (int)sizeof path);
    char *md = file_get(path);
    ck_assert_ptr_nonnull(md);
    return strdup(md);
}

#define HAS(text, needle) ck_assert_msg(strstr(text, needle) != NULL, "expected '%s' in:\n%.4000s", needle, text)

START_TEST(test_energy_section)
{
    char in[1200], out[1200];
    ck_assert_int_lt(snprintf(in, sizeof in, "%s/tests/fixtures/csv/energy", root), (int)sizeof in);
    ck_assert_int_lt(snprintf(out, sizeof out, "%s/reports", tmpdir), (int)sizeof out);
    bool plots = gnuplot_on_path();
    char *argv[] = {"report", "-q", "-o", out, plots ? in : "--no-plots", plots ? NULL : in, NULL};
    ck_assert_msg(report_run(plots ? 5 : 6, argv) == 0, "%s", report_err);
    char *md = readme(out);
    const char *sec = strstr(md, "## Energy efficiency");
    ck_assert_ptr_nonnull(sec);
    /* 12 of the 26 ok rows have energy: the course's six best rows, the tune's five and its cuBLAS */
    HAS(sec, "12 of 26 ok rows have it (energy_status: ok 12, not_best 4)");
    HAS(sec, "no clock sweep and no energy-optimal clock");
    /* tiled's best row: 2 * 4096^3 / 24 ms = 5.7 TFLOP/s, 12 J in 24 ms = 500 W, 11.5 GFLOP/J, throttled;
     * the H200's file has no energy columns: its cells say so */
    HAS(sec, "| tiled | 4096 | 5.7† | 500 | 11.5 | 6.4 | – | – |");
    HAS(sec, "| cublas | 4096 | 17.2 | 600 | 28.6 | 19.1 | – | – |");
    /* the tune: fastest bx=64;tx=1 (9 ms, 6 J), least energy bx=32;tx=2 (13 ms, 3.5 J): 1 - 3.5/6 = 41.7% less
     * energy, 13/9 - 1 = 44.4% more time; on the front 9/6, 10/5, 11/4, 13/3.5 but not 12/4.5 */
    HAS(sec, "| NVIDIA H100 80GB HBM3 | tune-energy | tunable | 4096 | 5 | 4 | `bx=64;tx=1` 9 ms, 6 J | "
             "`bx=32;tx=2` 13 ms, 3.5 J | 41.7% | 44.4% |");
    HAS(sec, "**Least energy against fastest.** The largest saving: on the H100 80GB HBM3, tunable at 4096 uses 41.7% "
             "less energy per launch in bx=32 tx=2 (3.5 J, 269 W) than in its fastest configuration, bx=64 tx=1 (6 J, "
             "667 W), at 44.4% more time per launch (13 against 9 ms).");
    /* the README's table at the story's sizes (4096, its reference and largest square), every size in energy.md */
    HAS(sec, "Every size: [energy.md](energy.md).");
    ck_assert_msg(!strstr(sec, "| tiled | 2048 |"), "2048 in the README's energy table");
    char page[1400];
    ck_assert_int_lt(snprintf(page, sizeof page, "%s/energy.md", out), (int)sizeof page);
    const char *energy = file_get(page);
    ck_assert_ptr_nonnull(energy);
    HAS(energy, "| tiled | 2048 | 5.7† | 500 | 11.5 | 6.4 | – | – |");
    HAS(energy, "| tiled | 4096 | 5.7† | 500 | 11.5 | 6.4 | – | – |");
    /* the finding is no Key finding, and its numbers are claims */
    const char *key = strstr(md, "## Key findings");
    ck_assert_ptr_nonnull(key);
    ck_assert_msg(!strstr(key, "Least energy against fastest") || strstr(key, "Least energy against fastest") > sec,
                  "the energy finding among the Key findings");
    ck_assert_int_lt(snprintf(page, sizeof page, "%s/claims.json", out), (int)sizeof page);
    const char *claims = file_get(page);
    ck_assert_ptr_nonnull(claims);
    HAS(claims, "\"lead\":\t\"Least energy against fastest\"");
    HAS(claims, "\"formula\":\t\"change\"");
    /* tune-energy's objective is time,energy (profiles/tune-energy.ini): a time/energy front, the Energy efficiency
     * section's; no Tuning section pools its rows, and without another tuning profile there is none */
    ck_assert(!exists("%s/tuning.md", out));
    HAS(sec, "![NVIDIA H100 80GB HBM3: time against energy per launch, tunable at 4096 (profile tune-energy)]"
             "(figures/pareto-tunable-h100-80gb-hbm3.png)");
    HAS(sec, "the line joins the 4 on the Pareto front");
    HAS(sec, "red rings mark rows taken while a power or thermal limit throttled the clocks; the star is cuBLAS");
    /* the caveat names the three throttled rows */
    const char *cav = strstr(md, "## Caveats");
    ck_assert_ptr_nonnull(cav);
    HAS(cav, "- **Throttled clocks**: 3 ok rows were taken while a power or thermal limit throttled the clocks");
    HAS(cav, "`tiled tile=64` 4096x4096x4096 (sw\\_power\\_cap, 1755 to 1980 MHz)");
    HAS(cav, "`tunable bx=32;tx=1` 4096x4096x4096 (hw\\_thermal, 1980 to 1980 MHz)");
    /* the figure's data: every configuration fastest first, the front apart, cuBLAS last */
    char path[1400];
    ck_assert_int_lt(snprintf(path, sizeof path, "%s/gnuplot/pareto-tunable-h100-80gb-hbm3.dat", out), (int)sizeof path);
    const char *dat = file_get(path);
    ck_assert_ptr_nonnull(dat);
    HAS(dat, "9 6 1 0 \"bx=64;tx=1\"\n10 5 1 0 \"bx=16;tx=1\"\n11 4 1 0 \"bx=16;tx=2\"\n12 4.5 0 1 \"bx=32;tx=1\"\n"
             "13 3.5 1 0 \"bx=32;tx=2\"\n\n\n9 6 1 0");
    HAS(dat, "13 3.5 1 0 \"bx=32;tx=2\"\n\n\n8 4.8 0 0 \"cuBLAS\"\n");
    if (plots)
        ck_assert(exists("%s/figures/pareto-tunable-h100-80gb-hbm3.png", out));
    /* one figure per kernel and GPU: the course's kernels have no group of three with energy */
    ck_assert(!exists("%s/gnuplot/pareto-naive-h100-80gb-hbm3.dat", out));
    ck_assert(!exists("%s/gnuplot/pareto-tunable-h200.dat", out));
    free(md);
}
END_TEST

/* Data without energy columns: no section, no figure, no caveat, and no failure. */
START_TEST(test_no_energy)
{
    char in[1200], out[1200];
    ck_assert_int_lt(snprintf(in, sizeof in, "%s/tests/fixtures/csv/good", root), (int)sizeof in);
    ck_assert_int_lt(snprintf(out, sizeof out, "%s/reports", tmpdir), (int)sizeof out);
    char *argv[] = {"report", "-q", "-o", out, "--no-plots", in, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    char *md = readme(out);
    ck_assert(!strstr(md, "Energy efficiency"));
    ck_assert(!strstr(md, "Throttled clocks"));
    ck_assert(!strstr(md, "pareto-"));
    free(md);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_energy");
    TCase *tc = tcase_create("report_energy");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_energy_section);
    tcase_add_test(tc, test_no_energy);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
