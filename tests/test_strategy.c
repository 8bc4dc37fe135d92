/* test_strategy.c - the strategies on their own: the table, index arithmetic,
 * neighbours, the order of brute_force, random as a seeded permutation, and
 * annealing and genetic proposing only allowed configurations, reproducibly. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "hand_space.h"
#include "model/space.h"
#include "search/strategy.h"
#include "search/strategy_impl.h"

/* ---- spaces built by hand (hand_space.h) ---- */

static const struct mmb_size size4096 = {4096, 4096, 4096};

static bool allowed(void *ctx, size_t index)
{
    const struct mmb_kernel_spec *k = ctx;
    struct mmb_config cfg;
    int failed;
    char err[256];
    mmb_space_config_at(k, index, &cfg);
    int r = mmb_space_allowed(k, &cfg, &size4096, 4, &failed, err, sizeof err);
    ck_assert_msg(r >= 0, "%s", err);
    return r == 1;
}

static void search_open(struct mmb_search *s, struct mmb_kernel_spec *k, const char *strategy, uint64_t seed,
                        size_t max_fevals)
{
    char err[256];
    memset(s, 0, sizeof *s);
    s->kernel = k;
    s->seed = seed;
    s->max_fevals = max_fevals;
    s->allowed = allowed;
    s->allowed_ctx = k;
    const struct mmb_strategy_ops *ops = mmb_strategy_find(strategy);
    ck_assert_ptr_nonnull(ops);
    ck_assert_msg(mmb_search_init(s, ops, err, sizeof err) == 0, "%s", err);
}

/* A made-up landscape with one best configuration and failures (INFINITY). */
static double fake_score(size_t index)
{
    if (index % 7 == 3)
        return INFINITY;
    return 1.0 + (double)((index * 37) % 101);
}

/* Drives a strategy the way the tuner does, with the tuner's count of distinct
 * configurations; returns the number of proposals written to out. */
static size_t drive(struct mmb_search *s, size_t *out, size_t max)
{
    bool *seen = calloc(s->space, 1);
    ck_assert_ptr_nonnull(seen);
    size_t n = 0;
    while (n < max && !s->ops->done(s)) {
        size_t x = s->ops->next(s);
        ck_assert_uint_lt(x, s->space);
        out[n++] = x;
        if (!seen[x] && allowed(s->allowed_ctx, x)) {
            seen[x] = true;
            s->fevals++;
        }
        s->ops->observe(s, x, allowed(s->allowed_ctx, x) ? fake_score(x) : INFINITY);
    }
    free(seen);
    return n;
}

/* ---- tests ---- */

START_TEST(test_table)
{
    char list[256];
    mmb_strategy_list(list, sizeof list);
    ck_assert_str_eq(list, "brute_force, random, annealing, genetic");
    int n = 0;
    for (const struct mmb_strategy_ops *const *o = mmb_strategies; *o; o++, n++) {
        ck_assert_ptr_eq(mmb_strategy_find((*o)->name), *o);
        ck_assert(strlen((*o)->description) > 0);
        ck_assert(((*o)->init && (*o)->done && (*o)->next && (*o)->observe && (*o)->peek && (*o)->cleanup));
    }
    ck_assert_int_eq(n, 4);
    ck_assert_ptr_null(mmb_strategy_find("bayes"));
    ck_assert_ptr_null(mmb_strategy_find(""));
}
END_TEST

/* Seed 002's space, counted with nested loops over the values, not through indices. */
START_TEST(test_seed002_count_independent)
{
    static const long long bx[] = {16, 32, 64}, by[] = {1, 2, 4, 8, 16, 32}, t[] = {1, 2, 4, 8};
    size_t independent = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 6; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    independent += bx[a] == by[b] * t[d];
    ck_assert_uint_eq(independent, 44);

    struct mmb_kernel_spec k;
    seed002(&k);
    ck_assert_uint_eq(mmb_space_size(&k), 288);
    struct mmb_search s;
    search_open(&s, &k, "brute_force", 1, 0);
    size_t order[400], n = drive(&s, order, 400);
    ck_assert_uint_eq(n, 288);
    size_t counted = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(order[i], i); /* index order */
        counted += allowed(&k, order[i]);
    }
    ck_assert_uint_eq(counted, independent);
    mmb_search_free(&s);
    free_kernel(&k);
}
END_TEST

START_TEST(test_positions_round_trip)
{
    struct mmb_kernel_spec k;
    seed002(&k);
    for (size_t i = 0; i < 288; i++) {
        int pos[MMB_MAX_PARAMS];
        struct mmb_config cfg;
        mmb_search_positions(&k, i, pos);
        mmb_space_config_at(&k, i, &cfg);
        for (int p = 0; p < k.nparams; p++)
            ck_assert_int_eq(k.params[p].values[pos[p]], cfg.values[p]);
        ck_assert_uint_eq(mmb_search_index_of(&k, pos), i);
    }
    free_kernel(&k);
}
END_TEST

