/* test_csv.c - the CSV column table (roles, requirements, better directions, cells),
 * the row functions that read it, the resumable writer and the reader. */
#include <check.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <signal.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "csv_rows.h"
#include "results/columns.h"
#include "results/csv.h"
#include "results/csv_name.h"
#include "results/resume.h"
#include "results/row.h"
#include "tmpdir.h"




static void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmpdir, name);
}

static void file_put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

static char *file_get(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A row with every kind of cell: text needing quotes, empty cells, exact counts. */
static void row_sample(struct mmb_row *r, int i)
{
    mmb_row_init(r);
    snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
    snprintf(r->cc, sizeof r->cc, "9.0");
    r->sm_count = 132;
    snprintf(r->profile, sizeof r->profile, "course");
    snprintf(r->kernel, sizeof r->kernel, "naive");
    snprintf(r->params, sizeof r->params, "block_size_x=%d;block_size_y=8", 8 << i);
    snprintf(r->dtype, sizeof r->dtype, "f32");
    r->m = 4096;
    r->n = 2048 + i;
    r->k = 1000;
    r->status = i == 1 ? MMB_STATUS_INVALID_CONFIG : MMB_STATUS_OK;
    if (i == 1)
        snprintf(r->reason, sizeof r->reason, "too many threads, \"1024\" max,\nsee log");
    r->max_rel_err = 1.25e-7;
    r->repeats = 20;
    r->time_ms_median = 3349.53833;
    r->time_ms_min = 0.000123456789;
    r->noise_pct = i == 1 ? NAN : 0.4375;
    snprintf(r->stopped_by, sizeof r->stopped_by, "%s", i == 1 ? "" : "max_seconds");
    snprintf(r->cache, sizeof r->cache, "cold");
    r->dram_read_bytes = 137438953472.0; /* 2^37: exact, no exponent */
    r->ffma = 34359738368.0;
    r->dram_util_pct = 12.5;
    r->issue_pct = 83.5;
    r->smem_wavefronts = 8589934592.0;
    r->warp_cycles_per_issue = 9.8125;
    r->stall_mio_throttle = i == 2 ? NAN : 3.0625;
    r->stall_barrier = 0.000125;
    r->counter_status = MMB_STATUS_OK;
    r->gflops = 41.0329102;
    r->peak_gbps = 3352.32;
    r->registers = 40;
    snprintf(r->timestamp, sizeof r->timestamp, "2026-11-21T23:59:59Z");
}

static void row_assert_equal(const struct mmb_row *a, const struct mmb_row *b)
{
    for (const struct mmb_column *c = mmb_columns; c->name; c++) {
        const void *pa = (const char *)a + c->offset, *pb = (const char *)b + c->offset;
        switch (c->type) {
        case MMB_COL_STR:
            ck_assert_msg(strcmp(pa, pb) == 0, "column %s: '%s' != '%s'", c->name, (const char *)pa,
                          (const char *)pb);
            break;
        case MMB_COL_INT:
            ck_assert_msg(*(const long long *)pa == *(const long long *)pb, "column %s", c->name);
            break;
        case MMB_COL_REAL: {
            double x = *(const double *)pa, y = *(const double *)pb;
            ck_assert_msg((isnan(x) && isnan(y)) || x == y, "column %s: %.17g != %.17g", c->name, x, y);
            break;
        }
        case MMB_COL_STATUS:
            ck_assert_msg(*(const enum mmb_status *)pa == *(const enum mmb_status *)pb, "column %s", c->name);
            break;
        }
    }
}

struct collect {
    struct mmb_row rows[16];
    long lines[16];
    int n;
};

static int collect_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err,
                       size_t errlen)
{
    struct collect *c = ctx;
    ck_assert_int_lt(c->n, 16);
    c->rows[c->n] = *row;
    c->lines[c->n++] = line;
    return 0;
}

START_TEST(test_columns_table)
{
    static const char *design[] = {
        "gpu", "gpu_uuid", "cc", "sm_count", "driver", "cuda", "profile", "kernel", "params", "dtype", "m",
        "n", "k", "status", "reason", "max_rel_err", "repeats", "time_ms_median", "time_ms_min",
        "time_ms_max", "time_ms_stddev", "noise_pct", "stopped_by", "cache", "sm_clock_mhz", "sm_clock_min_mhz",
        "sm_clock_max_mhz", "throttle", "power_w", "energy_j", "energy_status", "dram_read_bytes", "dram_write_bytes",
        "dram_gbps", "dram_util_pct", "sm_util_pct", "ffma", "fadd", "fmul", "l1_hit_pct", "l2_hit_pct",
        "smem_bank_conflicts", "occupancy_pct", "l1_util_pct", "l2_util_pct", "l1_bytes", "l2_bytes",
        "tensor_pct", "tensor_inst", "issue_pct", "smem_wavefronts", "warp_cycles_per_issue", "stall_long_scoreboard",
        "stall_short_scoreboard", "stall_mio_throttle", "stall_barrier", "stall_math_pipe_throttle",
        "stall_not_selected", "stall_wait", "stall_lg_throttle", "counter_status", "gflops", "flop_counted", "intensity", "peak_gbps", "pipe",
        "peak_gflops", "fp32_pct", "pipe_pct", "declared_gbps", "declared_bw_pct", "limiter", "gflops_per_watt", "registers",
        "smem_bytes", "theoretical_occupancy_pct", "timestamp",
        "source_digest", "compile_options", "protocol",
    };
    size_t n = sizeof design / sizeof design[0];
    ck_assert_uint_eq(mmb_columns_count(), n);
    size_t covered = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(mmb_columns[i].name, design[i]);
        ck_assert_ptr_eq(mmb_column_find(design[i]), &mmb_columns[i]);
        ck_assert_ptr_nonnull(mmb_columns[i].unit);
        ck_assert(strlen(mmb_columns[i].description) > 0);
        for (size_t j = 0; j < i; j++)
            ck_assert_uint_ne(mmb_columns[i].offset, mmb_columns[j].offset);
        covered += mmb_columns[i].size;
    }
    ck_assert_ptr_null(mmb_column_find("nope"));
    /* every byte of the row belongs to a column, give or take padding */
    ck_assert_uint_le(covered, sizeof(struct mmb_row));
    ck_assert_uint_ge(covered + 64, sizeof(struct mmb_row));
}
END_TEST

