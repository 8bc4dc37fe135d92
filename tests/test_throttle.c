/* test_throttle.c - the table of clock event reasons: NVML's bits and violation
 * policies to words and back, which words throttle, and every malformed cell refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/throttle.h"

START_TEST(test_table_is_sane)
{
    unsigned long long bits = 0;
    size_t n = 0;
    for (const struct mmb_throttle_info *t = mmb_throttle_table; t->text; t++, n++) {
        ck_assert_msg(!(bits & t->nvml_reason), "%s: its bit belongs to another word", t->text);
        bits |= t->nvml_reason;
        ck_assert_msg(t->nvml_reason || t->nvml_violation >= 0, "%s: no NVML source", t->text);
        ck_assert_msg(!strchr(t->text, '+') && strcmp(t->text, MMB_THROTTLE_NONE), "%s", t->text);
        ck_assert(strlen(t->meaning) > 0);
    }
    ck_assert_uint_le(n, 32);
    /* every word at once fits the cell */
    char all[MMB_THROTTLE_TEXT_LEN];
    mmb_throttle_format((1u << n) - 1, all, sizeof all);
    unsigned back;
    ck_assert_msg(mmb_throttle_parse(all, &back) && back == (1u << n) - 1, "%s", all);
    /* NVML's documented bits: idle 0x1 ... display 0x100 */
    ck_assert_uint_eq(bits, 0x1ffull);
}
END_TEST

START_TEST(test_reasons_to_words)
{
    char cell[MMB_THROTTLE_TEXT_LEN];
    mmb_throttle_format(mmb_throttle_of_reasons(0), cell, sizeof cell);
    ck_assert_str_eq(cell, "none");
    mmb_throttle_format(mmb_throttle_of_reasons(0x4 | 0x40), cell, sizeof cell);
    ck_assert_str_eq(cell, "sw_power_cap+hw_thermal");
    /* bits NVML may add later are left out, not guessed */
    mmb_throttle_format(mmb_throttle_of_reasons(0x1000ull | 0x2), cell, sizeof cell);
    ck_assert_str_eq(cell, "applications_clocks");
    /* the violation counters of power and thermal policy name the same words as the bits */
    ck_assert_uint_eq(mmb_throttle_of_violation(0), mmb_throttle_of_reasons(0x4));
    ck_assert_uint_eq(mmb_throttle_of_violation(1), mmb_throttle_of_reasons(0x20));
    mmb_throttle_format(mmb_throttle_of_violation(3), cell, sizeof cell);
    ck_assert_str_eq(cell, "board_limit");
    ck_assert_uint_eq(mmb_throttle_of_violation(4), 0); /* low utilisation: no throttle, no word */
    ck_assert_uint_eq(mmb_throttle_of_violation(-1), 0);
}
END_TEST

START_TEST(test_which_throttle)
{
    /* idle and the clock settings are no throttle: a row is not measured again for them */
    ck_assert(!mmb_throttle_mask_throttled(mmb_throttle_of_reasons(0x1 | 0x2 | 0x100)));
    ck_assert(mmb_throttle_mask_throttled(mmb_throttle_of_reasons(0x2 | 0x4)));
    ck_assert(mmb_throttle_text_throttled("applications_clocks+sw_thermal"));
    ck_assert(!mmb_throttle_text_throttled("gpu_idle"));
    ck_assert(!mmb_throttle_text_throttled("none"));
    ck_assert(!mmb_throttle_text_throttled(""));
    ck_assert(!mmb_throttle_text_throttled("thermal"));
}
END_TEST

/* A throttled row is measured again only below the threshold's share of the maximum
 * clock, or where a clock is unknown, or at a threshold of 100%. */
START_TEST(test_retry_threshold)
{
    unsigned cap = mmb_throttle_of_reasons(0x4), idle = mmb_throttle_of_reasons(0x1);
    ck_assert(!mmb_throttle_retry_wanted(cap, 1800, 1980, 90));  /* 90.9%: kept */
    ck_assert(mmb_throttle_retry_wanted(cap, 1770, 1980, 90));   /* 89.4%: again */
    ck_assert(!mmb_throttle_retry_wanted(cap, 1782, 1980, 90));  /* exactly 90%: not below */
    ck_assert(mmb_throttle_retry_wanted(cap, 1980, 1980, 100));  /* 100%: every throttled row */
    ck_assert(mmb_throttle_retry_wanted(cap, NAN, 1980, 90));    /* no clock read */
    ck_assert(mmb_throttle_retry_wanted(cap, 1800, NAN, 90));    /* no maximum known */
    ck_assert(mmb_throttle_retry_wanted(cap, 0, 1980, 90));
    ck_assert(!mmb_throttle_retry_wanted(idle, 300, 1980, 90));  /* no throttle: never */
    ck_assert(!mmb_throttle_retry_wanted(0, NAN, NAN, 100));
}
END_TEST

START_TEST(test_bad_cells)
{
    static const char *const bad[] = {"", "+", "sw_power_cap+", "+sw_power_cap", "sw_power_cap++hw_thermal",
                                      "sw_power_cap+sw_power_cap", "none+sw_power_cap", "NONE", "Sw_Power_Cap",
                                      "sw_power_cap hw_thermal", "power"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned mask = 123;
        ck_assert_msg(!mmb_throttle_parse(bad[i], &mask), "'%s' accepted", bad[i]);
    }
    unsigned mask;
    ck_assert(mmb_throttle_parse("hw_thermal+sw_power_cap", &mask)); /* any order */
    char cell[MMB_THROTTLE_TEXT_LEN];
    mmb_throttle_format(mask, cell, sizeof cell);
    ck_assert_str_eq(cell, "sw_power_cap+hw_thermal");
    char words[512];
    mmb_throttle_words(words, sizeof words);
    ck_assert(strstr(words, "gpu_idle, applications_clocks, sw_power_cap"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("throttle");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_table_is_sane);
    tcase_add_test(tc, test_reasons_to_words);
    tcase_add_test(tc, test_which_throttle);
    tcase_add_test(tc, test_retry_threshold);
    tcase_add_test(tc, test_bad_cells);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
