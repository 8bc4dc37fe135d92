/* test_protocol.c - the protocol column's text: written from the settings (a fixed
 * count, a noise target, counters or none, the counter-mode item), read back item by
 * item, and two texts compared on the items that decide what a time means. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "results/protocol.h"

static struct mmb_metric_set set_of(const char *text)
{
    struct mmb_metric_set s;
    char err[256];
    ck_assert_msg(mmb_metric_set_parse(text, &s, err, sizeof err) == 0, "%s", err);
    return s;
}

static struct mmb_protocol_spec spec_fixed(const struct mmb_metric_set *metrics)
{
    return (struct mmb_protocol_spec){.version = "0.1.0", .warmup = 2, .timing = {0, 20, 0},
                                      .cache = MMB_CACHE_COLD, .l2_flush = "read:8", .metrics = metrics,
                                      .cupti_setup = "each", .cupti_replay = "user", .counter_batch = 32};
}

START_TEST(test_format)
{
    char out[MMB_PROTOCOL_LEN];
    struct mmb_metric_set def = set_of("default"), none = set_of("none");
    struct mmb_protocol_spec p = spec_fixed(&def);
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_str_eq(out, "mmbench=0.1.0;warmup=2;repeats=20;cache=cold;l2_flush=read:8;counters=default;"
                          "cupti_setup=each;cupti_replay=user;counter_batch=32");
    p.timing = (struct mmb_converge_spec){0.005, 10, 1.0};
    p.cache = MMB_CACHE_HOT;
    p.metrics = &none;
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_str_eq(out, "mmbench=0.1.0;warmup=2;noise=0.5%;min_samples=10;max_seconds=1;cache=hot;"
                          "l2_flush=read:8;counters=none");
    /* the hook for counter modes: an item after the set, when a mode is given */
    p = spec_fixed(&def);
    p.counter_mode = "best";
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, ";counters=default;counter_mode=best;cupti_setup=each;"));
    /* too small a buffer is an error, not a cut text */
    ck_assert_int_eq(mmb_protocol_format(&p, out, 40), -1);
}
END_TEST

/* A session's energy settings: energy=off or its window, and throttle_retries, after
 * l2_flush; energy measures in launches of its own (no timing key), retries keep other
 * times (a timing key). */
START_TEST(test_format_energy)
{
    char out[MMB_PROTOCOL_LEN], why[128];
    struct mmb_metric_set def = set_of("default");
    struct mmb_protocol_spec p = spec_fixed(&def);
    p.energy_known = true;
    p.energy_mode = "best";
    p.energy_seconds = 0.2;
    p.throttle_retries = 2;
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_str_eq(out, "mmbench=0.1.0;warmup=2;repeats=20;cache=cold;l2_flush=read:8;energy=0.2;energy_mode=best;"
                          "throttle_retries=2;counters=default;cupti_setup=each;cupti_replay=user;counter_batch=32");
    char on[MMB_PROTOCOL_LEN], val[16];
    snprintf(on, sizeof on, "%s", out);
    ck_assert(mmb_protocol_get(on, "energy_mode", val, sizeof val));
    ck_assert_str_eq(val, "best");
    p.energy_mode = "all";
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, ";energy=0.2;energy_mode=all;throttle_retries=2;"));
    ck_assert(mmb_protocol_times_alike(on, out, why, sizeof why)); /* which rows get energy: not timing */
    p.energy_mode = "off";
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, ";l2_flush=read:8;energy=off;throttle_retries=2;counters=default;"));
    ck_assert(!strstr(out, "energy_mode"));
    p.energy_mode = NULL; /* none: off */
    char none[MMB_PROTOCOL_LEN];
    ck_assert_int_eq(mmb_protocol_format(&p, none, sizeof none), 0);
    ck_assert_str_eq(none, out);
    ck_assert(!mmb_protocol_key_times("energy"));
    ck_assert(!mmb_protocol_key_times("energy_mode"));
    ck_assert(!mmb_protocol_key_times("throttle_retries"));
    ck_assert(!mmb_protocol_key_times("throttle_threshold"));
    /* the threshold follows the retries, as a percentage */
    p.throttle_threshold = 90;
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, ";energy=off;throttle_retries=2;throttle_threshold=90%;counters=default;"));
    ck_assert(mmb_protocol_times_alike(on, out, why, sizeof why));
    p.throttle_threshold = 0;
    ck_assert(mmb_protocol_times_alike(on, out, why, sizeof why));
    /* the retries choose among measurements taken alike: no difference in the times */
    p.energy_mode = "best";
    p.throttle_retries = 0;
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert(mmb_protocol_times_alike(on, out, why, sizeof why));
    /* a timing item still tells them apart */
    p.warmup = p.warmup + 1;
    ck_assert_int_eq(mmb_protocol_format(&p, out, sizeof out), 0);
    ck_assert(!mmb_protocol_times_alike(on, out, why, sizeof why));
    ck_assert_msg(strstr(why, "warmup") != NULL, "%s", why);
}
END_TEST

