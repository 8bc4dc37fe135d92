/* test_expr.c - expression parsing and evaluation: precedence, associativity,
 * short-circuit, functions, runtime errors and the caret under the faulty column. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/expr.h"

/* Names for the tests: x = 6, y = 3, z = 0, big = LLONG_MAX; anything else is
 * unknown. Counts lookups so that short-circuit evaluation is observable. */
struct vars {
    int lookups;
};

static bool lookup(void *ctx, const char *name, size_t len, long long *value)
{
    static const struct {
        const char *name;
        long long value;
    } table[] = {{"x", 6}, {"y", 3}, {"z", 0}, {"big", LLONG_MAX}, {"block_size_x", 32}};
    struct vars *v = ctx;
    v->lookups++;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strlen(table[i].name) == len && !memcmp(table[i].name, name, len)) {
            *value = table[i].value;
            return true;
        }
    }
    return false;
}

static long long eval_ok(const char *text)
{
    char err[512];
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(e, "parse '%s': %s", text, err);
    struct vars v = {0};
    long long r = 0;
    int rc = mmb_expr_eval(e, lookup, &v, &r, err, sizeof err);
    ck_assert_msg(rc == 0, "eval '%s': %s", text, err);
    ck_assert_str_eq(mmb_expr_text(e), text);
    mmb_expr_free(e);
    return r;
}

/* Parses text, which must fail; returns the message. */
static const char *parse_bad(const char *text)
{
    static char err[512];
    strcpy(err, "(untouched)");
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(!e, "'%s' parsed but should not", text);
    return err;
}

/* Evaluates text, which parses but must fail at evaluation; returns the message. */
static const char *eval_bad(const char *text)
{
    static char err[512];
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(e, "parse '%s': %s", text, err);
    struct vars v = {0};
    long long r = 12345;
    int rc = mmb_expr_eval(e, lookup, &v, &r, err, sizeof err);
    ck_assert_msg(rc == -1, "'%s' evaluated to %lld but should fail", text, r);
    mmb_expr_free(e);
    return err;
}

/* The message's third line has its caret under column col (1-based) of the text. */
static void assert_caret(const char *err, const char *text, size_t col)
{
    char want[600];
    snprintf(want, sizeof want, "at column %zu\n  %s\n  %*s^", col, text, (int)(col - 1), "");
    const char *tail = strstr(err, "at column");
    ck_assert_msg(tail, "no column in '%s'", err);
    ck_assert_str_eq(tail, want);
}

START_TEST(test_literals_and_names)
{
    ck_assert_int_eq(eval_ok("42"), 42);
    ck_assert_int_eq(eval_ok("0"), 0);
    ck_assert_int_eq(eval_ok("0x1F"), 31);
    ck_assert_int_eq(eval_ok("9223372036854775807"), LLONG_MAX);
    ck_assert_int_eq(eval_ok("  x  "), 6);
    ck_assert_int_eq(eval_ok("block_size_x"), 32);
}
END_TEST

START_TEST(test_precedence)
{
    ck_assert_int_eq(eval_ok("2 + 3 * 4"), 14);
    ck_assert_int_eq(eval_ok("(2 + 3) * 4"), 20);
    ck_assert_int_eq(eval_ok("2 * 3 + 4"), 10);
    ck_assert_int_eq(eval_ok("1 + 2 < 4"), 1);       /* (1 + 2) < 4 */
    ck_assert_int_eq(eval_ok("1 < 2 && 3 < 2"), 0);
    ck_assert_int_eq(eval_ok("1 || 0 && 0"), 1);     /* && binds tighter than || */
    ck_assert_int_eq(eval_ok("0 && 0 || 1"), 1);
    ck_assert_int_eq(eval_ok("-2 * 3"), -6);
    ck_assert_int_eq(eval_ok("-x + y"), -3);         /* unary binds tightest */
    ck_assert_int_eq(eval_ok("!0 + 1"), 2);          /* C: (!0) + 1 */
    ck_assert_int_eq(eval_ok("!x == 0"), 1);         /* C: (!x) == 0 */
    ck_assert_int_eq(eval_ok("not x == 0"), 1);      /* Python: not (x == 0) */
    ck_assert_int_eq(eval_ok("not x == 6"), 0);
    ck_assert_int_eq(eval_ok("x == 6 and not y == 4"), 1);
    ck_assert_int_eq(eval_ok("x > 10 or y < 5 and z == 0"), 1);
    ck_assert_int_eq(eval_ok("x % 4 * 2"), 4);       /* (6 % 4) * 2 */
    ck_assert_int_eq(eval_ok("1 ? 2 : 3 + 10"), 2);  /* ?: binds loosest */
    ck_assert_int_eq(eval_ok("(x == 6) == (y == 3)"), 1);
}
END_TEST