static bool always(void *ctx, size_t index)
{
    return true;
}

START_TEST(test_neighbours)
{
    static const long long v[] = {1, 2, 3, 4, 5};
    struct mmb_kernel_spec k = {.name = "grid"};
    add_param(&k, "a", v, 5);
    add_param(&k, "b", v, 5);
    add_param(&k, "c", v, 5);
    struct mmb_search s = {.kernel = &k, .allowed = always};
    size_t *out = malloc(mmb_search_neighbours_max(&k) * sizeof *out);
    ck_assert_ptr_nonnull(out);
    int centre[3] = {2, 2, 2}, corner[3] = {0, 0, 4};
    size_t c = mmb_search_index_of(&k, centre), e = mmb_search_index_of(&k, corner);
    ck_assert_uint_eq(mmb_search_neighbours(&s, c, MMB_NEIGHBOURS_ADJACENT, out), 26); /* 3^3 - 1 */
    ck_assert_uint_eq(mmb_search_neighbours(&s, e, MMB_NEIGHBOURS_ADJACENT, out), 7);  /* 2^3 - 1 */
    ck_assert_uint_eq(mmb_search_neighbours(&s, c, MMB_NEIGHBOURS_HAMMING, out), 12);  /* 3 x 4 */
    size_t n = mmb_search_neighbours(&s, c, MMB_NEIGHBOURS_ADJACENT, out);
    for (size_t i = 0; i < n; i++) {
        int pos[3];
        mmb_search_positions(&k, out[i], pos);
        int moved = 0;
        for (int p = 0; p < 3; p++) {
            ck_assert_int_le(abs(pos[p] - centre[p]), 1);
            moved += pos[p] != centre[p];
        }
        ck_assert_int_ge(moved, 1);
    }
    /* In seed 002's space no single-parameter step keeps the restriction except
     * along tile_size_x: adjacent (several at once) is what connects it. */
    struct mmb_kernel_spec t;
    seed002(&t);
    struct mmb_search s2 = {.kernel = &t, .allowed = allowed, .allowed_ctx = &t};
    size_t *out2 = malloc(mmb_search_neighbours_max(&t) * sizeof *out2);
    ck_assert_ptr_nonnull(out2);
    int p32[4] = {1, 3, 1, 2}; /* 32, 8, 2, 4 */
    size_t x = mmb_search_index_of(&t, p32);
    ck_assert(allowed(&t, x));
    size_t nn = mmb_search_neighbours(&s2, x, MMB_NEIGHBOURS_ADJACENT, out2);
    ck_assert_uint_ge(nn, 4);
    bool changed_block = false;
    for (size_t i = 0; i < nn; i++) {
        ck_assert(allowed(&t, out2[i]));
        int pos[4];
        mmb_search_positions(&t, out2[i], pos);
        changed_block |= pos[0] != p32[0];
    }
    ck_assert(changed_block);
    free(out);
    free(out2);
    free_kernel(&t);
}
END_TEST

START_TEST(test_random_is_a_seeded_permutation)
{
    struct mmb_kernel_spec k;
    seed002(&k);
    size_t a[288], b[288], c[288];
    struct mmb_search s;
    search_open(&s, &k, "random", 42, 0);
    ck_assert_uint_eq(drive(&s, a, 288), 288);
    ck_assert(s.ops->done(&s));
    mmb_search_free(&s);
    search_open(&s, &k, "random", 42, 0);
    ck_assert_uint_eq(drive(&s, b, 288), 288);
    mmb_search_free(&s);
    search_open(&s, &k, "random", 43, 0);
    ck_assert_uint_eq(drive(&s, c, 288), 288);
    mmb_search_free(&s);
    ck_assert_mem_eq(a, b, sizeof a);
    ck_assert(memcmp(a, c, sizeof a) != 0);
    bool seen[288] = {false};
    size_t in_order = 0;
    for (int i = 0; i < 288; i++) {
        ck_assert(!seen[a[i]]); /* never repeats */
        seen[a[i]] = true;
        in_order += a[i] == (size_t)i;
    }
    ck_assert_uint_lt(in_order, 20); /* shuffled, not the identity */
    free_kernel(&k);
}
END_TEST

/* The permutation behind random at every space size up to 64, and odd products. */
START_TEST(test_random_every_size)
{
    static const int factors[] = {1, 3, 5};
    long long vals[MMB_MAX_VALUES];
    for (int i = 0; i < MMB_MAX_VALUES; i++)
        vals[i] = i;
    for (int a = 1; a <= MMB_MAX_VALUES; a++)
        for (int f = 0; f < 3; f++) {
            struct mmb_kernel_spec k = {.name = "sizes"};
            add_param(&k, "a", vals, a);
            add_param(&k, "b", vals, factors[f]);
            size_t n = (size_t)a * (size_t)factors[f];
            struct mmb_search s = {.kernel = &k, .seed = n, .allowed = always};
            char err[64];
            ck_assert(mmb_search_init(&s, mmb_strategy_find("random"), err, sizeof err) == 0);
            bool *seen = calloc(n, 1);
            ck_assert_ptr_nonnull(seen);
            size_t got = 0;
            while (!s.ops->done(&s)) {
                size_t x = s.ops->next(&s);
                ck_assert_uint_lt(x, n);
                ck_assert(!seen[x]);
                seen[x] = true;
                got++;
            }
            ck_assert_uint_eq(got, n);
            free(seen);
            mmb_search_free(&s);
        }
}
END_TEST

