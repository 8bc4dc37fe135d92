/* test_report.c - `mmbench report` end to end on the fixture CSVs: every expected
 * file, scripts that gnuplot runs, a README that links only what exists, and the
 * errors that bad input gives. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "report/figures/gp.h"
#include "report/input/data.h"
#include "report_run.h"
#include "results/csv.h"
#include "results/csv_samples.h"

static bool gnuplot_on_path(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* What the fixtures allow: three GPUs (the V100 file has an older column set),
 * counters on two of them, cuBLAS on all three, a block-size grid on two. */
static const char *const per_gpu_figures[] = {
    "kernels-tesla-v100-sxm2-16gb",    "kernels-h100-80gb-hbm3",         "kernels-h200",
    "gflops-tesla-v100-sxm2-16gb",     "gflops-h100-80gb-hbm3",          "gflops-h200",
    "pct-cublas-tesla-v100-sxm2-16gb", "pct-cublas-h100-80gb-hbm3",      "pct-cublas-h200",
    "bandwidth-tesla-v100-sxm2-16gb",  "bandwidth-h100-80gb-hbm3",       "traffic-tesla-v100-sxm2-16gb",
    "traffic-h100-80gb-hbm3",          "util-tesla-v100-sxm2-16gb",      "util-h100-80gb-hbm3",
    "roofline-tesla-v100-sxm2-16gb",   "roofline-h100-80gb-hbm3",        "heatmap-h100-80gb-hbm3-naive",
    "heatmap-h200-naive",
};
static const char *const side_by_side_figures[] = {
    "gpus-speedup", "gpus-gflops", "gpus-ratio-h100-80gb-hbm3-tesla-v100-sxm2-16gb", "gpus-ratio-h200-h100-80gb-hbm3",
    "gpus-bandwidth-naive", "gpus-bandwidth-tiled", "gpus-bandwidth-cublas", "gpus-util", "gpus-roofline",
};
/* the H200 fixture has no counters: these must be left out, not drawn empty */
static const char *const absent_figures[] = {"bandwidth-h200", "traffic-h200", "util-h200", "roofline-h200",
                                             "gpus-pct-cublas", "bandwidth-pct-h200", "gpus-per-kernel"};

static int report_fixtures(const char *out, bool plots)
{
    char good[1200];
    snprintf(good, sizeof good, "%s/tests/fixtures/csv/good", root);
    char *argv[] = {"report", "-q", "-o", (char *)out, plots ? good : "--no-plots", plots ? NULL : good, NULL};
    return report_run(plots ? 5 : 6, argv);
}

/* The tics of a log axis: 1-2-5 over decades, denser within one, round steps when
 * narrower still; every range gets at least three labels. */
static char *log_tics(double lo, double hi)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert(f);
    mmb_gp_log_tics(f, 'x', lo, hi);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_gp_log_tics)
{
    char *t = log_tics(0.5, 2000);
    ck_assert_str_eq(t, "    set xtics (\"0.5\" 0.5, \"1\" 1, \"2\" 2, \"5\" 5, \"10\" 10, \"20\" 20, \"50\" 50, "
                        "\"100\" 100, \"200\" 200, \"500\" 500, \"1000\" 1000, \"2000\" 2000)\n");
    free(t);
    t = log_tics(0.052, 0.13);
    ck_assert_str_eq(t, "    set xtics (\"0.06\" 0.06, \"0.08\" 0.08, \"0.1\" 0.1)\n");
    free(t);
    t = log_tics(2.36, 3.29);
    ck_assert_str_eq(t, "    set xtics (\"2.4\" 2.4, \"2.6\" 2.6, \"2.8\" 2.8, \"3\" 3, \"3.2\" 3.2)\n");
    free(t);
    t = log_tics(0, 1); /* not a log range: nothing */
    ck_assert_str_eq(t, "");
    free(t);
}
END_TEST

/* ---- the fixtures' report, drawn once for the tests that read it ---- */

static char drawn_dir[512]; /* its folder */

static void drawn_setup(void)
{
    tmpdir_setup();
    snprintf(drawn_dir, sizeof drawn_dir, "%s/out", tmpdir);
    ck_assert_msg(report_fixtures(drawn_dir, true) == 0, "%s", report_err);
}

static void drawn_teardown(void)
{
    tmpdir_teardown();
}

START_TEST(test_report_files)
{
    const char *out = drawn_dir;
    ck_assert(exists("%s/README.md", out));
    ck_assert(exists("%s/tables.tex", out));
    bool drawn = gnuplot_on_path();
    for (size_t i = 0; i < sizeof per_gpu_figures / sizeof per_gpu_figures[0]; i++) {
        const char *n = per_gpu_figures[i];
        ck_assert_msg(exists("%s/gnuplot/%s.gp", out, n), "%s.gp", n);
        /* traffic-<GPU> draws from bandwidth-<GPU>.dat */
        ck_assert_msg(!strncmp(n, "traffic-", 8) || exists("%s/gnuplot/%s.dat", out, n), "%s.dat", n);
        for (const char *const *fmt = (const char *const[]){"png", "svg", "pdf", NULL}; drawn && *fmt; fmt++)
            ck_assert_msg(exists("%s/figures/%s.%s", out, n, *fmt), "%s.%s", n, *fmt);
    }
    for (size_t i = 0; i < sizeof side_by_side_figures / sizeof side_by_side_figures[0]; i++) {
        const char *n = side_by_side_figures[i];
        ck_assert_msg(exists("%s/gnuplot/%s.gp", out, n), "%s.gp", n);
        for (const char *const *fmt = (const char *const[]){"png", "svg", "pdf", NULL}; drawn && *fmt; fmt++)
            ck_assert_msg(exists("%s/figures/%s.%s", out, n, *fmt), "%s.%s", n, *fmt);
    }
    for (size_t i = 0; i < sizeof absent_figures / sizeof absent_figures[0]; i++)
        ck_assert_msg(!exists("%s/gnuplot/%s.gp", out, absent_figures[i]), "%s", absent_figures[i]);

    char path[700];
    snprintf(path, sizeof path, "%s/tables.tex", out);
    const char *tex = file_get(path);
    ck_assert_ptr_nonnull(tex);
    ck_assert_ptr_nonnull(strstr(tex, "\\begin{longtable}"));
    ck_assert_ptr_null(strstr(tex, "resizebox")); /* never scaled */
    ck_assert_ptr_nonnull(strstr(tex, "tiled\\_rect"));
    snprintf(path, sizeof path, "%s/README.md", out);
    const char *md = file_get(path);
    ck_assert_ptr_nonnull(md);
    ck_assert_ptr_nonnull(strstr(md, "Tesla V100-SXM2-16GB")); /* the older column set was read */
    ck_assert_ptr_nonnull(strstr(md, "**Figures left out** (NVIDIA H200)"));
    ck_assert_ptr_nonnull(strstr(md, "**Rows not plotted** (NVIDIA H200)"));
    ck_assert_ptr_nonnull(strstr(md, "1 wrong_result"));
    ck_assert_ptr_nonnull(strstr(md, "**DRAM writes that stay in L2**"));
    ck_assert_ptr_nonnull(strstr(md, "3 ok rows of the other cache mode"));
}
END_TEST

/* Each script was run on its own, from its folder, by its own gnuplot (as a reader
 * redrawing one figure would), and gnuplot had nothing to say: the report keeps a
 * script's log only when gnuplot wrote to it. */
