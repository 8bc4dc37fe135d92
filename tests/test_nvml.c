/* test_nvml.c - NVML loaded at run time, through the stand-in library of
 * tests/fake_nvml.c (no GPU is touched): every query and setter, NVML's own error
 * text in every failure, a missing library, a failed initialisation and a missing
 * function said and never a crash; and the clock watch over a window of launches
 * (clock_watch.h): clocks from the driver's samples and the reads, reasons and
 * violation counters as the throttle column's words. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "cuda/clock_watch.h"
#include "cuda/nvml.h"
#include "tmpdir.h"
#include "nvml_fake.h"

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

START_TEST(test_queries)
{
    char why[256] = "";
    open_fake();
    unsigned mhz = 0, max = 0, clocks[256], n = 0;
    ck_assert_int_eq(mmb_nvml_sm_clock(&dev, &mhz, why, sizeof why), 0);
    ck_assert_uint_eq(mhz, 1980);
    ck_assert(mmb_nvml_sm_clock_mhz("GPU-fake-0") == 1980.0);
    ck_assert(isnan(mmb_nvml_sm_clock_mhz("not-a-uuid")));
    ck_assert_int_eq(mmb_nvml_sm_clock_max(&dev, &max, why, sizeof why), 0);
    ck_assert_uint_eq(max, 1980);
    ck_assert_msg(mmb_nvml_sm_clocks_supported(&dev, clocks, 256, &n, why, sizeof why) == 0, "%s", why);
    ck_assert_uint_eq(n, (1980 - 345) / 15 + 1);
    ck_assert_uint_eq(clocks[0], 1980); /* highest first */
    ck_assert_uint_eq(clocks[n - 1], 345);
    /* too little room is said, not overrun */
    ck_assert_int_ne(mmb_nvml_sm_clocks_supported(&dev, clocks, 8, &n, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "nvmlDeviceGetSupportedGraphicsClocks"), "%s", why);

    unsigned long long e0 = 0, e1 = 0;
    ck_assert_int_eq(mmb_nvml_energy_mj(&dev, &e0, why, sizeof why), 0);
    usleep(250000);
    ck_assert_int_eq(mmb_nvml_energy_mj(&dev, &e1, why, sizeof why), 0);
    ck_assert_msg(e1 > e0 && e1 - e0 <= 300 * 400, "%llu -> %llu", e0, e1); /* 300 W in 100 ms steps */
    unsigned mw = 0, lo = 0, hi = 0;
    ck_assert_int_eq(mmb_nvml_power_limit(&dev, &mw, why, sizeof why), 0);
    ck_assert_uint_eq(mw, 700000);
    ck_assert_int_eq(mmb_nvml_power_limit_default(&dev, &mw, why, sizeof why), 0);
    ck_assert_int_eq(mmb_nvml_power_limit_range(&dev, &lo, &hi, why, sizeof why), 0);
    ck_assert(lo == 200000 && hi == 700000);
}
END_TEST

START_TEST(test_setters)
{
    char why[256] = "";
    unsigned a, b, mw;
    open_fake();
    ck_assert_int_eq(mmb_nvml_lock_clocks(&dev, 1410, 1410, why, sizeof why), 0);
    nvml_fake_settings(&a, &b, &mw);
    ck_assert(a == 1410 && b == 1410);
    unsigned mhz = 0;
    ck_assert_int_eq(mmb_nvml_sm_clock(&dev, &mhz, why, sizeof why), 0);
    ck_assert_uint_eq(mhz, 1410);
    ck_assert_int_eq(mmb_nvml_lock_clocks(&dev, MMB_NVML_CLOCK_TDP, MMB_NVML_CLOCK_TDP, why, sizeof why), 0);
    ck_assert_int_eq(mmb_nvml_unlock_clocks(&dev, why, sizeof why), 0);
    nvml_fake_settings(&a, &b, &mw);
    ck_assert(a == 0 && b == 0);
    ck_assert_int_eq(mmb_nvml_set_power_limit(&dev, 450000, why, sizeof why), 0);
    nvml_fake_settings(&a, &b, &mw);
    ck_assert_uint_eq(mw, 450000);
    /* out of range: NVML's refusal with its text and the call */
    ck_assert_int_eq(mmb_nvml_set_power_limit(&dev, 900000, why, sizeof why), 2);
    ck_assert_msg(strstr(why, "nvmlDeviceSetPowerManagementLimit: Invalid Argument (NVML error 2)"), "%s", why);
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceSetGpuLockedClocks"), 2);
}
END_TEST

