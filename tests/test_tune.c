/* test_tune.c - `mmbench tune` on a GPU, through the program: every configuration
 * of a small profile once (allowed ones ok, restricted ones recorded), T4 files
 * beside the CSV, a second run measures nothing, a random tune continued by brute
 * force never repeats a configuration, annealing is reproducible with its seed, two
 * shards merged are the whole tune, --devices all splits it, and bad options exit 2.
 * Exits 77 (skipped) without a GPU. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "csv_rows.h"
#include "cuda/gpu.h"
#include "results/csv.h"
#include "tmpdir.h"

#define EXIT_SKIP 77
#define ROWS_PER_SIZE (1 + 4 + 24) /* cublas, naive, tunable with its restricted rows */

/* Runs mmbench tune with args on the fixture profile; returns its exit status. */
static int tune(const char *args)
{
    const char *mmbench = getenv("MMBENCH");
    ck_assert_msg(mmbench, "MMBENCH must be set");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' tune --no-counters --jobs 2 --cache-dir '%s/cubins' %s '%s/tests/fixtures/tune/small.ini'",
             mmbench, tmpdir, args, root);
    int st = system(cmd);
    ck_assert_int_ne(st, -1);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void no_duplicates(const struct collected *c)
{
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; j < i; j++) {
            const struct mmb_row *a = &c->rows[i], *b = &c->rows[j];
            ck_assert_msg(strcmp(a->kernel, b->kernel) || strcmp(a->params, b->params) || a->m != b->m ||
                              a->n != b->n || a->k != b->k,
                          "%s %s at %lld measured twice", a->kernel, a->params, a->m);
        }
}

START_TEST(test_brute_force_every_row_once_then_nothing)
{
    char csv[512], args[1024];
    snprintf(csv, sizeof csv, "%s/all.csv", tmpdir);
    snprintf(args, sizeof args, "-o '%s'", csv);
    ck_assert_int_eq(tune(args), 0);
    struct collected c = read_csv(csv);
    ck_assert_uint_eq(c.n, 2 * ROWS_PER_SIZE);
    no_duplicates(&c);
    size_t restricted = 0;
    for (size_t i = 0; i < c.n; i++) {
        const struct mmb_row *r = &c.rows[i];
        if (r->status == MMB_STATUS_RESTRICTED) {
            ck_assert_str_eq(r->reason, "block_size_x == block_size_y * tile_size_y");
            restricted++;
            continue;
        }
        ck_assert_msg(r->status == MMB_STATUS_OK, "%s %s: %s: %s", r->kernel, r->params, mmb_status_text(r->status),
                      r->reason);
        ck_assert(r->time_ms_median > 0);
        ck_assert_str_eq(r->profile, "tune-small");
    }
    ck_assert_uint_eq(restricted, 2 * 18);

    /* One T4 file per kernel and size, with every row of that kernel and size. */
    char t4[1024], err[256];
    snprintf(t4, sizeof t4, "%s/all-tunable-300x300x300-f32.t4.json", tmpdir);
    char *text = mmb_file_read(t4, NULL, err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    cJSON *doc = cJSON_Parse(text);
    ck_assert_ptr_nonnull(doc);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "results")), 24);
    cJSON_Delete(doc);
    free(text);
    snprintf(t4, sizeof t4, "%s/all-naive-256x128x200-f32.t4.json", tmpdir);
    ck_assert_int_eq(access(t4, R_OK), 0);

    /* Everything is there: nothing is measured or written again. */
    ck_assert_int_eq(tune(args), 0);
    struct collected again = read_csv(csv);
    ck_assert_uint_eq(again.n, c.n);
    free(c.rows);
    free(again.rows);
}
END_TEST

