/* test_t4.c - the T4 export of a made-up result set, parsed back with cJSON and
 * held against the T4 1.0.0 results schema: its required fields and their types,
 * the invalidity enum, and the mapping from rows. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "core/file.h"
#include "results/csv.h"
#include "results/t4/t4.h"
#include "tmpdir.h"

/* The schema's enum for "invalidity". */
static const char *const invalidity_enum[] = {"timeout", "compile", "runtime", "correctness", "constraints",
                                              "correct"};

static bool in_enum(const char *s)
{
    for (size_t i = 0; i < sizeof invalidity_enum / sizeof invalidity_enum[0]; i++)
        if (!strcmp(s, invalidity_enum[i]))
            return true;
    return false;
}

static void row_ok(struct mmb_row *r, int bx, double ms)
{
    mmb_row_init(r);
    snprintf(r->kernel, sizeof r->kernel, "tunable");
    snprintf(r->params, sizeof r->params, "block_size_x=%d;block_size_y=8;tile_size_x=2;tile_size_y=%d", bx, bx / 8);
    snprintf(r->timestamp, sizeof r->timestamp, "2026-11-22T10:00:00Z");
    r->m = r->n = r->k = 4096;
    r->repeats = 10;
    r->time_ms_median = ms;
    r->gflops = 2.0 * 4096.0 * 4096.0 * 4096.0 / (ms * 1e-3) / 1e9;
    r->dram_gbps = 512.5;
    r->registers = 64;
    r->peak_gflops = 60000.0;
}

static cJSON *parse_file(const char *path)
{
    char err[256];
    char *text = mmb_file_read(path, NULL, err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    cJSON *doc = cJSON_Parse(text);
    ck_assert_msg(doc != NULL, "not JSON: %s", text);
    free(text);
    return doc;
}

static const cJSON *measurement(const cJSON *result, const char *name)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(result, "measurements"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "name");
        if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
            return m;
    }
    return NULL;
}

