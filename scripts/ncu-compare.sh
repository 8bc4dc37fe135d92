#!/bin/bash
# ncu-compare.sh MMBENCH OUTDIR [PROFILE] - mmbench's CUPTI counters beside Nsight
# Compute's for the same launches of PROFILE (default profiles/ncu-check.ini, the seed
# kernels at 1024 and 4096; profiles/ncu-tensor.ini for the tensor pipe's counters;
# a profile of source kernels named matmul_*, no library kernel):
#   compare.txt                cold: mmbench (L2 flushed in each pass) against
#                              `ncu --clock-control none --cache-control all`;
#   compare-hot.txt            hot: mmbench's hot passes against `ncu --cache-control
#                              none --replay-mode application`, whose passes each rerun
#                              the program, so the timed launch follows the verifying
#                              launch of the same kernel, as in mmbench's hot passes;
#   compare-kernel-replay.txt  cold, mmbench with CUPTI's kernel replay instead of
#                              its user replay (MMB_CUPTI_REPLAY=kernel).
# Each prints both values and their difference (scripts/ncu_compare.py), then the
# L1, shared-memory, L2 and DRAM roofs that `mmbench report` draws in its hierarchical roofline.
# NCU_COMPARE_MODES (default "cold hot kernel-replay") picks which of the three run.
# Needs a GPU and ncu on the PATH.
set -euo pipefail
mmbench=$1
out=$2
profile=${3:-profiles/ncu-check.ini}
mkdir -p "$out"
here=$(dirname "$0")
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__bytes.sum.per_second
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_sector_hit_rate.pct
# the Speed-of-Light memory levels mmbench reads since issue 12
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__t_bytes.sum,lts__t_bytes.sum
# the roofs of the hierarchical roofline, as ncu's own roofline section computes them
# (bytes per cycle at peak x cycles per second); ncu_compare.py prints them as "roof" lines
metrics+=,l1tex__t_bytes.sum.peak_sustained,l1tex__cycles_elapsed.avg.per_second
metrics+=,lts__t_bytes.sum.peak_sustained,lts__cycles_elapsed.avg.per_second
metrics+=,dram__bytes.sum.peak_sustained,dram__cycles_elapsed.avg.per_second
# the tensor pipes: utilisation (every tensor pipe's active cycles) and warp instructions
metrics+=,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor.sum
# the SM's issue rate, shared-memory wavefronts (and their peak: the shared-memory roof) and
# the warp-stall reasons (ncu's Warp State Statistics), as scripts/ncu_compare.py pairs them
metrics+=,sm__inst_issued.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained
metrics+=,smsp__average_warp_latency_per_inst_issued.ratio
for reason in long_scoreboard short_scoreboard mio_throttle barrier math_pipe_throttle not_selected wait lg_throttle; do
    metrics+=,smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio
done
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
modes=" ${NCU_COMPARE_MODES:-cold hot kernel-replay} "
want() { [[ "$modes" == *" $1 "* ]]; }

# The profile with hot L2, its kernel sources found from anywhere.
sed -e 's/^cache = cold/cache = hot/' -e "s|\.\./kernels/|$PWD/kernels/|" "$profile" \
    >"$out/ncu-check-hot.ini"
rm -f "$out"/mmbench*.csv "$out"/ncu-run*.csv
if want cold || want kernel-replay; then
    "$mmbench" run -o "$out/mmbench.csv" "$profile" >"$out/mmbench.log" 2>&1
fi
if want hot; then
    "$mmbench" run -o "$out/mmbench-hot.csv" "$out/ncu-check-hot.ini" >"$out/mmbench-hot.log" 2>&1
fi
if want kernel-replay; then
    MMB_CUPTI_REPLAY=kernel "$mmbench" run -o "$out/mmbench-kernel-replay.csv" "$profile" \
        >"$out/mmbench-kernel-replay.log" 2>&1
fi

# Under ncu, mmbench's own counters are off, and with warm-up 0 and one repeat each
# configuration launches its kernel once when cold (the verifying launch is timed) and
# twice when hot (verify, time): ncu_compare.py takes the last.
if want cold || want kernel-replay; then
    "$ncu" --clock-control none --cache-control all --kernel-name regex:'^matmul_' \
        --metrics "$metrics" --csv --page raw --print-units base \
        "$mmbench" run --no-counters --repeats 1 --warmup 0 -o "$out/ncu-run.csv" "$profile" \
        >"$out/ncu.csv" 2>"$out/ncu.log"
fi
# Application replay runs the program once per pass: each run needs a fresh CSV, or
# the second would resume the first and launch nothing.
if want hot; then
    "$ncu" --replay-mode application --clock-control none --cache-control none --kernel-name regex:'^matmul_' \
        --metrics "$metrics" --csv --page raw --print-units base \
        sh -c "exec '$mmbench' run --no-counters --repeats 1 --warmup 0 -o \$(mktemp -u /tmp/ncu-hot.XXXXXX.csv) '$out/ncu-check-hot.ini'" \
        >"$out/ncu-hot.csv" 2>"$out/ncu-hot.log"
fi

want cold && python3 "$here/ncu_compare.py" "$out/mmbench.csv" "$out/ncu.csv" >"$out/compare.txt"
want hot && python3 "$here/ncu_compare.py" "$out/mmbench-hot.csv" "$out/ncu-hot.csv" >"$out/compare-hot.txt"
want kernel-replay &&
    python3 "$here/ncu_compare.py" "$out/mmbench-kernel-replay.csv" "$out/ncu.csv" >"$out/compare-kernel-replay.txt"
for f in compare compare-hot compare-kernel-replay; do
    [ -f "$out/$f.txt" ] || continue
    echo "== $f"
    tail -n 8 "$out/$f.txt"
done
