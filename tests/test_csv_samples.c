/* test_csv_samples.c - the side file of launch times: its name beside the CSV, lines
 * written and read back exactly (the events' floats), a row finding its own line (by
 * key and time stamp, its count and median checked), a line without its row ignored,
 * a half line cut, and bad side files named with file and line. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/stats.h"
#include "results/columns.h"
#include "results/csv_samples.h"
#include "tmpdir.h"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static const char *get(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A row as the sweep writes it, with the summary of its times. */
static struct mmb_row row_of(const char *params, const double *ms, size_t n, const char *stamp)
{
    struct mmb_row r;
    mmb_row_init(&r);
    snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-1");
    snprintf(r.kernel, sizeof r.kernel, "tiled");
    snprintf(r.params, sizeof r.params, "%s", params);
    snprintf(r.dtype, sizeof r.dtype, "f32");
    snprintf(r.cache, sizeof r.cache, "cold");
    snprintf(r.timestamp, sizeof r.timestamp, "%s", stamp);
    r.m = r.n = r.k = 4096;
    double *c = malloc(n * sizeof *c);
    memcpy(c, ms, n * sizeof *c);
    struct mmb_stats st;
    mmb_stats_compute(c, n, &st);
    free(c);
    r.repeats = (long long)n;
    r.time_ms_median = mmb_csv_round(st.median); /* as the CSV holds it */
    r.time_ms_min = st.min;
    r.time_ms_max = st.max;
    return r;
}

START_TEST(test_path)
{
    char out[256];
    ck_assert_int_eq(mmb_samples_path("data/h100/course.csv", out, sizeof out), 0);
    ck_assert_str_eq(out, "data/h100/course.samples.csv");
    ck_assert_int_eq(mmb_samples_path("data/h100/course.shard-2-of-4.csv", out, sizeof out), 0);
    ck_assert_str_eq(out, "data/h100/course.shard-2-of-4.samples.csv");
    ck_assert_int_eq(mmb_samples_path("x.out", out, sizeof out), 0);
    ck_assert_str_eq(out, "x.out.samples.csv");
    ck_assert_int_eq(mmb_samples_path("course.csv", out, 10), -1);
    ck_assert(mmb_samples_path_is("a/course.samples.csv"));
    ck_assert(!mmb_samples_path_is("a/course.csv") && !mmb_samples_path_is("samples.csv.x"));
}
END_TEST