START_TEST(test_associativity)
{
    ck_assert_int_eq(eval_ok("10 - 3 - 2"), 5);
    ck_assert_int_eq(eval_ok("64 / 4 / 2"), 8);
    ck_assert_int_eq(eval_ok("100 % 7 % 3"), 2);
    ck_assert_int_eq(eval_ok("- - 3"), 3);
    ck_assert_int_eq(eval_ok("!!x"), 1);
    /* ?: is right-associative: 0 ? 1 : (0 ? 2 : 3) */
    ck_assert_int_eq(eval_ok("0 ? 1 : 0 ? 2 : 3"), 3);
    ck_assert_int_eq(eval_ok("1 ? 0 ? 5 : 6 : 7"), 6);
}
END_TEST

START_TEST(test_c_semantics)
{
    ck_assert_int_eq(eval_ok("-7 / 2"), -3); /* truncates toward zero */
    ck_assert_int_eq(eval_ok("-7 % 2"), -1);
    ck_assert_int_eq(eval_ok("7 % -2"), 1);
    ck_assert_int_eq(eval_ok("x != 6"), 0);
    ck_assert_int_eq(eval_ok("x >= 6"), 1);
    ck_assert_int_eq(eval_ok("x <= 5"), 0);
    ck_assert_int_eq(eval_ok("x > 5"), 1);
    ck_assert_int_eq(eval_ok("x && y"), 1); /* logic yields 0 or 1 */
    ck_assert_int_eq(eval_ok("z || y"), 1);
}
END_TEST

START_TEST(test_short_circuit)
{
    char err[256];
    struct vars v = {0};
    long long r;
    /* The unknown name on the right is never looked up. */
    const char *texts[] = {"z && nosuch", "x || nosuch", "z and 1 / z", "y or 1 / z",
                           "1 ? x : nosuch", "0 ? 1 / z : y"};
    const long long want[] = {0, 1, 0, 1, 6, 3};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct mmb_expr *e = mmb_expr_parse(texts[i], err, sizeof err);
        ck_assert_msg(e, "%s", err);
        v.lookups = 0;
        ck_assert_msg(mmb_expr_eval(e, lookup, &v, &r, err, sizeof err) == 0, "%s: %s", texts[i], err);
        ck_assert_int_eq(r, want[i]);
        ck_assert_int_eq(v.lookups, 1);
        mmb_expr_free(e);
    }
}
END_TEST

START_TEST(test_functions)
{
    ck_assert_int_eq(eval_ok("min(x, y)"), 3);
    ck_assert_int_eq(eval_ok("max(x, y)"), 6);
    ck_assert_int_eq(eval_ok("max(-1, min(4, 2 + 1))"), 3);
    ck_assert_int_eq(eval_ok("ceil_div(7, 2)"), 4);
    ck_assert_int_eq(eval_ok("ceil_div(8, 2)"), 4);
    ck_assert_int_eq(eval_ok("ceil_div(0, 5)"), 0);
    ck_assert_int_eq(eval_ok("ceil_div(-7, 2)"), -3);
    ck_assert_int_eq(eval_ok("ceil_div(7, -2)"), -3);
    ck_assert_int_eq(eval_ok("ceil_div(-7, -2)"), 4);
    ck_assert_int_eq(eval_ok("ceil_div(big, 2)"), LLONG_MAX / 2 + 1); /* no overflow */
    ck_assert_int_eq(eval_ok("min(x,y)*2"), 6);
}
END_TEST