/* The names of the columns for which pred holds, joined by spaces. */
static const char *names_where(bool (*pred)(const struct mmb_column *))
{
    static char out[1024];
    size_t o = 0;
    out[0] = '\0';
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (pred(c))
            o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", o ? " " : "", c->name);
    return out;
}

static bool is_key(const struct mmb_column *c) { return c->role == MMB_ROLE_KEY; }
static bool is_config(const struct mmb_column *c) { return c->role == MMB_ROLE_CONFIG; }
static bool is_device(const struct mmb_column *c) { return c->role == MMB_ROLE_DEVICE; }
static bool is_higher(const struct mmb_column *c) { return c->better == MMB_BETTER_HIGHER; }
static bool needs_value(const struct mmb_column *c) { return c->required == MMB_REQUIRED_VALUE; }
static bool needs_column(const struct mmb_column *c) { return c->required == MMB_REQUIRED_COLUMN; }
static bool numeric_not_result(const struct mmb_column *c)
{
    return (c->type == MMB_COL_INT || c->type == MMB_COL_REAL) && !mmb_column_is_result(c);
}

START_TEST(test_columns_roles)
{
    ck_assert_str_eq(names_where(is_key), "kernel dtype m n k cache");
    ck_assert_str_eq(names_where(is_config), "params");
    ck_assert_str_eq(names_where(is_device), "gpu_uuid");
    ck_assert_str_eq(names_where(needs_value), "kernel dtype m n k status");
    ck_assert_str_eq(names_where(needs_column), "params");
    /* numbers that describe the problem, the GPU or the method, not the configuration */
    ck_assert_str_eq(names_where(numeric_not_result), "sm_count m n k repeats peak_gbps peak_gflops");
    ck_assert_str_eq(names_where(is_higher),
                     "dram_gbps dram_util_pct sm_util_pct l1_hit_pct l2_hit_pct occupancy_pct l1_util_pct l2_util_pct "
                     "tensor_pct issue_pct gflops intensity fp32_pct pipe_pct declared_gbps declared_bw_pct gflops_per_watt");
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (!mmb_column_is_result(c))
            ck_assert_msg(c->better == MMB_BETTER_NONE, "%s is no result but has a better direction", c->name);
}
END_TEST

START_TEST(test_column_number_and_round)
{
    struct mmb_row r;
    mmb_row_init(&r);
    ck_assert(isnan(mmb_column_number(mmb_column_find("registers"), &r)));
    ck_assert(isnan(mmb_column_number(mmb_column_find("kernel"), &r)));
    r.registers = 40;
    r.gflops = 2.5;
    ck_assert(mmb_column_number(mmb_column_find("registers"), &r) == 40.0);
    ck_assert(mmb_column_number(mmb_column_find("gflops"), &r) == 2.5);

    /* what a cell writes is what the reader gets back */
    ck_assert(mmb_csv_round(137438953472.0) == 137438953472.0);
    ck_assert(mmb_csv_round(3349.538331234) == 3349.53833);
    ck_assert(mmb_csv_round(-0.000123456789123) == -0.000123456789);
    ck_assert(mmb_csv_round(1e300) == 1e300);
    ck_assert(isinf(mmb_csv_round(INFINITY)) && mmb_csv_round(-INFINITY) < 0);
    ck_assert(isnan(mmb_csv_round(NAN)));
    char cell[64];
    r.time_ms_median = 1.0 / 3.0;
    mmb_column_format(mmb_column_find("time_ms_median"), &r, cell, sizeof cell);
    ck_assert_str_eq(cell, "0.333333333");
    ck_assert(mmb_csv_round(r.time_ms_median) == strtod(cell, NULL));
}
END_TEST

START_TEST(test_row_same_problem)
{
    struct mmb_row a, b;
    row_sample(&a, 0);
    row_sample(&b, 2);
    b.n = a.n;
    ck_assert(mmb_row_same_problem(&a, &b)); /* other params and outcome: the same problem */
    snprintf(b.cache, sizeof b.cache, "hot");
    ck_assert(!mmb_row_same_problem(&a, &b));
    b = a;
    b.k++;
    ck_assert(!mmb_row_same_problem(&a, &b));
    b = a;
    snprintf(b.dtype, sizeof b.dtype, "f64");
    ck_assert(!mmb_row_same_problem(&a, &b));
}
END_TEST

