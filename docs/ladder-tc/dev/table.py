#!/usr/bin/env python3
"""table.py results.csv - the development run's tables: correctness per configuration
(rows ok / FAIL / restricted / errors, worst relative error), then per dtype TFLOP/s and %
of cuBLAS (the median of cuBLAS's rows at that size and dtype) per size, and the fastest
configuration of each step."""
import csv
import statistics
import sys
from collections import defaultdict, OrderedDict

rows = list(csv.DictReader(open(sys.argv[1])))
key = lambda r: "%sx%sx%s" % (r["M"], r["N"], r["K"])
cub = defaultdict(list)
for r in rows:
    if r["name"] == "cublas" and r["status"] == "ok" and float(r["ms"]) > 0:
        cub[(r["dtype"], key(r))].append(float(r["ms"]))

print("== correctness (all checked sizes)")
stat = OrderedDict()
for r in rows:
    if r["name"] == "cublas":
        continue
    s = stat.setdefault((r["name"], r["dtype"]), defaultdict(int))
    s[r["status"]] += 1
    if r["status"] in ("ok", "FAIL"):
        s["err"] = max(s["err"], float(r["rel_err"]))
for (n, d), s in stat.items():
    print("%-44s %-4s ok %2d  FAIL %d  restricted %d  errors %d  worst rel err %.2e" % (
        n, d, s["ok"], s["FAIL"], s["restricted"], s["launch_error"] + s["load_error"], s["err"]))

for dt in ("bf16", "f16"):
    sizes = []
    for r in rows:
        if r["dtype"] == dt and r["name"] == "cublas" and key(r) not in sizes:
            sizes.append(key(r))
    if not sizes:
        continue
    ref = {s: statistics.median(cub[(dt, s)]) for s in sizes if cub[(dt, s)]}
    print("\n== %s: TFLOP/s (%% of cuBLAS); cuBLAS first, spread of its runs in []" % dt)
    short = [s.replace("x", "x") for s in sizes]
    print("%-44s " % "kernel" + " ".join("%16s" % s for s in short))
    flops = {s: 2.0 * eval(s.replace("x", "*")) for s in sizes}
    line = "%-44s " % "cublas"
    for s in sizes:
        if s in ref:
            t = cub[(dt, s)]
            line += "%16s" % ("%.0f [%.0f%%]" % (flops[s] / ref[s] / 1e9, 100 * (max(t) - min(t)) / ref[s]))
        else:
            line += "%16s" % "-"
    print(line)
    best = defaultdict(dict)
    names = []
    for r in rows:
        if r["dtype"] == dt and r["name"] != "cublas" and r["name"] not in names:
            names.append(r["name"])
    for n in names:
        line = "%-44s " % n
        for s in sizes:
            m = [r for r in rows if r["name"] == n and r["dtype"] == dt and key(r) == s and float(r["ms"] or 0) > 0]
            if m and s in ref:
                ms = float(m[-1]["ms"])
                tf = flops[s] / ms / 1e9
                pct = 100 * ref[s] / ms
                line += "%16s" % ("%.0f (%.1f%%)" % (tf, pct))
                step = n.split("_")[0]
                if pct > best[step].get(s, (0, ""))[0]:
                    best[step][s] = (pct, n)
            else:
                st = [r["status"] for r in rows if r["name"] == n and r["dtype"] == dt and key(r) == s]
                line += "%16s" % (st[-1] if st else "-")
        print(line)
    print("\n== %s: fastest configuration of each step, %% of cuBLAS" % dt)
    for step in sorted(best):
        print("%-6s " % step + " ".join("%16s" % ("%.1f%%" % best[step][s][0] if s in best[step] else "-") for s in sizes))
