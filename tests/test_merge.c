/* test_merge.c - shards and `mmbench merge` without a GPU: shard CSVs of course.ini
 * written as `run --shard K/3` writes them, one killed (half its rows and a half line);
 * merge names the missing runs and their shard; the killed shard resumes (the half
 * line cut, only its missing runs added); merge then gives every run exactly once in
 * the order of an unsharded run, keeps the ok row of a run measured twice, and refuses
 * shards of different N; the report reads shards as one CSV, and not beside their
 * merged CSV. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "core/cache.h"
#include "csv_rows.h"
#include "model/library.h"
#include "profile_fixture.h"
#include "results/csv.h"
#include "results/csv_samples.h"
#include "results/shard.h"
#include "tmpdir.h"

static char profile[1200], gpu_dir[128];
static char out[1 << 16], err[1 << 16];

static void setup(void)
{
    tmpdir_setup();
    snprintf(profile, sizeof profile, "%s/profiles/course.ini", root);
    snprintf(gpu_dir, sizeof gpu_dir, "%s/data/fake-gpu", tmpdir);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", gpu_dir);
    ck_assert_int_eq(system(cmd), 0);
}


static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* mmbench merge --data-dir TMP/data [extra] course.ini; stdout and stderr in out, err. */
static int merge(const char *extra)
{
    const char *prog = getenv("MMBENCH");
    ck_assert_msg(prog != NULL, "MMBENCH must name the mmbench program");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' merge --data-dir '%s/data' %s '%s' >'%s/out' 2>'%s/err'", prog, tmpdir, extra,
             profile, tmpdir, tmpdir);
    int status = system(cmd);
    snprintf(cmd, sizeof cmd, "%s/out", tmpdir);
    slurp(cmd, out, sizeof out);
    snprintf(cmd, sizeof cmd, "%s/err", tmpdir);
    slurp(cmd, err, sizeof err);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* ---- rows as `run --shard` writes them ---- */

struct writing {
    const struct mmb_profile *p;
    struct mmb_csv_writer *w;
    struct mmb_samples_writer *samples; /* NULL: no side file */
    size_t written, skipped, limit; /* limit: stop after this many rows (a killed run) */
    const char *stamp;
};

static void row_of(const struct mmb_profile *p, const struct mmb_shard_run *run, const char *stamp,
                   struct mmb_row *row)
{
    mmb_row_init(row);
    snprintf(row->gpu, sizeof row->gpu, "Fake GPU");
    snprintf(row->gpu_uuid, sizeof row->gpu_uuid, "GPU-fake");
    snprintf(row->profile, sizeof row->profile, "%s", p->name);
    snprintf(row->kernel, sizeof row->kernel, "%s", run->kernel->name);
    snprintf(row->params, sizeof row->params, "%s", run->params);
    snprintf(row->dtype, sizeof row->dtype, "%s", mmb_dtype_info(run->dtype)->text);
    snprintf(row->cache, sizeof row->cache, "%s", mmb_cache_text(p->cache));
    snprintf(row->timestamp, sizeof row->timestamp, "%s", stamp);
    row->m = run->size->m;
    row->n = run->size->n;
    row->k = run->size->k;
    row->time_ms_median = row->time_ms_min = row->time_ms_max = 1.0;
    const struct mmb_library *lib = mmb_library_find(run->kernel->kind == MMB_KERNEL_CUBLAS ? "cublas" : "");
    snprintf(row->pipe, sizeof row->pipe, "%s", mmb_pipe_info(mmb_library_pipe(lib, run->dtype))->text);
    row->peak_gflops = 1000.0;
    row->gflops = 100.0;
    row->pipe_pct = row->fp32_pct = 10.0;
    row->repeats = 3;
}

/* The launch times of a row of median m, as its side file holds them. */
static void times_of(double m, double *t)
{
    t[0] = m;
    t[1] = m / 2;
    t[2] = 1.5 * m;
}