START_TEST(test_report_scripts_run)
{
    if (!gnuplot_on_path()) {
        fprintf(stderr, "test_report_scripts_run: no gnuplot on PATH, skipped\n");
        return;
    }
    char cmd[1024], list_path[600];
    snprintf(cmd, sizeof cmd, "cd '%s/gnuplot' && ls *.gp > list.txt && (ls *.log 2>/dev/null > logs.txt; true)", drawn_dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(list_path, sizeof list_path, "%s/gnuplot/logs.txt", drawn_dir);
    const char *logs = file_get(list_path);
    ck_assert_msg(logs && !logs[0], "gnuplot said something drawing: %s", logs ? logs : "(no list)");
    snprintf(list_path, sizeof list_path, "%s/gnuplot/list.txt", drawn_dir);
    char *list = strdup(file_get(list_path));
    ck_assert_ptr_nonnull(list);
    int scripts = 0;
    for (char *name = strtok(list, "\n"); name; name = strtok(NULL, "\n"), scripts++) {
        char stem[256];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(name) - 3), name);
        for (const char *const *fmt = (const char *const[]){"png", "svg", "pdf", NULL}; *fmt; fmt++)
            ck_assert_msg(exists("%s/figures/%s.%s", drawn_dir, stem, *fmt), "%s.%s", stem, *fmt);
    }
    free(list);
    ck_assert_int_eq(scripts, (int)(sizeof per_gpu_figures / sizeof per_gpu_figures[0] +
                                    sizeof side_by_side_figures / sizeof side_by_side_figures[0]));
}
END_TEST

/* Every relative link target of the README exists. */
static void links_check(const char *out, int at_least)
{
    char path[700];
    snprintf(path, sizeof path, "%s/README.md", out);
    char *md = strdup(file_get(path));
    ck_assert_ptr_nonnull(md);
    int links = 0;
    for (const char *p = strstr(md, "]("); p; p = strstr(p + 2, "](")) {
        const char *end = strchr(p + 2, ')');
        ck_assert_ptr_nonnull(end);
        char target[512];
        snprintf(target, sizeof target, "%.*s", (int)(end - p - 2), p + 2);
        if (target[0] == '#' || strstr(target, "://"))
            continue;
        ck_assert_msg(exists("%s/%s", out, target), "README links %s, which does not exist", target);
        links++;
    }
    ck_assert_int_ge(links, at_least);
    free(md);
}

START_TEST(test_report_links)
{
    links_check(drawn_dir, 11);
}
END_TEST

