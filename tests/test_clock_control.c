/* test_clock_control.c - --lock-clocks' mechanism (cuda/clock_control.h) through the
 * stand-in NVML of tests/fake_nvml.c, whose settings outlive a process as a GPU's do
 * (no real GPU's clocks are ever touched): base, max and MHz locks applied and
 * unlocked at the end with the restore record gone; a clock the GPU lacks and a
 * missing permission refused with nothing changed and no record left; a dead owner's
 * lock restored by the next run or by recovery, a live owner's respected; a lock
 * outliving the process that set it (a worker's crash) until the owner ends it. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "cuda/clock_control.h"
#include "tmpdir.h"
#include "nvml_fake.h"

#define UUID "GPU-fake-0"

static char state_dir[200], record[300];

static void setup(void)
{
    tmpdir_setup();
    nvml_fake_use();
    snprintf(state_dir, sizeof state_dir, "%s/state", tmpdir);
    snprintf(record, sizeof record, "%s/clocks-" UUID ".txt", state_dir);
}

static void assert_locked(unsigned lo, unsigned hi)
{
    unsigned min, max, limit;
    nvml_fake_settings(&min, &max, &limit);
    ck_assert_uint_eq(min, lo);
    ck_assert_uint_eq(max, hi);
    ck_assert_uint_eq(limit, 700000);
}

static enum mmb_clock_outcome begin(const char *text, pid_t owner, char *why, size_t len)
{
    struct mmb_clock_lock lock;
    ck_assert(mmb_clock_lock_parse(text, &lock));
    struct mmb_clock_baseline base;
    return mmb_clock_control_begin(state_dir, UUID, &lock, owner, &base, why, len);
}

START_TEST(test_parse)
{
    struct mmb_clock_lock l;
    ck_assert(mmb_clock_lock_parse("base", &l) && l.kind == MMB_CLOCKS_BASE);
    ck_assert(mmb_clock_lock_parse("max", &l) && l.kind == MMB_CLOCKS_MAX);
    ck_assert(mmb_clock_lock_parse("1410", &l) && l.kind == MMB_CLOCKS_MHZ && l.mhz == 1410);
    const char *bad[] = {"", "Max", "99", "10001", "1410MHz", "-1", " 1410", "1e3", "0x500", NULL};
    for (int i = 0; bad[i]; i++)
        ck_assert_msg(!mmb_clock_lock_parse(bad[i], &l), "'%s' accepted", bad[i]);
    char text[16];
    mmb_clock_lock_text(&(struct mmb_clock_lock){MMB_CLOCKS_MHZ, 1005}, text, sizeof text);
    ck_assert_str_eq(text, "1005");
}
END_TEST

START_TEST(test_lock_and_restore)
{
    char why[512] = "";
    const struct {
        const char *text;
        unsigned lo, hi;
    } cases[] = {{"max", 1980, 1980}, {"1410", 1410, 1410}, {"base", MMB_NVML_CLOCK_TDP, MMB_NVML_CLOCK_TDP}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(begin(cases[i].text, getpid(), why, sizeof why) == MMB_CLOCK_OK, "%s", why);
        assert_locked(cases[i].lo, cases[i].hi);
        ck_assert_int_eq(access(record, F_OK), 0);
        ck_assert_msg(mmb_clock_control_end(state_dir, UUID, why, sizeof why) == 0, "%s", why);
        assert_locked(0, 0);
        ck_assert_int_ne(access(record, F_OK), 0);
    }
    /* ending with nothing held is no error and changes nothing */
    ck_assert_int_eq(mmb_clock_control_end(state_dir, UUID, why, sizeof why), 0);
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceResetGpuLockedClocks"), 3);
}
END_TEST

START_TEST(test_refused_changes_nothing)
{
    char why[512] = "";
    ck_assert_int_eq(begin("3000", getpid(), why, sizeof why), MMB_CLOCK_INVALID);
    ck_assert_msg(strstr(why, "3000 MHz is outside this GPU's SM clocks, 345 to 1980 MHz"), "%s", why);
    assert_locked(0, 0);
    ck_assert_int_ne(access(record, F_OK), 0);
    setenv("FAKE_NVML_DENY", "1", 1);
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_DENIED);
    ck_assert_msg(strstr(why, "nvmlDeviceSetGpuLockedClocks") && strstr(why, "Insufficient Permissions"), "%s", why);
    assert_locked(0, 0);
    ck_assert_int_ne(access(record, F_OK), 0);
    unsetenv("FAKE_NVML_DENY");
    setenv("FAKE_NVML_UNSUPPORTED", "nvmlDeviceSetGpuLockedClocks", 1);
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_FAILED);
    ck_assert_int_ne(access(record, F_OK), 0);
}
END_TEST

