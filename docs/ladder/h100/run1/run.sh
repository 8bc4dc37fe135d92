#!/bin/bash
# run1: correctness at awkward sizes, then timing of every candidate, then sanitizers on 08
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64 PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/c && cp -r cache/. /tmp/c/ && export MMB_CACHE_DIR=/tmp/c
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/smi.txt 2>&1
el awk1; timeout 80 ./mmbench run --no-counters -o $OUT/awk1.csv profiles/awk1.ini > $OUT/awk1.log 2>&1; echo "rc=$?"
el dev1; timeout 200 ./mmbench run --no-counters -o $OUT/dev1.csv profiles/dev1.ini > $OUT/dev1.log 2>&1; echo "rc=$?"
el san
for tool in memcheck racecheck synccheck; do
  timeout 20 compute-sanitizer --tool $tool --kernel-name kns=matmul_ladder_pipelined --error-exitcode 99 \
    ./mmbench run --no-counters -o /tmp/san-$tool.csv profiles/san1.ini > $OUT/san-$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $OUT/san-$tool.log | head -2 | tr '\n' ' ')"
done
el table
python3 ladder_table.py $OUT/awk1.csv | tail -25
python3 ladder_table.py $OUT/dev1.csv
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader
el done
