/* test_supervise.c - the worker supervisor of `run` and `tune`, with stand-in workers
 * and no GPU: a configuration over its time limit becomes a timeout row and the
 * worker starts again; so does one whose process dies (launch_error); a sticky-error
 * exit restarts the worker; Ctrl-C reaches the workers and gives exit 130; GPUs of
 * one model share a CSV, each with its own rows, and one that dies leaves the others
 * running; every row written becomes one JSON line on stdout, --fail-on counts each
 * row once (written now, or resumed by a later run) and exits 1; progress comes as a
 * line in a log, for one worker too. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "cmd/common.h"
#include "cmd/supervise.h"
#include "results/csv.h"
#include "results/csv_status.h"
#include "tmpdir.h"

static char csv[128];

static void setup(void)
{
    tmpdir_setup();
    snprintf(csv, sizeof csv, "%s/rows.csv", tmpdir);
}


static void the_row(struct mmb_row *row)
{
    mmb_row_init(row);
    snprintf(row->gpu, sizeof row->gpu, "Fake GPU");
    snprintf(row->gpu_uuid, sizeof row->gpu_uuid, "GPU-fake");
    snprintf(row->profile, sizeof row->profile, "supervise");
    snprintf(row->kernel, sizeof row->kernel, "never_ends");
    snprintf(row->params, sizeof row->params, "block_size_x=32");
    snprintf(row->dtype, sizeof row->dtype, "f32");
    snprintf(row->cache, sizeof row->cache, "cold");
    row->m = row->n = row->k = 64;
}

/* Whether the CSV holds the row yet, and with which status. */
struct found {
    bool have;
    enum mmb_status status;
    char reason[256];
};

static int find_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct found *f = ctx;
    f->have = true;
    f->status = row->status;
    snprintf(f->reason, sizeof f->reason, "%s", row->reason);
    return 0;
}

static struct found read_back(void)
{
    struct found f = {false, MMB_STATUS_OK, ""};
    char err[512];
    if (access(csv, F_OK) == 0)
        ck_assert_msg(mmb_csv_read(csv, find_row, &f, err, sizeof err) == 0, "%s", err);
    return f;
}

/* Announces its configuration, then hangs (first run) or finds its row and ends. */
static int hangs(void *ctx)
{
    if (read_back().have)
        return 0;
    struct mmb_row row;
    the_row(&row);
    mmb_watch_begin(&row, csv, 0.3);
    for (;;)
        pause();
}

/* Announces its configuration, then dies of a signal (first run). */
static int dies(void *ctx)
{
    if (read_back().have)
        return 0;
    struct mmb_row row;
    the_row(&row);
    mmb_watch_begin(&row, csv, 60);
    kill(getpid(), SIGKILL);
    return 0;
}

/* Exits as after a sticky GPU error twice, then succeeds: counts runs in a file. */
static int loses_device(void *ctx)
{
    char path[160];
    snprintf(path, sizeof path, "%s/runs", tmpdir);
    FILE *f = fopen(path, "a+");
    ck_assert_ptr_nonnull(f);
    fputc('x', f);
    long n = ftell(f);
    fclose(f);
    return n < 3 ? MMB_EXIT_DEVICE_LOST : 0;
}

/* Sends Ctrl-C to its supervisor and ends only once it is passed on. */
static int interrupted(void *ctx)
{
    kill(getppid(), SIGINT);
    for (int i = 0; i < 500 && !mmb_watch_interrupted(); i++)
        usleep(10000);
    return mmb_watch_interrupted() ? MMB_EXIT_INTERRUPTED : 0;
}

START_TEST(test_timeout_row_and_restart)
{
    struct mmb_worker w = {.name = "GPU 0", .work = hangs};
    ck_assert_int_eq(mmb_supervise("run", &w, 1, NULL), 0);
    ck_assert_int_eq(w.timeouts, 1);
    struct found f = read_back();
    ck_assert(f.have);
    ck_assert_int_eq(f.status, MMB_STATUS_TIMEOUT);
    ck_assert_msg(strstr(f.reason, "0 s limit") || strstr(f.reason, "limit"), "%s", f.reason);
}
END_TEST

START_TEST(test_dead_worker_row_and_restart)
{
    struct mmb_worker w = {.name = "GPU 0", .work = dies};
    ck_assert_int_eq(mmb_supervise("run", &w, 1, NULL), 0);
    ck_assert_int_eq(w.crashes, 1);
    struct found f = read_back();
    ck_assert(f.have);
    ck_assert_int_eq(f.status, MMB_STATUS_LAUNCH_ERROR);
    ck_assert_msg(strstr(f.reason, "signal 9"), "%s", f.reason);
}
END_TEST

START_TEST(test_sticky_error_restarts)
{
    struct mmb_worker w = {.name = "GPU 0", .work = loses_device};
    ck_assert_int_eq(mmb_supervise("run", &w, 1, NULL), 0);
    ck_assert_int_eq(w.restarts, 2);
}
END_TEST