START_TEST(test_t4_schema_required_fields)
{
    char err[256], path[512];
    struct mmb_t4 *t4 = mmb_t4_new("time", err, sizeof err);
    ck_assert_msg(t4 != NULL, "%s", err);
    struct mmb_row rows[4];
    row_ok(&rows[0], 16, 12.5);
    row_ok(&rows[1], 32, 7.25);
    row_ok(&rows[2], 64, NAN);
    rows[2].status = MMB_STATUS_COMPILE_ERROR;
    rows[2].gflops = NAN;
    rows[2].dram_gbps = NAN;
    snprintf(rows[2].reason, sizeof rows[2].reason, "ptxas: too much shared data");
    row_ok(&rows[3], 8, NAN);
    rows[3].status = MMB_STATUS_RESTRICTED;
    rows[3].gflops = rows[3].dram_gbps = NAN;
    rows[3].registers = MMB_INT_EMPTY;
    for (int i = 0; i < 4; i++)
        ck_assert_msg(mmb_t4_add(t4, &rows[i], i == 0 ? 812.0 : NAN, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(mmb_t4_count(t4), 4);
    snprintf(path, sizeof path, "%s/tune.t4.json", tmpdir);
    ck_assert_msg(mmb_t4_write(t4, path, err, sizeof err) == 0, "%s", err);
    mmb_t4_free(t4);

    cJSON *doc = parse_file(path);
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
    ck_assert(cJSON_IsString(version));
    ck_assert_str_eq(version->valuestring, "1.0.0");
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    ck_assert(cJSON_IsArray(results));
    ck_assert_int_eq(cJSON_GetArraySize(results), 4);
    const cJSON *r;
    int i = 0;
    cJSON_ArrayForEach(r, results)
    {
        /* required: configuration, times, invalidity, correctness */
        const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(r, "configuration");
        const cJSON *times = cJSON_GetObjectItemCaseSensitive(r, "times");
        const cJSON *inv = cJSON_GetObjectItemCaseSensitive(r, "invalidity");
        const cJSON *corr = cJSON_GetObjectItemCaseSensitive(r, "correctness");
        ck_assert(cJSON_IsObject(cfg));
        ck_assert(cJSON_IsObject(times));
        ck_assert(cJSON_IsString(inv) && in_enum(inv->valuestring));
        ck_assert(cJSON_IsNumber(corr));
        /* the optional ones, with the schema's types */
        ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "timestamp")));
        ck_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r, "objectives")));
        ck_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(times, "runtimes")));
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "measurements"))
        {
            ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "name")));
            ck_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(m, "value")));
            ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(m, "unit")));
        }
        /* configuration: the tunables as numbers */
        ck_assert_int_eq(cJSON_GetArraySize(cfg), 4);
        const cJSON *bx = cJSON_GetObjectItemCaseSensitive(cfg, "block_size_x");
        ck_assert(cJSON_IsNumber(bx));
        ck_assert_int_eq(bx->valueint, i == 0 ? 16 : i == 1 ? 32 : i == 2 ? 64 : 8);
        const cJSON *obj = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "objectives"), 0);
        ck_assert_str_eq(obj->valuestring, "time");
        i++;
    }

    const cJSON *r0 = cJSON_GetArrayItem(results, 0), *r2 = cJSON_GetArrayItem(results, 2);
    const cJSON *r3 = cJSON_GetArrayItem(results, 3);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r0, "invalidity")->valuestring, "correct");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(r0, "correctness")->valueint, 1);
    const cJSON *t0 = cJSON_GetObjectItemCaseSensitive(r0, "times");
    ck_assert(cJSON_GetObjectItemCaseSensitive(t0, "compilation_time")->valuedouble == 812.0);
    ck_assert(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(t0, "runtimes"), 0)->valuedouble == 12.5);
    const cJSON *time = measurement(r0, "time");
    ck_assert_ptr_nonnull(time);
    ck_assert(cJSON_GetObjectItemCaseSensitive(time, "value")->valuedouble == 12.5);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(time, "unit")->valuestring, "ms");
    ck_assert_ptr_nonnull(measurement(r0, "gflops"));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(measurement(r0, "dram_gbps"), "unit")->valuestring, "GB/s");
    ck_assert_ptr_nonnull(measurement(r0, "registers"));
    ck_assert_ptr_null(measurement(r0, "m"));           /* the problem, not a measurement */
    ck_assert_ptr_null(measurement(r0, "peak_gflops")); /* the GPU's */

    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r2, "invalidity")->valuestring, "compile");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(r2, "correctness")->valueint, 0);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(r2, "times"), "runtimes")), 0);
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r2, "times"),
                                                        "compilation_time"));
    ck_assert_ptr_null(measurement(r2, "time"));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r3, "invalidity")->valuestring, "constraints");
    cJSON_Delete(doc);
}
END_TEST

START_TEST(test_t4_invalidity_table)
{
    for (int s = 0; s < MMB_STATUS_COUNT; s++)
        ck_assert_msg(in_enum(mmb_t4_invalidity((enum mmb_status)s)), "status %d", s);
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_OK), "correct");
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_WRONG_RESULT), "correctness");
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_COMPILE_ERROR), "compile");
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_LAUNCH_ERROR), "runtime");
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_INVALID_CONFIG), "constraints");
    ck_assert_str_eq(mmb_t4_invalidity(MMB_STATUS_RESTRICTED), "constraints");
}
END_TEST

START_TEST(test_t4_empty_params_and_bad_params)
{
    char err[256], path[512];
    struct mmb_t4 *t4 = mmb_t4_new("gflops", err, sizeof err);
    ck_assert_ptr_nonnull(t4);
    struct mmb_row r;
    row_ok(&r, 16, 1.0);
    r.params[0] = '\0'; /* cuBLAS: no tunables */
    ck_assert_int_eq(mmb_t4_add(t4, &r, NAN, err, sizeof err), 0);
    snprintf(r.params, sizeof r.params, "block_size_x=sixteen");
    ck_assert_int_eq(mmb_t4_add(t4, &r, NAN, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected name=integer pairs"));
    ck_assert_uint_eq(mmb_t4_count(t4), 1);
    snprintf(path, sizeof path, "%s/no-such-dir/x.json", tmpdir);
    ck_assert_int_eq(mmb_t4_write(t4, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "no-such-dir"));
    snprintf(path, sizeof path, "%s/one.json", tmpdir);
    ck_assert_int_eq(mmb_t4_write(t4, path, err, sizeof err), 0);
    mmb_t4_free(t4);
    cJSON *doc = parse_file(path);
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(doc, "results"), 0), "configuration");
    ck_assert(cJSON_IsObject(cfg));
    ck_assert_int_eq(cJSON_GetArraySize(cfg), 0);
    cJSON_Delete(doc);
}
END_TEST

