/* test_energy.c - the energy window of energy.h without a GPU: a stand-in GPU whose
 * launches take a known time and NVML's stand-in (tests/fake_nvml.c), whose energy
 * counter grows by a known power in steps of its update interval. The window runs
 * from one counter update to another, so the power comes out within the polling's
 * error although a read at an arbitrary time would be off by a whole update; energy
 * per launch is that power times the time per launch; a counter that never moves,
 * a missing energy function and a failing launch are each said, never a crash. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_run.h"
#include "core/clock.h"
#include "cuda/energy.h"
#include "tmpdir.h"
#include "nvml_fake.h"

/* A GPU that runs each launch for launch_ms, in order, as soon as it is enqueued and
 * the one before it is done. */
struct fake_gpu {
    double launch_ms, start, busy_until;
    size_t launched, markers;
    double done_at[1 << 16]; /* when each marker is reached */
    int fail_after;          /* markers; -1: never */
    double host_us;          /* the host's time to enqueue one launch (a library call's) */
    bool finished;
};

static enum mmb_status fake_launch(void *ctx, size_t n, char *err, size_t errlen)
{
    struct fake_gpu *g = ctx;
    if (g->fail_after >= 0 && g->markers >= (size_t)g->fail_after) {
        snprintf(err, errlen, "fake launch failed");
        return MMB_STATUS_LAUNCH_ERROR;
    }
    if (g->host_us > 0) { /* the host spends this on each launch before the GPU sees it */
        double until = mmb_seconds_now() + (double)n * g->host_us / 1e6;
        while (mmb_seconds_now() < until)
            ;
    }
    double now = mmb_seconds_now();
    if (!g->launched)
        g->start = g->busy_until = now;
    g->busy_until = (g->busy_until > now ? g->busy_until : now) + (double)n * g->launch_ms / 1e3;
    g->launched += n;
    ck_assert_uint_lt(g->markers, sizeof g->done_at / sizeof g->done_at[0]);
    g->done_at[g->markers++] = g->busy_until;
    return MMB_STATUS_OK;
}

static enum mmb_status fake_done(void *ctx, size_t marker, bool *reached, char *err, size_t errlen)
{
    struct fake_gpu *g = ctx;
    ck_assert_uint_lt(marker, g->markers);
    *reached = mmb_seconds_now() >= g->done_at[marker];
    return MMB_STATUS_OK;
}

static enum mmb_status fake_finish(void *ctx, double *gpu_ms, char *err, size_t errlen)
{
    struct fake_gpu *g = ctx;
    double end = g->busy_until, now;
    while ((now = mmb_seconds_now()) < end) {
        struct timespec ts = {0, (long)((end - now) * 1e9)};
        nanosleep(&ts, NULL);
    }
    *gpu_ms = (end - g->start) * 1e3;
    g->finished = true;
    return MMB_STATUS_OK;
}

static struct fake_gpu *gpu_new(double launch_ms, struct mmb_energy_gpu *ops)
{
    struct fake_gpu *g = calloc(1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    g->launch_ms = launch_ms;
    g->fail_after = -1;
    *ops = (struct mmb_energy_gpu){fake_launch, fake_done, fake_finish, g};
    return g;
}

static struct mmb_nvml_device dev;

static void setup(void)
{
    tmpdir_setup();
    nvml_fake_use();
}

static void open_fake(void)
{
    char why[256] = "";
    ck_assert_msg(mmb_nvml_device_open("GPU-fake-0", &dev, why, sizeof why) == 0, "%s", why);
}

/* Tolerances: the stand-ins run on wall time, and a test machine shared with other
 * work delays the polling by milliseconds; a read at arbitrary times would be off by
 * up to a whole update (50% of a 0.2 s window), so these still tell the two apart. */

/* A 0.05 ms kernel at 300 W, the counter updated every 100 ms, a 0.2 s window. */
START_TEST(test_window_from_update_to_update)
{
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.05, &ops);
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.05, 0.2, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert_msg(r.why[0] == '\0', "%s", r.why);
    ck_assert(!r.unavailable);
    ck_assert_msg(fabs(r.power_w - 300.0) < 300.0 * 0.05, "power %.2f W", r.power_w);
    ck_assert_msg(fabs(r.window_s - 0.2) < 0.02, "window %.4f s", r.window_s);
    ck_assert_uint_eq(r.updates, 2);
    ck_assert_msg(fabs(r.update_ms - 100.0) < 5.0, "updates every %.2f ms", r.update_ms);
    ck_assert_msg(fabs(r.period_ms - 0.05) < 0.05 * 0.1, "period %.5f ms", r.period_ms);
    ck_assert(fabs(r.energy_j - r.power_w * r.period_ms / 1e3) < 1e-12);
    /* the window as times of day: now, less than a second ago, as long as the window */
    ck_assert_msg(fabs(r.closed_epoch - r.opened_epoch - r.window_s) < 1e-3, "%.6f %.6f", r.opened_epoch,
                  r.closed_epoch);
    ck_assert(fabs((double)time(NULL) - r.closed_epoch) < 2.0);
    ck_assert(g->finished && r.launches == g->launched);
    /* the phase's cost: the wait for the first update (up to 100 ms) and the window */
    ck_assert_msg(r.seconds < 0.2 + 0.1 + 0.1, "%.3f s", r.seconds);
    free(g);
}
END_TEST

