/* columns.c - the CSV column table and the text of one cell. The writer and the
 * reader both go through mmb_columns[], so a column added there is written, read
 * and checked everywhere at once, and its role, requirement and better direction
 * reach the row key, the tuner and T4 from here. */
#include "results/columns.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define COL(field, type_, role_, required_, better_, unit_, description_)                                 \
    {#field, MMB_COL_##type_, offsetof(struct mmb_row, field), sizeof(((struct mmb_row *)0)->field), \
     MMB_ROLE_##role_, MMB_REQUIRED_##required_, MMB_BETTER_##better_, unit_, description_}

/* In the order of the CSV header; a file's header must match it to be appended to. */
const struct mmb_column mmb_columns[] = {
    COL(gpu, STR, IDENTITY, NO, NONE, "", "GPU name as the driver reports it"),
    COL(gpu_uuid, STR, IDENTITY, NO, NONE, "", "GPU UUID"),
    COL(cc, STR, IDENTITY, NO, NONE, "", "compute capability, major.minor"),
    COL(sm_count, INT, IDENTITY, NO, NONE, "", "streaming multiprocessors"),
    COL(driver, STR, IDENTITY, NO, NONE, "", "CUDA driver version"),
    COL(cuda, STR, IDENTITY, NO, NONE, "", "CUDA runtime version"),
    COL(profile, STR, IDENTITY, NO, NONE, "", "profile the row was swept from"),
    COL(kernel, STR, KEY, VALUE, NONE, "", "kernel name (cublas for the reference)"),
    COL(params, STR, CONFIG, COLUMN, NONE, "", "tunable values, name=value joined by ';'"),
    COL(dtype, STR, KEY, VALUE, NONE, "", "element type: f32, f64 or i32"),
    COL(m, INT, KEY, VALUE, NONE, "", "rows of A and C"),
    COL(n, INT, KEY, VALUE, NONE, "", "columns of B and C"),
    COL(k, INT, KEY, VALUE, NONE, "", "columns of A, rows of B"),
    COL(status, STATUS, OUTCOME, VALUE, NONE, "", "disposition of the configuration"),
    COL(reason, STR, OUTCOME, NO, NONE, "", "why, when status is not ok; source of published rows"),
    COL(max_rel_err, REAL, OUTCOME, NO, LOWER, "", "max |C - ref| / max |ref|"),
    COL(repeats, INT, IDENTITY, NO, NONE, "", "timed launches"),
    COL(time_ms_median, REAL, TIME, NO, LOWER, "ms", "median kernel time"),
    COL(time_ms_min, REAL, TIME, NO, LOWER, "ms", "fastest kernel time"),
    COL(time_ms_max, REAL, TIME, NO, LOWER, "ms", "slowest kernel time"),
    COL(time_ms_stddev, REAL, TIME, NO, LOWER, "ms", "sample standard deviation of the kernel time"),
    COL(cache, STR, KEY, NO, NONE, "", "cold (L2 flushed before each launch) or hot"),
    COL(sm_clock_mhz, REAL, TIME, NO, NONE, "MHz", "SM clock read during the run"),
    COL(dram_read_bytes, REAL, COUNTER, NO, LOWER, "B", "bytes read from DRAM"),
    COL(dram_write_bytes, REAL, COUNTER, NO, LOWER, "B", "bytes written to DRAM"),
    COL(dram_gbps, REAL, COUNTER, NO, HIGHER, "GB/s", "achieved DRAM bandwidth (read + write)"),
    COL(dram_util_pct, REAL, COUNTER, NO, HIGHER, "%",
        "DRAM throughput, percent of the sustained peak over the kernel's duration"),
    COL(sm_util_pct, REAL, COUNTER, NO, HIGHER, "%",
        "SM throughput (busiest SM pipeline or unit), percent of peak over the duration"),
    COL(ffma, REAL, COUNTER, NO, NONE, "", "FP32 fused multiply-add thread instructions executed"),
    COL(fadd, REAL, COUNTER, NO, NONE, "", "FP32 add thread instructions executed"),
    COL(fmul, REAL, COUNTER, NO, NONE, "", "FP32 multiply thread instructions executed"),
    COL(l1_hit_pct, REAL, COUNTER, NO, HIGHER, "%", "L1/TEX cache sector hit rate"),
    COL(l2_hit_pct, REAL, COUNTER, NO, HIGHER, "%", "L2 cache sector hit rate"),
    COL(smem_bank_conflicts, REAL, COUNTER, NO, LOWER, "", "shared-memory bank conflicts of loads"),
    COL(occupancy_pct, REAL, COUNTER, NO, HIGHER, "%", "achieved occupancy: active warps, percent of the SM's maximum"),
    COL(counter_status, STATUS, COUNTER, NO, NONE, "", "ok, profiling_denied, or skipped when no counters were asked"),
    COL(gflops, REAL, DERIVED, NO, HIGHER, "GFLOP/s", "2MNK / median time"),
    COL(flop_counted, REAL, DERIVED, NO, NONE, "FLOP", "2 ffma + fadd + fmul"),
    COL(intensity, REAL, DERIVED, NO, HIGHER, "FLOP/B", "2MNK per DRAM byte"),
    COL(peak_gbps, REAL, IDENTITY, NO, NONE, "GB/s", "peak DRAM bandwidth of this GPU"),
    COL(peak_gflops, REAL, IDENTITY, NO, NONE, "GFLOP/s", "peak FP32 rate of this GPU"),
    COL(registers, INT, STATIC, NO, NONE, "", "registers per thread"),
    COL(smem_bytes, INT, STATIC, NO, NONE, "B", "shared memory per block"),
    COL(timestamp, STR, IDENTITY, NO, NONE, "", "ISO 8601 UTC time of the measurement"),
    {NULL, MMB_COL_STR, 0, 0, MMB_ROLE_IDENTITY, MMB_REQUIRED_NO, MMB_BETTER_NONE, NULL, NULL},
};

size_t mmb_columns_count(void)
{
    size_t n = 0;
    while (mmb_columns[n].name)
        n++;
    return n;
}

const struct mmb_column *mmb_column_find(const char *name)
{
    for (const struct mmb_column *c = mmb_columns; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

/* Counts and byte totals must survive exactly (FFMA counts are compared with
 * 2MNK/2 to the unit), so integral values print without exponent; the rest keep
 * 9 significant digits, enough for a time in ms to the nanosecond. */
static void real_format(double v, char *out, size_t len)
{
    if (isnan(v))
        out[0] = '\0';
    else if (isfinite(v) && v == floor(v) && fabs(v) < 1e18)
        snprintf(out, len, "%.0f", v);
    else
        snprintf(out, len, "%.9g", v);
}

/* A real cell: "" is NaN; underflow reads as the tiny value strtod gives. */
static bool real_parse(const char *text, double *out)
{
    if (text[0] == '\0') {
        *out = NAN;
        return true;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*end != '\0' || (errno == ERANGE && fabs(v) > 1.0))
        return false;
    *out = v;
    return true;
}

double mmb_csv_round(double v)
{
    char text[64];
    double back = NAN;
    real_format(v, text, sizeof text);
    real_parse(text, &back);
    return back;
}

bool mmb_column_is_result(const struct mmb_column *c)
{
    if (c->type != MMB_COL_INT && c->type != MMB_COL_REAL)
        return false;
    switch (c->role) {
    case MMB_ROLE_OUTCOME:
    case MMB_ROLE_TIME:
    case MMB_ROLE_COUNTER:
    case MMB_ROLE_DERIVED:
    case MMB_ROLE_STATIC:
        return true;
    case MMB_ROLE_IDENTITY:
    case MMB_ROLE_KEY:
    case MMB_ROLE_CONFIG:
        break;
    }
    return false;
}

double mmb_column_number(const struct mmb_column *c, const struct mmb_row *row)
{
    const void *p = (const char *)row + c->offset;
    if (c->type == MMB_COL_INT) {
        long long v = *(const long long *)p;
        return v == MMB_INT_EMPTY ? NAN : (double)v;
    }
    if (c->type == MMB_COL_REAL)
        return *(const double *)p;
    return NAN;
}

void mmb_column_format(const struct mmb_column *c, const struct mmb_row *row, char *out, size_t len)
{
    const void *p = (const char *)row + c->offset;
    switch (c->type) {
    case MMB_COL_STR:
        snprintf(out, len, "%s", (const char *)p);
        /* One row per line keeps line numbers meaningful and lets a killed run be
         * repaired by cutting after the last newline; a compiler log in a reason
         * would otherwise span lines. */
        for (char *s = out; *s; s++)
            if (*s == '\n' || *s == '\r')
                *s = ' ';
        break;
    case MMB_COL_INT: {
        long long v = *(const long long *)p;
        if (v == MMB_INT_EMPTY)
            out[0] = '\0';
        else
            snprintf(out, len, "%lld", v);
        break;
    }
    case MMB_COL_REAL:
        real_format(*(const double *)p, out, len);
        break;
    case MMB_COL_STATUS:
        snprintf(out, len, "%s", mmb_status_text(*(const enum mmb_status *)p));
        break;
    }
}

static void status_list(char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (const struct mmb_status_info *s = mmb_status_table; s->text && o < len; s++) {
        int w = snprintf(out + o, len - o, "%s%s", o ? ", " : "", s->text);
        if (w < 0)
            break;
        o += (size_t)w;
    }
}

int mmb_column_parse(const struct mmb_column *c, const char *text, struct mmb_row *row, char *err,
                     size_t errlen)
{
    void *p = (char *)row + c->offset;
    size_t n = strlen(text);
    switch (c->type) {
    case MMB_COL_STR:
        if (n >= c->size) {
            mmb_errorf(err, errlen, "column '%s': expected at most %zu bytes, found %zu", c->name,
                       c->size - 1, n);
            return -1;
        }
        memcpy(p, text, n + 1);
        return 0;
    case MMB_COL_INT: {
        if (n == 0) {
            *(long long *)p = MMB_INT_EMPTY;
            return 0;
        }
        char *end;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (errno != 0 || *end != '\0' || v == MMB_INT_EMPTY) {
            mmb_errorf(err, errlen, "column '%s': expected an integer, found '%s'", c->name, text);
            return -1;
        }
        *(long long *)p = v;
        return 0;
    }
    case MMB_COL_REAL:
        if (!real_parse(text, (double *)p)) {
            mmb_errorf(err, errlen, "column '%s': expected a number, found '%s'", c->name, text);
            return -1;
        }
        return 0;
    case MMB_COL_STATUS: {
        if (n == 0)
            return 0; /* keeps mmb_row_init's default; required columns are checked apart */
        enum mmb_status s;
        if (!mmb_status_parse(text, &s)) {
            char list[512];
            status_list(list, sizeof list);
            mmb_errorf(err, errlen, "column '%s': expected one of %s, found '%s'", c->name, list, text);
            return -1;
        }
        *(enum mmb_status *)p = s;
        return 0;
    }
    }
    return 0;
}
