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
    PYTHONPATH=$(dirname "$0") python3 - "$out/ncu-$cc.csv" "$cc" "$*" <<'PY'
import sys
from ncu_compare import ncu_rows, ncu_value
print(f"ncu --cache-control {sys.argv[2]}, probe --no-counters {sys.argv[3]}")
for row in ncu_rows(sys.argv[1]):
    r, w = (ncu_value(row, m, " MB") for m in ("dram__bytes_read.sum", "dram__bytes_write.sum"))
    print(f"{row['Kernel Name'][0]:<12} {r:12.3f} {w:12.3f}")
PY
}
ncu_table all --stream | tee "$out/ncu-all.txt"
ncu_table none --stream | tee "$out/ncu-none.txt"