START_TEST(test_metrics_name)
{
    char out[128];
    struct mmb_metric_set s = set_of("memory");
    mmb_protocol_metrics_name(&s, out, sizeof out);
    ck_assert_str_eq(out, "memory");
    s = set_of("dram_gbps, l2_hit_pct");
    mmb_protocol_metrics_name(&s, out, sizeof out);
    ck_assert_str_eq(out, "dram_gbps+l2_hit_pct");
    mmb_protocol_metrics_name(&s, out, 12);
    ck_assert_msg(!strncmp(out, "set:", 4) && strlen(out) == 11, "%s", out);
    mmb_protocol_metrics_name(NULL, out, sizeof out);
    ck_assert_str_eq(out, "none");
}
END_TEST

START_TEST(test_get)
{
    const char *p = "mmbench=0.1.0;warmup=2;noise=0.5%;min_samples=10;cache=cold;odd;x=";
    char v[32];
    ck_assert(mmb_protocol_get(p, "warmup", v, sizeof v));
    ck_assert_str_eq(v, "2");
    ck_assert(mmb_protocol_get(p, "noise", v, sizeof v));
    ck_assert_str_eq(v, "0.5%");
    ck_assert(mmb_protocol_get(p, "x", v, sizeof v));
    ck_assert_str_eq(v, "");
    ck_assert(mmb_protocol_get(p, "odd", v, sizeof v));
    ck_assert(!mmb_protocol_get(p, "repeats", v, sizeof v));
    ck_assert(!mmb_protocol_get(p, "war", v, sizeof v));
    ck_assert(!mmb_protocol_get("", "warmup", v, sizeof v));
}
END_TEST

START_TEST(test_times_alike)
{
    struct mmb_metric_set def = set_of("default"), none = set_of("none");
    char a[MMB_PROTOCOL_LEN], b[2 * MMB_PROTOCOL_LEN], why[128];
    struct mmb_protocol_spec p = spec_fixed(&def), q = spec_fixed(&none);
    mmb_protocol_format(&p, a, sizeof a);
    mmb_protocol_format(&q, b, sizeof b);
    /* counters read or not, counted otherwise: the times mean the same */
    ck_assert(mmb_protocol_times_alike(a, b, why, sizeof why));
    mmb_protocol_difference(a, b, why, sizeof why);
    ck_assert_str_eq(why, "counters default against none");
    q = spec_fixed(&def);
    q.warmup = 0;
    mmb_protocol_format(&q, b, sizeof b);
    ck_assert(!mmb_protocol_times_alike(a, b, why, sizeof why));
    ck_assert_str_eq(why, "warmup 2 against 0");
    q = spec_fixed(&def);
    q.timing = (struct mmb_converge_spec){0.005, 10, 1.0};
    mmb_protocol_format(&q, b, sizeof b);
    ck_assert(!mmb_protocol_times_alike(a, b, why, sizeof why));
    ck_assert_str_eq(why, "repeats 20 against (none)");
    ck_assert(!mmb_protocol_times_alike(b, a, why, sizeof why));
    ck_assert_str_eq(why, "noise 0.5% against (none)");
    q = spec_fixed(&def);
    q.version = "0.2.0";
    mmb_protocol_format(&q, b, sizeof b);
    ck_assert(!mmb_protocol_times_alike(a, b, why, sizeof why));
    ck_assert_str_eq(why, "mmbench 0.1.0 against 0.2.0");
    /* an item a later mmbench adds counts as a timing item until known otherwise */
    snprintf(b, sizeof b, "%s;clock_lock=1980", a);
    ck_assert(!mmb_protocol_times_alike(a, b, why, sizeof why));
    ck_assert_str_eq(why, "clock_lock (none) against 1980");
    /* not recorded: alike only another one not recorded */
    ck_assert(mmb_protocol_times_alike("", "", why, sizeof why));
    ck_assert(!mmb_protocol_times_alike(a, "", why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "not recorded"));
    ck_assert(mmb_protocol_key_times("warmup") && mmb_protocol_key_times("l2_flush"));
    ck_assert(!mmb_protocol_key_times("counter_mode") && !mmb_protocol_key_times("cupti_setup"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, test_format);
    tcase_add_test(tc, test_format_energy);
    tcase_add_test(tc, test_metrics_name);
    tcase_add_test(tc, test_get);
    tcase_add_test(tc, test_times_alike);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
