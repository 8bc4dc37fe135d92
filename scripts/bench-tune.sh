#!/bin/bash
# bench-tune.sh [MMBENCH] - on the GPU machine, from the repository root: tunes seed
# 002's whole space (profiles/tune-seed.ini, kernel tunable, 288 configurations, 44
# allowed) at 4096 twice, first with an empty cubin cache (every configuration goes
# through NVRTC on the worker threads) and then with the cache it filled (nothing
# compiles), each into a fresh CSV so that both measure everything. The second pass
# also tunes seed 000's naive kernel and is the one kept: data/<gpu>/tune-seed.csv
# and its T4 files. Prints wall time, the measure / compile split of both passes and
# the best configuration against cuBLAS. Everything lands in $OUT/bench-tune.tar.gz.
#   MMBENCH      default build-gpu/harness/mmbench (scripts/gpu/build.sh), else build/
#   MMB_TUNE_ARGS  extra options for both passes, e.g. "--no-counters" or "--jobs 8"
set -u
root=$PWD
out=${OUT:-/tmp/mmb-bench-tune}
work=/tmp/mmb-bench-tune-work
mmbench=${1:-}
if [ -z "$mmbench" ]; then
    mmbench=$root/build-gpu/harness/mmbench
    [ -x "$mmbench" ] || mmbench=$root/build/harness/mmbench
fi
[ -x "$mmbench" ] || { echo "bench-tune: no mmbench at $mmbench; build it first (scripts/gpu/build.sh)" >&2; exit 2; }
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
profile=profiles/tune-seed.ini
cache=$work/cubins
rm -rf "$work" && mkdir -p "$work/logs" "$work/data" "$out" || exit 1

now() { date +%s.%N; }
# pass NAME ARGS...: one tune, its log, its wall time in $work/logs/NAME.wall
pass() {
    local name=$1; shift
    local t0 t1 rc
    echo "== $name: mmbench tune $* $profile"
    t0=$(now)
    # shellcheck disable=SC2086
    "$mmbench" tune --cache-dir "$cache" ${MMB_TUNE_ARGS:-} "$@" "$profile" 2>&1 | tee "$work/logs/$name.log"
    rc=${PIPESTATUS[0]}
    t1=$(now)
    echo "$t0 $t1" | awk '{printf "%.1f\n", $2 - $1}' >"$work/logs/$name.wall"
    echo "== $name: exit $rc, $(cat "$work/logs/$name.wall") s wall"
    return "$rc"
}

{ nvidia-smi; "$mmbench" devices; } >"$work/logs/devices.txt" 2>&1
head -n 3 "$work/logs/devices.txt"
pass cold --kernel tunable --no-t4 -o "$work/cold.csv" || echo "bench-tune: the cold pass failed (see above)"
ncubins=$(find "$cache" -name '*.cubin' 2>/dev/null | wc -l)
echo "== the cold pass left $ncubins cubins in $cache"
pass warm --data-dir "$work/data" || echo "bench-tune: the warm pass failed (see above)"

# The tunable kernel's line of each pass: wall (whole command), then the tuner's split.
field() { sed -n "s/.*timing kernel=tunable .* $1=\([^ ]*\).*/\1/p" "$work/logs/$2.log" | head -n 1; }
{
    echo
    echo "seed 002 space (tunable) at 4096x4096x4096, $(sed -n 's/^.*mmbench tune: tune-seed on \(.*\) (sm_.*/\1/p' "$work/logs/warm.log" | head -n 1)"
    printf '%-6s %9s %10s %10s %12s %9s %11s %9s\n' pass wall_s tune_s measure_s wait_comp_s nvrtc_s compiled cache_hits
    for p in cold warm; do
        printf '%-6s %9s %10s %10s %12s %9s %11s %9s\n' "$p" "$(cat "$work/logs/$p.wall" 2>/dev/null)" \
            "$(field wall_s $p)" "$(field measure_s $p)" "$(field wait_s $p)" "$(field nvrtc_s $p)" \
            "$(field compiled $p)" "$(field cache_hits $p)"
    done
    echo "(wall_s: the whole command, cuBLAS and setup included; tune_s: the search of tunable;"
    echo " wait_comp_s: the GPU idle waiting for NVRTC; nvrtc_s: NVRTC time summed over the worker threads)"
    echo
    echo "best configurations (warm pass):"
    grep -E '^[a-z_]+ @ |^  best: ' "$work/logs/warm.log"
    echo
    echo "published in the seeds (GeForce GTX TITAN X, 4096x4096x4096 f32):"
    echo "  seed 000 naive: best of its table block_size_x=16, block_size_y=32, 501.997 ms (274 GFLOP/s);"
    echo "  seed 000 shared-memory tiles: block_size_x=block_size_y=32, 183.317 ms (750 GFLOP/s)"
} | tee "$work/logs/summary.txt"

tar -C "$work" -czf "$out/bench-tune.tar.gz" data logs cold.csv 2>/dev/null ||
    tar -C "$work" -czf "$out/bench-tune.tar.gz" data logs
echo "bench-tune: $out/bench-tune.tar.gz (data/<gpu>/tune-seed.csv, T4 files, logs/)"
