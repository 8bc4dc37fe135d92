/* test_compare.c - `mmbench compare` and the comparison of two rows (results/compare/compare.h):
 * a run against a copy whose times of one kernel are 20% longer gives SLOWER for that
 * kernel's rows and nothing else slower, and --fail-on slower exits 1; a run against
 * itself gives no SLOWER or FASTER and exits 0; rows without samples fall back to their
 * min and max and say so; other protocols are left out unless --any-protocol; folders,
 * --gpus, Markdown, and bad input (exit 2 with the file). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check_run.h"
#include "core/hash.h"
#include "core/stats.h"
#include "csv_rows.h"
#include "results/compare/compare.h"
#include "results/csv.h"
#include "results/csv_samples.h"
#include "tmpdir.h"

static char out[1 << 18], err[1 << 14];

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* mmbench compare ARGS; stdout and stderr in out and err; the exit status. */
static int compare(const char *args)
{
    const char *prog = getenv("MMBENCH");
    ck_assert_msg(prog != NULL, "MMBENCH must name the mmbench program");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' compare %s >out.txt 2>err.txt", tmpdir, prog, args);
    int status = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/out.txt", tmpdir);
    slurp(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s/err.txt", tmpdir);
    slurp(cmd, err, sizeof err);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static double uniform(uint64_t *state)
{
    return ((double)(mmb_splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

static const char *const kernels[] = {"naive", "tiled", "tunable", "cublas"};
#define NKERNELS 4
static const long long sizes[] = {512, 1024, 2048, 4096};
#define NSIZES 4
#define LAUNCHES 30

/* A run as the sweep writes it into path (and its side file unless no_samples): each
 * kernel at each size, 30 launches of 0.3% to 3% noise (more at small sizes, a slow
 * outlier now and then); slower[k] scales kernel k's times (1: as measured). The same
 * seed gives the same times, so a copy differs only where scaled. */
static void write_run(const char *path, const double *scale, const char *protocol, bool no_samples)
{
    char e[1024];
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, e, sizeof e);
    ck_assert_msg(w != NULL, "%s", e);
    struct mmb_samples_writer *sw = no_samples ? NULL : mmb_samples_writer_open(path, e, sizeof e);
    ck_assert_msg(no_samples || sw != NULL, "%s", e);
    uint64_t state = 2026;
    for (int s = 0; s < NSIZES; s++)
        for (int k = 0; k < NKERNELS; k++) {
            struct mmb_row r;
            mmb_row_init(&r);
            snprintf(r.gpu, sizeof r.gpu, "NVIDIA H100 80GB HBM3");
            snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-a");
            snprintf(r.profile, sizeof r.profile, "course");
            snprintf(r.kernel, sizeof r.kernel, "%s", kernels[k]);
            snprintf(r.params, sizeof r.params, "%s", k == 3 ? "" : "block_size_x=32;block_size_y=32");
            snprintf(r.dtype, sizeof r.dtype, "f32");
            snprintf(r.cache, sizeof r.cache, "cold");
            snprintf(r.protocol, sizeof r.protocol, "%s", protocol);
            snprintf(r.timestamp, sizeof r.timestamp, "2026-11-26T05:00:%02dZ", s * NKERNELS + k);
            r.m = r.n = r.k = sizes[s];
            double base = 1e-3 * pow((double)sizes[s] / 512.0, 3) * (k + 1), noise = 0.03 / (s + 1);
            double t[LAUNCHES], sorted[LAUNCHES];
            for (int i = 0; i < LAUNCHES; i++) {
                double x = base * (1.0 + noise * (uniform(&state) - 0.5));
                if (uniform(&state) < 0.05)
                    x *= 1.0 + 3.0 * noise;
                t[i] = sorted[i] = (double)(float)(x * scale[k]);
            }
            struct mmb_stats st;
            mmb_stats_compute(sorted, LAUNCHES, &st);
            r.repeats = LAUNCHES;
            r.time_ms_median = st.median;
            r.time_ms_min = st.min;
            r.time_ms_max = st.max;
            r.time_ms_stddev = st.stddev;
            if (sw)
                ck_assert_msg(mmb_samples_append(sw, &r, t, LAUNCHES, e, sizeof e) == 0, "%s", e);
            ck_assert_msg(mmb_csv_append_row(w, &r, e, sizeof e) == 0, "%s", e);
        }
    mmb_samples_writer_close(sw);
    mmb_csv_writer_close(w);
}

/* The verdicts of out's table rows of kernel (NULL: of every kernel but `but`). */
static void verdicts_of(const char *kernel, const char *but, size_t counts[MMB_VERDICT_COUNT])
{
    memset(counts, 0, MMB_VERDICT_COUNT * sizeof *counts);
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char text[1024];
        snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), line);
        char first[64] = "";
        sscanf(text, "%63s", first);
        bool mine = kernel ? !strcmp(first, kernel) : strcmp(first, but) != 0;
        for (int v = 0; mine && v < MMB_VERDICT_COUNT; v++) {
            char word[32];
            snprintf(word, sizeof word, "  %s  ", mmb_verdict_text((enum mmb_verdict)v));
            counts[v] += strstr(text, word) != NULL;
        }
        line = end ? end + 1 : line + len;
    }
}

static const double same[NKERNELS] = {1, 1, 1, 1}, tiled_slower[NKERNELS] = {1, 1.2, 1, 1};
#define PROTOCOL "mmbench=0.1.0;warmup=2;noise=0.5%;min_samples=10;max_seconds=1;cache=cold;l2_flush=read:8"

static void path_in(char *out_path, size_t len, const char *name)
{
    snprintf(out_path, len, "%s/%s", tmpdir, name);
}

/* The run against a copy whose tiled times are 20% longer: SLOWER for tiled's rows,
 * nothing else SLOWER or FASTER; --fail-on slower exits 1; against itself no SLOWER or
 * FASTER and exit 0. */
START_TEST(test_twenty_percent_slower)
{
    char a[512], b[512];
    path_in(a, sizeof a, "old.csv");
    path_in(b, sizeof b, "new.csv");
    write_run(a, same, PROTOCOL, false);
    write_run(b, tiled_slower, PROTOCOL, false);
    size_t v[MMB_VERDICT_COUNT];
    ck_assert_msg(compare("old.csv new.csv") == 0, "%s", err);
    verdicts_of("tiled", NULL, v);
    ck_assert_msg(v[MMB_VERDICT_SLOWER] == NSIZES && v[MMB_VERDICT_SAME] + v[MMB_VERDICT_UNSURE] + v[MMB_VERDICT_FASTER] == 0,
                  "%s", out);
    verdicts_of(NULL, "tiled", v);
    ck_assert_msg(v[MMB_VERDICT_SLOWER] == 0 && v[MMB_VERDICT_FASTER] == 0 && v[MMB_VERDICT_SAME] == 3 * NSIZES, "%s",
                  out);
    ck_assert_msg(strstr(out, "16 configurations compared (threshold 2%, 95% intervals): 0 FASTER, 4 SLOWER, 12 SAME, "
                              "0 UNSURE. 16 with every launch's time on both sides"), "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "1.2000"));
    ck_assert_int_eq(compare("--fail-on slower old.csv new.csv"), 1);
    ck_assert_msg(strstr(err, "4 SLOWER (--fail-on)"), "%s", err);
    /* the other way round: FASTER */
    ck_assert_int_eq(compare("--fail-on slower new.csv old.csv"), 0);
    ck_assert_msg(strstr(out, ": 4 FASTER, 0 SLOWER, 12 SAME, 0 UNSURE."), "%s", out);

    ck_assert_int_eq(compare("--fail-on slower,faster old.csv old.csv"), 0);
    verdicts_of(NULL, "", v);
    ck_assert_msg(v[MMB_VERDICT_SLOWER] == 0 && v[MMB_VERDICT_FASTER] == 0 && v[MMB_VERDICT_SAME] == 16, "%s", out);
    /* a threshold so tight that the noise allows no SAME: UNSURE, still no direction */
    ck_assert_int_eq(compare("--threshold 0.01% old.csv old.csv"), 0);
    ck_assert_msg(strstr(out, ": 0 FASTER, 0 SLOWER, 0 SAME, 16 UNSURE."), "%s", out);
    ck_assert_int_eq(compare("--fail-on unsure --threshold 0.0001 old.csv old.csv"), 1);
}
END_TEST

/* Rows without samples (older data): the rows' min and max of their launches, said in
 * the notes and the summary; a row that is not ok is listed, not compared. */
START_TEST(test_without_samples)
{
    char a[512], b[512];
    path_in(a, sizeof a, "old.csv");
    path_in(b, sizeof b, "new.csv");
    write_run(a, same, "", true);
    write_run(b, tiled_slower, "", true);
    ck_assert_msg(compare("old.csv new.csv") == 0, "%s", err);
    ck_assert_msg(strstr(out, "min-max of 30 launches; protocol not recorded"), "%s", out);
    ck_assert_msg(strstr(out, "0 with every launch's time on both sides, 16 from the rows' min and max (no samples)"),
                  "%s", out);
    ck_assert_msg(strstr(out, "16 of rows that recorded no protocol"), "%s", out);
    size_t v[MMB_VERDICT_COUNT];
    verdicts_of(NULL, "tiled", v);
    ck_assert(v[MMB_VERDICT_SLOWER] == 0 && v[MMB_VERDICT_FASTER] == 0);
    verdicts_of("tiled", NULL, v);
    ck_assert_msg(v[MMB_VERDICT_SLOWER] + v[MMB_VERDICT_UNSURE] == NSIZES && v[MMB_VERDICT_SLOWER] >= 1, "%s", out);

    /* one side with samples, the other without */
    write_run(a, same, "", false);
    ck_assert_int_eq(compare("old.csv new.csv"), 0);
    ck_assert_msg(strstr(out, "samples against min-max of 30 launches"), "%s", out);

    /* a row that failed on one side: its kernel edited, then it timed out (a timeout of
     * the same measurement would not supersede the ok row) */
    struct collected c = read_csv(b);
    struct mmb_row bad = c.rows[0];
    bad.status = MMB_STATUS_TIMEOUT;
    snprintf(bad.source_digest, sizeof bad.source_digest, "00000000000000bb");
    snprintf(bad.timestamp, sizeof bad.timestamp, "2026-11-27T00:00:00Z");
    char e[512];
    struct mmb_csv_writer *w = mmb_csv_writer_open(b, e, sizeof e);
    ck_assert_int_eq(mmb_csv_append_row(w, &bad, e, sizeof e), 0);
    mmb_csv_writer_close(w);
    free(c.rows);
    ck_assert_int_eq(compare("old.csv new.csv"), 0);
    ck_assert_msg(strstr(out, "not compared: old ok, new timeout") && strstr(out, "1 not ok on a side"), "%s", out);
}
END_TEST

/* Rows timed otherwise: left out and said, compared with --any-protocol and said in
 * the notes; folders, --gpus, Markdown. */
START_TEST(test_protocols_folders_markdown)
{
    char a[512], b[512];
    ck_assert_int_eq(mkdir(strcat(strcpy(a, tmpdir), "/data"), 0755), 0);
    ck_assert_int_eq(mkdir(strcat(strcpy(a, tmpdir), "/data/h100"), 0755), 0);
    ck_assert_int_eq(mkdir(strcat(strcpy(a, tmpdir), "/data/h200"), 0755), 0);
    path_in(a, sizeof a, "data/h100/course.csv");
    path_in(b, sizeof b, "data/h200/course.csv");
    write_run(a, same, PROTOCOL, false);
    write_run(b, same, "mmbench=0.1.0;warmup=2;repeats=10;cache=cold;l2_flush=read:8", false);
    path_in(a, sizeof a, "data/h100/quick.csv");
    write_run(a, same, PROTOCOL, false);
    ck_assert_int_eq(compare("--gpus h100 h200"), 0);
    ck_assert_msg(strstr(out, "0 configurations compared") &&
                      strstr(out, "16 left out as timed under different protocols (first difference: noise 0.5% "
                                  "against (none)): --any-protocol compares them"),
                  "%s", out);
    ck_assert_int_eq(compare("--any-protocol --gpus h100,h200"), 0);
    ck_assert_msg(strstr(out, "16 configurations compared") && strstr(out, "protocol differs: noise 0.5% against (none)") &&
                      strstr(out, "16 timed under different protocols, compared anyway"),
                  "%s", out);
    ck_assert_msg(strstr(out, "== data/h100/course.csv (old) against data/h200/course.csv (new)") &&
                      !strstr(out, "quick.csv"),
                  "%s", out);
    ck_assert_int_eq(compare("--any-protocol --format md -p course data/h100 data/h200"), 0);
    ck_assert_msg(strstr(out, "### data/h100/course.csv against data/h200/course.csv\n\n| kernel | params |") &&
                      strstr(out, "| ---: |") && strstr(out, "**Summary.** 16 configurations compared"),
                  "%s", out);
    /* an older mmbench's rows and this one's: not timed alike as far as anyone knows */
    write_run(b, same, "", false);
    ck_assert_int_eq(compare("--gpus h100 h200"), 0);
    ck_assert_msg(strstr(out, "first difference: one protocol not recorded"), "%s", out);
}
END_TEST

START_TEST(test_bad_input)
{
    char a[512];
    path_in(a, sizeof a, "old.csv");
    write_run(a, same, PROTOCOL, false);
    ck_assert_int_eq(mkdir(strcat(strcpy(a, tmpdir), "/folder"), 0755), 0);
    static const struct {
        const char *args, *what;
    } bad[] = {
        {"old.csv", "expected OLD and NEW"},
        {"old.csv gone.csv", "gone.csv"},
        {"old.csv folder", "expected two CSVs or two folders"},
        {"--format html old.csv old.csv", "--format expects text or md"},
        {"--fail-on slowest old.csv old.csv", "--fail-on expects verdicts"},
        {"--threshold 0 old.csv old.csv", "--threshold expects"},
        {"--threshold 150% old.csv old.csv", "--threshold expects"},
        {"--gpus a b", "no such GPU folder"},
        {"--gpus a", "--gpus takes two GPU folders"},
        {"--gpus ,", "expected the names of two GPU folders"},
        {"--gpus a ../b", "expected the names of two GPU folders"},
        {"-p course old.csv old.csv", "--profile chooses the CSVs of folders"},
        {"folder folder", "no results CSV of one name"},
        {"old.csv bad.csv", "bad.csv:2:"},
        {"old.csv other.csv", "no configuration in common"},
        {"old.csv old.samples.csv", "old.samples.csv:1:"},
    };
    char b[512];
    path_in(b, sizeof b, "bad.csv");
    FILE *f = fopen(b, "w");
    fputs("kernel,params,dtype,m,n,k,status\nnaive,,f32,0,1,1,ok\n", f);
    fclose(f);
    path_in(b, sizeof b, "other.csv");
    f = fopen(b, "w");
    fputs("kernel,params,dtype,m,n,k,status,time_ms_median\nnaive,,f32,7,7,7,ok,1\n", f);
    fclose(f);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(compare(bad[i].args) == 2, "%s: %s %s", bad[i].args, out, err);
        ck_assert_msg(strstr(err, bad[i].what) && !strncmp(err, "mmbench compare: ", 17), "%s: %s", bad[i].args, err);
    }
}
END_TEST

/* The library: two rows and their samples. */
START_TEST(test_compare_rows)
{
    struct mmb_row a, b;
    mmb_row_init(&a);
    a.time_ms_median = 1.0;
    a.time_ms_min = 0.99;
    a.time_ms_max = 1.02;
    a.repeats = 10;
    b = a;
    b.time_ms_median = 1.5;
    b.time_ms_min = 1.49;
    b.time_ms_max = 1.51;
    struct mmb_comparison c;
    mmb_compare_rows(&a, NULL, 0, &b, NULL, 0, 0.02, &c);
    ck_assert_int_eq(c.old_basis, MMB_BASIS_EXTREMES);
    ck_assert_int_eq(c.ratio.verdict, MMB_VERDICT_SLOWER);
    ck_assert(c.timed_alike && !c.protocol_recorded);
    char note[128];
    mmb_compare_basis_note(&c, &a, &b, note, sizeof note);
    ck_assert_str_eq(note, "min-max of 10 launches");
    b.repeats = MMB_INT_EMPTY; /* a published figure: its median alone */
    mmb_compare_rows(&a, NULL, 0, &b, NULL, 0, 0.02, &c);
    ck_assert_int_eq(c.new_basis, MMB_BASIS_MEDIAN);
    ck_assert_int_eq(c.ratio.verdict, MMB_VERDICT_UNSURE);
    mmb_compare_basis_note(&c, &a, &b, note, sizeof note);
    ck_assert_str_eq(note, "min-max of 10 launches against median only");
    snprintf(a.protocol, sizeof a.protocol, "warmup=2;repeats=10");
    snprintf(b.protocol, sizeof b.protocol, "warmup=0;repeats=10");
    mmb_compare_rows(&a, NULL, 0, &b, NULL, 0, 0.02, &c);
    ck_assert(!c.timed_alike && c.protocol_recorded);
    ck_assert_str_eq(c.protocol_why, "warmup 2 against 0");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_compare_rows);
    tcase_add_test(tc, test_twenty_percent_slower);
    tcase_add_test(tc, test_without_samples);
    tcase_add_test(tc, test_protocols_folders_markdown);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