/* The sweep's rule: allowed runs of the shard not in the CSV yet, from any GPU. */
static int write_run(void *ctx, const struct mmb_shard_run *run)
{
    struct writing *wr = ctx;
    char e[512];
    struct mmb_row row;
    if (run->allowed != 1 || (wr->limit && wr->written == wr->limit))
        return 0;
    row_of(wr->p, run, wr->stamp, &row);
    if (mmb_csv_writer_has_any_gpu(wr->w, &row)) {
        wr->skipped++;
        return 0;
    }
    double t[3];
    times_of(row.time_ms_median, t);
    if (wr->samples)
        ck_assert_msg(mmb_samples_append(wr->samples, &row, t, 3, e, sizeof e) == 0, "%s", e);
    ck_assert_msg(mmb_csv_append_row(wr->w, &row, e, sizeof e) == 0, "%s", e);
    wr->written++;
    return 0;
}

/* Runs shard k/n into its file; limit 0: to the end. Returns the rows written. */
static size_t sweep_shard(const struct mmb_profile *p, unsigned k, unsigned n, size_t limit, size_t *skipped)
{
    char unsharded[256], path[320], e[512];
    struct mmb_shard s = {k, n};
    snprintf(unsharded, sizeof unsharded, "%s/%s.csv", gpu_dir, p->name);
    ck_assert_int_eq(mmb_shard_path(unsharded, &s, path, sizeof path), 0);
    struct writing wr = {.p = p, .limit = limit, .stamp = "2026-11-23T10:00:00Z"};
    ck_assert_msg((wr.w = mmb_csv_writer_open(path, e, sizeof e)) != NULL, "%s", e);
    ck_assert_int_eq(mmb_shard_each_run(p, &s, write_run, &wr), 0);
    mmb_csv_writer_close(wr.w);
    if (skipped)
        *skipped = wr.skipped;
    return wr.written;
}

static int count_allowed(void *ctx, const struct mmb_shard_run *run)
{
    *(size_t *)ctx += run->allowed == 1;
    return 0;
}

static size_t runs_of(const struct mmb_profile *p, unsigned k, unsigned n)
{
    struct mmb_shard s = {k, n};
    size_t c = 0;
    mmb_shard_each_run(p, &s, count_allowed, &c);
    return c;
}

START_TEST(test_killed_shard_resumes_and_merges)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], path[320];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    size_t total = runs_of(p, 0, 0), two = runs_of(p, 2, 3);
    ck_assert_uint_eq(total, 153);
    ck_assert_uint_eq(sweep_shard(p, 1, 3, 0, NULL), runs_of(p, 1, 3));
    ck_assert_uint_eq(sweep_shard(p, 3, 3, 0, NULL), runs_of(p, 3, 3));
    size_t half = two / 2;
    ck_assert_uint_eq(sweep_shard(p, 2, 3, half, NULL), half);
    snprintf(path, sizeof path, "%s/course.shard-2-of-3.csv", gpu_dir);
    FILE *f = fopen(path, "a"); /* killed in the middle of a row */
    ck_assert_ptr_nonnull(f);
    fputs("Fake GPU,GPU-fake,,,,,course,naive,block_size_x=16;blo", f);
    fclose(f);

    /* merge says what is missing, and in which shard */
    int first = merge("");
    ck_assert_msg(first == 1, "%d %s %s", first, out, err);
    ck_assert_msg(strstr(out, "shard 2/3"), "%s", out);
    char want[128];
    snprintf(want, sizeof want, "%zu of the profile's 153 runs missing", two - half);
    ck_assert_msg(strstr(out, want), "%s\n%s", out, err);
    ck_assert_msg(strstr(out, "(shard 2/3)") && !strstr(out, "(shard 1/3)") && !strstr(out, "(shard 3/3)"), "%s",
                  out);
    ck_assert_msg(strstr(err, "runs missing; run their shards again"), "%s", err);

    /* the killed shard resumes: the half line cut, only its missing runs measured, on another GPU */
    size_t skipped;
    ck_assert_uint_eq(sweep_shard(p, 2, 3, 0, &skipped), two - half);
    ck_assert_uint_eq(skipped, half);
    ck_assert_int_eq(merge(""), 0);
    ck_assert_msg(strstr(out, "0 of the profile's 153 runs missing"), "%s", out);
    snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
    struct collected c = read_csv(path);
    ck_assert_uint_eq(c.n, total);
    /* in the unsharded sweep's order: size, dtype, kernel, configuration */
    ck_assert_str_eq(c.rows[0].kernel, "naive");
    ck_assert_int_eq(c.rows[0].m, 256);
    ck_assert_str_eq(c.rows[total - 1].kernel, "cublas");
    ck_assert_int_eq(c.rows[total - 1].k, 8192);
    for (size_t i = 0; i + 1 < c.n; i++)
        for (size_t j = i + 1; j < c.n && j < i + 40; j++)
            ck_assert(strcmp(c.rows[i].params, c.rows[j].params) || strcmp(c.rows[i].kernel, c.rows[j].kernel) ||
                      c.rows[i].m != c.rows[j].m || c.rows[i].n != c.rows[j].n || c.rows[i].k != c.rows[j].k);
    free(c.rows);

    /* merged again: the same file (idempotent) */
    ck_assert_int_eq(merge(""), 0);
    ck_assert_msg(strstr(out, "of the 306 read, 153 were copies merged before and 0 a second row"), "%s", out);
    c = read_csv(path);
    ck_assert_uint_eq(c.n, total);
    free(c.rows);
    unload(p);
}
END_TEST