START_TEST(test_row_init)
{
    struct mmb_row r;
    memset(&r, 0x55, sizeof r);
    mmb_row_init(&r);
    ck_assert_str_eq(r.gpu, "");
    ck_assert(r.m == MMB_INT_EMPTY && r.registers == MMB_INT_EMPTY);
    ck_assert(isnan(r.time_ms_median) && isnan(r.dram_read_bytes) && isnan(r.peak_gflops));
    ck_assert_int_eq(r.status, MMB_STATUS_OK);
    ck_assert_int_eq(r.counter_status, MMB_STATUS_SKIPPED);
}
END_TEST

START_TEST(test_write_read_back)
{
    char path[512], err[1024];
    tmp_path(path, sizeof path, "rt.csv");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row rows[3];
    for (int i = 0; i < 3; i++) {
        row_sample(&rows[i], i);
        ck_assert_int_eq(mmb_csv_append_row(w, &rows[i], err, sizeof err), 0);
    }
    ck_assert_uint_eq(mmb_csv_writer_rows(w), 3);
    mmb_csv_writer_close(w);

    const char *text = file_get(path);
    ck_assert_ptr_nonnull(strstr(text, ",137438953472,"));
    ck_assert_ptr_nonnull(strstr(text, ",3349.53833,"));
    ck_assert_ptr_nonnull(strstr(text, "\"too many threads, \"\"1024\"\" max, see log\""));

    struct collect c = {0};
    ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.n, 3);
    /* the writer keeps one row per line: the newline in the reason became a space */
    char *nl = strchr(rows[1].reason, '\n');
    *nl = ' ';
    for (int i = 0; i < 3; i++) {
        row_assert_equal(&rows[i], &c.rows[i]);
        ck_assert_int_eq(c.lines[i], i + 2);
    }
    ck_assert_str_eq(c.rows[0].reason, "");
    ck_assert(isnan(c.rows[0].time_ms_max));
    ck_assert(c.rows[0].smem_bytes == MMB_INT_EMPTY);
}
END_TEST

START_TEST(test_resume)
{
    char path[512], err[1024];
    tmp_path(path, sizeof path, "resume.csv");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row rows[3];
    for (int i = 0; i < 3; i++) {
        row_sample(&rows[i], i);
        ck_assert(!mmb_csv_writer_has(w, &rows[i]));
        ck_assert_int_eq(mmb_csv_append_row(w, &rows[i], err, sizeof err), 0);
        ck_assert(mmb_csv_writer_has(w, &rows[i]));
    }
    mmb_csv_writer_close(w);

    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_uint_eq(mmb_csv_writer_rows(w), 3);
    for (int i = 0; i < 3; i++)
        ck_assert(mmb_csv_writer_has(w, &rows[i]));
    struct mmb_row other = rows[0];
    snprintf(other.cache, sizeof other.cache, "hot");
    ck_assert(!mmb_csv_writer_has(w, &other));
    other = rows[0];
    other.k = 1001;
    ck_assert(!mmb_csv_writer_has(w, &other));
    /* the key ignores outcome and timing */
    other = rows[0];
    other.time_ms_median = 1.0;
    other.status = MMB_STATUS_WRONG_RESULT;
    ck_assert(mmb_csv_writer_has(w, &other));
    mmb_csv_writer_close(w);
}
END_TEST


START_TEST(test_partial_line_cut)
{
    char path[512], err[1024];
    tmp_path(path, sizeof path, "partial.csv");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row rows[3];
    for (int i = 0; i < 2; i++) {
        row_sample(&rows[i], i);
        ck_assert_int_eq(mmb_csv_append_row(w, &rows[i], err, sizeof err), 0);
    }
    mmb_csv_writer_close(w);
    char before[1 << 16];
    const char *got = file_get(path);
    ck_assert_uint_lt(strlen(got), sizeof before);
    memcpy(before, got, strlen(got) + 1);

    /* a run killed in the middle of a row */
    int fd = open(path, O_WRONLY | O_APPEND);
    ck_assert_int_ge(fd, 0);
    const char *half = "NVIDIA H100 80GB HBM3,,9.0,132,,,course,naive,\"block_size_x=64;bl";
    ck_assert_int_eq(write(fd, half, strlen(half)), (ssize_t)strlen(half));
    ck_assert_int_eq(close(fd), 0);

    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_uint_eq(mmb_csv_writer_rows(w), 2);
    ck_assert_str_eq(file_get(path), before);
    row_sample(&rows[2], 2);
    ck_assert_int_eq(mmb_csv_append_row(w, &rows[2], err, sizeof err), 0);
    mmb_csv_writer_close(w);

    struct collect c = {0};
    ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.n, 3);
    row_assert_equal(&rows[2], &c.rows[2]);

    /* killed while writing the header: the file starts over */
    tmp_path(path, sizeof path, "half-header.csv");
    file_put(path, "gpu,gpu_uuid,cc,sm_co");
    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_uint_eq(mmb_csv_writer_rows(w), 0);
    mmb_csv_writer_close(w);
    ck_assert(strncmp(file_get(path), "gpu,gpu_uuid,cc,sm_count,", 25) == 0);
}
END_TEST

