/* test_pareto.c - the two-objective Pareto front on synthetic points: what dominates
 * what, ties and infinite scores, and the front kept while points arrive equal to the
 * front computed from all of them at once, in any order of arrival. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "search/pareto.h"

static struct mmb_row row_named(size_t i)
{
    struct mmb_row r;
    mmb_row_init(&r);
    snprintf(r.params, sizeof r.params, "p=%zu", i);
    return r;
}

START_TEST(test_dominates)
{
    ck_assert(mmb_pareto_dominates((double[]){1, 1}, (double[]){2, 2}));
    ck_assert(mmb_pareto_dominates((double[]){1, 2}, (double[]){1, 3}));
    ck_assert(!mmb_pareto_dominates((double[]){1, 1}, (double[]){1, 1})); /* equal: neither */
    ck_assert(!mmb_pareto_dominates((double[]){1, 3}, (double[]){2, 2})); /* a trade-off */
    ck_assert(!mmb_pareto_dominates((double[]){2, 2}, (double[]){1, 3}));
}
END_TEST

START_TEST(test_front_by_hand)
{
    /* time, energy: A fast and hungry, B slow and frugal, C beaten by A, D between, E = D */
    const double p[][2] = {{1.0, 5.0}, {3.0, 1.0}, {1.5, 6.0}, {2.0, 2.0}, {2.0, 2.0}, {INFINITY, 0.1}, {0.5, NAN}};
    struct mmb_pareto f = {0};
    int want[] = {1, 1, 0, 1, 0, 0, 0};
    for (size_t i = 0; i < 7; i++) {
        struct mmb_row r = row_named(i);
        ck_assert_int_eq(mmb_pareto_add(&f, i, p[i], &r), want[i]);
    }
    mmb_pareto_sort(&f);
    ck_assert_uint_eq(f.n, 3);
    ck_assert_uint_eq(f.v[0].index, 0);
    ck_assert_uint_eq(f.v[1].index, 3); /* the first of the two equal points */
    ck_assert_uint_eq(f.v[2].index, 1);
    ck_assert_str_eq(f.v[1].row.params, "p=3");
    /* a newcomer that beats two of them on both */
    struct mmb_row r = row_named(9);
    ck_assert_int_eq(mmb_pareto_add(&f, 9, (double[]){0.9, 1.5}, &r), 1);
    mmb_pareto_sort(&f);
    ck_assert_uint_eq(f.n, 2);
    ck_assert_uint_eq(f.v[0].index, 9);
    ck_assert_uint_eq(f.v[1].index, 1);
    mmb_pareto_free(&f);
    ck_assert(f.v == NULL && f.n == 0);
}
END_TEST

/* The front as the points no other point dominates or equals earlier: from all at once. */
static bool on_front(double (*p)[2], size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++)
        if (j != i && (mmb_pareto_dominates(p[j], p[i]) || (j < i && p[j][0] == p[i][0] && p[j][1] == p[i][1])))
            return false;
    return true;
}

START_TEST(test_any_order_same_front)
{
    enum { N = 400 };
    static double p[N][2];
    srand(12345);
    for (size_t i = 0; i < N; i++) { /* a noisy trade-off on a coarse grid, so that ties happen */
        double x = (double)(rand() % 100);
        p[i][0] = x;
        p[i][1] = (double)((int)(10000.0 / (x + 1.0)) + rand() % 40);
    }
    size_t expect = 0;
    for (size_t i = 0; i < N; i++)
        expect += on_front(p, N, i);
    ck_assert_uint_gt(expect, 3);
    for (int trial = 0; trial < 20; trial++) {
        size_t order[N];
        for (size_t i = 0; i < N; i++)
            order[i] = i;
        for (size_t i = N - 1; trial && i > 0; i--) { /* trial 0: in index order */
            size_t j = (size_t)rand() % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        struct mmb_pareto f = {0};
        for (size_t i = 0; i < N; i++) {
            struct mmb_row r = row_named(order[i]);
            ck_assert_int_ge(mmb_pareto_add(&f, order[i], p[order[i]], &r), 0);
        }
        mmb_pareto_sort(&f);
        ck_assert_uint_eq(f.n, expect);
        for (size_t k = 0; k < f.n; k++) {
            size_t i = f.v[k].index;
            /* equal points: which one stays depends on the order; its scores are on the front */
            bool found = false;
            for (size_t j = 0; j < N && !found; j++)
                found = on_front(p, N, j) && p[j][0] == p[i][0] && p[j][1] == p[i][1];
            ck_assert_msg(found, "trial %d: point %zu (%g, %g) is not on the front", trial, i, p[i][0], p[i][1]);
            if (k)
                ck_assert(f.v[k - 1].score[0] < f.v[k].score[0] && f.v[k - 1].score[1] > f.v[k].score[1]);
        }
        mmb_pareto_free(&f);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pareto");
    TCase *tc = tcase_create("front");
    tcase_add_test(tc, test_dominates);
    tcase_add_test(tc, test_front_by_hand);
    tcase_add_test(tc, test_any_order_same_front);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