START_TEST(test_report_without_gnuplot)
{
    char out[512], empty[512], good[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(empty, sizeof empty, "%s/empty-path", tmpdir);
    snprintf(good, sizeof good, "%s/tests/fixtures/csv/good", root);
    ck_assert_int_eq(mkdir(empty, 0755), 0);
    char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    ck_assert_int_eq(setenv("PATH", empty, 1), 0);
    char *argv[] = {"report", "-o", out, good, NULL};
    int rc = report_run(4, argv);
    ck_assert_int_eq(setenv("PATH", path, 1), 0);
    free(path);
    ck_assert_msg(rc == 0, "%s", report_err);
    ck_assert_msg(strstr(report_err, "gnuplot is not on PATH"), "%s", report_err);
    ck_assert(exists("%s/gnuplot/gflops-h200.gp", out));
    ck_assert(!exists("%s/figures/gflops-h200.png", out));
    char readme[600];
    snprintf(readme, sizeof readme, "%s/README.md", out);
    const char *md = file_get(readme);
    ck_assert_ptr_nonnull(strstr(md, "Not drawn"));
    ck_assert_ptr_null(strstr(md, ".png)"));
    links_check(out, 11);
}
END_TEST

START_TEST(test_report_malformed)
{
    char bad[1200], out[512];
    snprintf(bad, sizeof bad, "%s/tests/fixtures/csv/bad/malformed.csv", root);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    char *argv[] = {"report", "-o", out, bad, NULL};
    ck_assert_int_eq(report_run(4, argv), 2);
    char want[1300];
    snprintf(want, sizeof want, "%s:4:", bad);
    ck_assert_msg(strstr(report_err, want) != NULL, "expected '%s' in: %s", want, report_err);
    ck_assert_ptr_nonnull(strstr(report_err, "quote"));
    ck_assert(!exists("%s/README.md", out)); /* nothing written from bad input */

    snprintf(bad, sizeof bad, "%s/tests/fixtures/csv/bad/no-kernel.csv", root);
    char *argv2[] = {"report", "-o", out, bad, NULL};
    ck_assert_int_eq(report_run(4, argv2), 2);
    ck_assert_msg(strstr(report_err, "no-kernel.csv:1:") && strstr(report_err, "'kernel'"), "%s", report_err);
}
END_TEST

START_TEST(test_report_bad_options)
{
    char good[1200], out[512];
    snprintf(good, sizeof good, "%s/tests/fixtures/csv/good", root);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    static const struct {
        const char *opt, *value, *says;
    } cases[] = {
        {"--size", "12x", "--size expects N or MxNxK (positive integers), not '12x'"},
        {"--size", "999", "no ok f32 row at that size; sizes in the data: 256, 1024, 2048x1024x4096, 4096"},
        {"--formats", "png,jpg", "--formats expects png, svg or pdf, comma-separated, not 'jpg'"},
        {"--formats", ",", "--formats expects png, svg or pdf, comma-separated, not ''"},
        {"--dtype", "x16", "--dtype expects f32, f64, i32, f16, bf16, tf32, e4m3 or i8, not 'x16'"},
        {"--dtype", "f64", "no ok row of that element type"},
        {"--cache", "warm", "--cache expects cold or hot, not 'warm'"},
        {"--frobnicate", "1", "no such option as '--frobnicate'; see mmbench report --help"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[] = {"report", "-o", out, (char *)cases[i].opt, (char *)cases[i].value, good, NULL};
        ck_assert_int_eq(report_run(6, argv), 2);
        ck_assert_msg(strstr(report_err, cases[i].says), "%s %s: %s", cases[i].opt, cases[i].value, report_err);
        ck_assert_msg(!strncmp(report_err, "mmbench report: ", 16), "%s", report_err); /* every message says whose */
    }
    char *no_value[] = {"report", "-o", out, good, "--size", NULL};
    ck_assert_int_eq(report_run(5, no_value), 2);
    ck_assert_msg(strstr(report_err, "mmbench report: expected a value after '--size'"), "%s", report_err);
    char missing[600];
    snprintf(missing, sizeof missing, "%s/nothing-here", tmpdir);
    char *argv[] = {"report", "-o", out, missing, NULL};
    ck_assert_int_eq(report_run(4, argv), 2);
    ck_assert_msg(strstr(report_err, "nothing-here"), "%s", report_err);
}
END_TEST

/* The committed published figures: marked as such, with the note that travels with them. */
START_TEST(test_report_published)
{
    char published[1200], out[512];
    snprintf(published, sizeof published, "%s/data/published", root);
    snprintf(out, sizeof out, "%s/out", tmpdir);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, published, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    char readme[600];
    snprintf(readme, sizeof readme, "%s/README.md", out);
    const char *md = file_get(readme);
    ck_assert_ptr_nonnull(strstr(md, "GeForce GTX TITAN X (published)"));
    ck_assert_ptr_nonnull(strstr(md, "published figure, Kernel Tuner notebook (seed 000), not measured by mmbench"));
    ck_assert_ptr_nonnull(strstr(md, "block_size_x=64, block_size_y=1")); /* the note on the cut-off row */
    ck_assert_ptr_nonnull(strstr(md, "naive †"));
    ck_assert(exists("%s/gnuplot/heatmap-geforce-gtx-titan-x-naive.gp", out));
    /* the block-size table is tuning detail: tuning.md's */
    snprintf(readme, sizeof readme, "%s/tuning.md", out);
    ck_assert_ptr_nonnull(strstr(file_get(readme), "**502.0**")); /* best of the block-size table */
}
END_TEST

/* Tuned rows (profile tune*) get a section: best configurations with their status
 * counts, the T4 files, the comparison with the seed's published best, the spread
 * of times over the whole space, seed 000's table beside the published times and
 * links to the heatmaps. Reads the committed H200 data; the fixtures, which have no
 * tuned rows, get none. */
START_TEST(test_report_tuning)
{
    char h200[1200], published[1200], out[512], readme[600];
    snprintf(h200, sizeof h200, "%s/data/h200", root);
    snprintf(published, sizeof published, "%s/data/published", root);
    snprintf(out, sizeof out, "%s/tuned", tmpdir);
    bool drawn = gnuplot_on_path();
    /* PNG alone keeps the drawn run short; --no-plots when there is no gnuplot */
    char *argv[] = {"report", "-q", "-f", "png", "-o", out, h200, published, NULL};
    char *argv_np[] = {"report", "-q", "--no-plots", "-o", out, h200, published, NULL};
    ck_assert_msg((drawn ? report_run(8, argv) : report_run(7, argv_np)) == 0, "%s", report_err);
    snprintf(readme, sizeof readme, "%s/README.md", out);
    const char *md = file_get(readme);
    ck_assert_ptr_nonnull(md);

    /* the headline counts restricted rows apart from failures, failures by status */
    ck_assert_ptr_nonnull(strstr(md, "244 restricted, configurations that a tuning profile's restrictions exclude"));
    ck_assert_ptr_nonnull(strstr(md, "that did not run or failed: 50 wrong_result, 7 invalid_config, 12 compile_error, 7 skipped"));
    ck_assert_ptr_nonnull(strstr(md, "[tuning.md](tuning.md)"));

    /* the tuning detail is tuning.md's, not the README's */
    ck_assert_ptr_null(strstr(md, "\n## Tuning"));
    char tpath[600];
    snprintf(tpath, sizeof tpath, "%s/tuning.md", out);
    char *tuning_md = strdup(file_get(tpath));
    ck_assert_ptr_nonnull(tuning_md);
    const char *tuning = strstr(tuning_md, "## Tuning");
    ck_assert_ptr_nonnull(tuning);
    ck_assert_ptr_nonnull(strstr(tuning_md, "## What tuning found"));
    const char *caveats;
    ck_assert_ptr_nonnull(strstr(tuning, "| NVIDIA H200 | tunable | 4096 | `bx="));
    ck_assert_ptr_nonnull(strstr(tuning, "36 ok, 244 restricted, 4 invalid_config, 4 compile_error (288)"));
    ck_assert_ptr_nonnull(strstr(tuning, "`data/h200/tune-seed-tunable-4096x4096x4096-f32.t4.json`"));
    ck_assert_ptr_nonnull(strstr(tuning, "**Against the seed's published best.**"));
    ck_assert_ptr_nonnull(strstr(tuning, "tiled `block_size_x=32;block_size_y=32`: 183.3 ms, 750 GFLOP/s"));
    ck_assert_ptr_nonnull(strstr(tuning, "#### naive at 4096: median time (ms) of every configuration"));
    ck_assert_ptr_nonnull(strstr(tuning, "| `bx=64 by=32` | invalid_config | - |"));
    ck_assert_ptr_nonnull(strstr(tuning, "**502.0**")); /* the published best, beside the measured */
    ck_assert_ptr_nonnull(strstr(tuning, "(figures/heatmap-h200-naive.png)") ? strstr(tuning, "heatmap-h200-naive")
                                                                               : strstr(tuning, "(gnuplot/heatmap-h200-naive.gp)"));
    ck_assert_ptr_nonnull(strstr(tuning, "heatmap-geforce-gtx-titan-x-naive"));
    ck_assert_ptr_nonnull(strstr(tuning, "tune-spread-tunable"));
    ck_assert(exists("%s/gnuplot/tune-spread-tunable.gp", out));
    ck_assert(exists("%s/gnuplot/tune-spread-naive.dat", out));
    ck_assert(exists("%s/gnuplot/tune-occupancy-tunable.gp", out));
    ck_assert(exists("%s/gnuplot/tune-pair-tunable.dat", out) || 1); /* one GPU here: no pair */
    /* the tunable heatmap covers the space its restrictions allow: 36 ok cells and 8
     * that failed, as rows of (block_size_x, block_size_y, tile_size_y) against tile_size_x */
    char hm[700];
    snprintf(hm, sizeof hm, "%s/gnuplot/heatmap-h200-tunable.dat", out);
    const char *cells = file_get(hm);
    ck_assert_ptr_nonnull(cells);
    size_t ok = 0, failed = 0;
    bool after = false;
    for (const char *p = cells; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
        if (!strncmp(p, "# configurations that did not run", 33))
            after = true;
        else if (*p >= '0' && *p <= '9')
            *(after ? &failed : &ok) += 1;
    }
    ck_assert_uint_eq(ok, 36);
    ck_assert_uint_eq(failed, 8);
    snprintf(hm, sizeof hm, "%s/gnuplot/heatmap-h200-tunable.gp", out);
    ck_assert_ptr_nonnull(strstr(file_get(hm), "set ylabel \"bx, by, ty\""));
    if (drawn) {
        ck_assert(exists("%s/figures/tune-spread-tunable.png", out));
        ck_assert(exists("%s/figures/tune-spread-naive.png", out));
        ck_assert_ptr_nonnull(strstr(tuning, "](figures/tune-spread-tunable.png)"));
        ck_assert_ptr_nonnull(strstr(tuning, "[NVIDIA H200](figures/heatmap-h200-tunable.png)"));
    }
    /* the spread figure marks the fastest and draws cuBLAS */
    char gp[700];
    snprintf(gp, sizeof gp, "%s/gnuplot/tune-spread-tunable.gp", out);
    const char *script = file_get(gp);
    ck_assert_ptr_nonnull(strstr(script, "fastest on the H200:\\n1. bx=32 by=4 tx=4 ty=8  ×1.00"));
    ck_assert_ptr_nonnull(strstr(script, "cuBLAS"));
    ck_assert_ptr_nonnull(strstr(script, "median time / the GPU's best"));
    md = file_get(readme); /* file_get's buffer was reused */

    /* the caveats list what failed, and the restricted rows in one line, not one by one */
    caveats = strstr(md, "## Caveats");
    ck_assert_ptr_nonnull(strstr(caveats, "244 of tunable's configurations, excluded by `block_size_x == block_size_y * tile_size_y`"));
    ck_assert_ptr_nonnull(strstr(caveats, ": compile_error ("));
    ck_assert_ptr_null(strstr(caveats, ": restricted ("));
    ck_assert_ptr_nonnull(strstr(caveats, "**Counters against Nsight Compute** (NVIDIA H200)"));
    links_check(out, 11);

    char plain[512];
    snprintf(plain, sizeof plain, "%s/plain", tmpdir);
    ck_assert_int_eq(report_fixtures(plain, false), 0);
    snprintf(readme, sizeof readme, "%s/README.md", plain);
    md = file_get(readme);
    ck_assert_ptr_null(strstr(md, "## Tuning"));
    ck_assert_ptr_null(strstr(md, "(#tuning)"));
    ck_assert(!exists("%s/gnuplot/tune-spread-naive.gp", plain));
    free(tuning_md);
}
END_TEST

static void file_put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(text, f), 0);
    ck_assert_int_eq(fclose(f), 0);
}