START_TEST(test_header_mismatch)
{
    char path[512], err[1024] = "";
    tmp_path(path, sizeof path, "other.csv");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    mmb_csv_writer_close(w);
    char text[8192];
    const char *got = file_get(path);
    ck_assert_uint_lt(strlen(got), sizeof text);
    memcpy(text, got, strlen(got) + 1);
    char *p = strstr(text, ",driver,");
    ck_assert_ptr_nonnull(p);
    memcpy(p, ",DRIVER,", 8);
    file_put(path, text);

    /* a column mmbench does not have would be lost by the rewrite: refused, the file unchanged */
    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_ptr_null(w);
    ck_assert_msg(strstr(err, path) && strstr(err, ":1: column 'DRIVER' is not one of mmbench's columns") &&
                      strstr(err, "write to a new file"),
                  "%s", err);
    ck_assert_str_eq(file_get(path), text);

    /* a header without a required column is no results file: refused, naming it */
    file_put(path, "gpu,gpu_uuid,cc\n");
    w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_ptr_null(w);
    ck_assert_msg(strstr(err, "lacks the required column 'kernel'"), "%s", err);
    ck_assert_str_eq(file_get(path), "gpu,gpu_uuid,cc\n");
}
END_TEST

static void expect_read_error(const char *name, const char *text, const char *where, const char *what)
{
    char path[512], err[1024] = "", want[600];
    tmp_path(path, sizeof path, name);
    file_put(path, text);
    struct collect c = {0};
    ck_assert_int_eq(mmb_csv_read(path, collect_row, &c, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:%s:", path, where);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "expected '%s...', got '%s'", want, err);
    ck_assert_msg(strstr(err, what) != NULL, "expected '%s' in '%s'", what, err);
}

#define OLD_HEADER "gpu,kernel,params,dtype,m,n,k,status,time_ms_median,gflops\n"

START_TEST(test_malformed)
{
    expect_read_error("quote.csv", OLD_HEADER "a,naive,,f32,1,1,1,ok,1,2\nb,naive,\"x=1,f32,1,1,1,ok,1,2\n", "3",
                      "closing quote");
    expect_read_error("stray.csv", OLD_HEADER "a,naive,,f32,1,1,1,ok,1,2\na,na\"ive,,f32,1,1,1,ok,1,2\n", "3",
                      "malformed CSV");
    expect_read_error("fields.csv", OLD_HEADER "a,naive,,f32,1,1,1,ok,1,2\n\na,naive,,f32,1,1\n", "4",
                      "expected 10 fields");
    expect_read_error("int.csv", OLD_HEADER "a,naive,,f32,1x,1,1,ok,1,2\n", "2", "column 'm': expected an integer");
    expect_read_error("real.csv", OLD_HEADER "a,naive,,f32,1,1,1,ok,fast,2\n", "2",
                      "column 'time_ms_median': expected a number");
    expect_read_error("status.csv", OLD_HEADER "a,naive,,f32,1,1,1,OK,1,2\n", "2", "expected one of ok,");
    expect_read_error("empty-k.csv", OLD_HEADER "a,naive,,f32,1,1,,ok,1,2\n", "2", "column 'k': expected a value");
    expect_read_error("empty.csv", "", "1", "header");
    expect_read_error("dup.csv", "kernel,params,dtype,m,n,k,status,m\n", "1", "'m' appears twice");
}
END_TEST

START_TEST(test_old_column_set)
{
    char path[512], err[1024] = "";
    tmp_path(path, sizeof path, "old.csv");
    /* before counters existed, with a column this mmbench no longer knows */
    file_put(path, "gpu,kernel,params,dtype,m,n,k,status,reason,time_ms_median,gflops,retired\n"
                   "GTX 1060,naive,\"block_size_x=16;block_size_y=16\",i32,1024,1024,1024,ok,,12.5,171.8,x\n"
                   "GTX 1060,cublas,,f32,1024,1024,1024,wrong_result,\"off by 1, at (0,0)\",3,700,y\n");
    struct collect c = {0};
    ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.n, 2);
    ck_assert_str_eq(c.rows[0].params, "block_size_x=16;block_size_y=16");
    ck_assert_str_eq(c.rows[0].dtype, "i32");
    ck_assert(c.rows[0].time_ms_median == 12.5);
    ck_assert(isnan(c.rows[0].dram_read_bytes));
    ck_assert_int_eq(c.rows[0].counter_status, MMB_STATUS_SKIPPED);
    ck_assert_str_eq(c.rows[1].params, "");
    ck_assert_int_eq(c.rows[1].status, MMB_STATUS_WRONG_RESULT);
    ck_assert_str_eq(c.rows[1].reason, "off by 1, at (0,0)");

    tmp_path(path, sizeof path, "nokernel.csv");
    file_put(path, "gpu,params,dtype,m,n,k,status\nGTX 1060,,f32,1,1,1,ok\n");
    ck_assert_int_eq(mmb_csv_read(path, collect_row, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "nokernel.csv:1:") && strstr(err, "'kernel'") &&
                      strstr(err, "must have kernel, params, dtype, m, n, k and status)"),
                  "%s", err);
}
END_TEST

/* A write that fails half-way (here: the file size limit, as a full disk would)
 * leaves no half row behind, and the writer says so. */
START_TEST(test_write_failure_leaves_no_half_row)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/limited.csv", tmpdir);
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row r;
    row_sample(&r, 0);
    ck_assert_msg(mmb_csv_append_row(w, &r, err, sizeof err) == 0, "%s", err);
    struct stat before;
    ck_assert_int_eq(stat(path, &before), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) { /* the limit in a child, so that the test process keeps its own */
        struct rlimit lim = {(rlim_t)before.st_size + 40, (rlim_t)before.st_size + 40};
        signal(SIGXFSZ, SIG_IGN);
        struct mmb_row r2;
        row_sample(&r2, 2);
        char e[1024];
        _exit(setrlimit(RLIMIT_FSIZE, &lim) == 0 && mmb_csv_append_row(w, &r2, e, sizeof e) != 0 &&
              strstr(e, "the row was not kept") ? 0 : 1);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat after;
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_int_eq(after.st_size, before.st_size);
    mmb_csv_writer_close(w);
    struct collected c = read_csv(path);
    ck_assert_uint_eq(c.n, 1);
    free(c.rows);
}
END_TEST

/* One run per GPU and file: a second writer for the same GPU is refused while the
 * first is open, one for another GPU is not, and closing (or dying) frees it. */
START_TEST(test_run_lock)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/locked.csv", tmpdir);
    struct mmb_csv_writer *a = mmb_csv_writer_open(path, err, sizeof err);
    struct mmb_csv_writer *b = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert(a && b);
    ck_assert_msg(mmb_csv_writer_lock(a, "GPU-one", err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(mmb_csv_writer_lock(b, "GPU-one", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "is being written by another mmbench run or tune on GPU-one"), "%s", err);
    ck_assert_msg(mmb_csv_writer_lock(b, "GPU-two", err, sizeof err) == 0, "%s", err);
    mmb_csv_writer_close(a);
    struct mmb_csv_writer *c = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(mmb_csv_writer_lock(c, "GPU-one", err, sizeof err) == 0, "%s", err);
    mmb_csv_writer_close(b);
    mmb_csv_writer_close(c);
}
END_TEST

static int count_rows(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    (*(int *)ctx)++;
    return 0;
}

/* Workers of several GPUs that open one new file at once (run --devices all): the
 * header is written once, and every worker's row is there, whole. */
START_TEST(test_writers_open_a_new_file_at_once)
{
    enum { WORKERS = 8, ROUNDS = 20 };
    for (int round = 0; round < ROUNDS; round++) {
        char path[512], err[1024];
        snprintf(path, sizeof path, "%s/shared-%d.csv", tmpdir, round);
        pid_t pids[WORKERS];
        for (int i = 0; i < WORKERS; i++) {
            pids[i] = fork();
            ck_assert_int_ge(pids[i], 0);
            if (pids[i] == 0) {
                struct mmb_row r;
                row_sample(&r, i);
                snprintf(r.gpu_uuid, sizeof r.gpu_uuid, "GPU-%d", i);
                struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
                _exit(!w || mmb_csv_append_row(w, &r, err, sizeof err) != 0);
            }
        }
        for (int i = 0; i < WORKERS; i++) {
            int status;
            ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
            ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "round %d: a worker failed", round);
        }
        int rows = 0;
        ck_assert_msg(mmb_csv_read(path, count_rows, &rows, err, sizeof err) == 0, "round %d: %s", round, err);
        ck_assert_int_eq(rows, WORKERS);
    }
}
END_TEST

START_TEST(test_writer_refuses_devices)
{
    char err[1024];
    ck_assert_ptr_null(mmb_csv_writer_open("/dev/null", err, sizeof err));
    ck_assert_msg(strstr(err, "/dev/null: a character device, not a regular file: expected a CSV file"), "%s", err);
}
END_TEST

/* Every class of bad input in tests/fixtures/csv/bad: the file, the line and what
 * was expected, never a value taken silently. */
START_TEST(test_bad_fixtures)
{
    static const struct {
        const char *file, *line, *says;
    } cases[] = {
        {"cr-line-numbers.csv", "3", "expected 12 fields as in the header, found 11"},
        {"nan-time.csv", "3", "column 'time_ms_median': expected a number, found 'nan'"},
        {"inf-gflops.csv", "3", "column 'gflops': expected a number greater than 0 (from 1e-300 to 1e300), found 'inf'"},
        {"negative-time.csv", "3", "column 'time_ms_median': expected a number greater than 0"},
        {"denormal-time.csv", "3", "found '5e-324'"},
        {"zero-size.csv", "3", "column 'n': expected an integer of at least 1, found '0'"},
        {"unknown-dtype.csv", "3", "column 'dtype': expected one of f32, f64, i32, f16, bf16, tf32, e4m3, i8, found 'fp16'"},
        {"unknown-cache.csv", "3", "column 'cache': expected one of cold, hot, found 'warm'"},
        {"unknown-stop.csv", "3",
         "column 'stopped_by': expected one of repeats, noise, resolution, max_seconds, max_samples, found 'cap'"},
        {"nul-byte.csv", "3", "field 2 holds a NUL byte"},
        {"negative-counter.csv", "3", "column 'dram_read_bytes': expected a finite number of at least 0, found '-1000'"},
        {"unknown-throttle.csv", "3",
         "column 'throttle': expected one of none, or words of gpu_idle, applications_clocks, sw_power_cap, "
         "hw_slowdown, sync_boost, sw_thermal, hw_thermal, hw_power_brake, display_clocks, board_limit, reliability "
         "joined by '+', found 'sw_power_cap+thermal'"},
        {"repeated-throttle.csv", "2", "column 'throttle': expected one of none, or words of"},
        {"negative-power.csv", "3", "column 'power_w': expected a number greater than 0"},
    };
    const char *r = getenv("MMB_SOURCE_ROOT");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024], want[1100], err[1024] = "";
        snprintf(path, sizeof path, "%s/tests/fixtures/csv/bad/%s", r && r[0] ? r : ".", cases[i].file);
        struct collect c = {0};
        ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == -1, "%s: read", cases[i].file);
        snprintf(want, sizeof want, "%s:%s: ", path, cases[i].line);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: expected '%s...', got '%s'", cases[i].file, want, err);
        ck_assert_msg(strstr(err, cases[i].says), "%s: expected '%s' in '%s'", cases[i].file, cases[i].says, err);
    }
}
END_TEST

