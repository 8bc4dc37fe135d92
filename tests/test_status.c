/* test_status.c - the status table maps every value to text and back, and its flags
 * say how the commands, the report and T4 treat each status; the dtype and counter-mode
 * tables map theirs. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/counters.h"
#include "core/dtype.h"
#include "core/status.h"

START_TEST(test_status_round_trip)
{
    int n = 0;
    for (const struct mmb_status_info *s = mmb_status_table; s->text; s++, n++) {
        enum mmb_status back;
        ck_assert_int_eq(s->value, n); /* rows in enum order */
        ck_assert(mmb_status_parse(s->text, &back));
        ck_assert_int_eq(back, s->value);
        ck_assert_str_eq(mmb_status_text(s->value), s->text);
        ck_assert(strlen(mmb_status_meaning(s->value)) > 0);
    }
    ck_assert_int_eq(n, MMB_STATUS_COUNT);
}
END_TEST

START_TEST(test_status_unknown)
{
    enum mmb_status s;
    ck_assert(!mmb_status_parse("OK", &s));
    ck_assert(!mmb_status_parse("", &s));
    ck_assert_str_eq(mmb_status_text((enum mmb_status)99), "unknown");
    ck_assert(mmb_status_info((enum mmb_status)99)->failed);
    ck_assert_str_eq(mmb_status_info((enum mmb_status)-1)->t4, "runtime");
}
END_TEST

START_TEST(test_status_flags)
{
    static const char *const t4[] = {"correct", "correctness", "compile", "runtime", "constraints"};
    for (const struct mmb_status_info *s = mmb_status_table; s->text; s++) {
        ck_assert_ptr_eq(mmb_status_info(s->value), s);
        bool known = false;
        for (size_t i = 0; i < sizeof t4 / sizeof t4[0]; i++)
            known |= s->t4 && strcmp(s->t4, t4[i]) == 0;
        ck_assert_msg(known, "%s: t4 '%s'", s->text, s->t4 ? s->t4 : "(null)");
        ck_assert_msg(!(s->quiet && s->failed), "%s is quiet and failed", s->text);
    }
    /* the expected outcomes, printed only when verbose and never counted as failures */
    ck_assert(mmb_status_info(MMB_STATUS_OK)->quiet && mmb_status_info(MMB_STATUS_RESTRICTED)->quiet);
    ck_assert(!mmb_status_info(MMB_STATUS_PROFILING_DENIED)->quiet);
    ck_assert(mmb_status_info(MMB_STATUS_SKIPPED)->failed && mmb_status_info(MMB_STATUS_WRONG_RESULT)->failed);
    ck_assert(!mmb_status_info(MMB_STATUS_OK)->failed && !mmb_status_info(MMB_STATUS_RESTRICTED)->failed);
}
END_TEST

START_TEST(test_dtype_round_trip)
{
    int n = 0;
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++, n++) {
        enum mmb_dtype back;
        ck_assert(mmb_dtype_parse(d->text, &back));
        ck_assert_int_eq(back, d->value);
        ck_assert_ptr_eq(mmb_dtype_info(back), d);
    }
    ck_assert_int_eq(n, MMB_DTYPE_COUNT);
    enum mmb_dtype d;
    ck_assert(!mmb_dtype_parse("fp16", &d));
}
END_TEST

/* The counter modes: each to its text and back, the profiles' spelling, the list
 * that messages print. */
START_TEST(test_counters_round_trip)
{
    int n = 0;
    for (const struct mmb_counters_info *c = mmb_counters_table; c->text; c++, n++) {
        enum mmb_counters back;
        ck_assert_int_eq(c->value, n);
        ck_assert(mmb_counters_parse(c->text, &back));
        ck_assert_int_eq(back, c->value);
        ck_assert_str_eq(mmb_counters_text(c->value), c->text);
        ck_assert(strlen(c->meaning) > 0);
    }
    ck_assert_int_eq(n, MMB_COUNTERS_COUNT);
    enum mmb_counters c = MMB_COUNTERS_ALL;
    ck_assert(!mmb_counters_parse("Best", &c) && !mmb_counters_parse("", &c));
    ck_assert_int_eq(c, MMB_COUNTERS_ALL);
    ck_assert_ptr_null(mmb_counters_text(MMB_COUNTERS_COUNT));
    char names[64];
    mmb_counters_names(names, sizeof names);
    ck_assert_str_eq(names, "best, all or none");
    /* not_best is a counter status of a good row: quiet, not a failure */
    ck_assert(mmb_status_info(MMB_STATUS_NOT_BEST)->quiet && !mmb_status_info(MMB_STATUS_NOT_BEST)->failed);
    ck_assert_str_eq(mmb_status_text(MMB_STATUS_NOT_BEST), "not_best");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tcase_create("tables");
    tcase_add_test(tc, test_status_round_trip);
    tcase_add_test(tc, test_status_unknown);
    tcase_add_test(tc, test_status_flags);
    tcase_add_test(tc, test_dtype_round_trip);
    tcase_add_test(tc, test_counters_round_trip);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