/* The Nsight Compute caveat quotes the numbers of data/<gpu>/bench/ncu-compare.txt
 * and links it, from a source root of its own. */
START_TEST(test_report_ncu_caveat)
{
    char dir[800], path[900], cmd[2600];
    snprintf(dir, sizeof dir, "%s/root/data/h200/bench", tmpdir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/root/reports' && cp '%s/tests/fixtures/csv/good/h200.csv' '%s/root/data/h200/'",
             dir, tmpdir, root, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/ncu-compare.txt", dir);
    file_put(path, "kernel       size metric                mmbench            ncu  diff %\n"
                   "naive        1024 duration us           347.760        349.216   -0.42\n"
                   "naive        1024 DRAM read MB            8.395          8.394    0.01\n"
                   "naive        1024 DRAM write MB           0.002          0.000     nan\n"
                   "tiled        1024 DRAM write MB           0.000          0.000     nan\n"
                   "naive        1024 DRAM %                  0.720          0.720    0.00\n"
                   "naive        4096 duration us         22464.736      22437.536    0.12\n"
                   "naive        4096 DRAM read MB         7258.642       7343.213   -1.15\n"
                   "naive        4096 DRAM write MB          67.255         67.048    0.31\n"
                   "tiled        4096 DRAM write MB          66.900         67.100   -0.30\n"
                   "naive        4096 DRAM %                 12.196         12.270   -0.60\n"
                   "naive        4096 FFMA           68719476736.000 68719476736.000    0.00\n"
                   "\nlargest |difference| per metric:\n  duration us      0.42 %\n");
    snprintf(path, sizeof path, "%s/ncu-compare-hot.txt", dir);
    file_put(path, "naive        1024 duration us           300.000        290.000    3.45\n"
                   "naive        1024 DRAM %                  0.250          0.260   -3.85\n"
                   "naive        1024 SM %                   74.000         74.100   -0.13\n"
                   "naive        1024 DRAM read MB            0.000          0.016 -100.00\n");
    snprintf(path, sizeof path, "%s/devices.txt", dir);
    file_put(path, "#   name  cc SMs SM MHz mem MHz bus mem GiB L2 MiB peak GB/s peak GFLOP/s data folder\n"
                   "0   NVIDIA H200  9.0 132 1980 3201 6016 139.8 60.0 4814.3 66908.2 data/h200\n");

    char troot[600], out[700];
    snprintf(troot, sizeof troot, "%s/root", tmpdir);
    snprintf(out, sizeof out, "%s/reports", troot);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, NULL};
    int rc = report_run(5, argv);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    ck_assert_msg(rc == 0, "%s", report_err);
    snprintf(path, sizeof path, "%s/README.md", out);
    const char *md = file_get(path);
    const char *c = strstr(md, "**Counters against Nsight Compute** (NVIDIA H200)");
    ck_assert_ptr_nonnull(c);
    const char *end = strchr(c, '\n');
    ck_assert_ptr_nonnull(end);
    ck_assert_ptr_nonnull(strstr(c, "[data/h200/bench/ncu-compare.txt](../data/h200/bench/ncu-compare.txt)"));
    ck_assert_ptr_nonnull(strstr(c, "Cold L2 (`--cache-control all`): kernel duration within 0.42%, DRAM read bytes "
                                    "within 1.15%, DRAM throughput % within 0.60%, FFMA counts equal."));
    ck_assert_ptr_nonnull(strstr(c, "At 1024 (C is 4 MiB, inside the 60 MiB L2) DRAM write bytes are 0.000–0.002 MB "
                                    "against ncu's 0.000 MB: the output stays in L2."));
    ck_assert_ptr_nonnull(strstr(c, "At 4096 (C is 64 MiB, larger than the 60 MiB L2) DRAM write bytes are within "
                                    "0.31% (66.9–67.3 MB against 67.0–67.1 MB)."));
    /* only the hot comparison misses 3%, and says so */
    const char *hot = strstr(c, " Hot L2 (`--cache-control none`, application replay; "
                                "[ncu-compare-hot.txt](../data/h200/bench/ncu-compare-hot.txt)): kernel duration within "
                                "3.45%, DRAM read bytes 0.016 MB or less on both sides in 1 row, DRAM throughput % within "
                                "3.85%, SM throughput % within 0.13%.");
    ck_assert_ptr_nonnull(hot);
    ck_assert(strstr(c, "Beyond 3%") > hot);
    ck_assert_ptr_nonnull(strstr(hot, "**Beyond 3%:** duration us (3.45%), DRAM % (3.85%)."));
    ck_assert(strstr(hot, "Beyond") < end);
    links_check(out, 5); /* the comparison files, the tables, the scripts */
}
END_TEST

/* Input that is no CSV to read: exit 2 with the path and what was expected, nothing
 * written; a header without rows and the smallest times still give a report. */
