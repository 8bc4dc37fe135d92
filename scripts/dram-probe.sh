#!/bin/bash
# dram-probe.sh BUILD_DIR OUTDIR - DRAM bytes of simple read/write/copy kernels of known
# size (tools/dram_probe.c), as mmbench's in-process CUPTI counters see them and as
# `ncu --metrics dram__bytes_*` sees the same launches, cold (after mmbench's L2 flush,
# or ncu's) and hot. Prints one table; needs a GPU and ncu.
set -euo pipefail
probe=$1/tools/mmb-dram-probe
out=$2
mkdir -p "$out"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=dram__bytes_read.sum,dram__bytes_write.sum
for mode in "" --stream "--stream --hot"; do
    "$probe" $mode | tee "$out/cupti${mode// /}.txt"
done
ncu_table() { # ncu_table CACHE_CONTROL PROBE_ARGS...: ncu's values for the probe's launches
    local cc=$1
    shift
    "$ncu" --clock-control none --cache-control "$cc" --kernel-name regex:'^probe_' --metrics "$metrics" \
        --csv --page raw "$probe" --no-counters "$@" >"$out/ncu-$cc.csv" 2>"$out/ncu-$cc.log"
    python3 - "$out/ncu-$cc.csv" "$cc" "$*" <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
head, units = rows[0], rows[1]
scale = {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1.0, "Gbyte": 1e3}
print(f"ncu --cache-control {sys.argv[2]}, probe --no-counters {sys.argv[3]}")
for r in rows[2:]:
    d = dict(zip(head, r))
    u = dict(zip(head, units))
    v = [float(d[m].replace(",", "")) * scale[u[m]] for m in ("dram__bytes_read.sum", "dram__bytes_write.sum")]
    print(f"{d['Kernel Name']:<12} {v[0]:12.3f} {v[1]:12.3f}")
PY
}
ncu_table all --stream | tee "$out/ncu-all.txt"
ncu_table none --stream | tee "$out/ncu-none.txt"
