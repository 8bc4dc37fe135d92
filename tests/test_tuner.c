/* test_tuner.c - the tune loop with a fake evaluator in place of the GPU: counts
 * against an independent count, restricted rows, max_fevals, the time limit, and
 * resume (an interrupted tune continues through the results CSV without measuring
 * a configuration twice, and a score-driven search continues on the same path). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check_run.h"
#include "core/file.h"
#include "hand_space.h"
#include "model/space.h"
#include "results/csv.h"
#include "search/objective.h"
#include "search/tune_history.h"
#include "search/tune_plan.h"
#include "search/tuner.h"
#include "tmpdir.h"

static long long independent_allowed(void)
{
    static const long long bx[] = {16, 32, 64}, by[] = {1, 2, 4, 8, 16, 32}, t[] = {1, 2, 4, 8};
    long long n = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 6; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    n += bx[a] == by[b] * t[d];
    return n;
}

/* ---- the fake GPU: a deterministic landscape, one CSV writer ---- */

struct fake {
    struct mmb_kernel_spec *kernel;
    struct mmb_csv_writer *csv;
    size_t evaluations, stop_after; /* stop_after 0: never fail */
    size_t order[4096];
    int measured[4096];             /* times each index was evaluated */
    size_t prefetched;
    size_t first_prefetch[16], nfirst; /* the first prefetch call's indices */
};

static double fake_time(const struct mmb_config *cfg)
{
    /* Best at 64 x 8 x 4 x 8; everything else slower, with some structure. */
    double t = 1.0;
    t += fabs(log2((double)cfg->values[0]) - 6) * 0.5 + fabs(log2((double)cfg->values[1]) - 3) * 0.3;
    t += fabs(log2((double)cfg->values[2]) - 2) * 0.2 + fabs(log2((double)cfg->values[3]) - 3) * 0.1;
    return t;
}

/* Energy per launch, with its own optimum (32 x 4 x 1 x 8): a trade-off against time. */
static double fake_energy(const struct mmb_config *cfg)
{
    double e = 0.5;
    e += fabs(log2((double)cfg->values[0]) - 5) * 0.3 + fabs(log2((double)cfg->values[1]) - 2) * 0.25;
    e += fabs(log2((double)cfg->values[2]) - 0) * 0.15 + fabs(log2((double)cfg->values[3]) - 3) * 0.05;
    return e;
}

static int fake_evaluate(void *ctx, size_t index, const struct mmb_config *cfg, struct mmb_row *row,
                         char *err, size_t errlen)
{
    struct fake *f = ctx;
    if (f->stop_after && f->evaluations == f->stop_after) {
        snprintf(err, errlen, "killed");
        return -1;
    }
    ck_assert_uint_lt(index, 4096);
    f->order[f->evaluations++] = index;
    f->measured[index]++;
    if (cfg->values[2] == 8 && cfg->values[0] == 64) { /* as too much shared memory would */
        row->status = MMB_STATUS_COMPILE_ERROR;
        snprintf(row->reason, sizeof row->reason, "ptxas: too much shared data");
        return 0;
    }
    row->status = MMB_STATUS_OK;
    row->repeats = 5;
    row->time_ms_median = fake_time(cfg);
    row->gflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (row->time_ms_median * 1e-3) / 1e9;
    row->energy_j = fake_energy(cfg);
    row->power_w = row->energy_j / (row->time_ms_median * 1e-3);
    return 0;
}

static int fake_record(void *ctx, const struct mmb_row *row, char *err, size_t errlen)
{
    struct fake *f = ctx;
    ck_assert(!mmb_csv_writer_has(f->csv, row)); /* never a configuration twice */
    return mmb_csv_append_row(f->csv, row, err, errlen);
}

static void fake_prefetch(void *ctx, const size_t *indices, size_t n)
{
    struct fake *f = ctx;
    ck_assert_uint_ge(n, 1);
    if (f->prefetched == 0)
        for (size_t i = 0; i < n && i < 16; i++)
            f->first_prefetch[f->nfirst++] = indices[i];
    f->prefetched += n;
}

static void identity(struct mmb_row *id)
{
    mmb_row_init(id);
    snprintf(id->gpu, sizeof id->gpu, "Fake GPU");
    snprintf(id->gpu_uuid, sizeof id->gpu_uuid, "GPU-fake");
    snprintf(id->profile, sizeof id->profile, "tune-test");
    snprintf(id->kernel, sizeof id->kernel, "tunable");
    snprintf(id->dtype, sizeof id->dtype, "f32");
    snprintf(id->cache, sizeof id->cache, "cold");
    id->m = id->n = id->k = 4096;
}

