/* test_columns_json.c - the column table and rows as JSON (results/columns_json.c):
 * the table names every column of mmb_columns[] in CSV order with its type, role,
 * unit and the values a column of names allows; a row is one object with every
 * column, each cell the CSV's own text (a number for int and real columns, a string
 * otherwise), null for an empty cell and "inf" for an infinite error, on one line that
 * parses back; `mmbench columns` prints that table. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "core/dtype.h"
#include "core/counters.h"
#include "core/status.h"
#include "mmbench_run.h"
#include "results/columns_json.h"
#include "results/row.h"
#include "tmpdir.h"

START_TEST(test_table)
{
    cJSON *t = mmb_columns_json_table();
    ck_assert_ptr_nonnull(t);
    cJSON *cols = cJSON_GetObjectItemCaseSensitive(t, "columns");
    ck_assert(cJSON_IsArray(cols));
    ck_assert_int_eq(cJSON_GetArraySize(cols), (int)mmb_columns_count());
    size_t i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cols)
    {
        const struct mmb_column *col = &mmb_columns[i++];
        ck_assert_str_eq(cJSON_GetObjectItem(c, "name")->valuestring, col->name);
        ck_assert_str_eq(cJSON_GetObjectItem(c, "type")->valuestring, mmb_columns_json_type(col->type));
        ck_assert_str_eq(cJSON_GetObjectItem(c, "role")->valuestring, mmb_columns_json_role(col->role));
        ck_assert_str_eq(cJSON_GetObjectItem(c, "unit")->valuestring, col->unit);
        ck_assert_str_eq(cJSON_GetObjectItem(c, "description")->valuestring, col->description);
        ck_assert(cJSON_IsString(cJSON_GetObjectItem(c, "required")));
        ck_assert(cJSON_IsString(cJSON_GetObjectItem(c, "better")));
        bool named = col->domain == MMB_DOMAIN_DTYPE || col->domain == MMB_DOMAIN_PIPE ||
                     col->domain == MMB_DOMAIN_CACHE || col->domain == MMB_DOMAIN_LIMITER ||
                     col->domain == MMB_DOMAIN_STATUS || col->domain == MMB_DOMAIN_STOP ||
                     col->domain == MMB_DOMAIN_ENERGY_STATUS;
        ck_assert_msg(named == cJSON_IsArray(cJSON_GetObjectItem(c, "values")), "%s: values", col->name);
    }
    const cJSON *dtype = cJSON_GetArrayItem(cols, (int)(mmb_column_find("dtype") - mmb_columns));
    const cJSON *values = cJSON_GetObjectItem(dtype, "values");
    int n = 0;
    for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text; d++, n++)
        ck_assert_str_eq(cJSON_GetArrayItem(values, n)->valuestring, d->text);
    ck_assert_int_eq(cJSON_GetArraySize(values), n);
    const cJSON *pipe = cJSON_GetArrayItem(cols, (int)(mmb_column_find("pipe") - mmb_columns));
    ck_assert_str_eq(cJSON_GetObjectItem(pipe, "domain")->valuestring, "pipe");
    values = cJSON_GetObjectItem(pipe, "values");
    n = 0;
    for (const struct mmb_pipe_info *pp = mmb_pipe_table; pp->text; pp++, n++)
        ck_assert_str_eq(cJSON_GetArrayItem(values, n)->valuestring, pp->text);
    ck_assert_int_eq(cJSON_GetArraySize(values), n);
    const cJSON *status = cJSON_GetArrayItem(cols, (int)(mmb_column_find("status") - mmb_columns));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(status, "values")), MMB_STATUS_COUNT);
    ck_assert_str_eq(cJSON_GetObjectItem(status, "type")->valuestring, "status");
    const cJSON *energy = cJSON_GetArrayItem(cols, (int)(mmb_column_find("energy_status") - mmb_columns));
    ck_assert_str_eq(cJSON_GetObjectItem(energy, "domain")->valuestring, "energy_status");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(energy, "values")), MMB_ENERGY_STATUS_COUNT);
    ck_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(energy, "values"), 1)->valuestring, "not_best");
    cJSON_Delete(t);
}
END_TEST

static void a_row(struct mmb_row *r)
{
    mmb_row_init(r);
    snprintf(r->gpu, sizeof r->gpu, "NVIDIA \"Quoted\" GPU");
    snprintf(r->kernel, sizeof r->kernel, "tiled");
    snprintf(r->params, sizeof r->params, "block_size_x=16;block_size_y=8");
    snprintf(r->dtype, sizeof r->dtype, "e4m3");
    snprintf(r->pipe, sizeof r->pipe, "tensor_fp8");
    snprintf(r->cache, sizeof r->cache, "cold");
    snprintf(r->reason, sizeof r->reason, "two\nlines, \"quoted\"");
    r->m = 4096;
    r->n = 100;
    r->k = 7;
    r->status = MMB_STATUS_WRONG_RESULT;
    r->max_rel_err = INFINITY;
    r->time_ms_median = 1.234567891234;
    r->time_ms_min = 1e-7;
    r->time_ms_max = 2e20;
    r->ffma = 68719476736.0;
    r->repeats = 30;
    r->tensor_pct = 61.5;
    r->tensor_inst = 1048576.0;
    r->issue_pct = 64.75;
    r->stall_long_scoreboard = 12.5;
    r->pipe_pct = 12.25;
}

START_TEST(test_row)
{
    struct mmb_row r;
    a_row(&r);
    char *line = mmb_columns_json_line(&r);
    ck_assert_ptr_nonnull(line);
    size_t len = strlen(line);
    ck_assert_msg(len > 2 && line[len - 1] == '\n' && !memchr(line, '\n', len - 1), "one line: %s", line);
    cJSON *o = cJSON_Parse(line);
    ck_assert_msg(o != NULL, "not JSON: %s", line);
    ck_assert_int_eq(cJSON_GetArraySize(o), (int)mmb_columns_count());
    size_t i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, o)
    {
        const struct mmb_column *c = &mmb_columns[i++];
        ck_assert_str_eq(v->string, c->name); /* the CSV's order */
        char cell[512];
        mmb_column_format(c, &r, cell, sizeof cell);
        if (!cell[0]) {
            ck_assert_msg(cJSON_IsNull(v), "%s: an empty cell is null", c->name);
        } else if ((c->type == MMB_COL_INT || c->type == MMB_COL_REAL) && strcmp(cell, "inf") != 0) {
            ck_assert_msg(cJSON_IsNumber(v), "%s: a number", c->name);
            ck_assert(v->valuedouble == strtod(cell, NULL));
            char pair[600]; /* the CSV's text, digit for digit */
            snprintf(pair, sizeof pair, "\"%s\":%s,", c->name, cell);
            ck_assert_msg(strstr(line, pair), "%s not in %s", pair, line);
        } else {
            ck_assert_msg(cJSON_IsString(v), "%s: a string", c->name);
            ck_assert_str_eq(v->valuestring, cell);
        }
    }
    ck_assert_str_eq(cJSON_GetObjectItem(o, "max_rel_err")->valuestring, "inf");
    ck_assert_str_eq(cJSON_GetObjectItem(o, "status")->valuestring, "wrong_result");
    ck_assert_str_eq(cJSON_GetObjectItem(o, "gpu")->valuestring, "NVIDIA \"Quoted\" GPU");
    ck_assert_str_eq(cJSON_GetObjectItem(o, "reason")->valuestring, "two lines, \"quoted\"");
    ck_assert_int_eq((long long)cJSON_GetObjectItem(o, "m")->valuedouble, 4096);
    ck_assert(cJSON_GetObjectItem(o, "ffma")->valuedouble == 68719476736.0);
    ck_assert_str_eq(cJSON_GetObjectItem(o, "dtype")->valuestring, "e4m3");
    ck_assert_str_eq(cJSON_GetObjectItem(o, "pipe")->valuestring, "tensor_fp8");
    ck_assert(cJSON_GetObjectItem(o, "tensor_pct")->valuedouble == 61.5);
    ck_assert(cJSON_GetObjectItem(o, "tensor_inst")->valuedouble == 1048576.0);
    ck_assert(cJSON_GetObjectItem(o, "issue_pct")->valuedouble == 64.75);
    ck_assert(cJSON_GetObjectItem(o, "stall_long_scoreboard")->valuedouble == 12.5);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(o, "stall_barrier")));
    ck_assert(cJSON_GetObjectItem(o, "pipe_pct")->valuedouble == 12.25);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(o, "noise_pct")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(o, "registers")));
    cJSON_Delete(o);
    free(line);
}
END_TEST

START_TEST(test_columns_command)
{
    ck_assert_msg(mmbench("columns", NULL) == 0, "%s", err);
    ck_assert_str_eq(err, "");
    cJSON *printed = cJSON_Parse(out), *table = mmb_columns_json_table();
    ck_assert_msg(printed != NULL, "not JSON: %.200s", out);
    ck_assert(cJSON_Compare(printed, table, true));
    cJSON_Delete(printed);
    cJSON_Delete(table);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("columns_json");
    TCase *tc = tcase_create("json");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_row);
    tcase_add_test(tc, test_columns_command);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
