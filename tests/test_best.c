/* test_best.c - counters = best without a GPU (results/best/best.h): each group's fastest
 * ok row, the first of equals, is the one counted; groups reach the file whole, in
 * the order they were opened, the counted row first, each row with the launch times
 * held with it (the samples side file's); and a sweep stopped in any way
 * (Ctrl-C, a killed worker, a row half written) and resumed through a real results
 * file leaves every group's fastest row, as the report picks it, with its counters. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "csv_rows.h"
#include "results/best/best.h"
#include "results/csv.h"
#include "tmpdir.h"

static struct mmb_row row_of(const char *kernel, int config, long long size, enum mmb_status st, double ms)
{
    struct mmb_row r;
    mmb_row_init(&r);
    snprintf(r.gpu, sizeof r.gpu, "NVIDIA H100 80GB HBM3");
    snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-1");
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    snprintf(r.params, sizeof r.params, "block_size_x=%d", config);
    snprintf(r.dtype, sizeof r.dtype, "f32");
    snprintf(r.cache, sizeof r.cache, "cold");
    snprintf(r.profile, sizeof r.profile, "course");
    r.m = r.n = r.k = size;
    r.status = st;
    r.time_ms_median = st == MMB_STATUS_OK ? ms : NAN;
    return r;
}

/* What the session does to the row to count. */
static struct mmb_row counted_copy(const struct mmb_row *r)
{
    struct mmb_row c = *r;
    c.counter_status = MMB_STATUS_OK;
    c.dram_read_bytes = 1000.0 + r->time_ms_median;
    return c;
}

struct sent {
    struct mmb_row rows[256];
    double first_sample[256]; /* NAN: sent without launch times */
    size_t nsamples[256];
    size_t n;
};

static int sink(void *ctx, struct mmb_row *row, const double *samples, size_t nsamples)
{
    struct sent *s = ctx;
    ck_assert_uint_lt(s->n, 256);
    s->first_sample[s->n] = nsamples ? samples[0] : NAN;
    s->nsamples[s->n] = nsamples;
    s->rows[s->n++] = *row;
    return 0;
}

START_TEST(test_best_picks_the_first_fastest)
{
    struct mmb_best *b = mmb_best_new(false, MMB_BEST_COUNTERS);
    ck_assert_ptr_nonnull(b);
    struct mmb_row id = row_of("tiled", 0, 1024, MMB_STATUS_OK, NAN);
    ck_assert_int_eq(mmb_best_open(b, &id), 0);
    ck_assert_int_eq(mmb_best_open(b, &id), -1); /* one group open at a time */
    static const double ms[] = {3.0, 2.0, NAN, 2.0, 5.0};
    for (int i = 0; i < 5; i++) {
        struct mmb_row r = row_of("tiled", i, 1024, isnan(ms[i]) ? MMB_STATUS_WRONG_RESULT : MMB_STATUS_OK, ms[i]);
        struct mmb_config cfg = {.values = {i}};
        /* i + 1 launch times, the first 100 + i; none for the failed row */
        double t[5] = {100.0 + i, ms[i], ms[i], ms[i], ms[i]};
        ck_assert_int_eq(mmb_best_hold(b, &r, &cfg, isnan(ms[i]) ? NULL : t, isnan(ms[i]) ? 0 : (size_t)i + 1), 0);
        t[0] = -1.0; /* the group holds a copy */
    }
    struct mmb_config cfg;
    unsigned stale = ~0u;
    const struct mmb_row *pick = mmb_best_close(b, &cfg, &stale);
    ck_assert_ptr_nonnull(pick);
    ck_assert(!stale);
    ck_assert_str_eq(pick->params, "block_size_x=1"); /* 2.0 ms, the first of the two */
    ck_assert_int_eq(cfg.values[0], 1);
    struct sent s = {.n = 0};
    ck_assert_int_eq(mmb_best_drain(b, sink, &s), 0);
    ck_assert_uint_eq(s.n, 0); /* waits for its counters */
    struct mmb_row c = counted_copy(pick);
    ck_assert_int_eq(mmb_best_completed(b, &c), 0);
    ck_assert_int_eq(mmb_best_completed(b, &c), -1); /* nothing waits any more */
    ck_assert_int_eq(mmb_best_drain(b, sink, &s), 0);
    ck_assert_uint_eq(s.n, 5);
    ck_assert_str_eq(s.rows[0].params, "block_size_x=1"); /* the counted row first */
    ck_assert_int_eq(s.rows[0].counter_status, MMB_STATUS_OK);
    /* with the launch times held with it: counting does not time */
    ck_assert_uint_eq(s.nsamples[0], 2);
    ck_assert_double_eq(s.first_sample[0], 101.0);
    static const char *const order[] = {"block_size_x=0", "block_size_x=2", "block_size_x=3", "block_size_x=4"};
    static const int config[] = {0, 2, 3, 4};
    for (int i = 1; i < 5; i++) {
        ck_assert_str_eq(s.rows[i].params, order[i - 1]);
        if (s.rows[i].status == MMB_STATUS_OK) {
            ck_assert_uint_eq(s.nsamples[i], (size_t)config[i - 1] + 1);
            ck_assert_double_eq(s.first_sample[i], 100.0 + config[i - 1]);
        } else {
            ck_assert_uint_eq(s.nsamples[i], 0);
        }
        ck_assert_int_eq(s.rows[i].counter_status,
                         s.rows[i].status == MMB_STATUS_OK ? MMB_STATUS_NOT_BEST : MMB_STATUS_SKIPPED);
    }
    ck_assert_uint_eq(mmb_best_held(b), 0);
    mmb_best_free(b);
}
END_TEST

