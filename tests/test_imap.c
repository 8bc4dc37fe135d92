/* test_imap.c - the maps of core/imap.h: the size_t map and the string map each find
 * what was put, replace on a second put, keep every key through growth (thousands of
 * keys past the first capacity), tell absent keys apart, and free to an empty map. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_run.h"
#include "core/imap.h"

START_TEST(test_size_keys)
{
    struct mmb_imap m = {0};
    uintptr_t v = 0;
    ck_assert(!mmb_imap_get(&m, 0, &v));
    for (size_t k = 0; k < 5000; k++)
        ck_assert_int_eq(mmb_imap_put(&m, k * 7, k + 1), 0);
    ck_assert_uint_eq(m.count, 5000);
    for (size_t k = 0; k < 5000; k++) {
        ck_assert(mmb_imap_get(&m, k * 7, &v));
        ck_assert_uint_eq(v, k + 1);
    }
    ck_assert(!mmb_imap_get(&m, 3, &v));
    ck_assert_int_eq(mmb_imap_put(&m, 0, 42), 0);
    ck_assert(mmb_imap_get(&m, 0, &v) && v == 42);
    ck_assert_uint_eq(m.count, 5000);
    mmb_imap_free(&m);
    ck_assert(!mmb_imap_get(&m, 7, &v) && m.count == 0);
}
END_TEST

START_TEST(test_string_keys)
{
    struct mmb_smap m = {0};
    uintptr_t v = 0;
    char key[64];
    ck_assert(!mmb_smap_get(&m, "", &v));
    for (size_t k = 0; k < 5000; k++) {
        snprintf(key, sizeof key, "row,%zu,gpu", k);
        ck_assert_int_eq(mmb_smap_put(&m, key, k), 0);
    }
    ck_assert_uint_eq(m.count, 5000);
    for (size_t k = 0; k < 5000; k++) {
        snprintf(key, sizeof key, "row,%zu,gpu", k);
        ck_assert(mmb_smap_get(&m, key, &v));
        ck_assert_uint_eq(v, k);
    }
    /* the key is copied: the caller's buffer may change */
    snprintf(key, sizeof key, "row,1,gpu");
    key[0] = 'R';
    ck_assert(!mmb_smap_get(&m, key, &v));
    ck_assert(mmb_smap_get(&m, "row,1,gpu", &v) && v == 1);
    ck_assert(!mmb_smap_get(&m, "row,5000,gpu", &v));
    ck_assert_int_eq(mmb_smap_put(&m, "row,1,gpu", 99), 0);
    ck_assert(mmb_smap_get(&m, "row,1,gpu", &v) && v == 99);
    ck_assert_uint_eq(m.count, 5000);
    ck_assert_int_eq(mmb_smap_put(&m, "", 7), 0);
    ck_assert(mmb_smap_get(&m, "", &v) && v == 7);
    mmb_smap_free(&m);
    ck_assert(!mmb_smap_get(&m, "row,1,gpu", &v) && m.count == 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("imap");
    TCase *tc = tcase_create("maps");
    tcase_add_test(tc, test_size_keys);
    tcase_add_test(tc, test_string_keys);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