START_TEST(test_permission_denied)
{
    char why[256] = "";
    setenv("FAKE_NVML_DENY", "1", 1);
    open_fake();
    ck_assert_int_eq(mmb_nvml_lock_clocks(&dev, 1410, 1410, why, sizeof why), MMB_NVML_NO_PERMISSION);
    ck_assert_msg(strstr(why, "nvmlDeviceSetGpuLockedClocks: Insufficient Permissions"), "%s", why);
    ck_assert_int_eq(mmb_nvml_set_power_limit(&dev, 450000, why, sizeof why), MMB_NVML_NO_PERMISSION);
    unsigned a, b, mw;
    nvml_fake_settings(&a, &b, &mw);
    ck_assert(a == 0 && b == 0 && mw == 700000);
}
END_TEST

START_TEST(test_unsupported_and_missing)
{
    char why[256] = "";
    setenv("FAKE_NVML_UNSUPPORTED", "nvmlDeviceGetTotalEnergyConsumption", 1);
    open_fake();
    unsigned long long mj;
    ck_assert_int_eq(mmb_nvml_energy_mj(&dev, &mj, why, sizeof why), MMB_NVML_NOT_SUPPORTED);
    ck_assert_msg(strstr(why, "nvmlDeviceGetTotalEnergyConsumption: Not Supported"), "%s", why);
    setenv("FAKE_NVML_UUID", "GPU-fake-0", 1);
    ck_assert_int_eq(mmb_nvml_device_open("GPU-other", &dev, why, sizeof why), MMB_NVML_NOT_FOUND);
    ck_assert_msg(strstr(why, "nvmlDeviceGetHandleByUUID: Not Found"), "%s", why);
    ck_assert_int_eq(mmb_nvml_device_open("", &dev, why, sizeof why), MMB_NVML_NOT_FOUND);
}
END_TEST

START_TEST(test_no_library)
{
    char why[256] = "";
    setenv("MMB_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    ck_assert_int_eq(mmb_nvml_device_open("GPU-fake-0", &dev, why, sizeof why), MMB_NVML_MISSING);
    ck_assert_msg(strstr(why, "NVML cannot be loaded") && strstr(why, "/nonexistent"), "%s", why);
    ck_assert(isnan(mmb_nvml_sm_clock_mhz("GPU-fake-0")));
    /* every later call says the same, never touching a NULL function */
    unsigned long long mj;
    ck_assert_int_eq(mmb_nvml_energy_mj(&dev, &mj, why, sizeof why), MMB_NVML_MISSING);
}
END_TEST

START_TEST(test_init_fails)
{
    char why[256] = "";
    setenv("FAKE_NVML_INIT", "9", 1);
    ck_assert_int_eq(mmb_nvml_device_open("GPU-fake-0", &dev, why, sizeof why), MMB_NVML_MISSING);
    ck_assert_msg(strstr(why, "nvmlInit_v2 failed (9)"), "%s", why);
}
END_TEST

START_TEST(test_watch_clean)
{
    open_fake();
    struct mmb_clock_watch w;
    char cell[160];
    mmb_clock_watch_reset(&w, &dev);
    mmb_clock_watch_begin(&w);
    usleep(60000);
    mmb_clock_watch_read(&w);
    usleep(60000);
    mmb_clock_watch_end(&w);
    ck_assert_msg(w.why[0] == '\0', "%s", w.why);
    ck_assert(w.min_mhz == 1980 && w.max_mhz == 1980);
    ck_assert_uint_ge(w.samples, 4); /* the stand-in samples every 20 ms */
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "none");
}
END_TEST

START_TEST(test_watch_throttled)
{
    setenv("FAKE_NVML_REASONS", "0x5", 1);       /* idle and the power cap */
    setenv("FAKE_NVML_VIOLATION", "1e8", 1);      /* power-policy violation grows */
    open_fake();
    char why[256];
    ck_assert_int_eq(mmb_nvml_lock_clocks(&dev, 1410, 1410, why, sizeof why), 0);
    struct mmb_clock_watch w;
    char cell[160];
    mmb_clock_watch_reset(&w, &dev);
    mmb_clock_watch_begin(&w);
    usleep(50000);
    mmb_clock_watch_end(&w);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "sw_power_cap"); /* from the violation counter alone: no read in between */
    ck_assert(w.min_mhz == 1410 && w.max_mhz == 1410);
    mmb_clock_watch_begin(&w);
    mmb_clock_watch_read(&w);
    mmb_clock_watch_end(&w);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "gpu_idle+applications_clocks+sw_power_cap");
}
END_TEST

