/* test_supervise.c - the worker supervisor of `run` and `tune`, with stand-in workers
 * and no GPU: a configuration over its time limit becomes a timeout row and the
 * worker starts again; so does one whose process dies (launch_error); a sticky-error
 * exit restarts the worker; Ctrl-C reaches the workers and gives exit 130. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "cmd/common.h"
#include "cmd/supervise.h"
#include "results/csv.h"

static char tmpdir[64];
static char csv[128];

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mmb_test_supervise.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(csv, sizeof csv, "%s/rows.csv", tmpdir);
}

static void teardown(void)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
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
    ck_assert_int_eq(mmb_supervise("run", &w, 1), 0);
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
    ck_assert_int_eq(mmb_supervise("run", &w, 1), 0);
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
    ck_assert_int_eq(mmb_supervise("run", &w, 1), 0);
    ck_assert_int_eq(w.restarts, 2);
}
END_TEST

START_TEST(test_interrupt_reaches_workers)
{
    struct mmb_worker w[2] = {{.name = "GPU 0", .work = interrupted}, {.name = "GPU 1", .work = interrupted}};
    ck_assert_int_eq(mmb_supervise("run", w, 2), MMB_EXIT_INTERRUPTED);
    ck_assert_int_eq(w[0].exit_code, MMB_EXIT_INTERRUPTED);
    ck_assert_int_eq(w[1].exit_code, MMB_EXIT_INTERRUPTED);
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
    ck_assert_int_eq(mmb_probe(replies, NULL, reply, sizeof reply), 0);
    ck_assert_str_eq(reply, "3");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("supervise");
    TCase *tc = tcase_create("workers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_timeout_row_and_restart);
    tcase_add_test(tc, test_dead_worker_row_and_restart);
    tcase_add_test(tc, test_sticky_error_restarts);
    tcase_add_test(tc, test_interrupt_reaches_workers);
    tcase_add_test(tc, test_probe);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