START_TEST(test_report_bad_inputs)
{
    char out[512], path[700], dir[700], fixture[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(dir, sizeof dir, "%s/empty-folder", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    char *empty[] = {"report", "-o", out, dir, NULL};
    ck_assert_int_eq(report_run(4, empty), 2);
    ck_assert_msg(strstr(report_err, "empty-folder: no *.csv file in this folder"), "%s", report_err);

    char *dev[] = {"report", "-o", out, "/dev/zero", NULL};
    ck_assert_int_eq(report_run(4, dev), 2);
    ck_assert_msg(strstr(report_err, "/dev/zero: a character device: expected a CSV file or a folder"), "%s",
                  report_err);
    snprintf(path, sizeof path, "%s/fifo.csv", tmpdir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    char *fifo[] = {"report", "-o", out, path, NULL};
    ck_assert_int_eq(report_run(4, fifo), 2);
    ck_assert_msg(strstr(report_err, "fifo.csv: a FIFO (named pipe)"), "%s", report_err);
    ck_assert(!exists("%s/README.md", out));

    snprintf(fixture, sizeof fixture, "%s/tests/fixtures/csv/bad/ok-without-time.csv", root);
    char *no_time[] = {"report", "-o", out, fixture, NULL};
    ck_assert_int_eq(report_run(4, no_time), 2);
    ck_assert_msg(strstr(report_err, "ok-without-time.csv:3: column 'time_ms_median': expected the median time of an ok row"),
                  "%s", report_err);
    snprintf(path, sizeof path, "%s/order.csv", tmpdir);
    file_put(path, "kernel,params,dtype,m,n,k,status,time_ms_median,time_ms_min,time_ms_max\n"
                   "naive,,f32,8,8,8,ok,2,3,4\n");
    char *order[] = {"report", "-o", out, path, NULL};
    ck_assert_int_eq(report_run(4, order), 2);
    ck_assert_msg(strstr(report_err, "order.csv:2: expected time_ms_min <= time_ms_median <= time_ms_max"), "%s",
                  report_err);
    ck_assert(!exists("%s/README.md", out));
    /* a side file of launch times named as a results CSV; and a broken one beside its CSV */
    snprintf(path, sizeof path, "%s/run.samples.csv", tmpdir);
    file_put(path, "gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\nG,k,,f32,8,8,8,cold,T,1 x\n");
    char *side[] = {"report", "-o", out, path, NULL};
    ck_assert_int_eq(report_run(4, side), 2);
    ck_assert_msg(strstr(report_err, "run.samples.csv: the side file of launch times of a results CSV"), "%s",
                  report_err);
    snprintf(path, sizeof path, "%s/run.csv", tmpdir);
    file_put(path, "kernel,params,dtype,m,n,k,status,time_ms_median\nk,,f32,8,8,8,ok,1\n");
    char *beside[] = {"report", "-o", out, path, NULL};
    ck_assert_int_eq(report_run(4, beside), 2);
    ck_assert_msg(strstr(report_err, "run.samples.csv:2: column 'samples_ms'"), "%s", report_err);
    ck_assert(!exists("%s/README.md", out));

    /* a header and no row: a report that says so, no undefined behaviour */
    snprintf(path, sizeof path, "%s/header-only.csv", tmpdir);
    file_put(path, "kernel,params,dtype,m,n,k,status\n");
    char *header[] = {"report", "-q", "--no-plots", "-o", out, path, NULL};
    ck_assert_msg(report_run(6, header) == 0, "%s", report_err);
    ck_assert(exists("%s/README.md", out));

    /* the smallest time a cell may hold (a heatmap's colour scale once looped forever
     * on 5e-324) and a large one: the report returns, the tics are few */
    snprintf(path, sizeof path, "%s/tiny.csv", tmpdir);
    file_put(path, "kernel,params,dtype,m,n,k,status,time_ms_median\n"
                   "k,a=1;b=1,f32,1,1,1,ok,1e-300\nk,a=1;b=2,f32,1,1,1,ok,1\n"
                   "k,a=2;b=1,f32,1,1,1,ok,1e300\nk,a=2;b=2,f32,1,1,1,ok,1\n");
    char *tiny[] = {"report", "-q", "--no-plots", "-o", out, path, NULL};
    ck_assert_msg(report_run(6, tiny) == 0, "%s", report_err);
    snprintf(path, sizeof path, "%s/gnuplot/heatmap-unknown-gpu-k.gp", out);
    const char *gp = file_get(path);
    ck_assert_ptr_nonnull(gp);
    ck_assert_ptr_nonnull(strstr(gp, "set cbtics (1e-300, 2e-300,"));
}
END_TEST

/* A dangling link in a data folder stops the report only where it names a CSV the
 * report would read; any other (a note, notes.txt, a folder, a loop) is left alone, a
 * CSV's note with a line on stderr. The repository's data folders hold no link at all
 * (a relative one breaks when the folder is copied). */
START_TEST(test_report_dangling_links)
{
    char out[512], dir[700], cmd[4096], good[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(dir, sizeof dir, "%s/data/h100", tmpdir);
    snprintf(good, sizeof good, "%s/tests/fixtures/csv/good/h100.csv", root);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' '%s/course.csv' && cd '%s' && ln -s ../../gone/README.md course.md && "
             "ln -s /no/such/notes notes.txt && ln -s /no/such/folder sub && ln -s loop loop && ln -s loop loop.txt",
             dir, good, dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    char data[800];
    snprintf(data, sizeof data, "%s/data", tmpdir);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, data, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    ck_assert_msg(strstr(report_err, "course.md: a link to '../../gone/README.md', which does not exist") &&
                  strstr(report_err, "read without its note"), "%s", report_err);
    ck_assert(exists("%s/README.md", out));

    static const char *const links[] = {"/no/such/more.csv", "more.csv"}; /* dangling, a loop */
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && rm -f more.csv && ln -s %s more.csv", dir, links[i]);
        ck_assert_int_eq(system(cmd), 0);
        ck_assert_int_eq(report_run(6, argv), 2);
        ck_assert_msg(strstr(report_err, "more.csv: a link to '") &&
                      strstr(report_err, i ? "which is a loop of links" : "which does not exist") &&
                      strstr(report_err, "expected a CSV file"), "%s", report_err);
    }

    /* a FIFO named as a CSV is said, not passed over (nor read: it would wait) */
    snprintf(cmd, sizeof cmd, "cd '%s' && rm -f more.csv && mkfifo more.csv", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(report_run(6, argv), 2);
    ck_assert_msg(strstr(report_err, "more.csv: a FIFO (named pipe): expected a CSV file"), "%s", report_err);

    /* the repository's own data: files, no links */
    snprintf(cmd, sizeof cmd, "test -z \"$(find '%s/data' -type l)\"", root);
    ck_assert_msg(system(cmd) == 0, "a link in data/: find %s/data -type l", root);
}
END_TEST

/* The rows of the Markdown table in text whose first cell is a kernel in backticks. */
static char *kernel_rows(const char *text)
{
    size_t len = strlen(text), n = 0;
    char *rows = calloc(len + 1, 1);
    ck_assert_ptr_nonnull(rows);
    for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
        size_t w = strcspn(l, "\n");
        if (!strncmp(l, "| `", 3)) {
            memcpy(rows + n, l, w);
            n += w;
            rows[n++] = '\n';
        }
    }
    return rows;
}

/* Each GPU's note of the seed kernels (data/<gpu>/seeds-as-written.md, a file that
 * travels with the CSV) has the bug table of kernels/seeds/README.md, row for row. */
START_TEST(test_report_seed_notes_agree)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/kernels/seeds/README.md", root);
    const char *readme = file_get(path);
    ck_assert_ptr_nonnull(readme);
    const char *bugs = strstr(readme, "## What is wrong with each, as written");
    ck_assert_ptr_nonnull(bugs);
    char *want = kernel_rows(bugs);
    ck_assert_uint_ge(strlen(want), 100);
    static const char *const gpus[] = {"h100-80gb-hbm3", "h200"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/data/%s/seeds-as-written.md", root, gpus[i]);
        const char *text = file_get(path);
        ck_assert_msg(text, "%s", path);
        char *have = kernel_rows(text);
        ck_assert_msg(!strcmp(have, want), "%s differs from kernels/seeds/README.md:\n%s", path, have);
        free(have);
    }
    free(want);
}
END_TEST

/* The memory data.h states per row: after reading, the rows array holds each row in
 * sizeof(struct mmb_report_row) <= MMB_REPORT_ROW_BYTES, grown by at most a quarter,
 * and nothing of the CSV's text is left. */
START_TEST(test_report_memory_per_row)
{
    enum { ROWS = 20000 };
    char path[700], err[1024];
    snprintf(path, sizeof path, "%s/rows.csv", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("gpu,kernel,params,dtype,m,n,k,status,reason,time_ms_median\n", f);
    for (int i = 0; i < ROWS; i++)
        fprintf(f, "GPU,k%d,block_size_x=%d;block_size_y=16,f32,%d,64,64,ok,a reason long enough to count,1\n",
                i % 8, i, 64 + i % 16);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_uint_le(sizeof(struct mmb_report_row), MMB_REPORT_ROW_BYTES);
    struct mmb_report_data d = {0};
    struct mallinfo2 before = mallinfo2();
    ck_assert_msg(mmb_report_data_add_csv(&d, path, "rows.csv", err, sizeof err) == 0, "%s", err);
    struct mallinfo2 after = mallinfo2();
    ck_assert_uint_eq(d.nrows, ROWS);
    double used = (double)(after.uordblks + after.hblkhd) - (double)(before.uordblks + before.hblkhd);
    double per_row = used / ROWS;
    ck_assert_msg(per_row >= sizeof(struct mmb_report_row) && per_row <= 1.25 * sizeof(struct mmb_report_row) + 16,
                  "%.0f bytes a row; data.h says %zu, grown by at most a quarter", per_row,
                  sizeof(struct mmb_report_row));
    mmb_report_data_free(&d);
}
END_TEST

/* A gnuplot named with -g that cannot draw is bad input: exit 2 with its path,
 * nothing written. Without -g and no gnuplot installed, test_report_without_gnuplot. */
START_TEST(test_report_gnuplot_named)
{
    char out[512], good[1200];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(good, sizeof good, "%s/tests/fixtures/csv/good", root);
    char *missing[] = {"report", "-g", "/no/such/gnuplot", "-o", out, good, NULL};
    ck_assert_int_eq(report_run(6, missing), 2);
    ck_assert_msg(strstr(report_err, "--gnuplot /no/such/gnuplot: no such file: expected the gnuplot program"), "%s",
                  report_err);
    char *not_gnuplot[] = {"report", "-g", "/bin/true", "-o", out, good, NULL};
    ck_assert_int_eq(report_run(6, not_gnuplot), 2);
    ck_assert_msg(strstr(report_err, "/bin/true -e 'set terminal' printed no list of terminals"), "%s", report_err);
    ck_assert(!exists("%s/README.md", out));
    ck_assert(!exists("%s/gnuplot/gflops-h200.gp", out));
}
END_TEST

/* Memory and time grow with the rows, not with GPUs x kernels x shapes (600 rows of
 * 30 GPUs and 20 shapes once asked for 1.7 GB); past the report's limits, an error
 * names the row. */
START_TEST(test_report_many)
{
    char path[700], out[512];
    snprintf(out, sizeof out, "%s/out", tmpdir);
    snprintf(path, sizeof path, "%s/many.csv", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("gpu,kernel,params,dtype,m,n,k,status,time_ms_median\n", f);
    for (int i = 0; i < 600; i++)
        fprintf(f, "gpu%d,k%d,,f32,%d,%d,%d,ok,1\n", i % 30, i % 50, 1 + i / 30, 7, 7);
    ck_assert_int_eq(fclose(f), 0);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, path, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);

    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("kernel,params,dtype,m,n,k,status,time_ms_median\n", f);
    for (int i = 0; i < 70; i++)
        fprintf(f, "k%d,,f32,8,8,8,ok,1\n", i);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(report_run(6, argv), 2);
    ck_assert_msg(strstr(report_err, "many.csv:66: kernel 'k64' is one more than the 64 that a report tells apart"), "%s",
                  report_err);
}
END_TEST

/* The Key findings open the README and are computed from the data: from a subset of
 * the committed H100, H200 and GTX TITAN X rows (profiles course, tune-seed and
 * dtypes) they give the numbers worked out by hand from those rows, the story's from
 * the course rows alone (naive's 6.4 TFLOP/s is tune-seed's best configuration; the
 * course's is 6.2); a GPU whose
 * rows carry L1 and L2 throughput gets its limiter named, one whose rows lack them
 * is told which rows. */
static void file_put(const char *path, const char *text);

START_TEST(test_report_findings)
{
    char cmd[4400], troot[600], out[700], path[800];
    snprintf(troot, sizeof troot, "%s/root", tmpdir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/reports' && cp -r '%s/tests/fixtures/csv/findings' '%s/data'", troot, root,
             troot);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(out, sizeof out, "%s/reports", troot);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, NULL};
    int rc = report_run(5, argv);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    ck_assert_msg(rc == 0, "%s", report_err);
    snprintf(path, sizeof path, "%s/README.md", out);
    char *md = strdup(file_get(path));
    ck_assert_ptr_nonnull(md);
    /* the summary first, then the findings */
    static const char opening[] = "# mmbench report\n\n## Summary\n\n- ";
    ck_assert_msg(strncmp(md, opening, strlen(opening)) == 0, "%.200s", md);
    ck_assert_ptr_nonnull(strstr(md, "\n## Key findings\n\n- **"));
    const char *end = strstr(md, "\n## This report");
    ck_assert_ptr_nonnull(end);
    size_t bullets = 0;
    for (const char *p = strstr(md, "\n- **"); p && p < end; p = strstr(p + 1, "\n- **"))
        bullets++;
    ck_assert_uint_ge(bullets, 8);
    static const char *const says[] = {
        "naive 6.2 TFLOP/s, tiled 9.0 (×1.45), rect\\_tiles 12.7 (×1.41), tunable 33.9 (×2.66), cublas 51.5 (×1.52)",
        "tunable, reaches 66% of cuBLAS and 51% of the FP32 peak (66.9 TFLOP/s); cuBLAS reaches 77%",
        "naive uses 9.3% of the FP32 pipe, SM throughput 75%, DRAM 5.9%, L1 hit rate 95%",
        "naive uses 0.27% of DRAM bandwidth by nvbench's definition",
        "and 5.9% by the bytes DRAM actually moved, yet only 9.3% of the FP32 pipe: it is bound by neither",
        "GTX TITAN X (published) times give 2.74× at 4096 (naive's best 502.0 ms, tiled 183.3 ms)",
        "On the H100 80GB HBM3 tiling gives 1.45× at 4096, 1.57× at 8192",
        "naive 22×, tiled 42×, rect\\_tiles 11×, tunable 10×, cublas 1.96×",
        /* the rows that lack L1 and L2 throughput, named with their file */
        "which the rows of naive, tiled, rect\\_tiles, tunable, cublas (data/h100-80gb-hbm3/results.csv) lack",
        /* GPUs compared at one configuration, through compare's verdicts: the H100's best configuration on
         * both; times 10 launches a side, intervals from min and max (worked out by hand from the rows) */
        "each kernel at the H100 80GB HBM3's best configuration and the same configuration on the H200",
        "naive 1.037 \\[1.034, 1.040\\] SLOWER, tiled 1.027 \\[1.026, 1.028\\] SLOWER, rect\\_tiles 0.998 "
        "\\[0.997, 0.999\\] SAME, tunable 0.998 \\[0.996, 1.004\\] SAME",
        "the largest difference beyond the noise is at 8192 (bx=32 by=4 tx=4 ty=8): tunable 0.942 \\[0.929, 0.973\\] "
        "FASTER, where at this configuration the H200 moves 31% fewer DRAM bytes (36.7 GB against 53.0 GB): its larger "
        "L2 keeps more of the reuse",
        "These rows carry no launch times, so the intervals come from the rows' min and max",
        "The rows record no protocol, so nothing shows that the two GPUs were timed alike",
        "runs naive 19× and tiled 12× faster than the GTX TITAN X (published), whose FP32 peak is 10× lower",
        "so mmbench compare gives them no verdict (UNSURE)",
        "143% of the FP64 pipe's peak (33.5 TFLOP/s): DGEMM runs on the FP64 tensor cores",
        "the timing spread (max - min over the median) reaches",
    };
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++) {
        const char *at = strstr(md, says[i]);
        ck_assert_msg(at && at < end, "Key findings lack: %s", says[i]);
    }
    free(md);
    /* what tuning found: tuning.md's findings, not the README's */
    static const char *const tuned[] = {
        "The best, bx=32 by=4 tx=4 ty=8, reaches 33.9 TFLOP/s, 66% of cuBLAS",
        "The best runs at 30% occupancy, the three slowest at 99% on average",
        "The H200 ranks them alike: the same 8 fastest, in the same order",
    };
    snprintf(path, sizeof path, "%s/tuning.md", out);
    md = strdup(file_get(path));
    ck_assert_ptr_nonnull(md);
    for (size_t i = 0; i < sizeof tuned / sizeof tuned[0]; i++)
        ck_assert_msg(strstr(md, tuned[i]), "tuning.md lacks: %s", tuned[i]);
    free(md);
    snprintf(path, sizeof path, "%s/tables.tex", out);
    const char *tex = file_get(path);
    ck_assert_ptr_nonnull(strstr(tex, "\\section*{Key findings}"));
    ck_assert_ptr_nonnull(strstr(tex, "give 2.74$\\times$ at 4096"));
    ck_assert_ptr_nonnull(strstr(tex, "\\section*{Terms}"));

    /* with L1 and L2 throughput the limiter is named, and no request to measure again */
    char sol[1200];
    snprintf(sol, sizeof sol, "%s/tests/fixtures/csv/findings-sol", root);
    char *argv_sol[] = {"report", "-q", "--no-plots", "-o", out, sol, NULL};
    ck_assert_msg(report_run(6, argv_sol) == 0, "%s", report_err);
    snprintf(path, sizeof path, "%s/README.md", out);
    md = file_get(path);
    ck_assert_ptr_nonnull(strstr(md, "naive is limited by L1/TEX throughput (86%; pipe 9.3%, L1 86%, L2 41%, DRAM 5.9%)"));
    /* without the issue rate, the SM's busiest unit (87%) more than 2 points above the pipe (77%) */
    ck_assert_ptr_nonnull(strstr(md, "cublas is limited by the SM's busiest unit (87%; pipe 77%"));
    ck_assert_ptr_nonnull(strstr(md, "What limits it is L1/TEX throughput."));
    ck_assert_ptr_null(strstr(md, "measure again with the default metrics to name it"));

    /* the L1 and L2 roofs come from the roof lines of the GPU's ncu comparison; the
     * points of each level from its byte counter */
    char dir[900], path2[1000];
    snprintf(dir, sizeof dir, "%s/sol/data/synthetic-gpu-with-sol-counters/bench", tmpdir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s/sol.csv' '%s/..'", dir, sol, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(path2, sizeof path2, "%s/ncu-compare.txt", dir);
    file_put(path2, "roof L1 33454.1 GB/s  (l1tex)\nroof L2 8192.0 GB/s  (lts)\nroof DRAM 3485.9 GB/s  (dram)\n");
    snprintf(troot, sizeof troot, "%s/sol", tmpdir);
    snprintf(out, sizeof out, "%s/sol/reports", tmpdir);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    char *argv_roofs[] = {"report", "-q", "--no-plots", "-o", out, NULL};
    rc = report_run(5, argv_roofs);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    ck_assert_msg(rc == 0, "%s", report_err);
    snprintf(path2, sizeof path2, "%s/gnuplot/roofline-synthetic-gpu-with-sol-counters.gp", out);
    const char *gp = file_get(path2);
    ck_assert_ptr_nonnull(gp);
    ck_assert_ptr_nonnull(strstr(gp, "B2 = 33454.1"));
    ck_assert_ptr_nonnull(strstr(gp, "B1 = 8192.0"));
    ck_assert_ptr_nonnull(strstr(gp, "title \"L1 intensity\""));
    snprintf(path2, sizeof path2, "%s/gnuplot/roofline-synthetic-gpu-with-sol-counters.dat", out);
    ck_assert_ptr_nonnull(strstr(file_get(path2), "# naive, L1"));
    /* the traffic figure has a shared-memory panel where a kernel has wavefronts (tiled) */
    snprintf(path2, sizeof path2, "%s/gnuplot/traffic-synthetic-gpu-with-sol-counters.gp", out);
    ck_assert_ptr_nonnull(strstr(file_get(path2), "set title \"shared-memory bytes\""));
    ck_assert_ptr_nonnull(strstr(file_get(path2), "set title \"L1/TEX bytes (global)\""));
    /* only 1k, 4k and 8k are labelled: the 4096 rows of sol.csv */
    snprintf(path2, sizeof path2, "%s/gnuplot/roofline-synthetic-gpu-with-sol-counters.dat", out);
    ck_assert_ptr_nonnull(strstr(file_get(path2), " \"4k\"  # "));

    /* ncu-stalls.txt's roofs come first (its L1, the shared-memory level), ncu-compare.txt
     * fills what it lacks (L2); without an L2 roof the L2 points are left out, and said */
    snprintf(path2, sizeof path2, "%s/ncu-stalls.txt", dir);
    file_put(path2, "roof L1 40000.0 GB/s  (l1tex)\nroof SMEM 8363.5 GB/s  (wavefronts x 128 B)\n");
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    rc = report_run(5, argv_roofs);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    ck_assert_msg(rc == 0, "%s", report_err);
    snprintf(path2, sizeof path2, "%s/gnuplot/roofline-synthetic-gpu-with-sol-counters.gp", out);
    gp = file_get(path2);
    ck_assert_ptr_nonnull(strstr(gp, "B2 = 40000.0"));
    ck_assert_ptr_nonnull(strstr(gp, "B1 = 8192.0"));
    ck_assert_ptr_nonnull(strstr(gp, "B3 = 8363.5"));
    snprintf(path2, sizeof path2, "%s/ncu-compare.txt", dir);
    file_put(path2, "no roof lines\n");
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", troot, 1), 0);
    rc = report_run(5, argv_roofs);
    ck_assert_int_eq(setenv("MMB_SOURCE_ROOT", root, 1), 0);
    ck_assert_msg(rc == 0, "%s", report_err);
    snprintf(path2, sizeof path2, "%s/gnuplot/roofline-synthetic-gpu-with-sol-counters.dat", out);
    ck_assert_ptr_null(strstr(file_get(path2), "# naive, L2"));
    ck_assert_ptr_nonnull(strstr(file_get(path2), "# naive, L1"));
    snprintf(path2, sizeof path2, "%s/README.md", out);
    ck_assert_msg(strstr(file_get(path2), "Left out for want of a measured roof: the Synthetic GPU with SOL counters's "
                                          "L2 points (scripts/gpu/ncu-stalls.sh on that GPU measures the roofs)."),
                  "%s", file_get(path2));
}
END_TEST


/* Rows of the same configuration on two GPUs with their launch times and one protocol:
 * the GPUs are compared from every launch's time; a configuration measured again (its
 * kernel edited) counts by its later row, the earlier one left out and said; another
 * protocol on one GPU: no verdict, and the report says why. The side files of
 * samples in the data folders are read with their CSVs, not as CSVs. */
static void gpu_rows(const char *dir, const char *gpu, double scale, const char *protocol, bool edited)
{
    char path[700], e[1024];
    snprintf(path, sizeof path, "%s/course.csv", dir);
    ck_assert_int_eq(mkdir(dir, 0755) == 0 || errno == EEXIST, 1);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, e, sizeof e);
    struct mmb_samples_writer *sw = mmb_samples_writer_open(path, e, sizeof e);
    ck_assert_msg(w && sw, "%s", e);
    static const char *const kernels[] = {"naive", "tiled", "cublas"};
    for (int pass = 0; pass < (edited ? 2 : 1); pass++)
        for (int size = 2048; size <= 4096; size *= 2)
            for (int k = 0; k < 3; k++) {
                if (pass && k != 1)
                    continue; /* tiled measured again after an edit, 30% faster */
                struct mmb_row r;
                mmb_row_init(&r);
                snprintf(r.gpu, sizeof r.gpu, "%s", gpu);
                snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-%s", gpu);
                snprintf(r.profile, sizeof r.profile, "course");
                snprintf(r.kernel, sizeof r.kernel, "%s", kernels[k]);
                snprintf(r.params, sizeof r.params, "%s", k < 2 ? "block_size_x=32;block_size_y=32" : "");
                snprintf(r.dtype, sizeof r.dtype, "f32");
                snprintf(r.cache, sizeof r.cache, "cold");
                snprintf(r.protocol, sizeof r.protocol, "%s", protocol);
                snprintf(r.source_digest, sizeof r.source_digest, pass ? "00000000000000bb" : "00000000000000aa");
                snprintf(r.timestamp, sizeof r.timestamp, "2026-11-2%dT10:00:00Z", 5 + pass);
                r.m = r.n = r.k = size;
                r.peak_gbps = 3352;
                r.peak_gflops = 66900;
                double base = (size == 4096 ? 8.0 : 1.0) * (3 - k) * scale * (pass ? 0.7 : 1.0);
                double t[12];
                for (int i = 0; i < 12; i++)
                    t[i] = (double)(float)(base * (1.0 + 0.001 * ((i * 7) % 12 - 5.5) / 5.5));
                double sorted[12];
                memcpy(sorted, t, sizeof t);
                for (int i = 0; i < 12; i++) /* insertion sort */
                    for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
                        double x = sorted[j];
                        sorted[j] = sorted[j - 1];
                        sorted[j - 1] = x;
                    }
                r.repeats = 12;
                r.time_ms_median = 0.5 * (sorted[5] + sorted[6]);
                r.time_ms_min = sorted[0];
                r.time_ms_max = sorted[11];
                r.time_ms_stddev = 0.001 * base;
                ck_assert_int_eq(mmb_samples_append(sw, &r, t, 12, e, sizeof e), 0);
                ck_assert_int_eq(mmb_csv_append_row(w, &r, e, sizeof e), 0);
            }
    mmb_samples_writer_close(sw);
    mmb_csv_writer_close(w);
}