/* Records that end with a bare CR (old Mac files) count as lines, as LF and CR LF do. */
START_TEST(test_line_ends)
{
    static const char *const ends[] = {"\n", "\r\n", "\r"};
    for (size_t e = 0; e < 3; e++) {
        char path[512], text[512], err[1024] = "";
        tmp_path(path, sizeof path, "ends.csv");
        snprintf(text, sizeof text, "kernel,params,dtype,m,n,k,status%sa,,f32,1,1,1,ok%sb,,f32,1,1,1,ok%s%sc,,f32,1,1,1,ok%s",
                 ends[e], ends[e], ends[e], ends[e], ends[e]);
        file_put(path, text);
        struct collect c = {0};
        ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == 0, "%s", err);
        ck_assert_int_eq(c.n, 3);
        ck_assert_int_eq(c.lines[0], 2);
        ck_assert_int_eq(c.lines[1], 3);
        ck_assert_int_eq(c.lines[2], 5);
    }
}
END_TEST

/* What is not a regular file is refused before anything is read; so is a file over
 * MMB_CSV_MAX_BYTES (sparse here: nothing is written). */
START_TEST(test_not_regular)
{
    char path[512], err[1024] = "";
    struct collect c = {0};
    ck_assert_int_eq(mmb_csv_read("/dev/zero", collect_row, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/dev/zero: a character device, not a regular file: expected a CSV file"), "%s", err);
    ck_assert_int_eq(mmb_csv_read(tmpdir, collect_row, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, ": a folder, not a regular file"), "%s", err);
    tmp_path(path, sizeof path, "fifo.csv");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(mmb_csv_read(path, collect_row, &c, err, sizeof err), -1); /* returns: no writer is awaited */
    ck_assert_msg(strstr(err, "fifo.csv: a FIFO (named pipe), not a regular file"), "%s", err);
    tmp_path(path, sizeof path, "huge.csv");
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)MMB_CSV_MAX_BYTES + 1), 0);
    close(fd);
    ck_assert_int_eq(mmb_csv_read(path, collect_row, &c, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "huge.csv: 256.0 MiB, larger than the 256 MiB a CSV file may have"), "%s", err);
    ck_assert_ptr_null(mmb_csv_writer_open("/dev/zero", err, sizeof err));
    ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
}
END_TEST

