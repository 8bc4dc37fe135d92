#!/bin/bash
# run.sh - Nsight Compute over steps 9 and 10 and cuBLAS (ncu-sk.ini), on the GPU
# machine from the repository root with build-gpu/ carried: elapsed cycles, SM active
# cycles (their ratio is the idle tail), issue activity, DRAM and L2 traffic.
set -u
root=$PWD; out=${OUT:-/tmp/ncu-sk}; mkdir -p "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64" PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=/tmp/mmb-cache
m=sm__cycles_elapsed.avg,sm__cycles_active.avg,sm__cycles_active.min,gpu__time_duration.sum
m+=,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,lts__t_bytes.sum,launch__grid_size
d=docs/ladder/h200/run5-ncu
timeout 400 ncu --metrics "$m" -k regex:'matmul_ladder|gemm' --csv \
    "$root/build-gpu/harness/mmbench" run --no-counters -o "$out/ncu-sk.csv" $d/ncu-sk.ini > "$out/ncu.csv" 2> "$out/ncu.log"
echo "ncu rc=$?"
python3 - "$out/ncu.csv" <<'PY'
import csv, sys, collections
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = list(csv.DictReader(lines))
k = collections.OrderedDict()
for r in rows:
    key = (r['ID'], r['Kernel Name'][:40], r['Grid Size'])
    k.setdefault(key, {})[r['Metric Name']] = r['Metric Value']
for (i, name, grid), v in k.items():
    el = float(v['sm__cycles_elapsed.avg'].replace(',', ''))
    ac = float(v['sm__cycles_active.avg'].replace(',', ''))
    print('%-4s %-40s grid %-14s %8.3f ms  elapsed %11.0f  SM active %11.0f (%.1f%%)  min SM active %.1f%%  issue %s%%  DRAM read %s  L2 %s' % (
        i, name, grid, float(v['gpu__time_duration.sum'].replace(',', '')) / 1e6, el, ac, 100 * ac / el,
        100 * float(v['sm__cycles_active.min'].replace(',', '')) / el, v['smsp__issue_active.avg.pct_of_peak_sustained_active'],
        v['dram__bytes_read.sum'], v['lts__t_bytes.sum']))
PY