START_TEST(test_report_one_configuration)
{
    char troot[600], data[700], dir[800], out[700], path[900];
    snprintf(troot, sizeof troot, "%s/root", tmpdir);
    snprintf(data, sizeof data, "%s/data", troot);
    snprintf(out, sizeof out, "%s/reports", troot);
    ck_assert_int_eq(mkdir(troot, 0755), 0);
    ck_assert_int_eq(mkdir(data, 0755), 0);
    const char *proto = "mmbench=0.1.0;warmup=2;repeats=12;cache=cold;l2_flush=read:8;counters=none";
    snprintf(dir, sizeof dir, "%s/h100", data);
    gpu_rows(dir, "NVIDIA H100 80GB HBM3", 1.0, proto, true);
    snprintf(dir, sizeof dir, "%s/h200", data);
    gpu_rows(dir, "NVIDIA H200", 0.9, proto, false);
    char *argv[] = {"report", "-q", "--no-plots", "-o", out, data, NULL};
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    snprintf(path, sizeof path, "%s/README.md", out);
    char *md = strdup(file_get(path));
    ck_assert_msg(strstr(md, "2 more rows left out, superseded by a later measurement"), "%.3000s", md);
    /* tiled: the later rows (0.7 of the time) against the H200's 0.9: SLOWER on the H200 */
    const char *finding = strstr(md, "**H200 against");
    ck_assert_ptr_nonnull(finding);
    ck_assert_msg(strstr(finding, "naive 0.900 \\[0.899, 0.901\\] FASTER, tiled 1.286 \\[1.284, 1.288\\] SLOWER"),
                  "%.1500s", finding);
    ck_assert_msg(strstr(finding, "Both GPUs' rows were timed under one protocol (") &&
                      strstr(finding, "and every interval comes from every launch's time."), "%.1500s", finding);
    ck_assert_ptr_nonnull(strstr(md, "### GPU generations at one configuration"));
    ck_assert_msg(strstr(md, "| tiled | `bx=32 by=32` | 11.20 | 14.40 | 1.286 | 1.284 – 1.288 | SLOWER |"), "%.1500s",
                  strstr(md, "### GPU generations at one"));
    free(md);

    /* the H200 timed otherwise: no verdict between the two */
    gpu_rows(dir, "NVIDIA H200", 0.9, "mmbench=0.1.0;warmup=0;repeats=12;cache=cold;l2_flush=read:8;counters=none",
             false);
    ck_assert_msg(report_run(6, argv) == 0, "%s", report_err);
    md = file_get(path);
    ck_assert_msg(strstr(md, "were timed under different protocols (warmup 2 against 0): mmbench compares GPUs only "
                             "under one protocol, so this report gives no verdict"), "%.1500s", strstr(md, "**H200"));
}
END_TEST

