/* test_export.c - `mmbench export --best` (report/export.c, cmd/export.c): the fastest
 * ok configuration of each GPU, kernel, size, dtype and cache mode (a faster wrong
 * result is not one), with cuBLAS's time beside it; the C header compiles and its
 * macros hold the parameters; the JSON holds the same; filters that name nothing,
 * params that are not name=integer or not C names, and data with nothing to export are
 * bad input (exit 2, file:line); -o writes the file whole. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check_run.h"
#include "mmbench_run.h"
#include "report/export.h"
#include "results/csv.h"
#include "tmpdir.h"

#define H100 "NVIDIA H100 80GB HBM3"
#define PREFIX "MMB_BEST_TILED_4096X4096X4096_F32_COLD_H100_80GB_HBM3"

#define ASSERT_ERR(text) ck_assert_msg(strstr(err, text) != NULL, "expected '%s' in stderr: %s", text, err)

struct spec {
    const char *gpu, *profile, *kernel, *params;
    long long size;
    enum mmb_status status;
    double ms;
};

/* The rows into path (a folder's CSV when path ends in /x.csv). */
static void write_rows(const char *path, const struct spec *rows, size_t n)
{
    char errbuf[512];
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, errbuf, sizeof errbuf);
    ck_assert_msg(w != NULL, "%s", errbuf);
    for (size_t i = 0; i < n; i++) {
        struct mmb_row r;
        mmb_row_init(&r);
        snprintf(r.gpu, sizeof r.gpu, "%s", rows[i].gpu);
        snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-%zu", i);
        snprintf(r.profile, sizeof r.profile, "%s", rows[i].profile);
        snprintf(r.kernel, sizeof r.kernel, "%s", rows[i].kernel);
        snprintf(r.params, sizeof r.params, "%s", rows[i].params);
        snprintf(r.dtype, sizeof r.dtype, "f32");
        snprintf(r.cache, sizeof r.cache, "cold");
        r.m = r.n = r.k = rows[i].size;
        r.status = rows[i].status;
        if (rows[i].status == MMB_STATUS_OK || rows[i].status == MMB_STATUS_WRONG_RESULT) {
            r.time_ms_median = rows[i].ms;
            r.time_ms_min = rows[i].ms * 0.99;
            r.time_ms_max = rows[i].ms * 1.01;
            r.gflops = 2.0 * (double)r.m * (double)r.n * (double)r.k / (rows[i].ms * 1e6);
        }
        ck_assert_msg(mmb_csv_append_row(w, &r, errbuf, sizeof errbuf) == 0, "%s", errbuf);
    }
    mmb_csv_writer_close(w);
}

static const struct spec data_rows[] = {
    {H100, "tune-x", "tiled", "block_size_x=16;block_size_y=16", 4096, MMB_STATUS_OK, 2.0},
    {H100, "tune-x", "tiled", "block_size_x=32;block_size_y=8", 4096, MMB_STATUS_OK, 1.5},
    {H100, "tune-x", "tiled", "block_size_x=8;block_size_y=8", 4096, MMB_STATUS_WRONG_RESULT, 1.0},
    {H100, "tune-x", "tiled", "block_size_x=64;block_size_y=64", 4096, MMB_STATUS_INVALID_CONFIG, 0},
    {H100, "tune-x", "tiled", "block_size_x=16;block_size_y=16", 1024, MMB_STATUS_OK, 0.1},
    {H100, "tune-x", "cublas", "", 4096, MMB_STATUS_OK, 1.2},
    {H100, "course", "naive", "block_size_x=16", 4096, MMB_STATUS_OK, 3.0},
    {"NVIDIA H200", "tune-x", "tiled", "block_size_x=32;block_size_y=8", 4096, MMB_STATUS_OK, 1.1},
};
#define NROWS (sizeof data_rows / sizeof data_rows[0])

static char data_dir[256], data_csv[300];

static void setup(void)
{
    tmpdir_setup();
    snprintf(data_dir, sizeof data_dir, "%s/data", tmpdir);
    snprintf(data_csv, sizeof data_csv, "%s/rows.csv", data_dir);
    ck_assert_int_eq(mkdir(data_dir, 0755), 0);
    write_rows(data_csv, data_rows, NROWS);
}

