/* test_cache.c - the cache-mode table maps every mode to its text and back. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/cache.h"

START_TEST(test_cache_round_trip)
{
    int n = 0;
    for (const struct mmb_cache_info *c = mmb_cache_table; c->text; c++, n++) {
        enum mmb_cache_mode back;
        ck_assert_int_eq(c->value, n); /* rows in enum order */
        ck_assert(mmb_cache_parse(c->text, &back));
        ck_assert_int_eq(back, c->value);
        ck_assert_str_eq(mmb_cache_text(c->value), c->text);
        ck_assert(strlen(c->meaning) > 0);
    }
    ck_assert_int_eq(n, MMB_CACHE_COUNT);
    ck_assert_str_eq(mmb_cache_text(MMB_CACHE_COLD), "cold"); /* the CSVs' spelling */
    ck_assert_str_eq(mmb_cache_text(MMB_CACHE_HOT), "hot");
}
END_TEST

START_TEST(test_cache_unknown)
{
    enum mmb_cache_mode c = MMB_CACHE_HOT;
    ck_assert(!mmb_cache_parse("warm", &c));
    ck_assert(!mmb_cache_parse("Cold", &c));
    ck_assert(!mmb_cache_parse("", &c));
    ck_assert_int_eq(c, MMB_CACHE_HOT); /* untouched */
    ck_assert_ptr_null(mmb_cache_text(MMB_CACHE_COUNT));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_cache_round_trip);
    tcase_add_test(tc, test_cache_unknown);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