START_TEST(test_runtime_errors)
{
    const char *err = eval_bad("x / z");
    ck_assert_msg(strstr(err, "division by zero"), "%s", err);
    assert_caret(err, "x / z", 3);
    err = eval_bad("x % (y - 3)");
    ck_assert_msg(strstr(err, "division by zero"), "%s", err);
    assert_caret(err, "x % (y - 3)", 3);
    err = eval_bad("ceil_div(x, z)");
    ck_assert_msg(strstr(err, "division by zero"), "%s", err);
    err = eval_bad("big + 1");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    assert_caret(err, "big + 1", 5);
    err = eval_bad("big * 2");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    err = eval_bad("-big - 2");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    err = eval_bad("(-big - 1) / -1");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    err = eval_bad("(-big - 1) % -1");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    err = eval_bad("-(-big - 1)");
    ck_assert_msg(strstr(err, "overflow"), "%s", err);
    err = eval_bad("x * block_size_y");
    ck_assert_msg(strstr(err, "unknown name 'block_size_y'"), "%s", err);
    assert_caret(err, "x * block_size_y", 5);
    err = eval_bad("x && nosuch");
    assert_caret(err, "x && nosuch", 6);
}
END_TEST

START_TEST(test_no_lookup)
{
    char err[256];
    long long r;
    struct mmb_expr *e = mmb_expr_parse("2 * 3", err, sizeof err);
    ck_assert(e);
    ck_assert_int_eq(mmb_expr_eval(e, NULL, NULL, &r, err, sizeof err), 0);
    ck_assert_int_eq(r, 6);
    mmb_expr_free(e);
    e = mmb_expr_parse("M", err, sizeof err);
    ck_assert(e);
    ck_assert_int_eq(mmb_expr_eval(e, NULL, NULL, &r, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "unknown name 'M'"), "%s", err);
    mmb_expr_free(e);
}
END_TEST