/* What a profile's results file is called by run and by tune, and which profiles tune. */
START_TEST(test_csv_name)
{
    static const struct {
        const char *profile;
        bool tuning;
        const char *run, *tune;
    } cases[] = {
        {"course", false, "course", "tune-course"},
        {"tune-seed", true, "tune-seed", "tune-seed"},
        {"tuned", true, "tuned", "tuned"},
        {"ladder", false, "ladder", "tune-ladder"},
        {"retune", false, "retune", "tune-retune"},
        {"", false, "", "tune-"},
    };
    char out[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(mmb_csv_name_tuning(cases[i].profile) == cases[i].tuning, "%s", cases[i].profile);
        ck_assert_int_eq(mmb_csv_name_stem(cases[i].profile, false, out, sizeof out), 0);
        ck_assert_str_eq(out, cases[i].run);
        ck_assert_int_eq(mmb_csv_name_stem(cases[i].profile, true, out, sizeof out), 0);
        ck_assert_str_eq(out, cases[i].tune);
    }
    ck_assert_int_eq(mmb_csv_name_stem("course", true, out, 11), -1); /* "tune-course" needs 12 */
    ck_assert_int_eq(mmb_csv_name_stem("course", true, out, 12), 0);
}
END_TEST


static void file_copy(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_msg(in && out, "%s -> %s", from, to);
    char buf[1 << 15];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

static int count_row(void *ctx, const struct mmb_row *row, const char *path, long line, char *err, size_t errlen)
{
    ++*(size_t *)ctx;
    return 0;
}

/* Rows of a file, up to 16. */
static struct collect read_rows(const char *path)
{
    struct collect c = {0};
    char err[1024];
    ck_assert_msg(mmb_csv_read(path, collect_row, &c, err, sizeof err) == 0, "%s", err);
    return c;
}

static void header_of(char *out, size_t len)
{
    size_t o = 0;
    for (const struct mmb_column *col = mmb_columns; col->name; col++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "," : "", col->name);
}

/* Each header the committed data had (tests/fixtures/csv/old-headers: the first rows of
 * data/h100-80gb-hbm3/quick.csv and data/published/gtx-titan-x.csv, 44 columns;
 * data/h200/course.csv, 52; data/h100-80gb-hbm3/course.csv, 54, before the origin
 * columns) is read, and appending rewrites it once under this header: every row read
 * back the same, every cell kept as its text was (no digit lost), the new cells empty;
 * the appended row carries its origin; a second open rewrites nothing. */
START_TEST(test_migrate_old_headers)
{
    static const char *const fixtures[] = {"h100-quick.csv", "published.csv", "h200-course.csv", "h100-course.csv"};
    char header[4096];
    header_of(header, sizeof header);
    for (size_t f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
        char from[1200], path[512], err[1024];
        snprintf(from, sizeof from, "%s/tests/fixtures/csv/old-headers/%s", root, fixtures[f]);
        tmp_path(path, sizeof path, fixtures[f]);
        file_copy(from, path);
        char *before = strdup(file_get(path));
        ck_assert(strncmp(before, header, strlen(header)) != 0);
        struct collect old = read_rows(path);
        ck_assert_int_ge(old.n, 2);

        struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
        ck_assert_msg(w != NULL, "%s: %s", fixtures[f], err);
        ck_assert_uint_eq(mmb_csv_writer_rows(w), (size_t)old.n);
        ck_assert(mmb_csv_writer_has(w, &old.rows[0]));
        const char *after = file_get(path);
        ck_assert_msg(strncmp(after, header, strlen(header)) == 0 && after[strlen(header)] == '\n', "%s", after);
        struct collect now = read_rows(path);
        ck_assert_int_eq(now.n, old.n);
        for (int i = 0; i < old.n; i++) {
            row_assert_equal(&now.rows[i], &old.rows[i]);
            ck_assert_str_eq(now.rows[i].protocol, "");
        }
        /* every number as it was written: the cells of the old file are in the new one */
        if (!strcmp(fixtures[f], "published.csv"))
            ck_assert_ptr_nonnull(strstr(after, ",3349.53833008,"));

        struct mmb_row row;
        row_sample(&row, 0);
        snprintf(row.source_digest, sizeof row.source_digest, "0123456789abcdef");
        snprintf(row.compile_options, sizeof row.compile_options, "--gpu-architecture=sm_90 (NVRTC 13.0)");
        snprintf(row.protocol, sizeof row.protocol, "mmbench=0.1.0;warmup=2;repeats=20");
        ck_assert_int_eq(mmb_csv_append_row(w, &row, err, sizeof err), 0);
        mmb_csv_writer_close(w);

        struct stat st1, st2;
        ck_assert_int_eq(stat(path, &st1), 0);
        ck_assert_msg((w = mmb_csv_writer_open(path, err, sizeof err)) != NULL, "%s", err);
        ck_assert_uint_eq(mmb_csv_writer_rows(w), (size_t)old.n + 1);
        mmb_csv_writer_close(w);
        ck_assert_int_eq(stat(path, &st2), 0);
        ck_assert(st1.st_ino == st2.st_ino); /* already current: not rewritten again */
        now = read_rows(path);
        ck_assert_int_eq(now.n, old.n + 1);
        row_assert_equal(&now.rows[old.n], &row);
        free(before);
    }
}
END_TEST

/* Every CSV committed under data/ opens for appending (migrated where it is older) and
 * keeps its rows. */
START_TEST(test_migrate_committed_data)
{
    char cmd[2400], list[600];
    snprintf(list, sizeof list, "%s/list", tmpdir);
    snprintf(cmd, sizeof cmd, "find '%s/data' -name '*.csv' ! -name '*.samples.csv' ! -path '*/bench/*' | sort >'%s'",
             root, list);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(list, "r");
    ck_assert_ptr_nonnull(f);
    char line[1200];
    int files = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char path[600], err[1024];
        snprintf(path, sizeof path, "%s/copy-%d.csv", tmpdir, files++);
        file_copy(line, path);
        size_t rows = 0;
        ck_assert_msg(mmb_csv_read(path, count_row, &rows, err, sizeof err) == 0, "%s", err);
        struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
        ck_assert_msg(w != NULL, "%s: %s", line, err);
        ck_assert_uint_eq(mmb_csv_writer_rows(w), rows);
        mmb_csv_writer_close(w);
        size_t again = 0;
        ck_assert_msg(mmb_csv_read(path, count_row, &again, err, sizeof err) == 0, "%s", err);
        ck_assert_uint_eq(again, rows);
    }
    fclose(f);
    ck_assert_int_gt(files, 5);
}
END_TEST