/* A run measured twice on one GPU keeps its ok row, else the latest. */
START_TEST(test_duplicates_keep_ok_then_latest)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], path[320];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    for (unsigned k = 1; k <= 2; k++)
        sweep_shard(p, k, 2, 0, NULL);
    /* the merged file of an earlier merge holds a failed row of a run that shard 1 has ok,
     * and a later one of a shard-2 run */
    struct collected one;
    snprintf(path, sizeof path, "%s/course.shard-1-of-2.csv", gpu_dir);
    one = read_csv(path);
    ck_assert_uint_ge(one.n, 2);
    snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, e, sizeof e);
    ck_assert_ptr_nonnull(w);
    struct mmb_row failed = one.rows[0], later = one.rows[1];
    failed.status = MMB_STATUS_TIMEOUT;
    snprintf(failed.timestamp, sizeof failed.timestamp, "2026-11-24T00:00:00Z");
    later.time_ms_median = later.time_ms_min = later.time_ms_max = 2.0;
    snprintf(later.timestamp, sizeof later.timestamp, "2026-11-24T00:00:00Z");
    ck_assert_int_eq(mmb_csv_append_row(w, &failed, e, sizeof e), 0);
    ck_assert_int_eq(mmb_csv_append_row(w, &later, e, sizeof e), 0);
    mmb_csv_writer_close(w);
    ck_assert_int_eq(merge(""), 0);
    ck_assert_msg(strstr(out, "of the 155 read, 0 were copies merged before and 2 a second row of a configuration"),
                  "%s", out);
    struct collected c = read_csv(path);
    ck_assert_uint_eq(c.n, 153);
    for (size_t i = 0; i < c.n; i++) {
        ck_assert_int_eq(c.rows[i].status, MMB_STATUS_OK);
        if (!strcmp(c.rows[i].kernel, later.kernel) && !strcmp(c.rows[i].params, later.params) &&
            c.rows[i].m == later.m && c.rows[i].n == later.n && c.rows[i].k == later.k)
            ck_assert(c.rows[i].time_ms_median == 2.0);
    }
    free(c.rows);
    free(one.rows);
    unload(p);
}
END_TEST

/* Shards with side files of launch times: merge writes the merged CSV's side file, a
 * line for each kept row; a row measured again in a shard (another source, later)
 * supersedes the earlier one, with its own times. */
