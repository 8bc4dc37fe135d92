#!/bin/bash
# run2: awkward correctness of the new candidates, timing of all, ncu of cuBLAS and three of ours, sanitizers
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64 PATH=$PATH:/usr/local/cuda/bin
mkdir -p /tmp/c && cp -r cache/. /tmp/c/ && export MMB_CACHE_DIR=/tmp/c
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for p in dev2a:90 dev2b:70 awk2a:25 awk2b:20; do el ${p%:*}; timeout ${p#*:} ./mmbench run --no-counters -o $OUT/${p%:*}.csv profiles/${p%:*}.ini > /tmp/${p%:*}.log 2>&1; echo "rc=$?"; done
cat /tmp/awk2a.log /tmp/awk2b.log /tmp/dev2a.log /tmp/dev2b.log > $OUT/runs.log
el "ncu ($NCU)"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats"
MET="--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.avg,sm__cycles_elapsed.avg"
{ timeout 40 $NCU --clock-control none --kernel-name regex:gemm --launch-count 1 $S $MET ./mmbench run --no-counters -o /tmp/n1.csv profiles/ncu1.ini 2>&1 | grep -v "^mmbench\|^  ok\|rows written"; } > $OUT/ncu.txt
{ timeout 45 $NCU --clock-control none --kernel-name matmul_ladder_pipelined --launch-count 5 $S $MET ./mmbench run --no-counters -o /tmp/n2.csv profiles/ncu2.ini 2>&1 | grep -v "^mmbench\|^  ok\|rows written"; } >> $OUT/ncu.txt
el san
for tool in memcheck racecheck synccheck; do
  s=$(date +%s); timeout 15 compute-sanitizer --tool $tool --kernel-name kns=matmul_ladder_pipelined --error-exitcode 99 \
    ./mmbench run --no-counters -o /tmp/san-$tool.csv profiles/san2.ini > /tmp/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - s ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san-$tool.log | tr '\n' ' ')"
done
cat /tmp/san-*.log > $OUT/san.log
el table
python3 ladder_table.py $OUT/awk2a.csv $OUT/awk2b.csv | grep -E "^rows|NOT OK" | head
python3 ladder_table.py $OUT/dev2a.csv $OUT/dev2b.csv > $OUT/table.txt
grep -E "^[0-9]|s0[3-7]|^  (v09|w0|v1[0-5]|cublas)" $OUT/table.txt | cut -c1-64
grep -E "Kernel Name|regex|matmul|gemm|Block Size|Grid Size|Registers Per|Shared Memory Config|Achieved Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|FMA|wavefronts|inst_executed|cycles_active|Compute \(SM\)|L1/TEX Cache Throughput|Stall" $OUT/ncu.txt | cut -c1-110 | head -90
el done