START_TEST(test_random_max_fevals)
{
    struct mmb_kernel_spec k;
    seed002(&k);
    struct mmb_search s;
    size_t order[288];
    search_open(&s, &k, "random", 7, 10);
    size_t n = drive(&s, order, 288);
    ck_assert_uint_eq(s.fevals, 10); /* ten allowed ones; restricted proposals are free */
    ck_assert_uint_ge(n, 10);
    ck_assert(allowed(&k, order[n - 1])); /* stopped right after the tenth */
    mmb_search_free(&s);
    free_kernel(&k);
}
END_TEST

static void check_score_driven(const char *strategy)
{
    struct mmb_kernel_spec k;
    seed002(&k);
    enum { MAX = 3000 };
    size_t *a = malloc(MAX * sizeof *a), *b = malloc(MAX * sizeof *b), *c = malloc(MAX * sizeof *c);
    ck_assert(a && b && c);
    struct mmb_search s;
    search_open(&s, &k, strategy, 5, 30);
    size_t na = drive(&s, a, MAX);
    mmb_search_free(&s);
    search_open(&s, &k, strategy, 5, 30);
    size_t nb = drive(&s, b, MAX);
    mmb_search_free(&s);
    search_open(&s, &k, strategy, 6, 30);
    size_t nc = drive(&s, c, MAX);
    mmb_search_free(&s);
    ck_assert_uint_gt(na, 10);
    ck_assert_uint_eq(na, nb);
    ck_assert_mem_eq(a, b, na * sizeof *a);
    ck_assert(na != nc || memcmp(a, c, na * sizeof *a) != 0);
    size_t distinct = 0;
    bool seen[288] = {false};
    for (size_t i = 0; i < na; i++) {
        ck_assert_msg(allowed(&k, a[i]), "%s proposed restricted configuration %zu", strategy, a[i]);
        distinct += !seen[a[i]];
        seen[a[i]] = true;
    }
    for (size_t i = 0; i < nc; i++)
        ck_assert(allowed(&k, c[i]));
    ck_assert_uint_gt(distinct, 10); /* it explores */
    free(a);
    free(b);
    free(c);
    free_kernel(&k);
}

START_TEST(test_annealing_allowed_and_reproducible)
{
    check_score_driven("annealing");
}
END_TEST

START_TEST(test_genetic_allowed_and_reproducible)
{
    check_score_driven("genetic");
}
END_TEST

/* peek must not change what next() returns: compiling ahead cannot alter a search. */
START_TEST(test_peek_changes_nothing)
{
    static const char *const names[] = {"brute_force", "random", "annealing", "genetic"};
    struct mmb_kernel_spec k;
    seed002(&k);
    for (int i = 0; i < 4; i++) {
        struct mmb_search s1, s2;
        search_open(&s1, &k, names[i], 9, 40);
        search_open(&s2, &k, names[i], 9, 40);
        size_t peek[64];
        for (int step = 0; step < 200 && !s1.ops->done(&s1); step++) {
            size_t np = s2.ops->peek(&s2, peek, 64);
            if (!strcmp(names[i], "brute_force") || !strcmp(names[i], "random")) {
                ck_assert_uint_ge(np, 1);
            }
            size_t x1 = s1.ops->next(&s1), x2 = s2.ops->next(&s2);
            ck_assert_uint_eq(x1, x2);
            if (np && (!strcmp(names[i], "brute_force") || !strcmp(names[i], "random")))
                ck_assert_uint_eq(peek[0], x1); /* the schedule is known ahead */
            double score = allowed(&k, x1) ? fake_score(x1) : INFINITY;
            s1.ops->observe(&s1, x1, score);
            s2.ops->observe(&s2, x2, score);
        }
        mmb_search_free(&s1);
        mmb_search_free(&s2);
    }
    free_kernel(&k);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strategy");
    TCase *tc = tcase_create("strategies");
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_seed002_count_independent);
    tcase_add_test(tc, test_positions_round_trip);
    tcase_add_test(tc, test_neighbours);
    tcase_add_test(tc, test_random_is_a_seeded_permutation);
    tcase_add_test(tc, test_random_every_size);
    tcase_add_test(tc, test_random_max_fevals);
    tcase_add_test(tc, test_annealing_allowed_and_reproducible);
    tcase_add_test(tc, test_genetic_allowed_and_reproducible);
    tcase_add_test(tc, test_peek_changes_nothing);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