START_TEST(test_interrupt_reaches_workers)
{
    struct mmb_worker w[2] = {{.name = "GPU 0", .work = interrupted}, {.name = "GPU 1", .work = interrupted}};
    ck_assert_int_eq(mmb_supervise("run", w, 2, NULL), MMB_EXIT_INTERRUPTED);
    ck_assert_int_eq(w[0].exit_code, MMB_EXIT_INTERRUPTED);
    ck_assert_int_eq(w[1].exit_code, MMB_EXIT_INTERRUPTED);
}
END_TEST

/* ---- GPUs of one model sweeping into one CSV (run --devices all), without a GPU ---- */

struct gpu {
    const char *uuid;
    int dies_at;  /* the configuration in which its first process dies; -1: never */
};

enum { CONFIGS = 6 };

/* Sweeps CONFIGS configurations into the shared CSV as one GPU: skips what this GPU
 * has, announces each, dies once where told to. */
static int sweeps(void *ctx)
{
    const struct gpu *g = ctx;
    char err[512], marker[160];
    snprintf(marker, sizeof marker, "%s/died-%s", tmpdir, g->uuid);
    struct mmb_csv_writer *w = mmb_csv_writer_open(csv, err, sizeof err);
    struct mmb_csv_statuses before;
    if (!w || mmb_csv_statuses_load(&before, csv, true, err, sizeof err) != 0) {
        fprintf(stderr, "sweeps: %s: %s\n", g->uuid, err);
        return MMB_EXIT_FAILED;
    }
    for (int i = 0; i < CONFIGS; i++) {
        struct mmb_row row;
        the_row(&row);
        snprintf(row.gpu_uuid, sizeof row.gpu_uuid, "%s", g->uuid);
        snprintf(row.params, sizeof row.params, "block_size_x=%d", 8 << i);
        if (mmb_csv_writer_has(w, &row)) {
            if (mmb_csv_statuses_find(&before, &row, &row.status, &row.counter_status))
                mmb_watch_resumed(&row);
            continue;
        }
        mmb_watch_begin(&row, csv, 60);
        if (i == g->dies_at && access(marker, F_OK) != 0) {
            fclose(fopen(marker, "w"));
            kill(getpid(), SIGKILL);
        }
        row.time_ms_median = row.time_ms_min = row.time_ms_max = 1.0;
        if (mmb_csv_append_row(w, &row, err, sizeof err) != 0)
            return MMB_EXIT_FAILED;
        mmb_watch_row("run", &row, false, false);
        mmb_watch_end((size_t)i + 1, CONFIGS);
        usleep(20000);
    }
    mmb_csv_writer_close(w);
    mmb_csv_statuses_free(&before);
    return 0;
}

/* Runs the supervision of w with stdout and stderr in files of tmpdir, read back into
 * out and err. */
static int supervise_caught(struct mmb_worker *w, int n, struct mmb_supervise_rows *rows, char *out, char *err,
                            size_t len)
{
    char po[160], pe[160];
    snprintf(po, sizeof po, "%s/stdout", tmpdir);
    snprintf(pe, sizeof pe, "%s/stderr", tmpdir);
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(1), saved_err = dup(2);
    int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert(saved_out >= 0 && saved_err >= 0 && fo >= 0 && fe >= 0 && dup2(fo, 1) == 1 && dup2(fe, 2) == 2);
    int rc = mmb_supervise("run", w, n, rows);
    rc = mmb_supervise_verdict("run", rows, rc);
    fflush(stdout);
    fflush(stderr);
    ck_assert(dup2(saved_out, 1) == 1 && dup2(saved_err, 2) == 2);
    close(fo);
    close(fe);
    close(saved_out);
    close(saved_err);
    const char *paths[2] = {po, pe};
    char *bufs[2] = {out, err};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(paths[i], "r");
        ck_assert_ptr_nonnull(f);
        bufs[i][fread(bufs[i], 1, len - 1, f)] = '\0';
        fclose(f);
    }
    return rc;
}

static size_t count_lines(const char *text, const char *start)
{
    size_t n = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line))
        n += strncmp(line, start, strlen(start)) == 0;
    return n;
}

struct per_gpu {
    int ok, launch_error, other;
};

static int count_gpu_rows(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                          size_t errlen)
{
    struct per_gpu *n = ctx;
    int g = row->gpu_uuid[4] - 'a'; /* GPU-a, GPU-b, GPU-c */
    ck_assert(g >= 0 && g < 3);
    if (row->status == MMB_STATUS_OK)
        n[g].ok++;
    else if (row->status == MMB_STATUS_LAUNCH_ERROR)
        n[g].launch_error++;
    else
        n[g].other++;
    return 0;
}

/* Three GPUs of one model, one CSV: the one that dies has its configuration recorded
 * and is restarted while the others go on; each GPU ends with every configuration
 * exactly once, keyed by its UUID; progress shows every worker (a line in a log);
 * every row is one JSON line on stdout, and --fail-on launch_error counts the one
 * recorded for the dead worker, now and when a second run resumes it. */