struct tune {
    struct mmb_kernel_spec kernel;
    struct mmb_row id;
    struct mmb_tuner_options o;
    struct fake fake;
    struct mmb_tuner_callbacks cb;
    struct mmb_tuner_result res;
    char csv[512];
};

static void tune_setup(struct tune *t, const char *strategy, uint64_t seed, size_t max_fevals, bool record_restricted)
{
    char err[512];
    memset(t, 0, sizeof *t);
    seed002(&t->kernel);
    identity(&t->id);
    t->o = (struct mmb_tuner_options){
        .kernel = &t->kernel, .identity = &t->id, .size = {4096, 4096, 4096}, .elem_size = 4,
        .strategy = mmb_strategy_find(strategy), .seed = seed, .max_fevals = max_fevals,
        .record_restricted = record_restricted, .lookahead = 8,
    };
    ck_assert_ptr_nonnull(t->o.strategy);
    ck_assert_msg(mmb_objective_parse("time", &t->o.objective, err, sizeof err) == 0, "%s", err);
    t->fake.kernel = &t->kernel;
    t->cb = (struct mmb_tuner_callbacks){.evaluate = fake_evaluate, .record = fake_record,
                                         .prefetch = fake_prefetch, .ctx = &t->fake};
    snprintf(t->csv, sizeof t->csv, "%s/tune-%s-%llu.csv", tmpdir, strategy, (unsigned long long)seed);
}

/* One invocation: load what the CSV holds, run, close. Returns the tuner's rc. */
static int tune_once(struct tune *t, size_t stop_after, size_t *loaded)
{
    char err[512];
    struct mmb_tune_history *h = mmb_tune_history_new();
    ck_assert_ptr_nonnull(h);
    size_t stale = 0;
    ck_assert_msg(mmb_tune_history_load(h, t->csv, &t->kernel, &t->id, loaded, &stale, err, sizeof err) == 0,
                  "%s", err);
    ck_assert_uint_eq(stale, 0);
    t->fake.csv = mmb_csv_writer_open(t->csv, err, sizeof err);
    ck_assert_msg(t->fake.csv != NULL, "%s", err);
    t->fake.stop_after = stop_after;
    t->fake.evaluations = 0;
    int rc = mmb_tuner_run(&t->o, &t->cb, h, &t->res, err, sizeof err);
    if (rc != 0)
        ck_assert_str_eq(err, "killed");
    mmb_csv_writer_close(t->fake.csv);
    mmb_tune_history_free(h);
    return rc;
}

static void tune_teardown(struct tune *t)
{
    free_kernel(&t->kernel);
}

struct collected {
    size_t rows, by_status[MMB_STATUS_COUNT];
};

static int collect(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    struct collected *c = ctx;
    c->rows++;
    c->by_status[row->status]++;
    return 0;
}

static struct collected read_back(const char *csv)
{
    struct collected c = {0};
    char err[512];
    ck_assert_msg(mmb_csv_read(csv, collect, &c, err, sizeof err) == 0, "%s", err);
    return c;
}

/* ---- tests ---- */