/* A writer whose file another writer rewrote (renamed a new file over it, as a
 * migration does) appends to the new file, not to the one it opened. */
START_TEST(test_append_follows_rewrite)
{
    char path[512], other[512], err[1024];
    tmp_path(path, sizeof path, "shared.csv");
    tmp_path(other, sizeof other, "shared.new");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row rows[2];
    row_sample(&rows[0], 0);
    row_sample(&rows[1], 2);
    ck_assert_int_eq(mmb_csv_append_row(w, &rows[0], err, sizeof err), 0);
    file_copy(path, other);
    ck_assert_int_eq(rename(other, path), 0);
    ck_assert_int_eq(mmb_csv_writer_lock(w, "GPU-a", err, sizeof err), 0);
    ck_assert_int_eq(mmb_csv_append_row(w, &rows[1], err, sizeof err), 0);
    struct collect c = read_rows(path);
    ck_assert_int_eq(c.n, 2);
    row_assert_equal(&c.rows[1], &rows[1]);
    /* the run lock moved with it: a second run on the same GPU is refused */
    struct mmb_csv_writer *w2 = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_ptr_nonnull(w2);
    ck_assert_int_eq(mmb_csv_writer_lock(w2, "GPU-a", err, sizeof err), -1);
    mmb_csv_writer_close(w2);
    mmb_csv_writer_close(w);
}
END_TEST

