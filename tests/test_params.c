/* test_params.c - the params text, read and written in one place: every pair of a
 * well-formed text comes back with its name, its value and its text; every kind of
 * malformed text is refused at the pair where it goes wrong; written texts read back
 * to the values written, and a short buffer is never overrun. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "check_run.h"
#include "model/params.h"

START_TEST(test_reads_every_pair)
{
    const char *s = "block_size_x=16;tile_size_y=-2;k=9223372036854775807";
    struct mmb_params_item it;
    ck_assert_int_eq(mmb_params_next(&s, &it), 1);
    ck_assert_int_eq((int)it.name_len, 12);
    ck_assert(!strncmp(it.name, "block_size_x", it.name_len));
    ck_assert_int_eq(it.value, 16);
    ck_assert(!strncmp(it.value_text, "16", it.value_len) && it.value_len == 2);
    ck_assert_int_eq(mmb_params_next(&s, &it), 1);
    ck_assert(!strncmp(it.name, "tile_size_y", it.name_len) && it.name_len == 11);
    ck_assert_int_eq(it.value, -2);
    ck_assert_int_eq(mmb_params_next(&s, &it), 1);
    ck_assert(it.value == LLONG_MAX);
    ck_assert_int_eq(mmb_params_next(&s, &it), 0);
    ck_assert_int_eq(mmb_params_next(&s, &it), 0);
    const char *empty = "";
    ck_assert_int_eq(mmb_params_next(&empty, &it), 0);
}
END_TEST

/* Each text goes wrong at its last pair: the ones before it are read. */
START_TEST(test_refuses_malformed)
{
    static const struct {
        const char *text;
        int good; /* pairs read before the bad one */
    } cases[] = {
        {"a", 0},          {"=1", 0},        {"a=", 0},         {"a=x", 0},          {"a=1x", 0},
        {"a=1.5", 0},      {"a= 1", 0},      {"a=+1", 0},       {"a=-", 0},          {"a=1;", 0},
        {"a=1;;b=2", 1},   {";a=1", 0},      {"a=1;b", 1},      {"a=1;b=2;", 1},     {"a=99999999999999999999", 0},
        {"a=1=2", 0},      {"a=1;b=0x10", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].text;
        struct mmb_params_item it;
        int good = 0, rc;
        while ((rc = mmb_params_next(&s, &it)) == 1)
            good++;
        ck_assert_msg(rc == -1 && good == cases[i].good, "'%s': %d pairs then %d", cases[i].text, good, rc);
    }
}
END_TEST

START_TEST(test_writes_what_it_reads)
{
    char buf[64];
    size_t used = 0;
    buf[0] = '\0';
    mmb_params_append(buf, sizeof buf, &used, "block_size_x", 32);
    mmb_params_append(buf, sizeof buf, &used, "tile", -4);
    ck_assert_str_eq(buf, "block_size_x=32;tile=-4");
    ck_assert_uint_eq(used, strlen(buf));
    const char *s = buf;
    struct mmb_params_item it;
    ck_assert_int_eq(mmb_params_next(&s, &it), 1);
    ck_assert_int_eq(it.value, 32);
    ck_assert_int_eq(mmb_params_next(&s, &it), 1);
    ck_assert_int_eq(it.value, -4);
    ck_assert_int_eq(mmb_params_next(&s, &it), 0);
    /* a short buffer: cut, terminated, never overrun */
    char small[8];
    memset(small, 'x', sizeof small);
    used = 0;
    small[0] = '\0';
    mmb_params_append(small, 6, &used, "abc", 12345);
    ck_assert_str_eq(small, "abc=1");
    ck_assert_uint_eq(used, 5);
    mmb_params_append(small, 6, &used, "d", 1);
    ck_assert_str_eq(small, "abc=1");
    ck_assert_int_eq(small[6], 'x');
}
END_TEST

int main(void)
{
    Suite *s = suite_create("params");
    TCase *tc = tcase_create("params");
    tcase_add_test(tc, test_reads_every_pair);
    tcase_add_test(tc, test_refuses_malformed);
    tcase_add_test(tc, test_writes_what_it_reads);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? 1 : 0;
}
