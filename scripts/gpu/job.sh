#!/bin/bash
# job.sh [PROFILE...] - runs on the GPU machine from the repository root, with the
# build-gpu/ made by scripts/gpu/build.sh carried along: the GPU tests, then
# `mmbench run` for each profile (default: profiles/course.ini). Everything lands in
# $OUT/results.tar.gz (data/<gpu>/*.csv, logs); a short table is printed last.
set -u
root=$PWD
out=${OUT:-/tmp/mmb-out}
work=/tmp/mmb-results
mkdir -p "$out" "$work/logs"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=/tmp/mmb-cache
mmbench="$root/build-gpu/harness/mmbench"
cp -r "$root/data" "$work/" 2>/dev/null || mkdir -p "$work/data"   # resume what is committed

{ nvidia-smi; nvidia-smi -q -d CLOCK; } >"$work/logs/nvidia-smi.txt" 2>&1
"$mmbench" devices 2>&1 | tee "$work/logs/devices.txt"

for t in build-gpu/tests/test_*; do
    [ -x "$t" ] || continue
    start=$(date +%s%N)
    "$t" >"$work/logs/$(basename "$t").log" 2>&1
    rc=$?
    printf '%-22s rc=%-3d %6ds\n' "$(basename "$t")" "$rc" "$(( ($(date +%s%N) - start) / 1000000000 ))" \
        | tee -a "$work/logs/tests.txt"
done

profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(profiles/course.ini)
for p in "${profiles[@]}"; do
    start=$(date +%s%N)
    "$mmbench" run --data-dir "$work/data" "$p" >"$work/logs/run-$(basename "$p" .ini).log" 2>&1
    rc=$?
    printf 'run %-30s rc=%-3d %6ds\n' "$p" "$rc" "$(( ($(date +%s%N) - start) / 1000000000 ))" \
        | tee -a "$work/logs/runs.txt"
    tail -n 12 "$work/logs/run-$(basename "$p" .ini).log"
done
tar -C "$work" -czf "$out/results.tar.gz" data logs
echo "results: $(du -h "$out/results.tar.gz" | cut -f1)"