START_TEST(test_random_then_brute_force_resumes)
{
    char csv[512], args[1024];
    snprintf(csv, sizeof csv, "%s/mixed.csv", tmpdir);
    snprintf(args, sizeof args, "-o '%s' --kernel tunable --size 300 --strategy random --max-fevals 3 --seed 9", csv);
    ck_assert_int_eq(tune(args), 0);
    struct collected c = read_csv(csv);
    size_t measured = 0;
    for (size_t i = 0; i < c.n; i++)
        measured += !strcmp(c.rows[i].kernel, "tunable") && c.rows[i].status == MMB_STATUS_OK;
    ck_assert_uint_eq(measured, 3);
    free(c.rows);
    snprintf(args, sizeof args, "-o '%s' --kernel tunable --size 300 --strategy brute_force", csv);
    ck_assert_int_eq(tune(args), 0);
    c = read_csv(csv);
    ck_assert_uint_eq(c.n, 1 + 24);
    no_duplicates(&c);
    free(c.rows);
}
END_TEST

START_TEST(test_annealing_reproducible)
{
    char csv[2][512], args[1024];
    struct collected c[2];
    for (int i = 0; i < 2; i++) {
        snprintf(csv[i], sizeof csv[i], "%s/anneal%d.csv", tmpdir, i);
        snprintf(args, sizeof args, "-o '%s' --kernel tunable --size 300 --strategy annealing --seed 5 --max-fevals 4",
                 csv[i]);
        ck_assert_int_eq(tune(args), 0);
        c[i] = read_csv(csv[i]);
    }
    ck_assert_uint_eq(c[0].n, c[1].n);
    for (size_t i = 0; i < c[0].n; i++)
        ck_assert_str_eq(c[0].rows[i].params, c[1].rows[i].params);
    free(c[0].rows);
    free(c[1].rows);
}
END_TEST