/* A pid that no process has: a child that has exited and been reaped. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    return pid;
}

START_TEST(test_dead_owner_restored)
{
    char why[512] = "", report[512];
    /* a supervisor locked the clocks and was killed before it could restore them */
    ck_assert_msg(begin("1005", dead_pid(), why, sizeof why) == MMB_CLOCK_OK, "%s", why);
    assert_locked(1005, 1005);
    ck_assert_msg(mmb_clock_control_recover(state_dir, report, sizeof report, why, sizeof why) == 0, "%s", why);
    ck_assert_msg(strstr(report, UUID ": restored what mmbench pid"), "%s", report);
    assert_locked(0, 0);
    ck_assert_int_ne(access(record, F_OK), 0);
    /* the same, found by the next run's begin, which then locks as it was asked */
    ck_assert_int_eq(begin("1005", dead_pid(), why, sizeof why), MMB_CLOCK_OK);
    int resets = nvml_fake_calls("nvmlDeviceResetGpuLockedClocks");
    ck_assert_msg(begin("max", getpid(), why, sizeof why) == MMB_CLOCK_OK, "%s", why);
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceResetGpuLockedClocks"), resets + 1);
    assert_locked(1980, 1980);
    ck_assert_int_eq(mmb_clock_control_end(state_dir, UUID, why, sizeof why), 0);
    assert_locked(0, 0);
}
END_TEST

START_TEST(test_live_owner_respected)
{
    char why[512] = "", report[512];
    ck_assert_int_eq(begin("1410", getppid(), why, sizeof why), MMB_CLOCK_OK); /* a live process holds it */
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_FAILED);
    ck_assert_msg(strstr(why, "held by mmbench pid"), "%s", why);
    ck_assert_int_eq(mmb_clock_control_recover(state_dir, report, sizeof report, why, sizeof why), 0);
    ck_assert_str_eq(report, "");
    assert_locked(1410, 1410);
}
END_TEST

/* A worker that locked nothing itself crashes: the lock is the GPU's and stays until
 * the owner (its supervisor, here this process) ends the run. */
START_TEST(test_survives_worker_crash)
{
    char why[512] = "";
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_OK);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        setenv("FAKE_NVML_CRASH", "nvmlDeviceGetClockInfo", 1);
        struct mmb_nvml_device d;
        unsigned mhz;
        char w[256];
        if (mmb_nvml_device_open(UUID, &d, w, sizeof w) == 0)
            mmb_nvml_sm_clock(&d, &mhz, w, sizeof w);
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    assert_locked(1980, 1980);
    ck_assert_int_eq(mmb_clock_control_end(state_dir, UUID, why, sizeof why), 0);
    assert_locked(0, 0);
}
END_TEST

START_TEST(test_bad_record)
{
    char why[512] = "";
    ck_assert_int_eq(mmb_mkdir_p(state_dir, why, sizeof why), 0);
    FILE *f = fopen(record, "w");
    ck_assert_ptr_nonnull(f);
    fputs("owner=12\nuuid=" UUID "\ncolour=blue\n", f);
    fclose(f);
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_FAILED);
    ck_assert_msg(strstr(why, ":3: expected owner=PID or uuid=GPU-...") && strstr(why, "colour=blue"), "%s", why);
    assert_locked(0, 0);
    f = fopen(record, "w"); /* a record without its GPU */
    ck_assert_ptr_nonnull(f);
    fputs("owner=12\n", f);
    fclose(f);
    ck_assert_int_eq(begin("max", getpid(), why, sizeof why), MMB_CLOCK_FAILED);
    ck_assert_msg(strstr(why, "expected owner=PID and uuid=GPU-... lines"), "%s", why);
    assert_locked(0, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clock_control");
    TCase *tc = tcase_create("lock");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_lock_and_restore);
    tcase_add_test(tc, test_refused_changes_nothing);
    tcase_add_test(tc, test_dead_owner_restored);
    tcase_add_test(tc, test_live_owner_respected);
    tcase_add_test(tc, test_survives_worker_crash);
    tcase_add_test(tc, test_bad_record);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