/* A group with nothing to count waits behind one that waits for its counters. */
START_TEST(test_best_groups_in_order)
{
    struct mmb_best *b = mmb_best_new(false, MMB_BEST_COUNTERS);
    struct mmb_row a = row_of("a", 0, 512, MMB_STATUS_OK, 1.0), f = row_of("f", 0, 512, MMB_STATUS_COMPILE_ERROR, 0);
    struct mmb_config cfg = {{0}};
    unsigned stale;
    ck_assert_int_eq(mmb_best_open(b, &a), 0);
    ck_assert_int_eq(mmb_best_hold(b, &a, &cfg, NULL, 0), 0);
    const struct mmb_row *pick = mmb_best_close(b, &cfg, &stale);
    ck_assert_ptr_nonnull(pick);
    struct mmb_row counted = counted_copy(pick);
    ck_assert_int_eq(mmb_best_open(b, &f), 0);
    ck_assert_int_eq(mmb_best_hold(b, &f, NULL, NULL, 0), 0);
    ck_assert_ptr_null(mmb_best_close(b, &cfg, &stale));
    struct sent s = {.n = 0};
    ck_assert_int_eq(mmb_best_drain(b, sink, &s), 0);
    ck_assert_uint_eq(s.n, 0);
    ck_assert_uint_eq(mmb_best_held(b), 2);
    ck_assert_int_eq(mmb_best_completed(b, &counted), 0);
    ck_assert_int_eq(mmb_best_drain(b, sink, &s), 0);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.rows[0].kernel, "a");
    ck_assert_str_eq(s.rows[1].kernel, "f");
    /* a lost device drops what is held */
    ck_assert_int_eq(mmb_best_open(b, &a), 0);
    ck_assert_int_eq(mmb_best_hold(b, &a, &cfg, NULL, 0), 0);
    ck_assert_uint_eq(mmb_best_drop(b), 1);
    ck_assert_uint_eq(mmb_best_held(b), 0);
    mmb_best_free(b);
}
END_TEST

/* What the file holds of a group decides: a new row is counted only when it is faster
 * than every ok row there (equal: the earlier row stays the report's best). */