/* A launch the host takes longer to enqueue (10 us) than the GPU to run (5 us), as a
 * library call at a small size: every marker is reached when checked, and the window
 * still closes on the counter's updates instead of topping up the queue for ever. */
START_TEST(test_host_bound_launches)
{
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.005, &ops);
    g->host_us = 10.0;
    struct mmb_energy_result r;
    char err[256] = "";
    double t0 = mmb_seconds_now();
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.005, 0.2, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert_msg(r.why[0] == '\0', "%s", r.why);
    /* the busy host polls the counter late on a loaded machine, at worst a whole update
     * (100 ms) late: the window closes all the same */
    ck_assert_msg(r.window_s >= 0.18 && r.window_s < 0.45, "window %.4f s", r.window_s);
    ck_assert_msg(fabs(r.power_w - 300.0) < 300.0 * 0.1, "power %.2f W", r.power_w);
    ck_assert_msg(mmb_seconds_now() - t0 < 2.0, "%.3f s", mmb_seconds_now() - t0);
    ck_assert(g->finished && r.launches == g->launched && r.launches > 0);
    free(g);
}
END_TEST

/* Launches longer than the chunk: one per marker, the queue two ahead, still never idle. */
START_TEST(test_long_launches)
{
    setenv("FAKE_NVML_POWER_W", "650", 1);
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(30.0, &ops);
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 30.0, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert_msg(fabs(r.power_w - 650.0) < 650.0 * 0.1, "power %.2f W", r.power_w);
    ck_assert_msg(fabs(r.period_ms - 30.0) < 1.5, "period %.3f ms", r.period_ms);
    ck_assert_uint_eq(g->markers, g->launched); /* a chunk of one launch */
    free(g);
}
END_TEST

/* A counter that counts continuously still gives the window its length. */
START_TEST(test_continuous_counter)
{
    setenv("FAKE_NVML_TICK_MS", "0", 1);
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(1.0, &ops);
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 1.0, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert_msg(fabs(r.power_w - 300.0) < 300.0 * 0.05, "power %.2f W", r.power_w);
    ck_assert_msg(r.window_s >= 0.09 && r.window_s < 0.12, "window %.4f s", r.window_s);
    free(g);
}
END_TEST

START_TEST(test_stalled_counter)
{
    setenv("FAKE_NVML_POWER_W", "0", 1);
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.5, &ops);
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.5, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert(isnan(r.power_w) && isnan(r.energy_j));
    ck_assert_msg(strstr(r.why, "did not change in 1.0 s"), "%s", r.why);
    ck_assert(!r.unavailable); /* tried and failed: energy_status failed */
    ck_assert(g->finished); /* the launches queued were waited for */
    ck_assert_msg(r.seconds < MMB_ENERGY_STALL_S + 0.1, "%.3f s", r.seconds);
    free(g);
}
END_TEST

START_TEST(test_no_energy_counter)
{
    setenv("FAKE_NVML_UNSUPPORTED", "nvmlDeviceGetTotalEnergyConsumption", 1);
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.5, &ops);
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.5, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert(isnan(r.power_w) && isnan(r.energy_j));
    ck_assert_msg(strstr(r.why, "nvmlDeviceGetTotalEnergyConsumption: Not Supported"), "%s", r.why);
    ck_assert_uint_eq(g->launched, 0); /* nothing launched for nothing */
    ck_assert(r.unavailable); /* energy_status unavailable, not failed */
    ck_assert_int_eq(mmb_energy_measure(NULL, &ops, 0.5, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_OK);
    ck_assert_str_eq(r.why, "no NVML device");
    ck_assert(r.unavailable);
    free(g);
}
END_TEST

START_TEST(test_launch_fails)
{
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.5, &ops);
    g->fail_after = 3;
    struct mmb_energy_result r;
    char err[256] = "";
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.5, 0.1, NULL, &r, err, sizeof err), MMB_STATUS_LAUNCH_ERROR);
    ck_assert_str_eq(err, "fake launch failed");
    ck_assert(isnan(r.energy_j));
    free(g);
}
END_TEST

/* The watch gets one read inside the window: the reasons of the window's middle. */
START_TEST(test_window_watch)
{
    setenv("FAKE_NVML_REASONS", "0x20", 1);
    open_fake();
    struct mmb_energy_gpu ops;
    struct fake_gpu *g = gpu_new(0.2, &ops);
    struct mmb_energy_result r;
    struct mmb_clock_watch w;
    char err[256] = "", cell[160];
    mmb_clock_watch_reset(&w, &dev);
    mmb_clock_watch_begin(&w);
    ck_assert_int_eq(mmb_energy_measure(&dev, &ops, 0.2, 0.1, &w, &r, err, sizeof err), MMB_STATUS_OK);
    mmb_clock_watch_end(&w);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "sw_thermal");
    free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("energy");
    TCase *tc = tcase_create("window");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_window_from_update_to_update);
    tcase_add_test(tc, test_long_launches);
    tcase_add_test(tc, test_host_bound_launches);
    tcase_add_test(tc, test_continuous_counter);
    tcase_add_test(tc, test_stalled_counter);
    tcase_add_test(tc, test_no_energy_counter);
    tcase_add_test(tc, test_launch_fails);
    tcase_add_test(tc, test_window_watch);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