START_TEST(test_gpus_of_one_model_share_a_file)
{
    struct gpu g[3] = {{"GPU-a", -1}, {"GPU-b", 2}, {"GPU-c", -1}};
    struct mmb_worker w[3];
    for (int i = 0; i < 3; i++) {
        w[i] = (struct mmb_worker){.work = sweeps, .ctx = &g[i]};
        snprintf(w[i].name, sizeof w[i].name, "GPU %d", i);
    }
    static char text[1 << 16], out[1 << 16];
    struct mmb_supervise_rows rows = {.jsonl = true, .fail_on = 1u << MMB_STATUS_LAUNCH_ERROR, .progress_s = 0.05};
    int rc = supervise_caught(w, 3, &rows, out, text, sizeof text);
    ck_assert_msg(rc == MMB_EXIT_FAILED, "%d: %s", rc, text);
    ck_assert_msg(rows.failed == 1, "%zu rows failed; stderr: %s", rows.failed, text);
    ck_assert_uint_eq(rows.failed_resumed, 0);
    ck_assert_uint_eq(rows.failed_by_status[MMB_STATUS_LAUNCH_ERROR], 1);
    ck_assert_msg(strstr(text, "mmbench run: --fail-on: 1 row ended so (1 launch_error); exit 1"), "%s", text);
    ck_assert_uint_eq(count_lines(out, "{\"gpu\":\"Fake GPU\""), 3 * CONFIGS);
    ck_assert_uint_eq(count_lines(out, ""), 3 * CONFIGS);
    ck_assert_msg(strstr(out, "\"status\":\"launch_error\""), "%s", out);
    ck_assert_int_eq(w[0].crashes + w[2].crashes, 0);
    ck_assert_int_eq(w[1].crashes, 1);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(w[i].done, CONFIGS);
        ck_assert_uint_eq(w[i].total, CONFIGS);
    }
    struct per_gpu n[3] = {{0}};
    char err[512];
    ck_assert_msg(mmb_csv_read(csv, count_gpu_rows, n, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(n[i].ok + n[i].launch_error, CONFIGS);
        ck_assert_int_eq(n[i].launch_error, i == 1);
        ck_assert_int_eq(n[i].other, 0);
    }
    ck_assert_msg(strstr(text, "mmbench run: progress [GPU 0 ") && strstr(text, "] [GPU 2 "), "%s", text);
    ck_assert_msg(strstr(text, "GPU 1: the worker died of signal 9"), "%s", text);
    /* again: every row resumed, none written, the launch_error still counted */
    rc = supervise_caught(w, 3, &rows, out, text, sizeof text);
    ck_assert_msg(rc == MMB_EXIT_FAILED, "%d: %s", rc, text);
    ck_assert_uint_eq(rows.failed, 1);
    ck_assert_uint_eq(rows.failed_resumed, 1);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(text, "1 of them written before this run and resumed"), "%s", text);
    /* a status no row has: exit 0 */
    rows.fail_on = 1u << MMB_STATUS_WRONG_RESULT;
    ck_assert_int_eq(supervise_caught(w, 3, &rows, out, text, sizeof text), 0);
    ck_assert_uint_eq(rows.failed, 0);
}
END_TEST

/* Announces a configuration that takes a while, then ends: one worker, no terminal. */
static int slow(void *ctx)
{
    struct mmb_row row;
    the_row(&row);
    mmb_watch_begin(&row, csv, 60);
    usleep(400000);
    mmb_watch_end(1, 1);
    return 0;
}

/* One worker whose stderr is a file gets progress lines too, while a configuration runs. */
START_TEST(test_progress_of_one_worker)
{
    struct mmb_worker w = {.name = "GPU 0", .work = slow};
    static char text[1 << 16], out[1 << 16];
    struct mmb_supervise_rows rows = {.progress_s = 0.1};
    ck_assert_int_eq(supervise_caught(&w, 1, &rows, out, text, sizeof text), 0);
    ck_assert_msg(count_lines(text, "mmbench run: progress [GPU 0 0 done] after ") >= 2, "%s", text);
}
END_TEST

static int replies(void *ctx)
{
    mmb_probe_reply("3");
    return 0;
}

START_TEST(test_probe)
{
    char reply[16];
    ck_assert_int_eq(mmb_probe("run", replies, NULL, reply, sizeof reply), 0);
    ck_assert_str_eq(reply, "3");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("supervise");
    TCase *tc = tcase_create("workers");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_timeout_row_and_restart);
    tcase_add_test(tc, test_dead_worker_row_and_restart);
    tcase_add_test(tc, test_sticky_error_restarts);
    tcase_add_test(tc, test_interrupt_reaches_workers);
    tcase_add_test(tc, test_probe);
    tcase_add_test(tc, test_gpus_of_one_model_share_a_file);
    tcase_add_test(tc, test_progress_of_one_worker);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