START_TEST(test_watch_without_samples)
{
    setenv("FAKE_NVML_SAMPLES", "0", 1);
    setenv("FAKE_NVML_UNSUPPORTED", "nvmlDeviceGetViolationStatus,nvmlDeviceGetFieldValues", 1);
    open_fake();
    struct mmb_clock_watch w;
    char cell[160];
    mmb_clock_watch_reset(&w, &dev);
    mmb_clock_watch_begin(&w);
    mmb_clock_watch_end(&w);
    ck_assert(isnan(w.min_mhz)); /* no sample, no read: no clock */
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "");  /* nothing read: not measured, not "none" */
    ck_assert_msg(strstr(w.why, "nvmlDeviceGetViolationStatus: Not Supported"), "%s", w.why);
    mmb_clock_watch_begin(&w);
    mmb_clock_watch_read(&w);
    mmb_clock_watch_end(&w);
    ck_assert(w.min_mhz == 1980 && w.max_mhz == 1980);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "none");
}
END_TEST

/* A window of 20 ms of the fake device: its throttle cell is want. */
static void window_is(const char *want)
{
    struct mmb_clock_watch w;
    char cell[160];
    mmb_clock_watch_reset(&w, &dev);
    mmb_clock_watch_begin(&w);
    usleep(20000);
    mmb_clock_watch_end(&w);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, want);
}

/* A window reads the five violation counters in one call at each end, not five. */
START_TEST(test_watch_violations_batched)
{
    setenv("FAKE_NVML_VIOLATION", "1e8", 1);
    open_fake();
    window_is("sw_power_cap");
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceGetFieldValues 5"), 2);
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceGetViolationStatus"), 0);
}
END_TEST

/* Without field values, one call per counter, and the counters still seen. */
START_TEST(test_watch_violations_fallback)
{
    setenv("FAKE_NVML_VIOLATION", "1e8", 1);
    setenv("FAKE_NVML_UNSUPPORTED", "nvmlDeviceGetFieldValues", 1);
    open_fake();
    unsigned long long ns[2];
    bool have[2];
    const int policies[2] = {0, 1};
    char why[256] = "";
    ck_assert_int_eq(mmb_nvml_violations_ns(&dev, policies, 2, ns, have, why, sizeof why), 0);
    ck_assert(have[0] && have[1] && ns[1] == 0);
    ck_assert_int_ne(mmb_nvml_violations_ns(&dev, policies, 0, ns, have, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "0 policies"), "%s", why);
    window_is("sw_power_cap");
    ck_assert_int_eq(nvml_fake_calls("nvmlDeviceGetViolationStatus"), 2 + 2 * 5);
}
END_TEST

START_TEST(test_watch_no_nvml)
{
    struct mmb_clock_watch w;
    char cell[160] = "x";
    mmb_clock_watch_reset(&w, NULL);
    mmb_clock_watch_begin(&w);
    mmb_clock_watch_read(&w);
    mmb_clock_watch_end(&w);
    mmb_clock_watch_throttle_text(&w, cell, sizeof cell);
    ck_assert_str_eq(cell, "");
    ck_assert(isnan(w.min_mhz) && isnan(w.max_mhz));
    ck_assert_str_eq(w.why, "no NVML device");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nvml");
    TCase *tc = tcase_create("fake");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_add_test(tc, test_queries);
    tcase_add_test(tc, test_setters);
    tcase_add_test(tc, test_permission_denied);
    tcase_add_test(tc, test_unsupported_and_missing);
    tcase_add_test(tc, test_no_library);
    tcase_add_test(tc, test_init_fails);
    tcase_add_test(tc, test_watch_clean);
    tcase_add_test(tc, test_watch_throttled);
    tcase_add_test(tc, test_watch_without_samples);
    tcase_add_test(tc, test_watch_violations_batched);
    tcase_add_test(tc, test_watch_violations_fallback);
    tcase_add_test(tc, test_watch_no_nvml);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