START_TEST(test_best_of_each_group)
{
    struct mmb_report_data d = {0};
    char errbuf[2048];
    ck_assert_msg(mmb_report_data_add_csv(&d, data_csv, "rows.csv", errbuf, sizeof errbuf) == 0, "%s", errbuf);
    struct mmb_report_export_options o = {.writer = "test"};
    struct mmb_report_export_entry *e;
    size_t n;
    ck_assert_msg(mmb_report_export_find(&d, &o, &e, &n, errbuf, sizeof errbuf) == 0, "%s", errbuf);
    ck_assert_uint_eq(n, 4); /* H100 naive 4096, H100 tiled 1024 and 4096, H200 tiled 4096 */
    ck_assert_str_eq(e[0].best->r.kernel, "naive");
    ck_assert_str_eq(e[1].best->r.kernel, "tiled");
    ck_assert_int_eq(e[1].best->r.m, 1024);
    ck_assert_uint_eq(e[1].configurations, 1);
    ck_assert_ptr_null(e[1].cublas);
    const struct mmb_report_export_entry *t = &e[2];
    ck_assert_str_eq(t->best->r.params, "block_size_x=32;block_size_y=8"); /* not the faster wrong result */
    ck_assert_uint_eq(t->configurations, 2);
    ck_assert_ptr_nonnull(t->cublas);
    ck_assert(fabs(t->cublas->r.time_ms_median - 1.2) < 1e-12);
    ck_assert_str_eq(t->prefix, PREFIX);
    ck_assert_int_eq(t->best->line, 3);
    ck_assert_str_eq(e[3].best->r.gpu, "NVIDIA H200");
    free(e);
    /* filters: by profile, by a GPU's folder name, by kernel */
    o.gpu = "h200";
    ck_assert(mmb_report_export_find(&d, &o, &e, &n, errbuf, sizeof errbuf) == 0 && n == 1);
    free(e);
    o = (struct mmb_report_export_options){.profile = "course"};
    ck_assert(mmb_report_export_find(&d, &o, &e, &n, errbuf, sizeof errbuf) == 0 && n == 1);
    ck_assert_str_eq(e[0].best->r.kernel, "naive");
    free(e);
    o = (struct mmb_report_export_options){.kernels = "tiled,naive", .gpu = H100};
    ck_assert(mmb_report_export_find(&d, &o, &e, &n, errbuf, sizeof errbuf) == 0 && n == 3);
    free(e);
    o = (struct mmb_report_export_options){.kernels = "cublas"};
    ck_assert_int_eq(mmb_report_export_find(&d, &o, &e, &n, errbuf, sizeof errbuf), -1);
    ck_assert_msg(strstr(errbuf, "kernel 'cublas' has no ok row with parameters"), "%s", errbuf);
    mmb_report_data_free(&d);
}
END_TEST

