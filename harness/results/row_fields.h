/* row_fields.h - the record behind one CSV row (configuration x size x dtype), apart
 * from row.h so that the column table (columns.c), which names its fields, and the
 * row functions (row.c), which read that table, do not include each other. */
#ifndef MMB_ROW_FIELDS_H
#define MMB_ROW_FIELDS_H

#include <limits.h>

#include "core/status.h"

/* Empty cells: NaN for reals, MMB_INT_EMPTY for integers, "" for strings. */
#define MMB_INT_EMPTY LLONG_MIN

struct mmb_row {
    /* identity */
    char gpu[64];
    char gpu_uuid[48];
    char cc[8];
    long long sm_count;
    char driver[16];
    char cuda[16];
    char profile[64];
    char kernel[64];
    char params[256];   /* name=value pairs joined by ';', in profile order */
    char dtype[8];      /* core/dtype.h's table: f32, f64, i32, f16, bf16, tf32, e4m3, i8 */
    long long m, n, k;
    /* outcome */
    enum mmb_status status;
    char reason[256];
    double max_rel_err;
    /* time */
    long long repeats;  /* timed launches taken */
    double time_ms_median, time_ms_min, time_ms_max, time_ms_stddev;
    double noise_pct;   /* core/converge.h: the median's 95% interval, half-width in % */
    char stopped_by[16]; /* mmb_stop_table's text */
    char cache[8];      /* cold | hot */
    double sm_clock_mhz;
    /* clocks, power, energy (NVML; cuda/clock_watch.c, cuda/energy.c) */
    double sm_clock_min_mhz, sm_clock_max_mhz; /* over the timed launches */
    char throttle[160];   /* core/throttle.h's words joined by '+', "none"; "" unmeasured */
    double power_w;       /* mean board power over the energy window */
    double energy_j;      /* per launch */
    char energy_status[16]; /* core/counters.h's energy status text; "" in files older than the column */
    /* counters (CUPTI) */
    double dram_read_bytes, dram_write_bytes, dram_gbps, dram_util_pct, sm_util_pct;
    double ffma, fadd, fmul, l1_hit_pct, l2_hit_pct, smem_bank_conflicts, occupancy_pct;
    double l1_util_pct, l2_util_pct, l1_bytes, l2_bytes;
    double tensor_pct, tensor_inst;
    double issue_pct, smem_wavefronts;
    /* warp-stall reasons: warp cycles per issued instruction, in total and per reason */
    double warp_cycles_per_issue, stall_long_scoreboard, stall_short_scoreboard, stall_mio_throttle;
    double stall_barrier, stall_math_pipe_throttle, stall_not_selected, stall_wait, stall_lg_throttle;
    enum mmb_status counter_status;   /* ok, profiling_denied, skipped (none asked) or not_best */
    /* derived */
    double gflops, flop_counted, intensity, peak_gbps;
    char pipe[16];      /* core/dtype.h's pipe table: the pipe whose peak peak_gflops is */
    double peak_gflops;
    double fp32_pct, pipe_pct, declared_gbps, declared_bw_pct;
    char limiter[8];    /* mmb_limiter_table's text: fp32, tensor, l1, l2, dram, ... */
    double gflops_per_watt; /* 2MNK per joule of a launch, in GFLOP/J (= GFLOP/s per W) */
    /* static */
    long long registers, smem_bytes;
    double theoretical_occupancy_pct; /* the occupancy API's resident warps, % of the SM's maximum */
    char timestamp[32]; /* ISO 8601 UTC */
    /* origin: what was measured and how (results/resume.h compares them on resume) */
    char source_digest[32];   /* the kernel source and every file it includes, as 16 hex
                               * digits; a library kernel's name and version */
    char compile_options[256]; /* what NVRTC got besides the parameters' -D macros, and its
                               * version */
    char protocol[256];       /* results/protocol.h: how it was timed and counted */
};

#endif