START_TEST(test_objective)
{
    struct mmb_objective o;
    char err[2048];
    ck_assert_int_eq(mmb_objective_parse("time", &o, err, sizeof err), 0);
    ck_assert_str_eq(o.column->name, "time_ms_median");
    ck_assert(!o.maximize);
    ck_assert(!mmb_objective_needs_counters(&o));
    ck_assert_int_eq(mmb_objective_parse("gflops", &o, err, sizeof err), 0);
    ck_assert(o.maximize);
    ck_assert_int_eq(mmb_objective_parse("dram_gbps:min", &o, err, sizeof err), 0);
    ck_assert(!o.maximize);
    ck_assert(mmb_objective_needs_counters(&o));
    ck_assert_int_eq(mmb_objective_parse("smem_bank_conflicts", &o, err, sizeof err), 0);
    ck_assert(!o.maximize);
    ck_assert_int_eq(mmb_objective_parse("registers:max", &o, err, sizeof err), 0);
    ck_assert(o.maximize);

    ck_assert_int_eq(mmb_objective_parse("speed", &o, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected one of time, energy, max_rel_err"));
    ck_assert_int_eq(mmb_objective_parse("m", &o, err, sizeof err), -1);
    ck_assert_int_eq(mmb_objective_parse("gpu", &o, err, sizeof err), -1);
    ck_assert_int_eq(mmb_objective_parse("time:fast", &o, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "':min' or ':max'"));
    /* energy: its alias, its direction, the energy phase it needs */
    ck_assert(!mmb_objective_needs_energy(&(struct mmb_objective){.column = mmb_column_find("gflops")}));
    ck_assert_int_eq(mmb_objective_parse("energy", &o, err, sizeof err), 0);
    ck_assert_str_eq(o.column->name, "energy_j");
    ck_assert(!o.maximize && !o.second && mmb_objective_needs_energy(&o) && !mmb_objective_needs_counters(&o));
    ck_assert_int_eq(mmb_objective_parse("gflops_per_watt", &o, err, sizeof err), 0);
    ck_assert(o.maximize && mmb_objective_needs_energy(&o));
    /* two objectives */
    ck_assert_int_eq(mmb_objective_parse("time,energy", &o, err, sizeof err), 0);
    ck_assert_str_eq(o.column->name, "time_ms_median");
    ck_assert_str_eq(o.second->name, "energy_j");
    ck_assert(!o.maximize && !o.second_maximize && mmb_objective_needs_energy(&o));
    char names[64];
    mmb_objective_names(&o, names, sizeof names);
    ck_assert_str_eq(names, "time,energy_j");
    ck_assert_int_eq(mmb_objective_parse("gflops,gflops_per_watt:max", &o, err, sizeof err), 0);
    ck_assert(o.maximize && o.second_maximize);
    ck_assert_int_eq(mmb_objective_parse("time,energy,gflops", &o, err, sizeof err), -1);
    ck_assert(strstr(err, "at most two objectives"));
    ck_assert_int_eq(mmb_objective_parse("time,time_ms_median", &o, err, sizeof err), -1);
    ck_assert(strstr(err, "the same column"));
    ck_assert_int_eq(mmb_objective_parse("time,joules", &o, err, sizeof err), -1);
    ck_assert(strstr(err, "'joules' is not a numeric result column"));
    ck_assert_int_eq(mmb_objective_parse("time,", &o, err, sizeof err), -1);

    struct mmb_row row;
    mmb_row_init(&row);
    ck_assert_int_eq(mmb_objective_parse("gflops", &o, err, sizeof err), 0);
    ck_assert(isinf(mmb_objective_score(&o, &row))); /* empty cell */
    row.gflops = 100.0;
    ck_assert(mmb_objective_score(&o, &row) == -100.0);
    row.status = MMB_STATUS_WRONG_RESULT;
    ck_assert(isinf(mmb_objective_score(&o, &row)));
}
END_TEST

START_TEST(test_brute_force_counts)
{
    struct tune t;
    size_t loaded;
    tune_setup(&t, "brute_force", 1, 0, true);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_eq(loaded, 0);
    long long allowed = independent_allowed();
    ck_assert_uint_eq(t.res.space, 288);
    ck_assert_uint_eq(t.res.allowed, (size_t)allowed);
    ck_assert_uint_eq(t.res.evaluated, (size_t)allowed);
    ck_assert_uint_eq(t.res.fevals, (size_t)allowed);
    ck_assert_uint_eq(t.res.restricted, 288 - (size_t)allowed);
    ck_assert_uint_eq(t.res.recorded, 288);
    ck_assert_uint_eq(t.res.proposals, 288);
    ck_assert_int_eq(t.res.stop, MMB_TUNER_FINISHED);
    ck_assert_uint_eq(t.res.by_status[MMB_STATUS_RESTRICTED], 288 - (size_t)allowed);
    ck_assert_uint_eq(t.res.by_status[MMB_STATUS_COMPILE_ERROR], 3); /* 64x(8,8),(16,4),(32,2) at tile_size_x 8 */
    ck_assert(t.res.have_best);
    ck_assert_str_eq(t.res.best.params, "block_size_x=64;block_size_y=8;tile_size_x=4;tile_size_y=8");
    ck_assert_uint_gt(t.fake.prefetched, 0);
    for (int i = 0; i < 288; i++)
        ck_assert_int_le(t.fake.measured[i], 1);

    struct collected c = read_back(t.csv);
    ck_assert_uint_eq(c.rows, 288);
    ck_assert_uint_eq(c.by_status[MMB_STATUS_RESTRICTED], 288 - (size_t)allowed);

    /* Run again: everything is known, nothing is measured or written. */
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_eq(loaded, 288);
    ck_assert_uint_eq(t.res.evaluated, 0);
    ck_assert_uint_eq(t.res.resumed, (size_t)allowed);
    ck_assert_uint_eq(t.res.recorded, 0);
    ck_assert_str_eq(t.res.best.params, "block_size_x=64;block_size_y=8;tile_size_x=4;tile_size_y=8");
    ck_assert_uint_eq(read_back(t.csv).rows, 288);
    tune_teardown(&t);
}
END_TEST

/* What mmb_tuner_first says a tune measures first is what the tune's first prefetch
 * hands over, for every strategy; once everything is known, nothing. */
START_TEST(test_first_candidates)
{
    static const char *const strategies[] = {"brute_force", "random", "annealing", "genetic"};
    struct tune t;
    size_t loaded, first[16];
    tune_setup(&t, strategies[_i], 7, 0, false);
    struct mmb_tune_history *empty = mmb_tune_history_new();
    ck_assert_ptr_nonnull(empty);
    size_t n = mmb_tuner_first(&t.o, empty, first, t.o.lookahead + 1);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_gt(n, 0);
    ck_assert_uint_eq(n, t.fake.nfirst);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(first[i], t.fake.first_prefetch[i]);
    ck_assert_uint_eq(first[0], t.fake.order[0]); /* and the first is the one measured first */
    ck_assert_uint_eq(mmb_tuner_first(&t.o, empty, first, 1), 1);
    mmb_tune_history_free(empty);
    if (!strcmp(strategies[_i], "brute_force")) { /* everything measured: nothing to compile ahead */
        struct mmb_tune_history *h = mmb_tune_history_new();
        char err[512];
        size_t stale = 0;
        ck_assert_msg(mmb_tune_history_load(h, t.csv, &t.kernel, &t.id, &loaded, &stale, err, sizeof err) == 0,
                      "%s", err);
        ck_assert_uint_eq(mmb_tuner_first(&t.o, h, first, t.o.lookahead + 1), 0);
        mmb_tune_history_free(h);
    }
    tune_teardown(&t);
}
END_TEST

static int allowed(struct tune *t, const struct mmb_config *cfg)
{
    int failed;
    char err[256];
    return mmb_space_allowed(&t->kernel, cfg, &t->o.size, t->o.elem_size, &failed, err, sizeof err);
}

/* time,energy: the tuner's front is the exact front of every ok configuration,
 * computed here from the landscape itself, and a resumed tune (scores read back from
 * the CSV) finds the same one. */
START_TEST(test_pareto_time_energy)
{
    struct tune t;
    size_t loaded;
    char err[512];
    tune_setup(&t, "brute_force", 1, 0, false);
    ck_assert_msg(mmb_objective_parse("time,energy", &t.o.objective, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    size_t expect = 0;
    char front[64][200];
    for (size_t i = 0; i < t.res.space; i++) {
        struct mmb_config a, b;
        mmb_space_config_at(&t.kernel, i, &a);
        if (allowed(&t, &a) != 1 || (a.values[2] == 8 && a.values[0] == 64))
            continue;
        bool beaten = false;
        for (size_t j = 0; j < t.res.space && !beaten; j++) {
            mmb_space_config_at(&t.kernel, j, &b);
            if (j == i || allowed(&t, &b) != 1 ||
                (b.values[2] == 8 && b.values[0] == 64))
                continue;
            double x[2] = {fake_time(&b), fake_energy(&b)}, y[2] = {fake_time(&a), fake_energy(&a)};
            beaten = mmb_pareto_dominates(x, y) || (j < i && x[0] == y[0] && x[1] == y[1]);
        }
        if (!beaten) {
            ck_assert_uint_lt(expect, 64);
            mmb_space_format_params(&t.kernel, &a, front[expect++], sizeof front[0]);
        }
    }
    ck_assert_uint_ge(expect, 3); /* a real trade-off */
    for (int pass = 0; pass < 2; pass++) { /* measured, then resumed from the CSV */
        if (pass)
            ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
        ck_assert_uint_eq(t.res.evaluated, pass ? 0 : t.res.fevals);
        ck_assert_uint_eq(t.res.front.n, expect);
        for (size_t k = 0; k < t.res.front.n; k++) {
            bool found = false;
            for (size_t e = 0; e < expect && !found; e++)
                found = !strcmp(front[e], t.res.front.v[k].row.params);
            ck_assert_msg(found, "%s is not on the front", t.res.front.v[k].row.params);
            if (k)
                ck_assert(t.res.front.v[k - 1].row.time_ms_median < t.res.front.v[k].row.time_ms_median);
        }
        /* the best of the first objective is the front's first point */
        ck_assert_str_eq(t.res.best.params, t.res.front.v[0].row.params);
        mmb_pareto_free(&t.res.front);
    }
    tune_teardown(&t);
}
END_TEST

START_TEST(test_restricted_not_recorded_unless_asked)
{
    struct tune t;
    size_t loaded;
    tune_setup(&t, "brute_force", 1, 0, false);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_eq(t.res.restricted, 288 - (size_t)independent_allowed()); /* counted all the same */
    ck_assert_uint_eq(t.res.recorded, (size_t)independent_allowed());
    ck_assert_uint_eq(read_back(t.csv).by_status[MMB_STATUS_RESTRICTED], 0);
    tune_teardown(&t);
}
END_TEST

START_TEST(test_random_max_fevals)
{
    struct tune t;
    size_t loaded;
    tune_setup(&t, "random", 3, 12, false);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_eq(t.res.evaluated, 12);
    ck_assert_int_eq(t.res.stop, MMB_TUNER_MAX_FEVALS);
    for (size_t i = 0; i < 12; i++)
        for (size_t j = 0; j < i; j++)
            ck_assert_uint_ne(t.fake.order[i], t.fake.order[j]);
    ck_assert_uint_eq(read_back(t.csv).rows, 12);
    tune_teardown(&t);
}
END_TEST

START_TEST(test_time_limit)
{
    struct tune t;
    size_t loaded;
    tune_setup(&t, "brute_force", 1, 0, false);
    t.o.time_limit = 1e-9;
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_int_eq(t.res.stop, MMB_TUNER_TIME_LIMIT);
    ck_assert_uint_le(t.res.evaluated, 1);
    tune_teardown(&t);
}
END_TEST

/* Brute force killed after k measurements, then resumed: the rest, once each. */
START_TEST(test_resume_brute_force)
{
    enum { K = 10 };
    struct tune t;
    size_t loaded;
    long long allowed = independent_allowed();
    tune_setup(&t, "brute_force", 1, 0, true);
    ck_assert_int_eq(tune_once(&t, K, &loaded), -1);
    ck_assert_uint_eq(t.res.evaluated, K);
    int first[4096];
    memcpy(first, t.fake.measured, sizeof first);
    memset(t.fake.measured, 0, sizeof t.fake.measured);

    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    ck_assert_uint_eq(t.res.resumed, K);
    ck_assert_uint_eq(t.res.evaluated, (size_t)allowed - K);
    ck_assert_uint_eq(t.res.fevals, (size_t)allowed);
    for (int i = 0; i < 288; i++)
        ck_assert_int_le(first[i] + t.fake.measured[i], 1);
    struct collected c = read_back(t.csv);
    ck_assert_uint_eq(c.rows, 288); /* allowed rows and restricted rows, once each */
    ck_assert_str_eq(t.res.best.params, "block_size_x=64;block_size_y=8;tile_size_x=4;tile_size_y=8");
    tune_teardown(&t);
}
END_TEST

/* A score-driven search interrupted and resumed measures exactly what the
 * uninterrupted search measures, in the same order: the replayed results steer it
 * along the same path. */
static void check_resume_same_path(const char *strategy, size_t k)
{
    struct tune whole, part;
    size_t loaded;
    tune_setup(&whole, strategy, 11, 25, false);
    ck_assert_int_eq(tune_once(&whole, 0, &loaded), 0);
    ck_assert_uint_gt(whole.res.evaluated, k);

    tune_setup(&part, strategy, 11, 25, false);
    snprintf(part.csv, sizeof part.csv, "%s/part-%s.csv", tmpdir, strategy);
    ck_assert_int_eq(tune_once(&part, k, &loaded), -1);
    ck_assert_mem_eq(part.fake.order, whole.fake.order, k * sizeof(size_t));
    ck_assert_int_eq(tune_once(&part, 0, &loaded), 0);
    ck_assert_uint_eq(part.res.resumed, k);
    ck_assert_uint_eq(part.res.evaluated, whole.res.evaluated - k);
    ck_assert_mem_eq(part.fake.order, whole.fake.order + k, part.res.evaluated * sizeof(size_t));
    ck_assert_str_eq(part.res.best.params, whole.res.best.params);
    tune_teardown(&whole);
    tune_teardown(&part);
}

START_TEST(test_resume_annealing_same_path)
{
    check_resume_same_path("annealing", 7);
}
END_TEST

START_TEST(test_resume_genetic_same_path)
{
    check_resume_same_path("genetic", 9);
}
END_TEST

START_TEST(test_resume_random_same_path)
{
    check_resume_same_path("random", 5);
}
END_TEST

static int check_allowed(void *ctx, size_t index, const struct mmb_config *cfg, struct mmb_row *row,
                         char *err, size_t errlen)
{
    ck_assert_int_eq(cfg->values[0], cfg->values[1] * cfg->values[3]);
    return fake_evaluate(ctx, index, cfg, row, err, errlen);
}

START_TEST(test_annealing_measures_only_allowed)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        struct tune t;
        size_t loaded;
        tune_setup(&t, "annealing", seed, 0, false);
        t.cb.evaluate = check_allowed;
        ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
        /* Restricted neighbours it looked at are counted, never measured. */
        ck_assert_uint_le(t.res.restricted, 288 - (size_t)independent_allowed());
        ck_assert_uint_eq(t.res.by_status[MMB_STATUS_RESTRICTED], 0);
        ck_assert_uint_le(t.res.evaluated, (size_t)independent_allowed());
        tune_teardown(&t);
    }
}
END_TEST

START_TEST(test_history_other_gpu_of_model)
{
    struct tune t;
    size_t loaded;
    char err[512];
    tune_setup(&t, "brute_force", 1, 4, false);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    /* another GPU of the model: its rows are this tune's too */
    snprintf(t.id.gpu_uuid, sizeof t.id.gpu_uuid, "GPU-other");
    struct mmb_tune_history *h = mmb_tune_history_new();
    ck_assert_int_eq(mmb_tune_history_load(h, t.csv, &t.kernel, &t.id, &loaded, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(loaded, 4);
    mmb_tune_history_free(h);
    /* another model: not */
    snprintf(t.id.gpu, sizeof t.id.gpu, "Other GPU");
    h = mmb_tune_history_new();
    ck_assert_int_eq(mmb_tune_history_load(h, t.csv, &t.kernel, &t.id, &loaded, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2: a row measured on Fake GPU (GPU-fake)"));
    ck_assert_ptr_nonnull(strstr(err, "one results file per GPU model"));
    mmb_tune_history_free(h);
    snprintf(t.id.gpu, sizeof t.id.gpu, "Fake GPU");

    /* Rows of another problem are not this tune's: an empty history. */
    snprintf(t.id.gpu_uuid, sizeof t.id.gpu_uuid, "GPU-fake");
    t.id.k = 2048;
    h = mmb_tune_history_new();
    ck_assert_int_eq(mmb_tune_history_load(h, t.csv, &t.kernel, &t.id, &loaded, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(loaded, 0);
    mmb_tune_history_free(h);
    tune_teardown(&t);
}
END_TEST

static double compile_ms_of(void *ctx, size_t index)
{
    int *calls = ctx;
    (*calls)++;
    return (double)index;
}

/* The T4 export writes the history: a configuration once (its latest row), in the
 * order measured, and no row of another space. */
START_TEST(test_history_export_t4)
{
    struct tune t;
    size_t loaded;
    char err[512], path[600];
    tune_setup(&t, "brute_force", 1, 6, false);
    ck_assert_int_eq(tune_once(&t, 0, &loaded), 0);
    /* measured again later, and a row of a space the profile no longer has */
    struct mmb_csv_writer *w = mmb_csv_writer_open(t.csv, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row again = t.id, stale = t.id;
    struct mmb_config cfg;
    mmb_space_config_at(&t.kernel, t.fake.order[0], &cfg);
    mmb_space_format_params(&t.kernel, &cfg, again.params, sizeof again.params);
    again.status = MMB_STATUS_OK;
    again.time_ms_median = 0.5;
    snprintf(again.timestamp, sizeof again.timestamp, "2999-01-01T00:00:00Z");
    snprintf(stale.params, sizeof stale.params, "block_size_x=48;block_size_y=1;tile_size_x=1;tile_size_y=1");
    stale.status = MMB_STATUS_OK;
    stale.time_ms_median = 2.0;
    snprintf(stale.timestamp, sizeof stale.timestamp, "2000-01-01T00:00:00Z");
    ck_assert_msg(mmb_csv_append_row(w, &again, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(mmb_csv_append_row(w, &stale, err, sizeof err) == 0, "%s", err);
    mmb_csv_writer_close(w);

    struct mmb_tune_history *h = mmb_tune_history_new();
    size_t nstale = 0, count = 0;
    int calls = 0;
    ck_assert_int_eq(mmb_tune_history_load(h, t.csv, &t.kernel, &t.id, &loaded, &nstale, err, sizeof err), 0);
    ck_assert_uint_eq(nstale, 1);
    snprintf(path, sizeof path, "%s/export.t4.json", tmpdir);
    ck_assert_msg(mmb_tune_history_export_t4(h, "time", compile_ms_of, &calls, path, &count, err, sizeof err) == 0,
                  "%s", err);
    mmb_tune_history_free(h);
    ck_assert_uint_eq(count, 6);
    ck_assert_int_eq(calls, 6);
    char *text = mmb_file_read(path, NULL, err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    ck_assert_int_eq(cJSON_GetArraySize(results), 6);
    const cJSON *last = cJSON_GetArrayItem(results, 5); /* measured last */
    const cJSON *cfg_json = cJSON_GetObjectItemCaseSensitive(last, "configuration");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(cfg_json, "block_size_x")->valueint, (int)cfg.values[0]);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(cfg_json, "tile_size_y")->valueint, (int)cfg.values[3]);
    const cJSON *times = cJSON_GetObjectItemCaseSensitive(last, "times");
    ck_assert(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(times, "runtimes"), 0)->valuedouble == 0.5);
    ck_assert(cJSON_GetObjectItemCaseSensitive(times, "compilation_time")->valuedouble == (double)t.fake.order[0]);
    for (int i = 0; i < 6; i++) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, i), "configuration");
        ck_assert_int_ne(cJSON_GetObjectItemCaseSensitive(c, "block_size_x")->valueint, 48);
    }
    cJSON_Delete(doc);
    tune_teardown(&t);
}
END_TEST

/* The GPUs of one model (the parts of a shard, --devices all) tune into one file: each
 * measures only its part, together every allowed configuration of the shard once;
 * a worker killed midway is resumed by another GPU of the model, which measures only
 * the rest; a second pass measures nothing. */
static void check_split(const char *strategy, struct mmb_shard shard, unsigned parts, size_t kill_after)
{
    static struct tune t[8];
    int measured[4096] = {0};
    size_t mine = 0, allowed_sum = 0, loaded;
    for (int i = 0; i < 288; i++) { /* the shard's allowed configurations, counted apart */
        struct mmb_config cfg;
        char params[MMB_PARAMS_LEN], why[8];
        int failed;
        seed002(&t[0].kernel);
        mmb_space_config_at(&t[0].kernel, (size_t)i, &cfg);
        mmb_space_format_params(&t[0].kernel, &cfg, params, sizeof params);
        mine += mmb_space_allowed(&t[0].kernel, &cfg, &(struct mmb_size){4096, 4096, 4096}, 4, &failed, why,
                                  sizeof why) == 1 &&
                (!shard.n || mmb_shard_of("tunable", params, "f32", 4096, 4096, 4096, shard.n) == shard.k);
        free_kernel(&t[0].kernel);
    }
    for (int pass = 0; pass < 3; pass++)
        for (unsigned j = 0; j < parts; j++) {
            if (pass == 1 && (j != 0 || !kill_after))
                continue; /* pass 1: GPU 0's part again, on a GPU that was not there */
            tune_setup(&t[j], strategy, 5, 0, false);
            snprintf(t[j].csv, sizeof t[j].csv, "%s/split-%s-%u-%u-%u.csv", tmpdir, strategy, shard.k, shard.n,
                     parts);
            snprintf(t[j].id.gpu_uuid, sizeof t[j].id.gpu_uuid, "GPU-%u-%d", j, pass);
            ck_assert_int_eq(mmb_shard_split(&shard, j, parts, &t[j].o.shard), 0);
            bool killed = pass == 0 && j == 0 && kill_after;
            ck_assert_int_eq(tune_once(&t[j], killed ? kill_after : 0, &loaded), (killed ? -1 : 0));
            for (int i = 0; i < 288; i++)
                measured[i] += t[j].fake.measured[i];
            if (pass < 2 && !killed)
                allowed_sum += t[j].res.allowed; /* each part once, as it finished */
            if (pass == 2)
                ck_assert_uint_eq(t[j].res.evaluated, 0);
            tune_teardown(&t[j]);
        }
    ck_assert_uint_eq(allowed_sum, mine);
    size_t total = 0;
    for (int i = 0; i < 288; i++) {
        ck_assert_int_le(measured[i], 1);
        total += (size_t)measured[i];
    }
    ck_assert_uint_eq(total, mine);
    ck_assert_uint_eq(read_back(t[0].csv).rows, mine);
}

START_TEST(test_parts_split_the_space)
{
    for (unsigned parts = 1; parts <= 8; parts++)
        check_split("brute_force", (struct mmb_shard){0, 0}, parts, parts % 2 ? 0 : 3);
    check_split("brute_force", (struct mmb_shard){2, 3}, 3, 1);
    check_split("random", (struct mmb_shard){0, 0}, 4, 2);
    check_split("random", (struct mmb_shard){1, 2}, 2, 0);
}
END_TEST

/* The reference library is measured at every tuned size: the profile's own
 * [kernel] of it when there is one, else a bare kernel named after it. */
START_TEST(test_plan_reference)
{
    static const char *const files[] = {"minimal.ini", "good-tune.ini"};
    for (int f = 0; f < 2; f++) {
        char path[1100], err[1024];
        snprintf(path, sizeof path, "%s/tests/fixtures/profiles/%s", getenv("MMB_SOURCE_ROOT"), files[f]);
        struct mmb_profile *p = calloc(1, sizeof *p);
        struct mmb_tune_plan *plan = calloc(1, sizeof *plan);
        ck_assert(p && plan);
        ck_assert_msg(mmb_profile_load(path, p, err, sizeof err) == 0, "%s", err);
        struct mmb_tune_options opt = {.max_fevals = -1, .time_limit = -1, .counters = MMB_COUNTERS_ALL,
                                       .counters_set = true};
        ck_assert_msg(mmb_tune_plan_make(p, &opt, plan, err, sizeof err) == 0, "%s", err);
        ck_assert_str_eq(plan->cublas->name, "cublas");
        ck_assert_int_eq(plan->cublas->kind, MMB_KERNEL_CUBLAS);
        if (f == 0)
            ck_assert_ptr_eq(plan->cublas, &plan->bare_reference);
        else
            ck_assert_ptr_eq(plan->cublas, &p->kernels[p->nkernels - 1]); /* [kernel cublas], the last */
        /* bad requests come back as text for the command to say, nothing printed here */
        opt.kernels = "nope";
        ck_assert_int_eq(mmb_tune_plan_make(p, &opt, plan, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "--kernel 'nope': ") && strstr(err, "expected one of "), "%s", err);
        opt.kernels = NULL;
        opt.strategy = "greedy";
        ck_assert_int_eq(mmb_tune_plan_make(p, &opt, plan, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "--strategy 'greedy': expected one of brute_force"), "%s", err);
        mmb_profile_free(p);
        free(p);
        free(plan);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tuner");
    TCase *tc = tcase_create("tuner");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_objective);
    tcase_add_test(tc, test_brute_force_counts);
    tcase_add_loop_test(tc, test_first_candidates, 0, 4);
    tcase_add_test(tc, test_pareto_time_energy);
    tcase_add_test(tc, test_restricted_not_recorded_unless_asked);
    tcase_add_test(tc, test_random_max_fevals);
    tcase_add_test(tc, test_time_limit);
    tcase_add_test(tc, test_resume_brute_force);
    tcase_add_test(tc, test_resume_annealing_same_path);
    tcase_add_test(tc, test_resume_genetic_same_path);
    tcase_add_test(tc, test_resume_random_same_path);
    tcase_add_test(tc, test_annealing_measures_only_allowed);
    tcase_add_test(tc, test_history_other_gpu_of_model);
    tcase_add_test(tc, test_history_export_t4);
    tcase_add_test(tc, test_parts_split_the_space);
    tcase_add_test(tc, test_plan_reference);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