/* The CSV of the one GPU folder under dir, by its name (tune-small.csv or a shard's). */
static void gpu_csv(const char *dir, const char *name, char *out, size_t len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls -d '%s'/*/ | head -n 1", dir);
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    char folder[600] = "";
    ck_assert_ptr_nonnull(fgets(folder, sizeof folder, f));
    pclose(f);
    folder[strcspn(folder, "\n")] = '\0';
    snprintf(out, len, "%s%s", folder, name);
}

/* Brute force in two shards, merged, is the whole tune: the unsharded tune on the
 * merged file measures nothing; --devices all on this machine's GPUs gives every
 * configuration once too (its GPUs of one model split the space). */
START_TEST(test_shards_merge_to_the_whole_tune)
{
    const char *mmbench = getenv("MMBENCH");
    char args[1024], csv[1024], cmd[4096];
    size_t rows = 0;
    for (int k = 1; k <= 2; k++) {
        char name[64];
        snprintf(args, sizeof args, "--data-dir '%s/sharded' --shard %d/2", tmpdir, k);
        ck_assert_int_eq(tune(args), 0);
        snprintf(args, sizeof args, "%s/sharded", tmpdir);
        snprintf(name, sizeof name, "tune-small.shard-%d-of-2.csv", k);
        gpu_csv(args, name, csv, sizeof csv);
        struct collected part = read_csv(csv);
        rows += part.n;
        free(part.rows);
    }
    ck_assert_uint_eq(rows, 2 * ROWS_PER_SIZE + 2); /* each shard measures cuBLAS at both sizes */
    snprintf(cmd, sizeof cmd, "'%s' merge --tune --data-dir '%s/sharded' '%s/tests/fixtures/tune/small.ini'", mmbench,
             tmpdir, root);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(args, sizeof args, "%s/sharded", tmpdir);
    gpu_csv(args, "tune-small.csv", csv, sizeof csv);
    struct collected c = read_csv(csv);
    ck_assert_uint_eq(c.n, 2 * ROWS_PER_SIZE);
    no_duplicates(&c);
    free(c.rows);
    snprintf(args, sizeof args, "--data-dir '%s/sharded'", tmpdir);
    ck_assert_int_eq(tune(args), 0);
    c = read_csv(csv);
    ck_assert_uint_eq(c.n, 2 * ROWS_PER_SIZE); /* nothing left to measure */
    free(c.rows);

    snprintf(args, sizeof args, "--data-dir '%s/all-gpus' --devices all", tmpdir);
    ck_assert_int_eq(tune(args), 0);
    snprintf(args, sizeof args, "%s/all-gpus", tmpdir);
    gpu_csv(args, "tune-small.csv", csv, sizeof csv);
    c = read_csv(csv);
    size_t cublas = 0;
    for (size_t i = 0; i < c.n; i++)
        cublas += !strcmp(c.rows[i].kernel, "cublas");
    ck_assert_uint_eq(c.n - cublas, 2 * (ROWS_PER_SIZE - 1)); /* every GPU measures cuBLAS for itself */
    free(c.rows);
}
END_TEST

START_TEST(test_bad_options)
{
    ck_assert_int_eq(tune("--strategy bayes"), 2);
    ck_assert_int_eq(tune("--kernel cublas"), 2);
    ck_assert_int_eq(tune("--objective dram_gbps"), 2); /* counters are off in these runs */
    ck_assert_int_eq(tune("--t4 one.json"), 2);          /* two kernels at two sizes */
}
END_TEST

/* tune --counters best: each search (kernel x size) and cuBLAS's row has its fastest ok
 * row counted (or profiling_denied where the GPU refuses counters), the other ok rows
 * not_best. */
START_TEST(test_best_counts_each_search_fastest)
{
    const char *mmbench = getenv("MMBENCH");
    char csv[512], cmd[4096];
    snprintf(csv, sizeof csv, "%s/best.csv", tmpdir);
    snprintf(cmd, sizeof cmd, "'%s' tune --counters best --jobs 2 --cache-dir '%s/cubins' -o '%s' "
             "'%s/tests/fixtures/tune/small.ini'", mmbench, tmpdir, csv, root);
    ck_assert_int_eq(system(cmd), 0);
    struct collected c = read_csv(csv);
    ck_assert_uint_eq(c.n, 2 * ROWS_PER_SIZE);
    size_t counted = 0;
    for (size_t i = 0; i < c.n; i++) {
        const struct mmb_row *r = &c.rows[i], *fastest = NULL;
        if (r->status != MMB_STATUS_OK)
            continue;
        for (size_t j = 0; j < c.n; j++)
            if (c.rows[j].status == MMB_STATUS_OK && mmb_row_same_problem(&c.rows[j], r) &&
                (!fastest || c.rows[j].time_ms_median < fastest->time_ms_median))
                fastest = &c.rows[j];
        bool has = r->counter_status == MMB_STATUS_OK || r->counter_status == MMB_STATUS_PROFILING_DENIED;
        ck_assert_msg(has == (r == fastest) && (has || r->counter_status == MMB_STATUS_NOT_BEST),
                      "%s %s %lld: counter_status %s", r->kernel, r->params, r->m,
                      mmb_status_text(r->counter_status));
        counted += has;
    }
    ck_assert_uint_eq(counted, 2 * 3); /* cublas, naive, tunable at each of the two sizes */
    free(c.rows);
}
END_TEST

int main(void)
{
    char err[512];
    if (mmb_gpu_count(err, sizeof err) <= 0) {
        fprintf(stderr, "test_tune: no GPU (%s): skipped\n", err);
        return EXIT_SKIP;
    }
    if (tmpdir_make() != 0) {
        perror(tmpdir);
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_brute_force_every_row_once_then_nothing);
    tcase_add_test(tc, test_random_then_brute_force_resumes);
    tcase_add_test(tc, test_annealing_reproducible);
    tcase_add_test(tc, test_shards_merge_to_the_whole_tune);
    tcase_add_test(tc, test_bad_options);
    tcase_add_test(tc, test_best_counts_each_search_fastest);
    suite_add_tcase(s, tc);
    int failed = mmb_test_failures(s, false);
    if (tmpdir_remove() != 0)
        perror(tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