START_TEST(test_parse_errors)
{
    static const struct {
        const char *text;
        size_t column;
        const char *fragment;
    } bad[] = {
        {"a * (b + c", 11, "expected ')'"},
        {"", 1, "expected an expression"},
        {"   ", 4, "expected an expression"},
        {"a +", 4, "expected a number"},
        {"a b", 3, "expected an operator"},
        {"a = 1", 3, "expected '=='"},
        {"a & b", 3, "expected '&&'"},
        {"a | b", 3, "expected '||'"},
        {"a @ b", 3, "unexpected character '@'"},
        {"(a))", 4, "unmatched ')'"},
        {"1 < a < 3", 7, "chained comparison"},
        {"a == b != c", 8, "chained comparison"},
        {"a < b == c", 7, "chained comparison"},
        {"a ? b", 6, "expected ':'"},
        {"min(a)", 6, "expected ','"},
        {"max(a, b, c)", 9, "expected ')'"},
        {"min + 1", 5, "expected '('"},
        {"foo(1)", 1, "unknown function 'foo'"},
        {"16x", 3, "after a number"},
        {"010", 1, "leading zero"},
        {"0x", 3, "hexadecimal"},
        {"9223372036854775808", 1, "out of range"},
        {"a // 2", 4, "'//' is Python"},
        {"a + not b", 5, "expected a number"},
        {"x < 1 and", 10, "expected a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *err = parse_bad(bad[i].text);
        ck_assert_msg(strstr(err, bad[i].fragment), "'%s': got '%s', want '%s'", bad[i].text, err,
                      bad[i].fragment);
        assert_caret(err, bad[i].text, bad[i].column);
    }
}
END_TEST

START_TEST(test_deep_nesting)
{
    /* Bounded recursion: a hostile expression fails cleanly instead of crashing. */
    size_t n = 100000;
    char *text = malloc(2 * n + 2);
    ck_assert(text);
    memset(text, '(', n);
    text[n] = '1';
    memset(text + n + 1, ')', n);
    text[2 * n + 1] = '\0';
    char err[128];
    ck_assert(!mmb_expr_parse(text, err, sizeof err));
    ck_assert_msg(strstr(err, "nested too deeply"), "%s", err);
    memset(text, '-', n);
    text[n] = '1';
    text[n + 1] = '\0';
    ck_assert(!mmb_expr_parse(text, err, sizeof err));
    ck_assert_msg(strstr(err, "nested too deeply"), "%s", err);
    free(text);
    ck_assert_int_eq(eval_ok("((((((((((1))))))))))"), 1);
}
END_TEST

START_TEST(test_small_error_buffer)
{
    char err[8];
    memset(err, 'x', sizeof err);
    ck_assert(!mmb_expr_parse("a +", err, sizeof err));
    ck_assert_int_lt(strlen(err), sizeof err);
    ck_assert(!mmb_expr_parse("a +", NULL, 0));
}
END_TEST

struct seen {
    char names[8][32];
    size_t columns[8];
    int n;
    int stop_at;
};

static int collect(void *ctx, const char *name, size_t len, size_t column)
{
    struct seen *s = ctx;
    ck_assert_int_lt(len, 32);
    memcpy(s->names[s->n], name, len);
    s->names[s->n][len] = '\0';
    s->columns[s->n] = column;
    s->n++;
    return s->n == s->stop_at ? 7 : 0;
}

START_TEST(test_each_name)
{
    char err[256];
    const char *text = "max(bx, 2) * (ty + bx) < K and not M";
    struct mmb_expr *e = mmb_expr_parse(text, err, sizeof err);
    ck_assert_msg(e, "%s", err);
    struct seen s = {.stop_at = -1};
    ck_assert_int_eq(mmb_expr_each_name(e, collect, &s), 0);
    ck_assert_int_eq(s.n, 5); /* max is a function, not a name */
    const char *want[] = {"bx", "ty", "bx", "K", "M"};
    const size_t cols[] = {5, 15, 20, 26, 36};
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(s.names[i], want[i]);
        ck_assert_int_eq(s.columns[i], cols[i]);
        ck_assert_int_eq(strncmp(text + cols[i] - 1, want[i], strlen(want[i])), 0);
    }
    struct seen stop = {.stop_at = 2};
    ck_assert_int_eq(mmb_expr_each_name(e, collect, &stop), 7);
    ck_assert_int_eq(stop.n, 2);
    mmb_expr_free(e);
}
END_TEST

START_TEST(test_format_caret)
{
    char buf[64];
    size_t n = mmb_expr_format_caret("a\t+ b", 4, buf, sizeof buf);
    ck_assert_str_eq(buf, "\n  a\t+ b\n   \t ^");
    ck_assert_int_eq(n, strlen(buf));
    mmb_expr_format_caret("abcdef", 3, buf, 6);
    ck_assert_int_eq(strlen(buf), 5);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("expr");
    tcase_add_test(tc, test_literals_and_names);
    tcase_add_test(tc, test_precedence);
    tcase_add_test(tc, test_associativity);
    tcase_add_test(tc, test_c_semantics);
    tcase_add_test(tc, test_short_circuit);
    tcase_add_test(tc, test_functions);
    tcase_add_test(tc, test_runtime_errors);
    tcase_add_test(tc, test_no_lookup);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_small_error_buffer);
    tcase_add_test(tc, test_each_name);
    tcase_add_test(tc, test_format_caret);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
