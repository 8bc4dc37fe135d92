#!/bin/bash
# final run: the committed ladder check, then (time permitting) ncu stall reasons of the best 09 and cuBLAS
cd "$(dirname "$0")"
t0=$(date +%s)
mkdir -p /tmp/c && cp -r cache/. /tmp/c/
MMB_CACHE_DIR=/tmp/c LADDER_SECONDS=305 scripts/gpu/ladder-check.sh
el=$(( $(date +%s) - t0 )); echo "ladder-check: ${el}s"
if [ $el -lt 315 ]; then
  export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64 PATH=$PATH:/usr/local/cuda/bin MMB_CACHE_DIR=/tmp/c
  printf '[profile]\nname = ncu3\nsizes = 4096\ndtypes = f32\nrepeats = 1\nwarmup = 0\ncache = hot\nmetrics = none\n\n' > /tmp/ncu3.ini
  sed -n '/^\[kernel 09_interleaved\]/,/^smem/p' profiles/ladder.ini | sed "s|^source = \.\./|source = $PWD/|" >> /tmp/ncu3.ini
  printf 'restrict = block_m * block_n >= 16384 && block_n <= 128 && spread == 1\n\n[kernel cublas]\nlibrary = cublas\n' >> /tmp/ncu3.ini
  timeout $(( 340 - el )) ncu --clock-control none --kernel-name regex:'gemm|matmul_ladder' --launch-skip 0 --launch-count 6 \
    --metrics regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio',smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active \
    build-gpu/harness/mmbench run --no-counters -o /tmp/n3.csv /tmp/ncu3.ini > $OUT/ncu-stalls.txt 2>&1
  echo "ncu rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^  [a-z_]+.*\(|issue_stalled_(barrier|short_scoreboard|long_scoreboard|mio_throttle|not_selected|wait|math_pipe|dispatch|no_instruction|lg_throttle|selected)_per|issue_active" $OUT/ncu-stalls.txt | cut -c1-120 | head -80
fi
