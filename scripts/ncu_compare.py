#!/usr/bin/env python3
"""ncu_compare.py MMBENCH_CSV NCU_RAW_CSV - mmbench's counters beside Nsight Compute's.

ncu's raw CSV has one row per profiled launch, in launch order, sizes outer and
kernels inner as in the profile. With --repeats 1 --warmup 0 mmbench launched each
configuration's kernel once under ncu when cold (the verifying launch is the timed
one) and twice when hot (verify, then the timed repeat): the last launch of each
configuration is the one to compare. Percent differences are (mmbench - ncu) / ncu."""
import csv
import sys

PAIRS = [  # label, mmbench column, ncu metric, ncu unit -> mmbench unit factor
    ("duration us", "time_ms_median", "gpu__time_duration.sum", None),
    ("DRAM read MB", "dram_read_bytes", "dram__bytes_read.sum", None),
    ("DRAM write MB", "dram_write_bytes", "dram__bytes_write.sum", None),
    ("DRAM %", "dram_util_pct", "dram__throughput.avg.pct_of_peak_sustained_elapsed", None),
    ("SM %", "sm_util_pct", "sm__throughput.avg.pct_of_peak_sustained_elapsed", None),
    ("FFMA", "ffma", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", None),
    ("L2 hit %", "l2_hit_pct", "lts__t_sector_hit_rate.pct", None),
    ("L1 %", "l1_util_pct", "l1tex__throughput.avg.pct_of_peak_sustained_active", None),
    ("L2 %", "l2_util_pct", "lts__throughput.avg.pct_of_peak_sustained_elapsed", None),
    ("L1 MB", "l1_bytes", "l1tex__t_bytes.sum", None),
    ("L2 MB", "l2_bytes", "lts__t_bytes.sum", None),
    ("tensor %", "tensor_pct", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", None),
    ("tensor inst", "tensor_inst", "sm__inst_executed_pipe_tensor.sum", None),
    ("issue %", "issue_pct", "sm__inst_issued.avg.pct_of_peak_sustained_active", None),
    ("smem wavefr.", "smem_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", None),
    ("cycles/issue", "warp_cycles_per_issue", "smsp__average_warp_latency_per_inst_issued.ratio", None),
] + [(f"stall {reason}"[:14], f"stall_{reason}",
      f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio", None)
     for reason in ("long_scoreboard", "short_scoreboard", "mio_throttle", "barrier", "math_pipe_throttle",
                    "not_selected", "wait", "lg_throttle")]
# warp cycles per issued instruction: ncu prints two decimals, so below half a cycle its
# rounding alone makes 1%, and such a reason holds little back
STALL_FLOOR = 0.5

# The roofs of the hierarchical roofline: ncu's roofline section multiplies a level's
# peak bytes per cycle by its cycles per second.
# Shared memory: peak wavefronts per cycle, each up to 128 bytes (32 banks of 4 bytes).
ROOFS = [  # level, (bytes or wavefronts) per cycle at peak, cycles per second, bytes per unit
    ("L1", "l1tex__t_bytes.sum.peak_sustained", "l1tex__cycles_elapsed.avg.per_second", 1.0),
    ("SMEM", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained", "l1tex__cycles_elapsed.avg.per_second",
     128.0),
    ("L2", "lts__t_bytes.sum.peak_sustained", "lts__cycles_elapsed.avg.per_second", 1.0),
    ("DRAM", "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second", 1.0),
]

# Below these, on both sides, a relative difference says nothing (0.001 MB against
# 0.002 MB is 50%): such rows are shown but left out of the largest differences and
# counted apart, with the largest value either side had.
FLOOR = {"DRAM read MB": 1.0, "DRAM write MB": 1.0, "DRAM %": 0.1, "L1 MB": 1.0, "L2 MB": 1.0, "tensor %": 0.1,
         "tensor inst": 1.0}

# ncu's units, scaled to what the label says.
UNIT = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3,
        "byte": 1e-6, "Kbyte": 1e-3, "KB": 1e-3, "Mbyte": 1.0, "MB": 1.0, "Gbyte": 1e3, "GB": 1e3}
# cycles per second and bytes per cycle, to base units (--print-units base gives those)
RATE = {"cycle/second": 1.0, "cycle/usecond": 1e6, "cycle/nsecond": 1e9, "hz": 1.0, "Khz": 1e3, "Mhz": 1e6,
        "Ghz": 1e9, "GHz": 1e9, "byte/cycle": 1.0, "Kbyte/cycle": 1e3, "Mbyte/cycle": 1e6,
        "1/cycle": 1.0, "l1tex_wavefront/cycle": 1.0, "wavefront/cycle": 1.0}


def roofs(rows):
    """Each level's peak bandwidth in GB/s (the median over the launches that have it)."""
    out = []
    for level, per_cycle, per_second, unit_bytes in ROOFS:
        values = []
        for r in rows:
            if per_cycle in r and per_second in r:
                (b, bu), (c, cu) = r[per_cycle], r[per_second]
                try:
                    values.append(float(b.replace(",", "")) * RATE.get(bu, float("nan"))
                                  * float(c.replace(",", "")) * RATE.get(cu, float("nan")) * unit_bytes / 1e9)
                except ValueError:
                    pass
        values = sorted(v for v in values if v == v)
        if values:
            out.append((level, values[len(values) // 2], per_cycle, per_second))
    return out


def ncu_rows(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu prints its own notes first
    reader = csv.reader(lines)
    header = next(reader)
    units = next(reader)
    rows = []
    for r in reader:
        d = {}
        for name, unit, value in zip(header, units, r):
            d[name] = (value, unit)
        rows.append(d)
    return rows


def ncu_value(row, metric, label):
    value, unit = row[metric]
    v = float(value.replace(",", ""))
    if label.endswith(" us"):
        return v * UNIT.get(unit, float("nan"))
    if label.endswith(" MB"):
        return v * UNIT.get(unit, float("nan"))
    return v


def ours(row, column, label):
    v = float(row[column]) if row.get(column) else float("nan")
    if label == "duration us":
        return v * 1e3
    if label.endswith(" MB"):
        return v * 1e-6
    return v


def main():
    with open(sys.argv[1], newline="") as f:
        mine = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    theirs = ncu_rows(sys.argv[2])
    per = len(theirs) // len(mine) if mine else 0
    if per not in (1, 2) or per * len(mine) != len(theirs):
        sys.exit(f"ncu profiled {len(theirs)} launches, expected 1 or 2 x {len(mine)}")
    timed = theirs[per - 1::per]
    worst, small = {}, {}
    print(f"{'kernel':<11} {'dtype':<5} {'size':>5} {'metric':<14} {'mmbench':>14} {'ncu':>14} {'diff %':>7}")
    for m, n in zip(mine, timed):
        for label, column, metric, _ in PAIRS:
            if metric not in n:  # a run with fewer metrics
                continue
            a, b = ours(m, column, label), ncu_value(n, metric, label)
            diff = 100.0 * (a - b) / b if b else float("nan")
            floor = FLOOR.get(label, STALL_FLOOR if column.startswith("stall_") else 0.0)
            if max(abs(a), abs(b)) < floor:
                count, top, _ = small.get(label, (0, 0.0, floor))
                small[label] = (count + 1, max(top, abs(a), abs(b)), floor)
            elif diff == diff:
                worst[label] = max(worst.get(label, 0.0), abs(diff))
            print(f"{m['kernel']:<11} {m['dtype']:<5} {m['m']:>5} {label:<14} {a:>14.3f} {b:>14.3f} {diff:>7.2f}")
    print("\nlargest |difference| per metric:")
    for label, _, _, _ in PAIRS:
        if label in worst:
            print(f"  {label:<14} {worst[label]:6.2f} %")
    for label, (count, top, floor) in small.items():
        print(f"  {label:<14} {count} rows below {floor:g} on both sides (largest {top:.3f}), not compared")
    levels = roofs(timed)
    if levels:
        print("\nroofs of the hierarchical roofline (mmbench report reads these lines):")
    for level, gbps, per_cycle, per_second in levels:
        times = " x 128 B" if level == "SMEM" else ""
        print(f"roof {level} {gbps:.1f} GB/s  ({per_cycle} x {per_second}{times})")


if __name__ == "__main__":
    main()