START_TEST(test_write_read)
{
    char csv[256], err[1024];
    snprintf(csv, sizeof csv, "%s/course.csv", tmpdir);
    /* event times are floats: each comes back as the same float */
    double a[7] = {15.2432003f, 15.2309999f, 15.2528f, 0.00614399975f, 15.2401f, 15.2366f, 15.2412f};
    double b[4] = {4.04889584f, 4.05049610f, 4.04854393f, 4.05120001f};
    struct mmb_row ra = row_of("block_size_x=32;block_size_y=32", a, 7, "2026-11-26T05:00:00Z");
    struct mmb_row rb = row_of("block_size_x=16;block_size_y=16", b, 4, "2026-11-26T05:00:01Z");
    struct mmb_samples_writer *w = mmb_samples_writer_open(csv, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_int_eq(mmb_samples_append(w, &ra, a, 7, err, sizeof err), 0);
    ck_assert_int_eq(mmb_samples_append(w, &rb, b, 4, err, sizeof err), 0);
    /* a line whose row never came (killed before the row): matches nothing */
    struct mmb_row orphan = row_of("block_size_x=8;block_size_y=8", b, 4, "2026-11-26T05:00:02Z");
    ck_assert_int_eq(mmb_samples_append(w, &orphan, b, 4, err, sizeof err), 0);
    double bad = NAN;
    ck_assert_int_eq(mmb_samples_append(w, &orphan, &bad, 1, err, sizeof err), -1);
    mmb_samples_writer_close(w);
    char side[300];
    snprintf(side, sizeof side, "%s/course.samples.csv", tmpdir);
    const char *text = get(side);
    ck_assert_msg(!strncmp(text, "gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\n", 62), "%s", text);
    ck_assert_ptr_nonnull(strstr(text, ",2026-11-26T05:00:00Z,15.2432 15.231 15.2528 0.0061439998 15.2401 15.2366 15.2412\n"));

    struct mmb_samples_set *s;
    ck_assert_msg(mmb_samples_load(csv, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(mmb_samples_count(s), 3);
    size_t n;
    const double *got = mmb_samples_find(s, &ra, &n);
    ck_assert_ptr_nonnull(got);
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == a[i], "%zu: %.9g != %.9g", i, got[i], a[i]); /* launch order, exact */
    ck_assert_ptr_nonnull(mmb_samples_find(s, &rb, &n));
    /* not its line: another time stamp (a row measured again), another count, another median */
    struct mmb_row other = ra;
    snprintf(other.timestamp, sizeof other.timestamp, "2026-11-27T00:00:00Z");
    ck_assert_ptr_null(mmb_samples_find(s, &other, &n));
    other = ra;
    other.repeats = 6;
    ck_assert_ptr_null(mmb_samples_find(s, &other, &n));
    other = ra;
    other.time_ms_median *= 1.001;
    ck_assert_ptr_null(mmb_samples_find(s, &other, &n));
    other = ra;
    snprintf(other.gpu_uuid, sizeof other.gpu_uuid, "GPU-2");
    ck_assert_ptr_null(mmb_samples_find(s, &other, &n));
    mmb_samples_free(s);

    /* no side file: an empty set */
    snprintf(csv, sizeof csv, "%s/none.csv", tmpdir);
    ck_assert_int_eq(mmb_samples_load(csv, &s, err, sizeof err), 0);
    ck_assert_ptr_null(mmb_samples_find(s, &ra, &n));
    mmb_samples_free(s);
}
END_TEST

START_TEST(test_half_line_and_bad_files)
{
    char csv[256], side[300], err[1024];
    snprintf(csv, sizeof csv, "%s/t.csv", tmpdir);
    snprintf(side, sizeof side, "%s/t.samples.csv", tmpdir);
    double a[3] = {1.0, 2.0, 3.0};
    struct mmb_row r = row_of("p=1", a, 3, "2026-11-26T05:00:00Z");
    put(side, "gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\n"
              "GPU-1,tiled,p=1,f32,4096,4096,4096,cold,2026-11-26T05:00:00Z,1 2 3\n"
              "GPU-1,tiled,p=2,f32,4096,4096,4096,cold,2026-11-26T05:00:00Z,1 2");
    struct mmb_samples_set *s;
    ck_assert_msg(mmb_samples_load(csv, &s, err, sizeof err) == 0, "%s", err); /* a line being written */
    ck_assert_uint_eq(mmb_samples_count(s), 1);
    mmb_samples_free(s);
    struct mmb_samples_writer *w = mmb_samples_writer_open(csv, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_int_eq(mmb_samples_append(w, &r, a, 3, err, sizeof err), 0);
    mmb_samples_writer_close(w);
    ck_assert_ptr_null(strstr(get(side), "3\nGPU-1,tiled,p=2")); /* the half line was cut */
    ck_assert_ptr_nonnull(strstr(get(side), "1 2 3\nGPU-1,tiled,p=1,f32,4096,4096,4096,cold,2026-11-26T05:00:00Z,1 2 3\n"));

    static const struct {
        const char *text, *where, *what;
    } bad[] = {
        {"kernel,params\nx,y\n", ":1:", "header of a side file"},
        {"gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\nG,k,,f32,1,1,1,cold,T,1 x 3\n", ":2:",
         "column 'samples_ms'"},
        {"gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\nG,k,,f32,1,1,1,cold,T,1 -2\n", ":2:",
         "'-2'"},
        {"gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\nG,k,,f99,1,1,1,cold,T,1\n", ":2:",
         "column 'dtype'"},
        {"gpu_uuid,kernel,params,dtype,m,n,k,cache,timestamp,samples_ms\nG,k,,f32,1,1\n", ":2:", "expected 10 fields"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put(side, bad[i].text);
        ck_assert_int_eq(mmb_samples_load(csv, &s, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "t.samples.csv") && strstr(err, bad[i].where) && strstr(err, bad[i].what), "%zu: %s",
                      i, err);
        if (i == 0) {
            ck_assert_ptr_null(mmb_samples_writer_open(csv, err, sizeof err));
            ck_assert_ptr_nonnull(strstr(err, "another"));
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csv_samples");
    TCase *tc = tcase_create("csv_samples");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_path);
    tcase_add_test(tc, test_write_read);
    tcase_add_test(tc, test_half_line_and_bad_files);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