START_TEST(test_best_history)
{
    static const struct {
        double old_ms;
        enum mmb_status old_counters;
        double new_ms;
        bool counted, stale;
    } cases[] = {
        {2.0, MMB_STATUS_OK, 3.0, false, false},
        {2.0, MMB_STATUS_OK, 1.0, true, false},
        {2.0, MMB_STATUS_PROFILING_DENIED, 2.0, false, false},
        {2.0, MMB_STATUS_SKIPPED, 3.0, false, true},  /* an earlier run without counters */
        {2.0, MMB_STATUS_SKIPPED, 1.5, true, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mmb_best *b = mmb_best_new(false, MMB_BEST_COUNTERS);
        struct mmb_row old = row_of("k", 0, 256, MMB_STATUS_OK, cases[i].old_ms), slower = old;
        old.counter_status = cases[i].old_counters;
        slower.time_ms_median = 9.0;
        slower.counter_status = MMB_STATUS_NOT_BEST;
        ck_assert_int_eq(mmb_best_history_add(b, &slower), 0);
        ck_assert_int_eq(mmb_best_history_add(b, &old), 0);
        struct mmb_row other = row_of("k", 0, 512, MMB_STATUS_OK, 0.001); /* another problem: no matter */
        ck_assert_int_eq(mmb_best_history_add(b, &other), 0);
        struct mmb_row fresh = row_of("k", 1, 256, MMB_STATUS_OK, cases[i].new_ms);
        struct mmb_config cfg = {{1}};
        unsigned stale;
        ck_assert_int_eq(mmb_best_open(b, &fresh), 0);
        ck_assert_int_eq(mmb_best_hold(b, &fresh, &cfg, NULL, 0), 0);
        const struct mmb_row *pick = mmb_best_close(b, &cfg, &stale);
        ck_assert_msg((pick != NULL) == cases[i].counted && (stale == MMB_BEST_COUNTERS) == cases[i].stale,
                      "case %zu", i);
        mmb_best_free(b);
    }
}
END_TEST

/* energy = best alone: the fastest row gets its energy window, the other ok rows say
 * not_best, and their counter_status is left as the session set it; with both, both. */
START_TEST(test_best_energy)
{
    ck_assert_ptr_null(mmb_best_new(false, 0));
    static const unsigned modes[] = {MMB_BEST_ENERGY, MMB_BEST_ENERGY | MMB_BEST_COUNTERS};
    for (size_t m = 0; m < 2; m++) {
        struct mmb_best *b = mmb_best_new(false, modes[m]);
        struct mmb_row id = row_of("tiled", 0, 1024, MMB_STATUS_OK, NAN);
        ck_assert_int_eq(mmb_best_open(b, &id), 0);
        static const double ms[] = {3.0, 1.0, NAN};
        for (int i = 0; i < 3; i++) {
            struct mmb_row r = row_of("tiled", i, 1024, isnan(ms[i]) ? MMB_STATUS_WRONG_RESULT : MMB_STATUS_OK, ms[i]);
            snprintf(r.energy_status, sizeof r.energy_status, "%s", isnan(ms[i]) ? "not_run" : "not_best");
            struct mmb_config cfg = {.values = {i}};
            ck_assert_int_eq(mmb_best_hold(b, &r, &cfg, NULL, 0), 0);
        }
        struct mmb_config cfg;
        unsigned missing;
        const struct mmb_row *pick = mmb_best_close(b, &cfg, &missing);
        ck_assert_ptr_nonnull(pick);
        ck_assert_uint_eq(missing, 0);
        ck_assert_str_eq(pick->params, "block_size_x=1");
        struct mmb_row done = *pick;
        snprintf(done.energy_status, sizeof done.energy_status, "ok");
        done.energy_j = 0.5;
        ck_assert_int_eq(mmb_best_completed(b, &done), 0);
        struct sent s = {.n = 0};
        ck_assert_int_eq(mmb_best_drain(b, sink, &s), 0);
        ck_assert_uint_eq(s.n, 3);
        ck_assert_str_eq(s.rows[0].params, "block_size_x=1");
        ck_assert_str_eq(s.rows[0].energy_status, "ok");
        ck_assert_double_eq(s.rows[0].energy_j, 0.5);
        ck_assert_str_eq(s.rows[1].energy_status, "not_best");
        ck_assert_str_eq(s.rows[2].energy_status, "not_run"); /* failed: as the session said */
        ck_assert_int_eq(s.rows[1].counter_status, modes[m] & MMB_BEST_COUNTERS ? MMB_STATUS_NOT_BEST
                                                                                : MMB_STATUS_SKIPPED);
        mmb_best_free(b);
    }
}
END_TEST

/* What the file holds decides for energy as for counters: a faster row there whose
 * window never ran (energy = off, or not_best) leaves the group's energy empty, and
 * says so; one whose window ran (ok, unavailable, failed) does not. */
START_TEST(test_best_energy_history)
{
    static const struct {
        const char *old_status;
        double new_ms;
        bool picked;
        unsigned missing;
    } cases[] = {
        {"ok", 3.0, false, 0},
        {"unavailable", 3.0, false, 0},
        {"failed", 3.0, false, 0},
        {"off", 3.0, false, MMB_BEST_ENERGY},
        {"not_best", 3.0, false, MMB_BEST_ENERGY},
        {"", 3.0, false, MMB_BEST_ENERGY}, /* a file older than the column */
        {"off", 1.0, true, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mmb_best *b = mmb_best_new(false, MMB_BEST_ENERGY);
        struct mmb_row old = row_of("k", 0, 256, MMB_STATUS_OK, 2.0);
        snprintf(old.energy_status, sizeof old.energy_status, "%s", cases[i].old_status);
        old.counter_status = MMB_STATUS_SKIPPED; /* counters are not this group's business */
        ck_assert_int_eq(mmb_best_history_add(b, &old), 0);
        struct mmb_row fresh = row_of("k", 1, 256, MMB_STATUS_OK, cases[i].new_ms);
        struct mmb_config cfg = {{1}};
        unsigned missing;
        ck_assert_int_eq(mmb_best_open(b, &fresh), 0);
        ck_assert_int_eq(mmb_best_hold(b, &fresh, &cfg, NULL, 0), 0);
        const struct mmb_row *pick = mmb_best_close(b, &cfg, &missing);
        ck_assert_msg((pick != NULL) == cases[i].picked && missing == cases[i].missing, "case %zu", i);
        mmb_best_free(b);
    }
}
END_TEST

/* ---- a sweep without a GPU: groups of configurations with known times ---- */

#define KERNELS 3
#define CONFIGS 7
#define SIZES 2

static double fake_ms(int k, int c, int s, int pass)
{
    /* distinct, with ties, and changed by a little in a later process (noise) */
    static const double base[KERNELS][CONFIGS] = {{5, 3, 4, 3, 9, 8, 7}, {2, 2, 2, 2, 2, 2, 2}, {9, 8, 7, 6, 5, 4, 1}};
    return base[k][c] * (1 + s) * (1.0 + 0.01 * pass * ((c * 7 + k) % 3 - 1));
}

struct fake_sweep {
    const char *csv;
    int pass;
    int stop_after;      /* configurations measured before a stop; -1: none */
    bool killed;         /* the stop is a killed worker: the group held is lost */
    int measured;
};

static const char *const kernel_names[KERNELS] = {"tiled", "rect", "cublas"};

/* The sweep's loop over groups, as cmd/sweep.c drives best.h, with the file's rows
 * skipped and counted by a copy. Returns true when it ran to the end. */
static bool fake_run(struct fake_sweep *f)
{
    char err[1024];
    struct mmb_csv_writer *w = mmb_csv_writer_open(f->csv, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_best *b = mmb_best_new(false, MMB_BEST_COUNTERS);
    ck_assert_int_eq(mmb_best_history_load(b, f->csv, NULL, NULL, err, sizeof err), 0);
    bool stopped = false;
    int stopped_at = -1;
    for (int s = 0; s < SIZES && !stopped; s++)
        for (int k = 0; k < KERNELS && !stopped; k++) {
            long long size = 256 << s;
            int configs = k == 2 ? 1 : CONFIGS;
            struct mmb_row id = row_of(kernel_names[k], 0, size, MMB_STATUS_OK, NAN);
            ck_assert_int_eq(mmb_best_open(b, &id), 0);
            for (int c = 0; c < configs; c++) {
                struct mmb_row r = row_of(kernel_names[k], c, size, MMB_STATUS_OK, fake_ms(k, c, s, f->pass));
                if (c == 5)
                    r.status = MMB_STATUS_WRONG_RESULT;
                if (mmb_csv_writer_has(w, &r))
                    continue;
                if (f->measured == f->stop_after) {
                    stopped = true;
                    stopped_at = c;
                    break;
                }
                f->measured++;
                struct mmb_config cfg = {{c}};
                ck_assert_int_eq(mmb_best_hold(b, &r, &cfg, NULL, 0), 0);
            }
            if (stopped && f->killed) {
                /* the supervisor records the configuration that never ended */
                struct mmb_row t = row_of(kernel_names[k], stopped_at, size, MMB_STATUS_TIMEOUT, 0);
                if (!mmb_csv_writer_has(w, &t))
                    ck_assert_int_eq(mmb_csv_append_row(w, &t, err, sizeof err), 0);
                break;
            }
            struct mmb_config cfg;
            unsigned stale;
            const struct mmb_row *pick = mmb_best_close(b, &cfg, &stale);
            ck_assert(!stale);
            if (pick) {
                struct mmb_row c = counted_copy(pick);
                ck_assert_int_eq(mmb_best_completed(b, &c), 0);
            }
            struct sent out = {.n = 0};
            ck_assert_int_eq(mmb_best_drain(b, sink, &out), 0);
            for (size_t i = 0; i < out.n; i++)
                ck_assert_int_eq(mmb_csv_append_row(w, &out.rows[i], err, sizeof err), 0);
        }
    mmb_best_free(b);
    mmb_csv_writer_close(w);
    return !stopped;
}

/* Every group whole, and its fastest ok row (the report's pick: lowest median, the
 * first row of equals) counted. */
static void check_groups(const char *csv, size_t want_rows)
{
    struct collected c = read_csv(csv);
    ck_assert_uint_eq(c.n, want_rows);
    for (size_t i = 0; i < c.n; i++) {
        const struct mmb_row *fastest = NULL;
        for (size_t j = 0; j < c.n; j++)
            if (c.rows[j].status == MMB_STATUS_OK && mmb_row_same_problem(&c.rows[j], &c.rows[i]) &&
                (!fastest || c.rows[j].time_ms_median < fastest->time_ms_median))
                fastest = &c.rows[j];
        if (fastest == &c.rows[i])
            ck_assert_msg(c.rows[i].counter_status == MMB_STATUS_OK && isfinite(c.rows[i].dram_read_bytes),
                          "%s %s %lld: the fastest, not counted", c.rows[i].kernel, c.rows[i].params, c.rows[i].m);
        for (size_t j = i + 1; j < c.n; j++)
            ck_assert_msg(strcmp(c.rows[i].params, c.rows[j].params) || !mmb_row_same_problem(&c.rows[i], &c.rows[j]),
                          "%s %s twice", c.rows[i].kernel, c.rows[i].params);
    }
    free(c.rows);
}

static const size_t all_rows = SIZES * (2 * CONFIGS + 1);

START_TEST(test_best_sweep_whole)
{
    char csv[200];
    snprintf(csv, sizeof csv, "%s/whole.csv", tmpdir);
    struct fake_sweep f = {.csv = csv, .stop_after = -1};
    ck_assert(fake_run(&f));
    check_groups(csv, all_rows);
    struct collected c = read_csv(csv);
    size_t counted = 0;
    for (size_t i = 0; i < c.n; i++)
        counted += c.rows[i].counter_status == MMB_STATUS_OK;
    ck_assert_uint_eq(counted, SIZES * KERNELS); /* one per group, cuBLAS too */
    free(c.rows);
    /* again: nothing to measure */
    f.measured = 0;
    ck_assert(fake_run(&f));
    ck_assert_int_eq(f.measured, 0);
}
END_TEST

/* Ctrl-C (the group so far counted and written) or a killed worker (the group held
 * lost, a timeout row for it), at every point of the sweep; then resumed, with times
 * a little different, as a new process measures them. */
START_TEST(test_best_sweep_stopped_and_resumed)
{
    for (int killed = 0; killed < 2; killed++)
        for (int stop = 0; stop < (int)all_rows; stop += 3) {
            char csv[200];
            snprintf(csv, sizeof csv, "%s/stopped-%d-%d.csv", tmpdir, killed, stop);
            struct fake_sweep f = {.csv = csv, .stop_after = stop, .killed = killed};
            ck_assert(!fake_run(&f));
            struct fake_sweep again = {.csv = csv, .pass = 1, .stop_after = -1};
            ck_assert(fake_run(&again));
            /* a killed worker's timeout row takes the place of the configuration it names */
            check_groups(csv, all_rows);
        }
}
END_TEST

/* A group cut off while its rows were written (the last line half there): the
 * writer drops the half row, and the counted row, written first, is there. */
START_TEST(test_best_group_half_written)
{
    char csv[200], whole[200], cmd[1200];
    snprintf(whole, sizeof whole, "%s/whole.csv", tmpdir);
    struct fake_sweep f = {.csv = whole, .stop_after = -1};
    ck_assert(fake_run(&f));
    for (int lines = 2; lines < (int)all_rows; lines += 2) {
        snprintf(csv, sizeof csv, "%s/half-%d.csv", tmpdir, lines);
        snprintf(cmd, sizeof cmd, "head -n %d '%s' > '%s' && head -n %d '%s' | tail -n 1 | head -c 40 >> '%s'",
                 lines, whole, csv, lines + 1, whole, csv);
        ck_assert_int_eq(system(cmd), 0);
        struct fake_sweep again = {.csv = csv, .pass = 1, .stop_after = -1};
        ck_assert(fake_run(&again));
        check_groups(csv, all_rows);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("best");
    TCase *tc = tcase_create("best");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_best_picks_the_first_fastest);
    tcase_add_test(tc, test_best_groups_in_order);
    tcase_add_test(tc, test_best_history);
    tcase_add_test(tc, test_best_energy);
    tcase_add_test(tc, test_best_energy_history);
    tcase_add_test(tc, test_best_sweep_whole);
    tcase_add_test(tc, test_best_sweep_stopped_and_resumed);
    tcase_add_test(tc, test_best_group_half_written);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