/* The header compiles (where a C compiler is) and its macros are the parameters. */
START_TEST(test_header_compiles)
{
    char path[300], text[1024];
    snprintf(path, sizeof path, "%s/best.h", tmpdir);
    ck_assert_msg(mmbench("export", "--best", "-o", path, data_dir, NULL) == 0, "%s", err);
    ck_assert_str_eq(out, "");
    ASSERT_ERR("mmbench export: 4 configurations from 1 CSV file -> ");
    mmbench_slurp(path, out, sizeof out);
    ck_assert_msg(strstr(out, "#define " PREFIX "_BLOCK_SIZE_X 32\n"), "%s", out);
    ck_assert_msg(strstr(out, "#define " PREFIX "_DEFINES \"-Dblock_size_x=32 -Dblock_size_y=8\"\n"), "%s", out);
    ck_assert_msg(strstr(out, "80.0% of cuBLAS"), "%s", out);
    ck_assert_msg(strstr(out, "the fastest of 2 ok configurations"), "%s", out);
    if (system("command -v cc >/dev/null 2>&1") != 0)
        return;
    snprintf(path, sizeof path, "%s/use.c", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#include \"best.h\"\n"
          "#include \"best.h\"\n" /* the guard holds */
          "_Static_assert(" PREFIX "_BLOCK_SIZE_X == 32, \"x\");\n"
          "_Static_assert(" PREFIX "_BLOCK_SIZE_Y == 8, \"y\");\n"
          "_Static_assert(MMB_BEST_TILED_4096X4096X4096_F32_COLD_H200_BLOCK_SIZE_X == 32, \"h200\");\n"
          "_Static_assert(MMB_BEST_NAIVE_4096X4096X4096_F32_COLD_H100_80GB_HBM3_BLOCK_SIZE_X == 16, \"naive\");\n"
          "static const char defines[] = " PREFIX "_DEFINES;\n"
          "_Static_assert(sizeof defines == sizeof \"-Dblock_size_x=32 -Dblock_size_y=8\", \"defines\");\n"
          "int main(void) { return defines[0] != '-'; }\n",
          f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(text, sizeof text, "cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I'%s' '%s'", tmpdir, path);
    ck_assert_msg(system(text) == 0, "%s", text);
}
END_TEST

START_TEST(test_json)
{
    ck_assert_msg(mmbench("export", "--best", "--format", "json", "--kernel", "tiled", data_csv, NULL) == 0, "%s",
                  err);
    cJSON *j = cJSON_Parse(out);
    ck_assert_msg(j != NULL, "not JSON: %s", out);
    const cJSON *best = cJSON_GetObjectItem(j, "best");
    ck_assert_int_eq(cJSON_GetArraySize(best), 3);
    const cJSON *t = cJSON_GetArrayItem(best, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(t, "gpu_folder")->valuestring, "h100-80gb-hbm3");
    ck_assert_int_eq(cJSON_GetObjectItem(t, "m")->valueint, 4096);
    const cJSON *params = cJSON_GetObjectItem(t, "params");
    ck_assert_int_eq(cJSON_GetObjectItem(params, "block_size_x")->valueint, 32);
    ck_assert_int_eq(cJSON_GetObjectItem(params, "block_size_y")->valueint, 8);
    ck_assert_int_eq(cJSON_GetArraySize(params), 2);
    ck_assert_str_eq(cJSON_GetObjectItem(t, "macro")->valuestring, PREFIX);
    ck_assert(fabs(cJSON_GetObjectItem(t, "time_ms_median")->valuedouble - 1.5) < 1e-9);
    ck_assert(fabs(cJSON_GetObjectItem(t, "cublas_time_ms_median")->valuedouble - 1.2) < 1e-9);
    ck_assert_int_eq(cJSON_GetObjectItem(t, "configurations")->valueint, 2);
    ck_assert_msg(strstr(cJSON_GetObjectItem(t, "source")->valuestring, "rows.csv:3"), "%s", out);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(best, 0), "cublas_time_ms_median")));
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_bad_input)
{
    ck_assert_int_eq(mmbench("export", data_dir, NULL), 2);
    ASSERT_ERR("mmbench export: expected --best");
    ck_assert_int_eq(mmbench("export", "--best", "--kernel", "nosuch", data_dir, NULL), 2);
    ASSERT_ERR("mmbench export: --kernel: no row of kernel 'nosuch'; kernels in the data: tiled, cublas, naive");
    ck_assert_int_eq(mmbench("export", "--best", "--profile", "nosuch", data_dir, NULL), 2);
    ASSERT_ERR("--profile nosuch: no row of that profile; profiles in the data: tune-x, course");
    ck_assert_int_eq(mmbench("export", "--best", "--gpu", "a100", data_dir, NULL), 2);
    ASSERT_ERR("--gpu a100: no row of that GPU");
    ck_assert_int_eq(mmbench("export", "--best", "/dev/null", NULL), 2);
    ASSERT_ERR("mmbench export: /dev/null: a character device");
    char path[300];
    snprintf(path, sizeof path, "%s/nothing.csv", tmpdir);
    const struct spec none[] = {{H100, "p", "cublas", "", 64, MMB_STATUS_OK, 1.0},
                                {H100, "p", "tiled", "block_size_x=8", 64, MMB_STATUS_COMPILE_ERROR, 0}};
    write_rows(path, none, 2);
    ck_assert_int_eq(mmbench("export", "--best", path, NULL), 2);
    ASSERT_ERR("mmbench export: no ok row with parameters: nothing to export");
    static const struct {
        const char *params, *expect;
    } bad[] = {
        {"block_size_x=16;oops", "bad1.csv:2: column 'params': expected name=integer pairs joined by ';', found "
                                 "'block_size_x=16;oops'"},
        {"block-size=16", "bad2.csv:2: column 'params': parameter 'block-size' is not a C identifier"},
        {"tile=4;TILE=8", "bad3.csv:2: column 'params': parameter 'TILE' is another's name in upper case"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "%s/bad%zu.csv", tmpdir, i + 1);
        const struct spec one = {H100, "p", "k", bad[i].params, 64, MMB_STATUS_OK, 1.0};
        write_rows(path, &one, 1);
        ck_assert_int_eq(mmbench("export", "--best", path, NULL), 2);
        ASSERT_ERR(bad[i].expect);
    }
    /* two kernels whose macros would have one name */
    snprintf(path, sizeof path, "%s/clash.csv", tmpdir);
    const struct spec clash[] = {{H100, "p", "a-b", "x=1", 64, MMB_STATUS_OK, 1.0},
                                 {H100, "p", "a_b", "x=2", 64, MMB_STATUS_OK, 1.0}};
    write_rows(path, clash, 2);
    ck_assert_int_eq(mmbench("export", "--best", path, NULL), 2);
    ASSERT_ERR("both make the macros MMB_BEST_A_B_64X64X64_F32_COLD_H100_80GB_HBM3_...");
    /* an output that cannot be written: exit 1, nothing left behind */
    ck_assert_int_eq(mmbench("export", "--best", "-o", "/nonexistent/best.h", data_dir, NULL), 1);
    ASSERT_ERR("mmbench export: ");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("export");
    TCase *tc = tcase_create("best");
    tcase_add_checked_fixture(tc, setup, tmpdir_teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_best_of_each_group);
    tcase_add_test(tc, test_header_compiles);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