START_TEST(test_merge_carries_samples)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], path[320];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    for (unsigned k = 1; k <= 2; k++) {
        char unsharded[256];
        struct mmb_shard s = {k, 2};
        snprintf(unsharded, sizeof unsharded, "%s/course.csv", gpu_dir);
        ck_assert_int_eq(mmb_shard_path(unsharded, &s, path, sizeof path), 0);
        struct writing wr = {.p = p, .stamp = "2026-11-23T10:00:00Z"};
        ck_assert_msg((wr.w = mmb_csv_writer_open(path, e, sizeof e)) != NULL, "%s", e);
        ck_assert_msg((wr.samples = mmb_samples_writer_open(path, e, sizeof e)) != NULL, "%s", e);
        ck_assert_int_eq(mmb_shard_each_run(p, &s, write_run, &wr), 0);
        if (k == 1) {
            /* the first row measured again after an edit of its kernel */
            struct collected one = read_csv(path);
            struct mmb_row again = one.rows[0];
            snprintf(again.source_digest, sizeof again.source_digest, "00000000000000bb");
            snprintf(again.timestamp, sizeof again.timestamp, "2026-11-24T10:00:00Z");
            again.time_ms_median = again.time_ms_min = again.time_ms_max = 2.0;
            double t[3];
            times_of(2.0, t);
            ck_assert_int_eq(mmb_samples_append(wr.samples, &again, t, 3, e, sizeof e), 0);
            ck_assert_int_eq(mmb_csv_append_row(wr.w, &again, e, sizeof e), 0);
            free(one.rows);
        }
        mmb_samples_writer_close(wr.samples);
        mmb_csv_writer_close(wr.w);
    }
    ck_assert_msg(merge("") == 0, "%s %s", out, err);
    ck_assert_msg(strstr(out, "of the 154 read, 0 were copies merged before and 1 a second row"), "%s", out);
    snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
    struct collected c = read_csv(path);
    ck_assert_uint_eq(c.n, 153);
    struct mmb_samples_set *set;
    ck_assert_msg(mmb_samples_load(path, &set, e, sizeof e) == 0, "%s", e);
    ck_assert_uint_eq(mmb_samples_count(set), 153);
    size_t again = 0;
    for (size_t i = 0; i < c.n; i++) {
        size_t n;
        const double *t = mmb_samples_find(set, &c.rows[i], &n);
        ck_assert_msg(t && n == 3 && t[0] == c.rows[i].time_ms_median, "row %zu", i);
        again += !strcmp(c.rows[i].source_digest, "00000000000000bb") && t[0] == 2.0;
    }
    ck_assert_uint_eq(again, 1);
    mmb_samples_free(set);
    free(c.rows);
    /* merged again: the same */
    ck_assert_int_eq(merge(""), 0);
    ck_assert_msg(mmb_samples_load(path, &set, e, sizeof e) == 0, "%s", e);
    ck_assert_uint_eq(mmb_samples_count(set), 153);
    mmb_samples_free(set);
    unload(p);
}
END_TEST

/* The precisions' profile: rows of every dtype but i32, each with its pipe (cuBLAS's
 * f64 on the FP64 tensor cores), merge as course.ini's do, the pipe cells kept. */
START_TEST(test_precisions_merge)
{
    snprintf(profile, sizeof profile, "%s/profiles/precisions.ini", root);
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], path[320];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    size_t total = runs_of(p, 0, 0);
    ck_assert_uint_eq(sweep_shard(p, 1, 2, 0, NULL), runs_of(p, 1, 2));
    ck_assert_uint_eq(sweep_shard(p, 2, 2, 0, NULL), runs_of(p, 2, 2));
    ck_assert_msg(merge("") == 0, "%s %s", out, err);
    char want[128];
    snprintf(want, sizeof want, "0 of the profile's %zu runs missing", total);
    ck_assert_msg(strstr(out, want), "%s\n%s", out, err);
    snprintf(path, sizeof path, "%s/precisions.csv", gpu_dir);
    struct collected c = read_csv(path);
    ck_assert_uint_eq(c.n, total);
    unsigned dtypes = 0;
    for (size_t i = 0; i < c.n; i++) {
        enum mmb_dtype d;
        ck_assert(mmb_dtype_parse(c.rows[i].dtype, &d));
        dtypes |= 1u << d;
        bool dmma = !strcmp(c.rows[i].kernel, "cublas") && d == MMB_F64;
        const char *want_pipe = dmma ? "tensor_f64" : mmb_pipe_info(mmb_dtype_info(d)->pipe)->text;
        ck_assert_msg(!strcmp(c.rows[i].pipe, want_pipe), "%s %s: pipe %s", c.rows[i].kernel, c.rows[i].dtype,
                      c.rows[i].pipe);
    }
    ck_assert_uint_eq(dtypes, p->dtypes);
    free(c.rows);
    unload(p);
}
END_TEST

START_TEST(test_mixed_n_refused)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    sweep_shard(p, 1, 2, 0, NULL);
    sweep_shard(p, 1, 3, 0, NULL);
    ck_assert_int_eq(merge(""), 2);
    ck_assert_msg(strstr(err, "shards of ") && strstr(err, "expected one N"), "%s", err);
    char path[320];
    snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
    ck_assert_int_ne(access(path, F_OK), 0); /* nothing written */
    /* no shard file at all */
    ck_assert_int_eq(merge("--tune"), 2);
    ck_assert_msg(strstr(err, "no shard file of profile 'course'"), "%s", err);
    unload(p);
}
END_TEST

