#!/usr/bin/env python3
"""doc_tables.py results.csv - the tables of docs/ladder-tc.md from a development run's
results: per dtype, each step's fastest configuration at each size in TFLOP/s and in % of
cuBLAS (the median of cuBLAS's timings at that size and dtype in the same run), with
cuBLAS's own TFLOP/s, as markdown."""
import csv
import statistics
import sys
from collections import defaultdict

STEPS = [("wmma", "1 (dev WMMA base)"), ("s02", "2 mma.sync"), ("s03", "3 pipelined"), ("s04", "4 wgmma+TMA"),
         ("s05", "5 warp-specialised"), ("s06", "6 TMA store"), ("s07", "7 Stream-K")]
rows = list(csv.DictReader(open(sys.argv[1])))
size = lambda r: (int(r["M"]), int(r["N"]), int(r["K"]))
label = lambda s: str(s[0]) if s[0] == s[1] == s[2] else "%dx%dx%d" % s
for dt in ("bf16", "f16"):
    cub = defaultdict(list)
    for r in rows:
        if r["name"] == "cublas" and r["dtype"] == dt and r["status"] == "ok":
            cub[size(r)].append(float(r["ms"]))
    sizes = sorted(cub, key=lambda s: (s[0] != s[1] or s[1] != s[2], s[0] * s[1] * s[2]))
    ref = {s: statistics.median(v) for s, v in cub.items()}
    best = defaultdict(dict)
    for r in rows:
        if r["dtype"] != dt or r["name"] == "cublas" or r["status"] != "ok" or float(r["ms"]) <= 0:
            continue
        step, s, ms = r["name"].split("_")[0], size(r), float(r["ms"])
        if s in ref and (s not in best[step] or ms < best[step][s][0]):
            best[step][s] = (ms, r["name"])
    fl = {s: 2.0 * s[0] * s[1] * s[2] for s in sizes}
    print("%s, TFLOP/s of each step's fastest configuration (%% of cuBLAS in the same run):\n" % dt)
    print("| step | " + " | ".join(label(s) for s in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for key, name in STEPS:
        if key not in best:
            continue
        cells = []
        for s in sizes:
            if s in best[key]:
                ms = best[key][s][0]
                cells.append("%.0f (%.1f%%)" % (fl[s] / ms / 1e9, 100 * ref[s] / ms))
            else:
                cells.append("-")
        print("| %s | %s |" % (name, " | ".join(cells)))
    print("| cuBLAS | %s |" % " | ".join("%.0f" % (fl[s] / ref[s] / 1e9) for s in sizes))
    print("\n%s, the fastest configuration of steps 6 and 7 at each size:\n" % dt)
    for key in ("s06", "s07"):
        print("- step %s: " % key[1:].lstrip("0") + "; ".join("%s %s" % (label(s), best[key][s][1][4:]) for s in sizes
                                                          if s in best[key]))
    print()
