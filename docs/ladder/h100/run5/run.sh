#!/bin/bash
# run.sh - development run of step 10 (Stream-K) on the GPU machine, from the repository
# root with build-gpu/ carried: awkward sizes and cut layouts (every row must be ok),
# compute-sanitizer on cut layouts, then the code forms against step 9 and cuBLAS.
set -u
root=$PWD; out=${OUT:-/tmp/sk-out}; mkdir -p "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64" PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=/tmp/mmb-cache
M=$root/build-gpu/harness/mmbench
d=docs/ladder/h100/run5
# the development kernel: step 10 with the code-form switches of dev-knobs.patch
cp kernels/ladder/10_stream_k.cu $d/dev_stream_k.cu && patch -s $d/dev_stream_k.cu < $d/dev-knobs.patch || exit 1
timeout 150 $M run --no-counters -o "$out/awkward.csv" $d/dev-sk-awkward.ini > "$out/awkward.log" 2>&1; echo "awkward rc=$?"
python3 scripts/gpu/ladder_table.py "$out/awkward.csv" | grep -E '^rows|NOT OK'
san=/tmp/sk-san.ini
sed -e "s|^sizes = .*|sizes = 1023x517x259, 2176x2176x64|" -e "s|^source = \.\./\.\./\.\./\.\./|source = $root/|" -e "s|^source = dev_stream_k.cu|source = $root/$d/dev_stream_k.cu|" -e "s|^name = .*|name = sk-san|" -e "s|^param.fma_order = 0, 1|param.fma_order = 1|" -e "s|^repeats = 3|repeats = 1|" $d/dev-sk-awkward.ini > $san
for tool in memcheck racecheck synccheck; do
  rm -f /tmp/sk-san-$tool.csv
  timeout 100 compute-sanitizer --tool $tool --kernel-name kns=matmul_ladder --error-exitcode 99 $M run -v --no-counters -o /tmp/sk-san-$tool.csv $san > "$out/san-$tool.log" 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san-$tool.log" | tail -1)"
done
timeout 240 $M run --no-counters -o "$out/sk.csv" $d/dev-sk.ini > "$out/sk.log" 2>&1; echo "sk rc=$?"
python3 scripts/gpu/ladder_table.py "$out/sk.csv"
python3 - "$out/sk.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cub = {(r['m'], r['n'], r['k']): float(r['time_ms_median']) for r in rows if r['kernel'] == 'cublas' and r['status'] == 'ok'}
for r in rows:
    if r['kernel'] == 'cublas' or r['status'] != 'ok':
        if r['status'] != 'ok': print('NOT OK', r['kernel'], r['params'], r['status'], r.get('reason', ''))
        continue
    s = (r['m'], r['n'], r['k'])
    print('%-8s %-5s %8.4f %6.1f%%  %s' % (r['kernel'], s[0], float(r['time_ms_median']), 100 * cub[s] / float(r['time_ms_median']), r['params']))
PY
