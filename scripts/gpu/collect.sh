#!/bin/bash
# collect.sh DIR - here, after a GPU run: DIR holds the unpacked results.tar.gz of
# scripts/gpu/job.sh and, when run, bench-tune.tar.gz of scripts/bench-tune.sh (or the
# $OUT of scripts/bench-vs-kt.sh, whose data/<gpu>/bench/speed.csv it takes). Copies
# the CSVs and T4 files into data/<gpu>/ and the logs that back the README's numbers
# into data/<gpu>/bench/ under their committed names. Run from the repository root.
set -euo pipefail
dir=$1
logs=$dir/logs
shopt -s nullglob
copy() { [ -f "$1" ] && cp "$1" "$2"; return 0; }
for d in "$dir"/data/*/; do
    slug=$(basename "$d")
    dest=data/$slug
    mkdir -p "$dest/bench"
    for f in "$d"*.csv "$d"*.json; do cp "$f" "$dest/"; done
    copy "$logs/ncu/compare.txt" "$dest/bench/ncu-compare.txt"
    copy "$logs/ncu/compare-hot.txt" "$dest/bench/ncu-compare-hot.txt"
    copy "$logs/ncu/compare-kernel-replay.txt" "$dest/bench/ncu-compare-kernel-replay.txt"
    copy "$logs/dram-probe.log" "$dest/bench/dram-probe.txt"
    copy "$logs/l2-state.log" "$dest/bench/l2-state.txt"
    copy "$d/bench/speed.csv" "$dest/bench/speed.csv" # scripts/bench-vs-kt.sh's, with DIR its $OUT
    # `mmbench devices` alone (bench-tune.sh writes nvidia-smi before it)
    [ -f "$logs/devices.txt" ] && sed -n '/^#   name/,$p' "$logs/devices.txt" >"$dest/bench/devices.txt"
    if [ -f "$logs/steps.txt" ]; then
        cp "$logs/steps.txt" "$dest/bench/job-steps.txt"
        grep '^test_' "$logs/steps.txt" >"$dest/bench/gpu-tests.txt" || true
    fi
    if [ -f "$logs/summary.txt" ]; then
        cat "$logs/cold.log" "$logs/warm.log" "$logs/summary.txt" >"$dest/bench/bench-tune.txt"
    fi
    echo "collect: $dest"
done