/* The report reads a GPU's shards together as it reads its unsharded CSV: H100 rows
 * of course.csv split into shards give the same figure data; once merged, the shards
 * beside the merged CSV are not read again (no row counted twice). */
START_TEST(test_report_reads_shards)
{
    const char *prog = getenv("MMBENCH");
    char orig[1200], path[400], cmd[4096];
    snprintf(orig, sizeof orig, "%s/data/h100-80gb-hbm3/course.csv", root);
    struct collected rows = read_csv(orig);
    ck_assert_uint_eq(rows.n, 153);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/whole/h100' && cp '%s' '%s/whole/h100/'", tmpdir, orig, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    for (unsigned k = 1; k <= 3; k++) {
        struct mmb_shard s = {k, 3};
        char e[512];
        snprintf(path, sizeof path, "%s/course.shard-%u-of-3.csv", gpu_dir, k);
        struct mmb_csv_writer *w = mmb_csv_writer_open(path, e, sizeof e);
        ck_assert_msg(w != NULL, "%s", e);
        for (size_t i = 0; i < rows.n; i++)
            if (mmb_shard_has_row(&s, &rows.rows[i]))
                ck_assert_int_eq(mmb_csv_append_row(w, &rows.rows[i], e, sizeof e), 0);
        mmb_csv_writer_close(w);
    }
    free(rows.rows);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' report -n -q -o r0 whole && '%s' report -n -q -o r1 data && "
             "diff -r r0/gnuplot r1/gnuplot && grep -q '1 GPU, 3 CSV files, 153 rows' r1/README.md",
             tmpdir, prog, prog);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(merge(""), 0);
    ck_assert_msg(strstr(out, "0 of the profile's 153 runs missing"), "%s", out);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' report -n -q -o r2 data && diff -r r0/gnuplot r2/gnuplot && "
             "grep -q '1 GPU, 1 CSV files, 153 rows' r2/README.md && grep -q 'course.csv' r2/README.md && "
             "! grep -q 'shard-' r2/README.md", tmpdir, prog);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Two files that name one shard (a leading zero is the same number) are refused,
 * both named, whatever the folder's order; nothing is written. The report refuses
 * them too (it would read the shard's rows twice). */
START_TEST(test_one_shard_two_files_refused)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], cmd[2048], path[320];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    sweep_shard(p, 1, 2, 0, NULL);
    sweep_shard(p, 2, 2, 0, NULL);
    static const char *const aliases[] = {"course.shard-01-of-2.csv", "course.shard-2-of-02.csv",
                                          "course.shard-0001-of-0002.csv"};
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && cp course.shard-%d-of-2.csv %s", gpu_dir, i == 1 ? 2 : 1, aliases[i]);
        ck_assert_int_eq(system(cmd), 0);
        ck_assert_int_eq(merge(""), 2);
        ck_assert_msg(strstr(err, aliases[i]) && strstr(err, i == 1 ? "course.shard-2-of-2.csv" : "course.shard-1-of-2.csv"),
                      "%s", err);
        ck_assert_msg(strstr(err, "name one shard, "), "%s", err);
        snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
        ck_assert_int_ne(access(path, F_OK), 0);
        const char *prog = getenv("MMBENCH");
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s' report -n -q -o r data 2>err.report; test $? = 2 && grep -q '%s' err.report",
                 tmpdir, prog, aliases[i]);
        ck_assert_msg(system(cmd) == 0, "report did not refuse %s", aliases[i]);
        snprintf(cmd, sizeof cmd, "rm '%s/%s'", gpu_dir, aliases[i]);
        ck_assert_int_eq(system(cmd), 0);
    }
    ck_assert_int_eq(merge(""), 0);
    unload(p);
}
END_TEST

/* Appends one row to the shard file k/n, made by edit from the first row of that file. */
static void append_edited(unsigned k, unsigned n, void (*edit)(struct mmb_row *row))
{
    char path[320], e[512];
    snprintf(path, sizeof path, "%s/course.shard-%u-of-%u.csv", gpu_dir, k, n);
    struct collected c = read_csv(path);
    ck_assert_uint_ge(c.n, 1);
    struct mmb_row row = c.rows[0];
    free(c.rows);
    edit(&row);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, e, sizeof e);
    ck_assert_msg(w != NULL, "%s", e);
    ck_assert_msg(mmb_csv_append_row(w, &row, e, sizeof e) == 0, "%s", e);
    mmb_csv_writer_close(w);
}