/* Energy: a two-objective tune's objectives, one string each, and the row's power,
 * energy and GFLOP/J as measurements with their units; none where not measured. */
START_TEST(test_t4_energy)
{
    char err[256], path[512];
    struct mmb_t4 *t4 = mmb_t4_new("time,energy_j", err, sizeof err);
    ck_assert_ptr_nonnull(t4);
    struct mmb_row r;
    row_ok(&r, 16, 1.0);
    r.power_w = 350.0;
    r.energy_j = 0.35;
    r.gflops_per_watt = 2.0 * 4096.0 * 4096.0 * 4096.0 / 0.35 / 1e9;
    ck_assert_int_eq(mmb_t4_add(t4, &r, NAN, err, sizeof err), 0);
    row_ok(&r, 32, 2.0); /* no energy measured */
    ck_assert_int_eq(mmb_t4_add(t4, &r, NAN, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/energy.json", tmpdir);
    ck_assert_int_eq(mmb_t4_write(t4, path, err, sizeof err), 0);
    mmb_t4_free(t4);
    cJSON *doc = parse_file(path);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(doc, "results");
    const cJSON *first = cJSON_GetArrayItem(results, 0), *second = cJSON_GetArrayItem(results, 1);
    const cJSON *objectives = cJSON_GetObjectItemCaseSensitive(first, "objectives");
    ck_assert_int_eq(cJSON_GetArraySize(objectives), 2);
    ck_assert_str_eq(cJSON_GetArrayItem(objectives, 0)->valuestring, "time");
    ck_assert_str_eq(cJSON_GetArrayItem(objectives, 1)->valuestring, "energy_j");
    const cJSON *e = measurement(first, "energy_j"), *w = measurement(first, "power_w"),
                *g = measurement(first, "gflops_per_watt");
    ck_assert(e && w && g);
    ck_assert(cJSON_GetObjectItemCaseSensitive(e, "value")->valuedouble == 0.35);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(e, "unit")->valuestring, "J");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(w, "unit")->valuestring, "W");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(g, "unit")->valuestring, "GFLOP/J");
    ck_assert(!measurement(second, "energy_j") && !measurement(second, "power_w"));
    cJSON_Delete(doc);
}
END_TEST

/* The T4 file beside a results file: its stem, the kernel, the shape and the dtype. */
START_TEST(test_t4_path)
{
    struct mmb_row r;
    char out[128];
    row_ok(&r, 16, 1.0);
    snprintf(r.dtype, sizeof r.dtype, "f32");
    r.m = 4096, r.n = 2048, r.k = 1024;
    ck_assert_int_eq(mmb_t4_path("data/h200/tune-ladder.csv", &r, out, sizeof out), 0);
    ck_assert_str_eq(out, "data/h200/tune-ladder-tunable-4096x2048x1024-f32.t4.json");
    /* a results file named otherwise (-o) keeps its whole name as the stem */
    ck_assert_int_eq(mmb_t4_path("out/mine.results", &r, out, sizeof out), 0);
    ck_assert_str_eq(out, "out/mine.results-tunable-4096x2048x1024-f32.t4.json");
    ck_assert_int_eq(mmb_t4_path("x.csv", &r, out, 20), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("t4");
    TCase *tc = tcase_create("t4");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_t4_schema_required_fields);
    tcase_add_test(tc, test_t4_invalidity_table);
    tcase_add_test(tc, test_t4_empty_params_and_bad_params);
    tcase_add_test(tc, test_t4_energy);
    tcase_add_test(tc, test_t4_path);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
