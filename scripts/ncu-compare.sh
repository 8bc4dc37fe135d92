#!/bin/bash
# ncu-compare.sh MMBENCH OUTDIR [--app-replay] - runs profiles/ncu-check.ini twice: through mmbench
# with its CUPTI counters, and through `ncu --clock-control none --cache-control all`
# (cold L2, as the profile's cache mode) with mmbench's counters off, then prints the
# two side by side (scripts/ncu_compare.py). Needs a GPU and ncu on the PATH.
set -euo pipefail
mmbench=$1
out=$2
app_replay=${3:-}
mkdir -p "$out"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__bytes.sum.per_second
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,lts__t_sector_hit_rate.pct
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)

rm -f "$out/mmbench.csv"
"$mmbench" run -o "$out/mmbench.csv" profiles/ncu-check.ini >"$out/mmbench.log" 2>&1
# Only the kernels under test, and only their timed launches matter: with warm-up 0
# and one repeat each configuration launches its kernel twice (verify, time).
rm -f "$out/ncu-run.csv"
"$ncu" --clock-control none --cache-control all --kernel-name regex:'^matmul_' \
    --metrics "$metrics" --csv --page raw \
    "$mmbench" run --no-counters --repeats 1 --warmup 0 -o "$out/ncu-run.csv" profiles/ncu-check.ini \
    >"$out/ncu.csv" 2>"$out/ncu.log"
python3 "$(dirname "$0")/ncu_compare.py" "$out/mmbench.csv" "$out/ncu.csv" | tee "$out/compare.txt"
if [ "$app_replay" = --app-replay ]; then
    # ncu's application replay: the whole program once per pass, no memory save and
    # restore around the kernel. Each run writes a fresh CSV, or the second would
    # resume the first and launch nothing.
    "$ncu" --replay-mode application --clock-control none --cache-control all --kernel-name regex:'^matmul_' \
        --metrics "$metrics" --csv --page raw \
        sh -c "exec '$mmbench' run --no-counters --repeats 1 --warmup 0 -o \$(mktemp -u /tmp/ncu-app.XXXXXX.csv) profiles/ncu-check.ini" \
        >"$out/ncu-app.csv" 2>"$out/ncu-app.log"
    python3 "$(dirname "$0")/ncu_compare.py" "$out/mmbench.csv" "$out/ncu-app.csv" >"$out/compare-ncu-app-replay.txt"
    tail -n 9 "$out/compare-ncu-app-replay.txt"
    exit 0
fi
# Other ways to empty L2 before each cold pass (MMB_L2_SWEEP, harness/cupti.c), to see
# which state matches what ncu's --cache-control all leaves.
for sweep in ${MMB_SWEEPS:-read:8 read:8:keep store:2 store:8:keep write+read:8 none}; do
    tag=${sweep//[:+]/-}
    rm -f "$out/mmbench-$tag.csv"
    MMB_L2_SWEEP=$sweep "$mmbench" run -o "$out/mmbench-$tag.csv" profiles/ncu-check.ini >"$out/mmbench-$tag.log" 2>&1
    python3 "$(dirname "$0")/ncu_compare.py" "$out/mmbench-$tag.csv" "$out/ncu.csv" >"$out/compare-$tag.txt"
done
# The same with CUPTI's kernel replay instead of mmbench's user replay, to see what
# the replay mode does to the cache-sensitive counters.
rm -f "$out/mmbench-kernel-replay.csv"
MMB_CUPTI_REPLAY=kernel "$mmbench" run -o "$out/mmbench-kernel-replay.csv" profiles/ncu-check.ini \
    >"$out/mmbench-kernel-replay.log" 2>&1
python3 "$(dirname "$0")/ncu_compare.py" "$out/mmbench-kernel-replay.csv" "$out/ncu.csv" \
    >"$out/compare-kernel-replay.txt"
# Hot L2: mmbench's hot passes (each after a launch of the same kernel) against
# `ncu --cache-control none` on the timed launch, which follows the verifying one.
sed 's/^cache = cold/cache = hot/' profiles/ncu-check.ini >"$out/ncu-check-hot.ini"
sed -i "s|\.\./kernels/|$PWD/kernels/|" "$out/ncu-check-hot.ini"
rm -f "$out/mmbench-hot.csv" "$out/ncu-run-hot.csv"
"$mmbench" run -o "$out/mmbench-hot.csv" "$out/ncu-check-hot.ini" >"$out/mmbench-hot.log" 2>&1
"$ncu" --clock-control none --cache-control none --kernel-name regex:'^matmul_' \
    --metrics "$metrics" --csv --page raw \
    "$mmbench" run --no-counters --repeats 1 --warmup 0 -o "$out/ncu-run-hot.csv" "$out/ncu-check-hot.ini" \
    >"$out/ncu-hot.csv" 2>"$out/ncu-hot.log"
python3 "$(dirname "$0")/ncu_compare.py" "$out/mmbench-hot.csv" "$out/ncu-hot.csv" >"$out/compare-hot.txt"