/* The writer remembers, per key, the row that counts: a later row of a key replaces
 * the earlier one (a stale row measured again), a failure of the same origin does not
 * replace an ok row. */
START_TEST(test_writer_row_that_counts)
{
    char path[512], err[1024];
    tmp_path(path, sizeof path, "versions.csv");
    struct mmb_csv_writer *w = mmb_csv_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    struct mmb_row old, edited, failed;
    row_sample(&old, 0);
    snprintf(old.source_digest, sizeof old.source_digest, "aaaaaaaaaaaaaaaa");
    edited = old;
    snprintf(edited.source_digest, sizeof edited.source_digest, "bbbbbbbbbbbbbbbb");
    snprintf(edited.timestamp, sizeof edited.timestamp, "2026-11-22T00:00:00Z");
    failed = edited;
    failed.status = MMB_STATUS_TIMEOUT;
    snprintf(failed.timestamp, sizeof failed.timestamp, "2026-11-23T00:00:00Z");
    ck_assert_int_eq(mmb_csv_append_row(w, &old, err, sizeof err), 0);
    ck_assert_int_eq(mmb_resume_decide(mmb_csv_writer_find(w, &edited, false), &edited), MMB_RESUME_SOURCE);
    ck_assert_int_eq(mmb_csv_append_row(w, &edited, err, sizeof err), 0);
    ck_assert_int_eq(mmb_resume_decide(mmb_csv_writer_find(w, &edited, false), &edited), MMB_RESUME_DONE);
    ck_assert_int_eq(mmb_resume_decide(mmb_csv_writer_find(w, &old, true), &old), MMB_RESUME_SOURCE);
    ck_assert_int_eq(mmb_csv_append_row(w, &failed, err, sizeof err), 0);
    ck_assert(mmb_csv_writer_find(w, &edited, false)->ok);
    mmb_csv_writer_close(w);
    ck_assert_msg((w = mmb_csv_writer_open(path, err, sizeof err)) != NULL, "%s", err);
    const struct mmb_row_version *v = mmb_csv_writer_find(w, &old, false);
    ck_assert(v && v->ok && !strcmp(v->timestamp, "2026-11-22T00:00:00Z"));
    mmb_csv_writer_close(w);
}
END_TEST

/* A CSV reached through a link is rewritten where it lies: the link stays a link, the
 * file keeps its mode. */
START_TEST(test_migrate_through_link)
{
    char from[1200], real[512], link[512], err[1024];
    snprintf(from, sizeof from, "%s/tests/fixtures/csv/old-headers/h200-course.csv", root);
    tmp_path(real, sizeof real, "real.csv");
    tmp_path(link, sizeof link, "link.csv");
    file_copy(from, real);
    ck_assert_int_eq(chmod(real, 0600), 0);
    ck_assert_int_eq(symlink("real.csv", link), 0);
    struct mmb_csv_writer *w = mmb_csv_writer_open(link, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    mmb_csv_writer_close(w);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    ck_assert_int_eq(stat(real, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ck_assert(strstr(file_get(real), ",timestamp,source_digest,compile_options,protocol\n") != NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("csv");
    tcase_add_checked_fixture(tc, tmpdir_setup, tmpdir_teardown);
    tcase_add_test(tc, test_columns_table);
    tcase_add_test(tc, test_columns_roles);
    tcase_add_test(tc, test_column_number_and_round);
    tcase_add_test(tc, test_row_same_problem);
    tcase_add_test(tc, test_row_init);
    tcase_add_test(tc, test_write_read_back);
    tcase_add_test(tc, test_resume);
    tcase_add_test(tc, test_partial_line_cut);
    tcase_add_test(tc, test_header_mismatch);
    tcase_add_test(tc, test_malformed);
    tcase_add_test(tc, test_old_column_set);
    tcase_add_test(tc, test_write_failure_leaves_no_half_row);
    tcase_add_test(tc, test_run_lock);
    tcase_add_test(tc, test_writers_open_a_new_file_at_once);
    tcase_add_test(tc, test_writer_refuses_devices);
    tcase_add_test(tc, test_bad_fixtures);
    tcase_add_test(tc, test_line_ends);
    tcase_add_test(tc, test_not_regular);
    tcase_add_test(tc, test_csv_name);
    tcase_add_test(tc, test_migrate_old_headers);
    tcase_add_test(tc, test_migrate_committed_data);
    tcase_add_test(tc, test_append_follows_rewrite);
    tcase_add_test(tc, test_migrate_through_link);
    tcase_add_test(tc, test_writer_row_that_counts);
    suite_add_tcase(s, tc);
    return mmb_test_failures(s, false) ? EXIT_FAILURE : EXIT_SUCCESS;
}
