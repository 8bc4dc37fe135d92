/* columns.c - the CSV column table and the text of one cell. The writer and the
 * reader both go through mmb_columns[], so a column added there is written, read
 * and checked everywhere at once, and its role, requirement and better direction
 * reach the row key, the tuner and T4 from here; and a profile's `motivation` keys are
 * checked against it (a kernel's motivating counter must be a measured column). */
#include "results/columns.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cache.h"
#include "core/converge.h"
#include "core/dtype.h"
#include "core/counters.h"
#include "core/error.h"
#include "core/throttle.h"
#include "results/limiter.h"

#define COL(field, type_, role_, required_, better_, domain_, unit_, description_)                        \
    {#field, MMB_COL_##type_, offsetof(struct mmb_row, field), sizeof(((struct mmb_row *)0)->field), \
     MMB_ROLE_##role_, MMB_REQUIRED_##required_, MMB_BETTER_##better_, MMB_DOMAIN_##domain_, unit_, description_}

/* In the order of the CSV header; a file's header must match it to be appended to. */
const struct mmb_column mmb_columns[] = {
    COL(gpu, STR, IDENTITY, NO, NONE, TEXT, "", "GPU name as the driver reports it"),
    COL(gpu_uuid, STR, DEVICE, NO, NONE, TEXT, "", "GPU UUID"),
    COL(cc, STR, IDENTITY, NO, NONE, TEXT, "", "compute capability, major.minor"),
    COL(sm_count, INT, IDENTITY, NO, NONE, COUNT, "", "streaming multiprocessors"),
    COL(driver, STR, IDENTITY, NO, NONE, TEXT, "", "CUDA driver version"),
    COL(cuda, STR, IDENTITY, NO, NONE, TEXT, "", "CUDA runtime version"),
    COL(profile, STR, IDENTITY, NO, NONE, TEXT, "", "profile the row was swept from"),
    COL(kernel, STR, KEY, VALUE, NONE, TEXT, "", "kernel name (cublas for the reference)"),
    COL(params, STR, CONFIG, COLUMN, NONE, TEXT, "", "tunable values, name=value joined by ';'"),
    COL(dtype, STR, KEY, VALUE, NONE, DTYPE, "",
        "precision: f32, f64, i32, f16, bf16, tf32, e4m3 or i8 (input, accumulate and output types: docs/profiles.md)"),
    COL(m, INT, KEY, VALUE, NONE, COUNT, "", "rows of A and C"),
    COL(n, INT, KEY, VALUE, NONE, COUNT, "", "columns of B and C"),
    COL(k, INT, KEY, VALUE, NONE, COUNT, "", "columns of A, rows of B"),
    COL(status, STATUS, OUTCOME, VALUE, NONE, STATUS, "", "disposition of the configuration"),
    COL(reason, STR, OUTCOME, NO, NONE, TEXT, "", "why, when status is not ok; source of published rows"),
    COL(max_rel_err, REAL, OUTCOME, NO, LOWER, ERROR, "", "max |C - ref| / max |ref|"),
    COL(repeats, INT, IDENTITY, NO, NONE, COUNT, "",
        "timed launches taken: the fixed count, or as many as the noise target needed"),
    COL(time_ms_median, REAL, TIME, NO, LOWER, POSITIVE, "ms", "median kernel time"),
    COL(time_ms_min, REAL, TIME, NO, LOWER, POSITIVE, "ms", "fastest kernel time"),
    COL(time_ms_max, REAL, TIME, NO, LOWER, POSITIVE, "ms", "slowest kernel time"),
    COL(time_ms_stddev, REAL, TIME, NO, LOWER, NONNEG, "ms", "sample standard deviation of the kernel time"),
    COL(noise_pct, REAL, TIME, NO, NONE, NONNEG, "%",
        "noise of the median: half-width of its distribution-free 95% confidence interval, percent of the median "
        "(empty under 6 timed launches)"),
    COL(stopped_by, STR, TIME, NO, NONE, STOP, "",
        "why the timed launches stopped: repeats (the fixed count), noise (the target reached), resolution (the "
        "timer's step), max_seconds or max_samples (a cap came first; the row is still ok)"),
    COL(cache, STR, KEY, NO, NONE, CACHE, "", "cold (L2 flushed before each launch) or hot"),
    COL(sm_clock_mhz, REAL, TIME, NO, NONE, POSITIVE, "MHz", "SM clock read during the run"),
    COL(sm_clock_min_mhz, REAL, TIME, NO, NONE, POSITIVE, "MHz",
        "lowest SM clock over the timed launches (NVML's clock samples of the window and a read in it)"),
    COL(sm_clock_max_mhz, REAL, TIME, NO, NONE, POSITIVE, "MHz", "highest SM clock over the timed launches"),
    COL(throttle, STR, TIME, NO, NONE, THROTTLE, "",
        "NVML's clock event reasons seen during the timed launches and the energy window, words joined by '+' "
        "(none: none seen; empty: not measured); docs/energy.md lists them"),
    COL(power_w, REAL, TIME, NO, LOWER, POSITIVE, "W",
        "mean board power over the energy window: launches back to back, NVML's energy counter read at two of its "
        "updates"),
    COL(energy_j, REAL, TIME, NO, LOWER, POSITIVE, "J",
        "board energy per launch: power_w times the energy window's time per launch"),
    COL(energy_status, STR, TIME, NO, NONE, ENERGY_STATUS, "",
        "why power_w and energy_j are filled or empty: ok, not_best (energy = best measured the group's fastest), "
        "off, not_run (the configuration failed), unavailable (no NVML or energy counter) or failed (the window "
        "measured nothing); empty in files older than the column"),
    COL(dram_read_bytes, REAL, COUNTER, NO, LOWER, NONNEG, "B", "bytes read from DRAM"),
    COL(dram_write_bytes, REAL, COUNTER, NO, LOWER, NONNEG, "B", "bytes written to DRAM"),
    COL(dram_gbps, REAL, COUNTER, NO, HIGHER, NONNEG, "GB/s", "achieved DRAM bandwidth (read + write)"),
    COL(dram_util_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "DRAM throughput, percent of the sustained peak over the kernel's duration"),
    COL(sm_util_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "SM throughput (busiest SM pipeline or unit), percent of peak over the duration"),
    COL(ffma, REAL, COUNTER, NO, NONE, NONNEG, "", "FP32 fused multiply-add thread instructions executed"),
    COL(fadd, REAL, COUNTER, NO, NONE, NONNEG, "", "FP32 add thread instructions executed"),
    COL(fmul, REAL, COUNTER, NO, NONE, NONNEG, "", "FP32 multiply thread instructions executed"),
    COL(l1_hit_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%", "L1/TEX cache sector hit rate"),
    COL(l2_hit_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%", "L2 cache sector hit rate"),
    COL(smem_bank_conflicts, REAL, COUNTER, NO, LOWER, NONNEG, "", "shared-memory bank conflicts of loads"),
    COL(occupancy_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%", "achieved occupancy: active warps, percent of the SM's maximum"),
    COL(l1_util_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "L1/TEX throughput: busiest L1 unit, percent of peak over the SM's active cycles (ncu Speed of Light)"),
    COL(l2_util_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "L2 throughput: busiest L2 unit, percent of peak over the duration (ncu Speed of Light)"),
    COL(l1_bytes, REAL, COUNTER, NO, LOWER, NONNEG, "B", "bytes requested at the L1/TEX cache (global and local memory)"),
    COL(l2_bytes, REAL, COUNTER, NO, LOWER, NONNEG, "B", "bytes requested at the L2 cache"),
    COL(tensor_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "tensor pipe utilisation: cycles any tensor pipe (HMMA, HGMMA/QGMMA, IMMA, DMMA) was active, percent of the "
        "SM's active cycles"),
    COL(tensor_inst, REAL, COUNTER, NO, NONE, NONNEG, "", "warp instructions executed by the tensor pipes"),
    COL(issue_pct, REAL, COUNTER, NO, HIGHER, NONNEG, "%",
        "SM issue throughput: instructions issued, percent of the SM's sustained peak over its active cycles (ncu's "
        "Issue Slots Busy)"),
    COL(smem_wavefronts, REAL, COUNTER, NO, LOWER, NONNEG, "",
        "shared-memory wavefronts of the L1 data pipe (loads, stores, atomics): one per cycle an SM's shared memory "
        "serves up to 128 bytes"),
    COL(warp_cycles_per_issue, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction: the average warp's latency between two instructions (ncu's Warp Cycles "
        "Per Issued Instruction); the stall_ columns are its parts"),
    COL(stall_long_scoreboard, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled waiting for a global or local memory result (a load through L1TEX, L2, DRAM)"),
    COL(stall_short_scoreboard, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled waiting for a shared-memory or other MIO result (shared loads, special functions)"),
    COL(stall_mio_throttle, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled because the MIO queue (shared-memory and special instructions) was full"),
    COL(stall_barrier, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled at a barrier (__syncthreads) for the block's other warps"),
    COL(stall_math_pipe_throttle, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled because the arithmetic pipe the instruction needs was busy"),
    COL(stall_not_selected, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled eligible, but another warp was issued: the scheduler had work"),
    COL(stall_wait, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled on a fixed-latency dependency (the compiler's wait count)"),
    COL(stall_lg_throttle, REAL, COUNTER, NO, LOWER, NONNEG, "cycles",
        "warp cycles per issued instruction stalled because the local/global memory queue was full"),
    COL(counter_status, STATUS, COUNTER, NO, NONE, STATUS, "",
        "ok, profiling_denied, skipped when no counters were asked, or not_best (counters = best counted a faster "
        "configuration of this kernel, size and dtype)"),
    COL(gflops, REAL, DERIVED, NO, HIGHER, POSITIVE, "GFLOP/s", "2MNK / median time"),
    COL(flop_counted, REAL, DERIVED, NO, NONE, NONNEG, "FLOP", "2 ffma + fadd + fmul"),
    COL(intensity, REAL, DERIVED, NO, HIGHER, POSITIVE, "FLOP/B", "2MNK per DRAM byte"),
    COL(peak_gbps, REAL, IDENTITY, NO, NONE, POSITIVE, "GB/s", "peak DRAM bandwidth of this GPU"),
    COL(pipe, STR, IDENTITY, NO, NONE, PIPE, "",
        "the arithmetic pipe the row is measured against: fp32, fp64, int32 or a tensor pipe (tensor_f16, ...)"),
    COL(peak_gflops, REAL, IDENTITY, NO, NONE, POSITIVE, "GFLOP/s",
        "dense peak of this GPU's pipe (the pipe column; GOP/s for integers); rows without a pipe column: FP32, "
        "FP64 or INT32 by dtype"),
    COL(fp32_pct, REAL, DERIVED, NO, HIGHER, NONNEG, "%",
        "gflops as percent of peak_gflops, as pipe_pct (the name it had before pipe_pct, kept for older readers)"),
    COL(pipe_pct, REAL, DERIVED, NO, HIGHER, NONNEG, "%", "gflops as percent of peak_gflops: the use of the row's pipe"),
    COL(declared_gbps, REAL, DERIVED, NO, HIGHER, POSITIVE, "GB/s",
        "nvbench's GlobalMem BW: compulsory bytes (MK + KN + MN) x element size / median time"),
    COL(declared_bw_pct, REAL, DERIVED, NO, HIGHER, NONNEG, "%", "nvbench's BWUtil: declared_gbps as percent of peak_gbps"),
    COL(limiter, STR, DERIVED, NO, NONE, LIMITER, "",
        "what limits the kernel: the busiest of the pipe (pipe_pct), the SM's issue rate, the SM's busiest unit, "
        "L1, L2 and DRAM throughput, or latency when none is at 60% of its peak (docs/counters.md)"),
    COL(gflops_per_watt, REAL, DERIVED, NO, HIGHER, POSITIVE, "GFLOP/J",
        "2MNK / energy_j: energy efficiency, GFLOP per joule (GFLOP/s per watt)"),
    COL(registers, INT, STATIC, NO, NONE, NONNEG, "", "registers per thread"),
    COL(smem_bytes, INT, STATIC, NO, NONE, NONNEG, "B", "shared memory per block"),
    COL(theoretical_occupancy_pct, REAL, STATIC, NO, NONE, NONNEG, "%",
        "theoretical occupancy: the warps that may be resident on an SM at once (the occupancy API, from the "
        "block size, registers and shared memory), percent of the SM's maximum; no counters needed"),
    COL(timestamp, STR, IDENTITY, NO, NONE, TEXT, "", "ISO 8601 UTC time of the measurement"),
    COL(source_digest, STR, IDENTITY, NO, NONE, TEXT, "",
        "the kernel source and every file it includes (FNV-1a 64, 16 hex digits); for a library kernel, the "
        "library that computes the dtype and its version (cuBLAS 13.1.0; cuBLASLt for e4m3)"),
    COL(compile_options, STR, IDENTITY, NO, NONE, TEXT, "",
        "what NVRTC compiled with besides the parameters' -D macros (architecture, standard, defines, the "
        "profile's nvrtc_options) and NVRTC's version; empty for a library kernel"),
    COL(protocol, STR, IDENTITY, NO, NONE, TEXT, "",
        "how the row was timed and counted: key=value items joined by ';' (docs/profiles.md, Protocol)"),
    {NULL, MMB_COL_STR, 0, 0, MMB_ROLE_IDENTITY, MMB_REQUIRED_NO, MMB_BETTER_NONE, MMB_DOMAIN_TEXT, NULL, NULL},
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

bool mmb_column_is_energy(const struct mmb_column *c)
{
    return c && (!strcmp(c->name, "power_w") || !strcmp(c->name, "energy_j") || !strcmp(c->name, "gflops_per_watt"));
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
    case MMB_ROLE_DEVICE:
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

/* The domain of a parsed number: NULL when v is in it, else what was expected. */
static const char *number_check(enum mmb_col_domain domain, double v)
{
    switch (domain) {
    case MMB_DOMAIN_COUNT:
        return v >= 1 ? NULL : "an integer of at least 1";
    case MMB_DOMAIN_NONNEG:
        return isfinite(v) && v >= 0 ? NULL : "a finite number of at least 0";
    case MMB_DOMAIN_ERROR:
        return v >= 0 ? NULL : "a number of at least 0, or inf";
    case MMB_DOMAIN_POSITIVE:
        return isfinite(v) && v >= 1e-300 && v <= 1e300 ? NULL : "a number greater than 0 (from 1e-300 to 1e300)";
    default:
        return isfinite(v) ? NULL : "a finite number";
    }
}

/* The names a text domain allows, NULL for free text; *ok tells whether text is one. */
static const char *name_check(enum mmb_col_domain domain, const char *text, char *list, size_t len, bool *ok)
{
    size_t o = 0;
    *ok = true;
    list[0] = '\0';
    if (domain == MMB_DOMAIN_DTYPE) {
        enum mmb_dtype t;
        *ok = mmb_dtype_parse(text, &t);
        for (const struct mmb_dtype_info *d = mmb_dtype_table; d->text && o < len; d++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", d->text);
    } else if (domain == MMB_DOMAIN_CACHE) {
        enum mmb_cache_mode m;
        *ok = mmb_cache_parse(text, &m);
        for (const struct mmb_cache_info *c = mmb_cache_table; c->text && o < len; c++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", c->text);
    } else if (domain == MMB_DOMAIN_STOP) {
        enum mmb_stop st;
        *ok = mmb_stop_parse(text, &st);
        for (const struct mmb_stop_info *i = mmb_stop_table; i->text && o < len; i++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", i->text);
    } else if (domain == MMB_DOMAIN_PIPE) {
        enum mmb_pipe pp;
        *ok = mmb_pipe_parse(text, &pp);
        for (const struct mmb_pipe_info *i = mmb_pipe_table; i->text && o < len; i++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", i->text);
    } else if (domain == MMB_DOMAIN_THROTTLE) {
        unsigned mask;
        *ok = mmb_throttle_parse(text, &mask);
        snprintf(list, len, "%s, or words of ", MMB_THROTTLE_NONE);
        mmb_throttle_words(list + strlen(list), len - strlen(list));
        if (strlen(list) + 16 < len)
            strcat(list, " joined by '+'");
    } else if (domain == MMB_DOMAIN_ENERGY_STATUS) {
        enum mmb_energy_status st;
        *ok = mmb_energy_status_parse(text, &st);
        for (const struct mmb_energy_status_info *i = mmb_energy_status_table; i->text && o < len; i++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", i->text);
    } else if (domain == MMB_DOMAIN_LIMITER) {
        *ok = mmb_limiter_parse(text) != NULL;
        for (const struct mmb_limiter *l = mmb_limiter_table; l->text && o < len; l++)
            o += (size_t)snprintf(list + o, len - o, "%s%s", o ? ", " : "", l->text);
    } else {
        return NULL;
    }
    return list;
}

static int text_parse(const struct mmb_column *c, const char *text, size_t n, void *p, char *err, size_t errlen)
{
    if (n >= c->size) {
        mmb_errorf(err, errlen, "column '%s': expected at most %zu bytes, found %zu", c->name, c->size - 1, n);
        return -1;
    }
    char list[256];
    bool ok;
    if (n > 0 && name_check(c->domain, text, list, sizeof list, &ok) && !ok) {
        mmb_errorf(err, errlen, "column '%s': expected one of %s, found '%s'", c->name, list, text);
        return -1;
    }
    memcpy(p, text, n + 1);
    return 0;
}

int mmb_column_parse(const struct mmb_column *c, const char *text, struct mmb_row *row, char *err,
                     size_t errlen)
{
    void *p = (char *)row + c->offset;
    size_t n = strlen(text);
    const char *want;
    switch (c->type) {
    case MMB_COL_STR:
        return text_parse(c, text, n, p, err, errlen);
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
        if ((want = number_check(c->domain, (double)v))) {
            mmb_errorf(err, errlen, "column '%s': expected %s, found '%s'", c->name, want, text);
            return -1;
        }
        *(long long *)p = v;
        return 0;
    }
    case MMB_COL_REAL: {
        double v;
        if (!real_parse(text, &v) || (n > 0 && isnan(v))) {
            /* NaN is written as an empty cell, never as text */
            mmb_errorf(err, errlen, "column '%s': expected a number, found '%s'", c->name, text);
            return -1;
        }
        if (n > 0 && (want = number_check(c->domain, v))) {
            mmb_errorf(err, errlen, "column '%s': expected %s, found '%s'", c->name, want, text);
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

/* ---- a profile's values that name a column -------------------------------------------------- */

static bool motivating(const struct mmb_column *c)
{
    return c && (c->role == MMB_ROLE_COUNTER || c->role == MMB_ROLE_DERIVED || c->role == MMB_ROLE_STATIC) &&
           (c->type == MMB_COL_INT || c->type == MMB_COL_REAL);
}

int mmb_profile_check_motivations(const struct mmb_profile *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->nkernels; i++) {
        const struct mmb_kernel_spec *k = &p->kernels[i];
        if (!k->motivation[0] || motivating(mmb_column_find(k->motivation)))
            continue;
        return mmb_failf(err, errlen,
                         "%s:%d: motivation: '%s' is not a counter column; expected a counter, derived or static "
                         "number such as 'smem_bank_conflicts', 'dram_read_bytes' or 'registers' (mmbench columns "
                         "lists them)",
                         p->path, k->motivation_line, k->motivation);
    }
    return 0;
}