static void other_profile(struct mmb_row *r) { snprintf(r->profile, sizeof r->profile, "quick"); }
static void other_size(struct mmb_row *r) { r->m = r->n = r->k = 777; }
static void other_kernel(struct mmb_row *r) { snprintf(r->kernel, sizeof r->kernel, "not_in_course"); }
static void other_params(struct mmb_row *r) { snprintf(r->params, sizeof r->params, "block_size_x=3;block_size_y=3"); }
static void other_dtype(struct mmb_row *r) { snprintf(r->dtype, sizeof r->dtype, "f64"); }
static void other_cache(struct mmb_row *r) { snprintf(r->cache, sizeof r->cache, "hot"); }

/* A row that is not one of the profile's runs (another profile's, a size, kernel,
 * configuration, dtype or cache mode the profile lacks) is bad input: exit 2 naming
 * the file and line, nothing written. tune's files are checked by what a tune can
 * write: the profile, its kernels, their parameter values and dtypes. */
START_TEST(test_rows_not_of_the_profile_refused)
{
    struct mmb_profile *p = calloc(1, sizeof *p);
    char e[1024], path[320], cmd[1024];
    ck_assert_msg(mmb_profile_load(profile, p, e, sizeof e) == 0, "%s", e);
    static void (*const edits[])(struct mmb_row *) = {other_profile, other_size, other_kernel, other_params,
                                                     other_dtype, other_cache};
    static const char *const said[] = {"profile 'quick'", "777x777x777", "not_in_course", "block_size_x=3",
                                       "f64", "hot"};
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        sweep_shard(p, 1, 2, 0, NULL);
        sweep_shard(p, 2, 2, 0, NULL);
        size_t rows = runs_of(p, 2, 2);
        append_edited(2, 2, edits[i]);
        ck_assert_int_eq(merge(""), 2);
        snprintf(path, sizeof path, "course.shard-2-of-2.csv:%zu:", rows + 2); /* after the header */
        ck_assert_msg(strstr(err, path) && strstr(err, said[i]) && strstr(err, "not a run of profile 'course'"),
                      "edit %zu: %s", i, err);
        snprintf(path, sizeof path, "%s/course.csv", gpu_dir);
        ck_assert_int_ne(access(path, F_OK), 0);
        snprintf(cmd, sizeof cmd, "rm -f '%s'/*.csv", gpu_dir);
        ck_assert_int_eq(system(cmd), 0);
    }
    /* tune's shard files: another profile's row, another kernel's, a value not in the space */
    static void (*const tune_edits[])(struct mmb_row *) = {other_profile, other_kernel, other_params, other_dtype};
    for (size_t i = 0; i < sizeof tune_edits / sizeof *tune_edits; i++) {
        snprintf(cmd, sizeof cmd, "rm -f '%s'/*.csv", gpu_dir);
        ck_assert_int_eq(system(cmd), 0);
        sweep_shard(p, 1, 2, 0, NULL);
        append_edited(1, 2, tune_edits[i]);
        snprintf(cmd, sizeof cmd, "cd '%s' && mv course.shard-1-of-2.csv tune-course.shard-1-of-2.csv", gpu_dir);
        ck_assert_int_eq(system(cmd), 0);
        ck_assert_int_eq(merge("--tune"), 2);
        ck_assert_msg(strstr(err, "tune-course.shard-1-of-2.csv:") && strstr(err, "not a row that a tune writes of profile 'course'"),
                      "tune edit %zu: %s", i, err);
    }
    unload(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("merge");
    TCase *tc = tcase_create("merge");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_killed_shard_resumes_and_merges);
    tcase_add_test(tc, test_duplicates_keep_ok_then_latest);
    tcase_add_test(tc, test_merge_carries_samples);
    tcase_add_test(tc, test_precisions_merge);
    tcase_add_test(tc, test_mixed_n_refused);
    tcase_add_test(tc, test_report_reads_shards);
    tcase_add_test(tc, test_one_shard_two_files_refused);
    tcase_add_test(tc, test_rows_not_of_the_profile_refused);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
