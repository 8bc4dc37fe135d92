/* columns.c - the CSV column table and the text of one cell. The writer and the
 * reader both go through mmb_columns[], so a column added there is written, read
 * and checked everywhere at once. */
#include "results/columns.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define COL(field, type, unit, desc) \
    {#field, MMB_COL_##type, offsetof(struct mmb_row, field), sizeof(((struct mmb_row *)0)->field), unit, desc}

const struct mmb_column mmb_columns[] = {
    /* identity */
    COL(gpu, STR, "", "GPU name as the driver reports it"),
    COL(gpu_uuid, STR, "", "GPU UUID"),
    COL(cc, STR, "", "compute capability, major.minor"),
    COL(sm_count, INT, "", "streaming multiprocessors"),
    COL(driver, STR, "", "CUDA driver version"),
    COL(cuda, STR, "", "CUDA runtime version"),
    COL(profile, STR, "", "profile the row was swept from"),
    COL(kernel, STR, "", "kernel name (cublas for the reference)"),
    COL(params, STR, "", "tunable values, name=value joined by ';'"),
    COL(dtype, STR, "", "element type: f32, f64 or i32"),
    COL(m, INT, "", "rows of A and C"),
    COL(n, INT, "", "columns of B and C"),
    COL(k, INT, "", "columns of A, rows of B"),
    /* outcome */
    COL(status, STATUS, "", "disposition of the configuration"),
    COL(reason, STR, "", "why, when status is not ok; source of published rows"),
    COL(max_rel_err, REAL, "", "max |C - ref| / max |ref|"),
    /* time */
    COL(repeats, INT, "", "timed launches"),
    COL(time_ms_median, REAL, "ms", "median kernel time"),
    COL(time_ms_min, REAL, "ms", "fastest kernel time"),
    COL(time_ms_max, REAL, "ms", "slowest kernel time"),
    COL(time_ms_stddev, REAL, "ms", "sample standard deviation of the kernel time"),
    COL(cache, STR, "", "cold (L2 flushed before each launch) or hot"),
    COL(sm_clock_mhz, REAL, "MHz", "SM clock read during the run"),
    /* counters */
    COL(dram_read_bytes, REAL, "B", "DRAM bytes read"),
    COL(dram_write_bytes, REAL, "B", "DRAM bytes written"),
    COL(dram_gbps, REAL, "GB/s", "achieved DRAM bandwidth"),
    COL(dram_util_pct, REAL, "%", "DRAM throughput, % of peak sustained"),
    COL(sm_util_pct, REAL, "%", "SM throughput, % of peak sustained"),
    COL(ffma, REAL, "", "FFMA thread instructions executed"),
    COL(fadd, REAL, "", "FADD thread instructions executed"),
    COL(fmul, REAL, "", "FMUL thread instructions executed"),
    COL(l1_hit_pct, REAL, "%", "L1 sector hit rate"),
    COL(l2_hit_pct, REAL, "%", "L2 sector hit rate"),
    COL(smem_bank_conflicts, REAL, "", "shared-memory load bank conflicts"),
    COL(occupancy_pct, REAL, "%", "achieved occupancy"),
    COL(counter_status, STATUS, "", "ok, profiling_denied, or skipped when no counters were asked"),
    /* derived */
    COL(gflops, REAL, "GFLOP/s", "2MNK / median time"),
    COL(flop_counted, REAL, "FLOP", "2 ffma + fadd + fmul"),
    COL(intensity, REAL, "FLOP/B", "FLOP per DRAM byte"),
    COL(peak_gbps, REAL, "GB/s", "peak DRAM bandwidth of this GPU"),
    COL(peak_gflops, REAL, "GFLOP/s", "peak FP32 rate of this GPU"),
    /* static */
    COL(registers, INT, "", "registers per thread"),
    COL(smem_bytes, INT, "B", "shared memory per block"),
    COL(timestamp, STR, "", "ISO 8601 UTC time of the measurement"),
    {NULL, MMB_COL_STR, 0, 0, NULL, NULL},
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
    case MMB_COL_REAL: {
        if (n == 0) {
            *(double *)p = NAN;
            return 0;
        }
        char *end;
        errno = 0;
        double v = strtod(text, &end);
        if (*end != '\0' || (errno == ERANGE && fabs(v) > 1.0)) {
            mmb_errorf(err, errlen, "column '%s': expected a number, found '%s'", c->name, text);
            return -1;
        }
        *(double *)p = v;
        return 0;
    }
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