/* `test_report tuning`: the tuning report of the repository's data alone (its own
 * meson test, report-tuning, which runs beside the others); without an argument,
 * everything else. */
int main(int argc, char **argv)
{
    Suite *s = suite_create("report");
    if (argc > 1 && !strcmp(argv[1], "tuning")) {
        TCase *tuning = tcase_create("tuning");
        tcase_add_checked_fixture(tuning, tmpdir_setup, tmpdir_teardown);
        tcase_set_timeout(tuning, 120);
        tcase_add_test(tuning, test_report_tuning);
        suite_add_tcase(s, tuning);
        return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    /* the fixtures' report drawn once (in this process), read by each test */
    TCase *dr = tcase_create("drawn");
    tcase_add_unchecked_fixture(dr, drawn_setup, drawn_teardown);
    tcase_set_timeout(dr, 120);
    tcase_add_test(dr, test_report_files);
    tcase_add_test(dr, test_report_scripts_run);
    tcase_add_test(dr, test_report_links);
    suite_add_tcase(s, dr);
    TCase *tc = tcase_create("report");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gp_log_tics);
    tcase_add_test(tc, test_report_without_gnuplot);
    tcase_add_test(tc, test_report_malformed);
    tcase_add_test(tc, test_report_bad_options);
    tcase_add_test(tc, test_report_published);
    tcase_add_test(tc, test_report_ncu_caveat);
    tcase_add_test(tc, test_report_bad_inputs);
    tcase_add_test(tc, test_report_dangling_links);
    tcase_add_test(tc, test_report_seed_notes_agree);
    tcase_add_test(tc, test_report_memory_per_row);
    tcase_add_test(tc, test_report_gnuplot_named);
    tcase_add_test(tc, test_report_many);
    tcase_add_test(tc, test_report_findings);
    tcase_add_test(tc, test_report_one_configuration);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
